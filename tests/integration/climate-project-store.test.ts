// Stored climate projects (v1/climate-projects/, issue 89 item 1) on the in-process API: a project names
// its devices' meters by their codes in the facility's register, each of the kind its channel takes and
// each that its device's kind needs; it is versioned, in the company's change log, and another
// company's id is 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { createHarness, type Harness } from "../support/harness";
import { signIn } from "../support/admin";

let h: Harness;
let staff: { token: string; companyId: string };
let other: string;
let facility: string;
let point: string;

const METHODOLOGY = {
  code: "CDM-ACM0008",
  name: "ACM0008: Abatement of methane from coal mines",
  version: "08.0",
  source: "UNFCCC CDM, копия исполнителя",
  tools: [{ code: "TOOL06", name: "Project emissions from flaring", version: "04.0" }],
};

async function created(res: Response) {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

const projects = (token: string, path = "", init: { method?: string; json?: unknown } = {}) =>
  h.request(`/api/v1/climate-projects/${path}`, { token, ...init });

const flare = () => ({ point, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-1", c: "C-1", flame: "FL-1" } });
const body = (devices: unknown[] = [flare()]) => ({
  name: "Факельная установка",
  facility,
  start: "2026-06-01",
  methodology: METHODOLOGY,
  devices,
});

beforeAll(async () => {
  h = await createHarness();
  staff = await h.signedInUser("Компания климата");
  other = (await h.signedInUser("Другая компания")).token;
  facility = String(
    (
      await created(
        await h.request("/api/v1/facilities/", {
          method: "POST",
          token: staff.token,
          json: { name: "Шахта Северная", kind: "underground_mine" },
        }),
      )
    ).id,
  );
  point = String(
    (
      await created(
        await h.request(`/api/v1/facilities/${facility}/points/`, {
          method: "POST",
          token: staff.token,
          json: { name: "Дегазационная станция", kind: "drainage_station", instrument: "АГК" },
        }),
      )
    ).id,
  );
  for (const [code, kind] of [
    ["Q-1", "flow"],
    ["C-1", "methane_high"],
    ["FL-1", "flame"],
    ["TEG-1", "exhaust_temperature"],
    ["RUN-1", "run_status"],
    ["EL-1", "electricity"],
    ["EL-OWN", "electricity"],
  ]) {
    await created(
      await h.request(`/api/v1/facilities/${facility}/sensors/`, { method: "POST", token: staff.token, json: { code, kind, point } }),
    );
  }
});
afterAll(() => h.close());

describe("v1/climate-projects/", () => {
  it("stores a project with its monitoring plan, lists it, reads it and changes it by version", async () => {
    const engine = { point, kind: "engine", flow_basis: "standard_20C", sensors: { q: "Q-1", c: "C-1", run: "RUN-1", e_gen: "EL-1" } };
    const project = await created(
      await projects(staff.token, "", { method: "POST", json: { ...body([flare(), engine]), e_own_sensor: "EL-OWN" } }),
    );
    expect(project).toMatchObject({ version: 1, end: null, rules_version: "2026.7", e_own_sensor: "EL-OWN", archived: false });
    expect((project.devices as { name: string; eta_option: unknown; sensors: Record<string, unknown> }[]).map((d) => d.name)).toEqual([
      "Открытый факел 1",
      "Газопоршневая установка 1",
    ]);
    expect((project.devices as { sensors: Record<string, unknown> }[])[0].sensors).toMatchObject({ q: "Q-1", flame: "FL-1", t_eg: null });

    const list = (await (await projects(staff.token)).json()) as { count: number; results: Record<string, unknown>[] };
    expect(list.results.find((p) => p.id === project.id)).toMatchObject({ facility_name: "Шахта Северная", devices: 2, version: 1 });
    expect((await (await projects(staff.token, `${project.id}/`)).json()) as unknown).toEqual(project);

    const changed = await projects(staff.token, `${project.id}/`, { method: "PATCH", json: { end: "2033-05-31", version: 1 } });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await changed.json()).toMatchObject({ end: "2033-05-31", version: 2, name: "Факельная установка" });
    const stale = await projects(staff.token, `${project.id}/`, { method: "PATCH", json: { name: "Другое", version: 1 } });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { detail: string }).detail).toMatch(/изменен другим пользователем/);
  });

  it("refuses a plan without a meter the device needs, with a meter of another kind or unknown, naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ ...flare(), sensors: { q: "Q-1", c: "C-1" } }, "devices[0].sensors.flame: укажите датчик: датчик пламени"],
      [
        { ...flare(), sensors: { q: "C-1", c: "C-1", flame: "FL-1" } },
        "devices[0].sensors.q: датчик «C-1» — «Метан высоких концентраций (0–100 %)», нужен «Расход газовой смеси»",
      ],
      [
        { ...flare(), sensors: { q: "Q-9", c: "C-1", flame: "FL-1" } },
        "devices[0].sensors.q: датчика «Q-9» нет в реестре площадки «Шахта Северная»",
      ],
      [
        { ...flare(), kind: "flare_enclosed", sensors: { q: "Q-1", c: "C-1" } },
        "devices[0].sensors.t_eg: укажите датчик: температура отходящих газов",
      ],
      [{ ...flare(), flow_basis: "actual" }, "devices[0].sensors.p: укажите датчик: давление газа"],
      [{ ...flare(), eta_option: "measured" }, "devices[0].eta_option: вариант КПД задают только закрытому факелу"],
      [{ ...flare(), point: "nope" }, "devices[0].point: источник выбросов не найден на площадке"],
    ];
    for (const [device, detail] of cases) {
      const res = await projects(staff.token, "", { method: "POST", json: body([device]) });
      expect(res.status, detail).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(detail);
    }
    const unknownChannel = await projects(staff.token, "", {
      method: "POST",
      json: body([{ ...flare(), sensors: { ...flare().sensors, x: "Q-1" } }]),
    });
    expect(unknownChannel.status).toBe(400);
    const backwards = await projects(staff.token, "", { method: "POST", json: { ...body(), end: "2026-01-01" } });
    expect(((await backwards.json()) as { detail: string }).detail).toMatch(/^end: окончание раньше начала/);
  });

  it("answers another company 404 for a project's id, reading or changing, and lists none of it", async () => {
    const project = await created(await projects(staff.token, "", { method: "POST", json: body() }));
    expect((await projects(other, `${project.id}/`)).status).toBe(404);
    const patch = await projects(other, `${project.id}/`, { method: "PATCH", json: { name: "Взлом", version: 1 } });
    expect(patch.status).toBe(404);
    expect(((await patch.json()) as { detail: string }).detail).toBe("Климатический проект не найден");
    expect(((await (await projects(other)).json()) as { count: number }).count).toBe(0);
    // Nor may another company's facility hold one of its projects.
    const theirs = await projects(other, "", { method: "POST", json: body() });
    expect(theirs.status).toBe(400);
    expect(((await theirs.json()) as { detail: string }).detail).toBe("facility: площадка не найдена");
  });

  it("writes each create and change to the company's change log, its plan by sensor codes", async () => {
    const email = "reviewer-climate@example.test";
    await createUser(h.deps, { companyId: staff.companyId, email, password: "reviewer-password", role: "reviewer" });
    const reviewer = ((await (await signIn(h, email, "reviewer-password")).json()) as { access: string }).access;
    const project = await created(await projects(staff.token, "", { method: "POST", json: { ...body(), name: "Проект для журнала" } }));
    await projects(staff.token, `${project.id}/`, { method: "PATCH", json: { archived: true, version: 1 } });
    const log = (await (await h.request("/api/v1/users/company/audit/?limit=50&offset=0", { token: reviewer })).json()) as {
      results: {
        target_type: string;
        target_label: string;
        created: boolean;
        changes: { label: string; before: string; after: string }[];
      }[];
    };
    const entries = log.results.filter((e) => e.target_type === "climate_project" && e.target_label === "Проект для журнала");
    expect(entries.map((e) => e.created)).toEqual([false, true]);
    expect(entries[0].changes).toEqual([{ field: "archived", label: "В архиве", before: "нет", after: "да" }]);
    expect(entries[1].changes.find((c) => c.label === "Устройства и датчики")?.after).toBe("Открытый факел 1: q Q-1, c C-1, flame FL-1");
  });
});
