// D25: a facility's emission points through the API (list, add, one, edit, archive), facilities
// archived the same way, and an installation stored before points migrated on start: every
// facility gets «Шахта в целом», its measured and destruction calculations name it, and the
// figures of every stored year, the checks and an approved version stay exactly as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { createUser } from "@server/domain/company/users";
import { migrateEmissionPoints, POINTS_MIGRATION } from "@server/domain/company/emission-points-migration";
import * as keys from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE } from "@server/local/storage";
import { requisitesChange } from "@server/domain/company/requisites-audit";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let staff: string;
let other: string;
let companyId: string;
let facility: { id: string; version: number };

type Point = { id: string; name: string; kind: string; instrument: string; frequency: string; is_active: boolean; version: number };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const patch = (path: string, body: unknown, token = staff) => h.request(path, { method: "PATCH", token, json: body });
const get = (path: string, token = staff) => h.request(path, { token });

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Точки»");
  staff = a.token;
  companyId = a.companyId;
  ({ token: other } = await h.signedInUser("ООО «Чужая»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Польская»", kind: "underground_mine" }), 201);
});
afterAll(() => h.close());

describe("a facility's emission points", () => {
  let shaft: Point;

  it("start empty for a new facility, are added with their instrument and frequency and listed by name", async () => {
    expect(await json(await get(`/api/v1/facilities/${facility.id}/points/`), 200)).toEqual([]);
    shaft = await json<Point>(
      await post(`/api/v1/facilities/${facility.id}/points/`, {
        name: "Вентиляционный ствол № 2",
        kind: "ventilation_shaft",
        instrument: "Анемометр АПР-2, метанометр ИТС2",
        frequency: "непрерывно",
        in_service_from: "1998-03-01",
      }),
      201,
    );
    expect(shaft).toMatchObject({
      facility: facility.id,
      kind: "ventilation_shaft",
      instrument: "Анемометр АПР-2, метанометр ИТС2",
      frequency: "непрерывно",
      in_service_from: "1998-03-01",
      in_service_to: null,
      is_active: true,
      version: 1,
    });
    await json(await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Дегазационная установка", kind: "drainage_station" }), 201);
    const listed = await json<Point[]>(await get(`/api/v1/facilities/${facility.id}/points/`), 200);
    expect(listed.map((p) => p.name)).toEqual(["Вентиляционный ствол № 2", "Дегазационная установка"]);
    expect(await json(await get(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`), 200)).toEqual(shaft);
  });

  it("refuses a point without a name or kind, with an unknown kind, a second point of one name or dates out of order (400 naming the field)", async () => {
    const refused = async (body: unknown, field: string) => {
      const res = await post(`/api/v1/facilities/${facility.id}/points/`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toContain(fieldName(field));
    };
    await refused({ kind: "flare" }, "name");
    await refused({ name: "Факел" }, "kind");
    await refused({ name: "Факел", kind: "chimney" }, "kind");
    await refused({ name: "вентиляционный ствол № 2", kind: "other" }, "name");
    await refused({ name: "Факел", kind: "flare", in_service_from: "2024-05-01", in_service_to: "2024-04-30" }, "in_service_to");
    await refused({ name: "Факел", kind: "flare", in_service_from: "2024-02-30" }, "in_service_from");
  });

  it("are edited with their version (a stale one 409) and archived and restored by is_active", async () => {
    const edited = await json<Point>(
      await patch(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`, { frequency: "ежесуточно", version: shaft.version }),
      200,
    );
    expect(edited).toMatchObject({ frequency: "ежесуточно", instrument: shaft.instrument, version: 2 });
    expect((await patch(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`, { name: "Ствол", version: 1 })).status).toBe(409);
    const archived = await json<Point>(
      await patch(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`, { is_active: false, version: 2 }),
      200,
    );
    expect(archived.is_active).toBe(false);
    // Archived, it keeps its place in the list (its history stays).
    expect((await json<Point[]>(await get(`/api/v1/facilities/${facility.id}/points/`), 200)).find((p) => p.id === shaft.id)).toMatchObject(
      {
        is_active: false,
      },
    );
    shaft = await json<Point>(await patch(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`, { is_active: true, version: 3 }), 200);
    expect(shaft.is_active).toBe(true);
  });

  it("refuse a field a point does not have (400 naming it), as a project's PATCH does, and stay as they were", async () => {
    const res = await patch(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`, {
      name: "Ствол 2",
      colour: "red",
      version: shaft.version,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      detail: "colour: такого поля нет у источника выбросов",
      errors: [{ field: "colour", code: "unrecognized_keys", message: "такого поля нет у источника выбросов", params: {} }],
    });
    expect(await json(await get(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`), 200)).toEqual(shaft);
  });

  it("are in the company's change log, each change with what it changed, as a facility's", async () => {
    const log = async () =>
      (await h.deps.repos.adminAudit.listCompany(companyId, { limit: 100, offset: 0 })).results
        .map(requisitesChange)
        .filter((entry) => entry.target_type === "point");
    const mine = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Шахта «Журнальная»", kind: "underground_mine" }),
      201,
    );
    const flare = await json<Point>(await post(`/api/v1/facilities/${mine.id}/points/`, { name: "Факел № 3", kind: "flare" }), 201);
    await json(
      await patch(`/api/v1/facilities/${mine.id}/points/${flare.id}/`, { instrument: "ДРГ.М-2500", is_active: false, version: 1 }),
      200,
    );
    const [edited, created] = (await log()).filter((entry) => entry.target_label === "Факел № 3 (Шахта «Журнальная»)");
    expect(created).toMatchObject({
      created: true,
      changes: expect.arrayContaining([{ field: "kind", label: "Вид источника", before: "", after: "Факельная установка" }]),
    });
    expect(edited).toMatchObject({
      created: false,
      changes: [
        { field: "instrument", label: "Средство измерений", before: "", after: "ДРГ.М-2500" },
        { field: "is_active", label: "Источник действует", before: "да", after: "нет" },
      ],
    });
  });

  it("are at most 200 a facility, however many are created at once", async () => {
    const mine = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Шахта «Многоточечная»", kind: "underground_mine" }),
      201,
    );
    const answers = await Promise.all(
      Array.from({ length: 230 }, (_, i) => post(`/api/v1/facilities/${mine.id}/points/`, { name: `Источник ${i}`, kind: "other" })),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(200);
    const refused = answers.filter((res) => res.status === 400);
    expect(refused).toHaveLength(30);
    expect(((await refused[0].json()) as { detail: string }).detail).toMatch(/^У площадки уже 200 источников выбросов/);
    expect(await json<Point[]>(await get(`/api/v1/facilities/${mine.id}/points/`), 200)).toHaveLength(200);
  }, 120_000);

  it("are another company's: 404 as for a missing facility or point, nothing of them in the answer", async () => {
    for (const res of [
      await get(`/api/v1/facilities/${facility.id}/points/`, other),
      await get(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`, other),
      await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Взлом", kind: "other" }, other),
      await patch(`/api/v1/facilities/${facility.id}/points/${shaft.id}/`, { name: "Взлом", version: shaft.version }, other),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("Вентиляционный");
    }
    expect((await get(`/api/v1/facilities/${facility.id}/points/00000000-0000-7000-8000-000000000000/`)).status).toBe(404);
  });
});

describe("an archived facility", () => {
  it("keeps its history and raises no «нет данных за … хотя за … были» for the year after", async () => {
    const mine = await json<{ id: string; version: number; is_active: boolean }>(
      await post("/api/v1/facilities/", { name: "Шахта «Закрытая»", kind: "underground_mine" }),
      201,
    );
    expect(mine.is_active).toBe(true);
    const project = await json<{ id: string }>(
      await post("/api/v1/projects/create_project/", {
        name: "Закрытая 2023",
        start_date: "2023-01-01",
        end_date: "2023-12-31",
        facility: mine.id,
      }),
      201,
    );
    await json(await post("/api/v1/underground_emission_ch4/", { name: "Добыча 2023", project: project.id, volume: 1000, ef: 18 }), 201);
    const missing = async () =>
      (await json<{ checks: Array<{ code: string; message: string }> }>(await get("/api/v1/inventory/?year=2024"), 200)).checks.filter(
        (c) => c.code === "missing_since_last_year" && c.message.includes("Закрытая"),
      );
    expect(await missing()).toHaveLength(1);
    const archived = await json<{ is_active: boolean; version: number }>(
      await patch(`/api/v1/facilities/${mine.id}/`, { is_active: false, version: mine.version }),
      200,
    );
    expect(archived).toMatchObject({ is_active: false, version: mine.version + 1 });
    expect(await missing()).toEqual([]);
    // Its past year still counts it.
    const year2023 = await json<{ facilities: Array<{ id: string; t_co2e: number }> }>(await get("/api/v1/inventory/?year=2023"), 200);
    expect(year2023.facilities.find((f) => f.id === mine.id)?.t_co2e).toBeGreaterThan(0);
  });
});

describe("an archived emission point", () => {
  it("keeps its history and raises no «нет данных за … хотя за … были» for what only it reported", async () => {
    const mine = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Шахта «Без факела»", kind: "underground_mine" }),
      201,
    );
    const point = (name: string, kind: string) =>
      post(`/api/v1/facilities/${mine.id}/points/`, { name, kind }).then((res) => json<Point>(res, 201));
    const shaft = await point("Ствол «Северный»", "ventilation_shaft");
    const flare = await point("Факел «Северный»", "flare");
    const boiler = await point("Котельная «Северная»", "boiler_engine");
    const projectOf = async (year: number) =>
      json<{ id: string }>(
        await post("/api/v1/projects/create_project/", {
          name: `Без факела ${year}`,
          start_date: `${year}-01-01`,
          end_date: `${year}-12-31`,
          facility: mine.id,
        }),
        201,
      );
    const ventilation = (project: string) =>
      post("/api/v1/underground/", {
        name: "Вентиляция",
        project,
        point: shaft.id,
        volume: 10_000,
        ef_ch4: 0.5,
        ef_co2: 0.1,
        p_ch4: 0.668,
        p_co2: 1.8393,
        basis: "gross",
      }).then((res) => json(res, 201));
    const flaring = (project: string) =>
      post("/api/v1/torch_composition/", {
        name: "Факел",
        project,
        point: flare.id,
        volume: 1_000,
        w_ch4: 60,
        w_co2: 5,
        cf: 0.0006,
        p_ch4: 0.668,
        p_co2: 1.8393,
      }).then((res) => json(res, 201));
    const burning = (project: string) =>
      post("/api/v1/disposal_co2_stat_sources/", {
        name: "Котельная",
        project,
        point: boiler.id,
        volume: 500,
        of: 1,
        dictionary_items: { get_disposal_co2_stat_sources: 8 },
      }).then((res) => json(res, 201));
    const before = (await projectOf(2025)).id;
    await ventilation(before);
    await flaring(before);
    await burning(before);
    const after = (await projectOf(2026)).id;
    await ventilation(after);
    const missing = async () =>
      (await json<{ checks: Array<{ code: string; message: string }> }>(await get("/api/v1/inventory/?year=2026"), 200)).checks
        .filter((c) => c.code === "missing_since_last_year" && c.message.includes("Без факела"))
        .map((c) => c.message);
    const flaredLine = (m: string) => m.includes("«Сжигание в факелах»");
    const missingNow = await missing();
    expect(missingNow.filter(flaredLine)).not.toEqual([]);
    expect(missingNow.filter((m) => !flaredLine(m))).not.toEqual([]);
    // The flare taken down: archived, it asks for nothing; the boiler still in service still does.
    await json(await patch(`/api/v1/facilities/${mine.id}/points/${flare.id}/`, { is_active: false, version: flare.version }), 200);
    const missingLater = await missing();
    expect(missingLater.filter(flaredLine)).toEqual([]);
    expect(missingLater).toEqual(missingNow.filter((m) => !flaredLine(m)));
    // Its past year still counts it.
    const year2025 = await json<{ categories: Array<{ category: number; ipcc_code: string }> }>(
      await get("/api/v1/inventory/?year=2025"),
      200,
    );
    expect(year2025.categories.filter((c) => c.category === 2).map((c) => c.ipcc_code)).toContain("1.B.1.a.i.4");
  });
});

describe("a project moved to another facility while a calculation names a point", () => {
  it("never keeps a calculation on one facility's point in a project of another, however the two interleave", async () => {
    const facilityOf = async (name: string) =>
      json<{ id: string }>(await post("/api/v1/facilities/", { name, kind: "underground_mine" }), 201);
    const [first, third] = [await facilityOf("Шахта «Первая»"), await facilityOf("Шахта «Третья»")];
    const shaft = await json<Point>(
      await post(`/api/v1/facilities/${first.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" }),
      201,
    );
    let bothWon = 0;
    let calculations = 0;
    for (let run = 0; run < 25; run += 1) {
      const project = await json<{ id: string; version: number }>(
        await post("/api/v1/projects/create_project/", {
          name: `Гонка площадок ${run}`,
          start_date: "2024-01-01",
          end_date: "2024-12-31",
          facility: first.id,
        }),
        201,
      );
      const created = post("/api/v1/underground/", {
        name: "Вентиляция",
        project: project.id,
        point: shaft.id,
        volume: 10_000,
        ef_ch4: 0.5,
        ef_co2: 0.1,
        p_ch4: 0.668,
        p_co2: 1.8393,
        basis: "gross",
      });
      // The move starts a moment after the create, by a little more each run, so the two meet
      // at different steps of each other.
      await new Promise((resolve) => setTimeout(resolve, run % 6));
      const moved = patch(`/api/v1/projects/${project.id}/`, { facility: third.id, version: project.version });
      const [calculation, move] = await Promise.all([created, moved]);
      // A move that lands before the create reads the project leaves the point off the project's
      // facility: the create is then refused as any such point is.
      expect([201, 400, 409], await calculation.clone().text()).toContain(calculation.status);
      if (calculation.status === 400) {
        expect(((await calculation.clone().json()) as { detail: string }).detail).toBe(
          "Источник выбросов: источник выбросов не найден среди источников площадки проекта",
        );
      }
      expect([200, 400, 409], await move.clone().text()).toContain(move.status);
      const stored = await json<{ facility: string }>(await get(`/api/v1/projects/${project.id}/`), 200);
      if (calculation.status === 201) {
        calculations += 1;
        if (stored.facility !== first.id) bothWon += 1;
      }
    }
    expect(bothWon).toBe(0);
    expect(calculations).toBeGreaterThan(0);
  });
});

describe("a point's dates in service", () => {
  it("ask no calculation for the days it was not in service: a drainage station commissioned in July", async () => {
    const mine = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Шахта «Новая дегазация»", kind: "underground_mine" }),
      201,
    );
    const station = await json<Point>(
      await post(`/api/v1/facilities/${mine.id}/points/`, { name: "Дегазационная установка № 2", kind: "drainage_station" }),
      201,
    );
    const project = await json<{ id: string }>(
      await post("/api/v1/projects/create_project/", {
        name: "Новая дегазация 2027",
        start_date: "2027-01-01",
        end_date: "2027-12-31",
        facility: mine.id,
      }),
      201,
    );
    await json(
      await post("/api/v1/underground/", {
        name: "Дегазация с июля",
        project: project.id,
        point: station.id,
        period: { from: "2027-07-01", to: "2027-12-31" },
        volume: 1000,
        ef_ch4: 60,
        ef_co2: 2,
        p_ch4: 0.668,
        p_co2: 1.8393,
        basis: "gross",
      }),
      201,
    );
    const gaps = async () =>
      (await json<{ checks: Array<{ code: string; message: string }> }>(await get("/api/v1/inventory/?year=2027"), 200)).checks
        .filter((c) => c.code === "source_period_gap" && c.message.includes("Дегазационная установка № 2"))
        .map((c) => c.message);
    // Its dates unknown, the first half of the year is a gap.
    expect(await gaps()).toEqual([expect.stringContaining("01.01.2027–30.06.2027")]);
    await json(
      await patch(`/api/v1/facilities/${mine.id}/points/${station.id}/`, { in_service_from: "2027-07-01", version: station.version }),
      200,
    );
    expect(await gaps()).toEqual([]);
    // Taken out of service in November: December is not asked for either, but October still is.
    const shorter = await json<{ id: string; version: number }>(
      await post("/api/v1/underground/", {
        name: "Дегазация, июль–сентябрь",
        project: project.id,
        point: station.id,
        period: { from: "2027-07-01", to: "2027-09-30" },
        volume: 500,
        ef_ch4: 60,
        ef_co2: 2,
        p_ch4: 0.668,
        p_co2: 1.8393,
        basis: "gross",
      }),
      201,
    );
    expect(shorter.id).toBeTruthy();
    const rows = await json<{ results: Array<{ id: string; name: string; version: number }> }>(
      await get(`/api/v1/underground/?project=${project.id}&is_active=true&is_deleted=false&limit=10&offset=0`),
      200,
    );
    const whole = rows.results.find((r) => r.name === "Дегазация с июля")!;
    await json(await patch(`/api/v1/underground/${whole.id}/`, { is_deleted: true, version: whole.version }), 200);
    await json(
      await patch(`/api/v1/facilities/${mine.id}/points/${station.id}/`, { in_service_to: "2027-10-31", version: station.version + 1 }),
      200,
    );
    expect(await gaps()).toEqual([expect.stringContaining("01.10.2027–31.10.2027")]);
    expect((await gaps())[0]).not.toContain("12.2027");
  });
});

describe("an installation stored before emission points, migrated on start", () => {
  let old: { token: string; companyId: string };
  let reviewer: string;

  type Years = Array<{ year: number; total_t_co2e: number; by_category: Record<string, number> }>;
  type Inventory = {
    total_t_co2e: number;
    categories: unknown;
    facilities: unknown;
    balance: unknown;
    checks: Array<{ code: string; message: string }>;
  };

  async function figures() {
    const years = await json<Years>(await get("/api/v1/inventory/years/", old.token), 200);
    const byYear: Record<number, Inventory> = {};
    for (const { year } of years) {
      const { checks, balance, ...rest } = await json<Inventory>(await get(`/api/v1/inventory/?year=${year}`, old.token), 200);
      // D35: the netting by point names «Шахта в целом» once the calculations do; its figures stay.
      const unnamed = (balance as Array<{ by_point?: Array<{ point: string | null }> }>).map((b) => ({
        ...b,
        by_point: b.by_point?.map(({ point: _point, ...figures }) => figures),
      }));
      byYear[year] = { ...rest, balance: unnamed, checks: checks.map((c) => ({ code: c.code, message: c.message })) } as Inventory;
    }
    return { years, byYear };
  }

  beforeAll(async () => {
    old = await h.signedInUser("ООО «Старая установка»");
    await createUser(h.deps, { companyId: old.companyId, email: "reviewer@old.example", password: "reviewer-password", role: "reviewer" });
    reviewer = ((await (await signIn(h, "reviewer@old.example", "reviewer-password")).json()) as { access: string }).access;
    const north = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Северная", kind: "underground_mine" }, old.token),
      201,
    );
    const south = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Южная", kind: "underground_mine" }, old.token),
      201,
    );
    for (const year of [2023, 2024]) {
      for (const f of [north, south]) {
        const project = await json<{ id: string }>(
          await post(
            "/api/v1/projects/create_project/",
            {
              name: `${f.id === north.id ? "Северная" : "Южная"} ${year}`,
              start_date: `${year}-01-01`,
              end_date: `${year}-12-31`,
              facility: f.id,
            },
            old.token,
          ),
          201,
        );
        const calc = (type: string, body: Record<string, unknown>) =>
          post(`/api/v1/${type}/`, { project: project.id, ...body }, old.token).then((res) => json(res, 201));
        await calc("underground", {
          name: "Вентиляция и дегазация",
          volume: 300_000 + year,
          ef_ch4: 40,
          ef_co2: 2,
          p_ch4: 0.668,
          p_co2: 1.8393,
          basis: "gross",
        });
        await calc("torch_composition", { name: "Факел", volume: 20_000, w_ch4: 60, w_co2: 5, cf: 0.0006, p_ch4: 0.668, p_co2: 1.8393 });
        await calc("disposal_co2_stat_sources", {
          name: "Котельная",
          volume: 10_000,
          of: 1,
          dictionary_items: { get_disposal_co2_stat_sources: 8 },
        });
        await calc("handling_underground_ch4", { name: "После добычи", volume: 1_000_000, ef: 2.45, koef_transform: 0.67 });
        const archived = await json<{ id: string; version: number }>(
          await post(
            "/api/v1/underground/",
            { project: project.id, name: "Старый замер", volume: 5, ef_ch4: 1, ef_co2: 0, p_ch4: 0.668, p_co2: 1.8393 },
            old.token,
          ),
          201,
        );
        await json(await patch(`/api/v1/underground/${archived.id}/`, { is_deleted: true, version: archived.version }, old.token), 200);
      }
    }
    // A project without a facility is its own facility: it gets no point.
    const loose = await json<{ id: string }>(
      await post("/api/v1/projects/create_project/", { name: "Без площадки", start_date: "2024-01-01", end_date: "2024-12-31" }, old.token),
      201,
    );
    await json(
      await post(
        "/api/v1/underground/",
        { project: loose.id, name: "Замер без площадки", volume: 100, ef_ch4: 50, ef_co2: 0, p_ch4: 0.668, p_co2: 1.8393 },
        old.token,
      ),
      201,
    );
    // 2023 approved.
    const review = async () =>
      (await json<{ review: { version: number } }>(await get("/api/v1/inventory/?year=2023", old.token), 200)).review;
    await json(
      await post("/api/v1/inventory/2023/review/", { action: "send_to_review", version: (await review()).version }, old.token),
      200,
    );
    await json(await post("/api/v1/inventory/2023/review/", { action: "approve", version: (await review()).version }, reviewer), 200);
    // As stored before points: no mark of the migration.
    await h.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: keys.migration(old.companyId, POINTS_MIGRATION) }));
    await h.settled();
  });

  it("gives every facility «Шахта в целом» and its measured and destruction calculations, archived ones too, name it; every stored year's figures and checks stay", async () => {
    const before = await figures();
    const versionsBefore = await h.deps.repos.inventoryVersions.list(old.companyId, 2023);
    expect(await h.deps.repos.emissionPoints.listOfCompany(old.companyId)).toEqual([]);

    const reports = await migrateEmissionPoints(h.deps);
    expect(reports.find((r) => r.company === old.companyId)).toEqual({ company: old.companyId, points: 2, calculations: 16, conflicts: 0 });
    await h.settled();

    const points = await h.deps.repos.emissionPoints.listOfCompany(old.companyId);
    expect(points.map((p) => [p.name, p.kind])).toEqual([
      ["Шахта в целом", "whole_mine"],
      ["Шахта в целом", "whole_mine"],
    ]);
    const facilities = await h.deps.repos.facilities.list(old.companyId);
    const calculations = [
      ...(await h.deps.repos.calculations.listOfCompanyByTypes(old.companyId, [
        "underground",
        "torch_composition",
        "disposal_co2_stat_sources",
      ])),
    ];
    const projects = await h.deps.repos.projects.listAllOfCompany(old.companyId);
    for (const calculation of calculations) {
      const project = projects.find((p) => p.id === calculation.project)!;
      const point = points.find((p) => p.id === calculation.point);
      if (project.facility) expect(point?.facility, calculation.name).toBe(project.facility);
      else expect(calculation.point, calculation.name).toBeUndefined();
    }
    expect(facilities).toHaveLength(2);
    // Nothing else moved: no version, no figure, no check, no approved version.
    expect(calculations.every((c) => c.version <= 2)).toBe(true);
    expect(await figures()).toEqual(before);
    expect(await h.deps.repos.inventoryVersions.list(old.companyId, 2023)).toEqual(versionsBefore);
    expect(before.byYear[2023].checks.map((c) => c.code)).not.toContain("changed_after_approval");

    // Once: a second start makes nothing.
    expect((await migrateEmissionPoints(h.deps)).find((r) => r.company === old.companyId)).toBeUndefined();
    expect(await h.deps.repos.emissionPoints.listOfCompany(old.companyId)).toHaveLength(2);
  });

  it("is not run for a company made after points existed: its facilities get no point it did not make", async () => {
    expect((await migrateEmissionPoints(h.deps)).find((r) => r.company === companyId)).toBeUndefined();
    const points = await h.deps.repos.emissionPoints.listOfCompany(companyId);
    expect(points.filter((p) => p.facility === facility.id).map((p) => p.name)).toEqual([
      "Вентиляционный ствол № 2",
      "Дегазационная установка",
    ]);
    expect(points.map((p) => p.kind)).not.toContain("whole_mine");
  });
});
