// Stored climate projects (v1/climate-projects/) on the in-process API: a project names
// its devices' meters by their codes in the facility's register, each of the kind its channel takes and
// each that its device's kind needs; it is versioned, in the company's change log, and another
// company's id is 404. A monitoring period computed from the stored minutes of the plan's meters
// equals section 13.5's worked example (a): the open flare Ф-1's six hours, flame lost in one, a flow
// gap in another — 15,588375 t CO2-eq, 15 carbon units.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { kickReadings } from "@server/domain/monitoring/minutes/consumer";
import { createUser } from "@server/domain/company/users";
import { createHarness, type Harness } from "../support/harness";
import { signIn } from "../support/admin";
import { ABATEMENT_PARAMS } from "../support/tenant-objects";
import { fieldName } from "@server/contract/field-names";

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
      [{ ...flare(), sensors: { q: "Q-1", c: "C-1" } }, `${fieldName("devices[0].sensors.flame")}: укажите датчик: датчик пламени`],
      [
        { ...flare(), sensors: { q: "C-1", c: "C-1", flame: "FL-1" } },
        `${fieldName("devices[0].sensors.q")}: датчик «C-1» — «Метан высоких концентраций (0–100 %)», нужен «Расход газовой смеси»`,
      ],
      [
        { ...flare(), sensors: { q: "Q-9", c: "C-1", flame: "FL-1" } },
        `${fieldName("devices[0].sensors.q")}: датчика «Q-9» нет в реестре площадки «Шахта Северная»`,
      ],
      [
        { ...flare(), kind: "flare_enclosed", sensors: { q: "Q-1", c: "C-1" } },
        `${fieldName("devices[0].sensors.t_eg")}: укажите датчик: температура отходящих газов`,
      ],
      [{ ...flare(), flow_basis: "actual" }, `${fieldName("devices[0].sensors.p")}: укажите датчик: давление газа`],
      [{ ...flare(), eta_option: "measured" }, `${fieldName("devices[0].eta_option")}: вариант КПД задают только закрытому факелу`],
      [{ ...flare(), point: "nope" }, `${fieldName("devices[0].point")}: источник выбросов не найден на площадке`],
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
    expect(((await backwards.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("end")}: окончание раньше начала`));
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
    expect(((await theirs.json()) as { detail: string }).detail).toBe("Площадка: площадка не найдена");
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

// Section 13.5 (a): hour by hour Q (m³/min at 0 °C) and C (%), all on the company's clock (+7).
const A_HOURS = [
  [21.0, 38.5],
  [22.5, 37.0],
  [22.0, 37.5],
  [20.5, 39.0],
  [20.5, 39.0],
  [21.5, 38.0],
];
/** 2026-06-01 00:00 in Novokuznetsk (UTC+7). */
const JUNE_1 = Date.UTC(2026, 4, 31, 17, 0);

async function pushCaseA(q: string, c: string, flame: string) {
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 6 * 60; m++) {
    const h = Math.floor(m / 60);
    const minute = m % 60;
    const t = new Date(JUNE_1 + m * 60_000 + 30_000).toISOString();
    // Hour 04: the flow missing from :10 to :34 (25 minutes, too long to substitute).
    if (!(h === 4 && minute >= 10 && minute <= 34)) readings.push({ sensor: q, t, value: A_HOURS[h][0] });
    readings.push({ sensor: c, t, value: A_HOURS[h][1] });
    // Hour 02: no flame from :20 to :26 (7 minutes).
    readings.push({ sensor: flame, t, value: h === 2 && minute >= 20 && minute <= 26 ? 0 : 1 });
  }
  const res = await h.request("/api/v1/telemetry/readings/", { method: "POST", token: staff.token, json: { facility, readings } });
  expect(res.status, await res.clone().text()).toBe(202);
  await monitoringIdle(h.deps);
}

describe("POST v1/climate-projects/{id}/periods/", () => {
  it("computes section 13.5 (a) from the stored minutes of the plan's meters: 15,588375 t CO2-eq, 15 units, its deviations", async () => {
    for (const [code, kind] of [
      ["Q-A", "flow"],
      ["C-A", "methane_high"],
      ["FL-A", "flame"],
    ]) {
      await created(
        await h.request(`/api/v1/facilities/${facility}/sensors/`, { method: "POST", token: staff.token, json: { code, kind, point } }),
      );
    }
    await pushCaseA("Q-A", "C-A", "FL-A");
    const device = { name: "Ф-1", point, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-A", c: "C-A", flame: "FL-A" } };
    const project = await created(await projects(staff.token, "", { method: "POST", json: { ...body([device]), name: "Ф-1 июнь" } }));
    const period = await created(
      await projects(staff.token, `${project.id}/periods/`, {
        method: "POST",
        json: { start: "2026-06-01T00:00", end: "2026-06-01T06:00" },
      }),
    );
    const totals = period.totals as Record<string, number>;
    expect(period).toMatchObject({ start: "2026-06-01T00:00", end: "2026-06-01T06:00", hours: 6, carbon_units: 15 });
    expect(period.start_utc).toBe("2026-05-31T17:00:00.000Z");
    expect(Math.abs(totals.er_t_co2e - 15.588375)).toBeLessThan(5e-7);
    expect(Math.abs(totals.be_t_co2e - 43.901828)).toBeLessThan(5e-6);
    expect(Math.abs(totals.m_ch4_t - 1.756073)).toBeLessThan(5e-7);
    const deviations = period.deviations as { device: string; label: string | null; kind: string; hours: number }[];
    expect(deviations.filter((d) => d.kind === "no_data").map((d) => d.label)).toEqual(["2026-06-01T04"]);
    expect(deviations.filter((d) => d.kind === "not_proven").map((d) => d.label)).toEqual(["2026-06-01T02"]);
    expect(deviations.find((d) => d.kind === "default_used")).toMatchObject({ device: "Ф-1", hours: 4 });
    // Kept as computed: read back whole, listed with its totals.
    const read = await projects(staff.token, `${project.id}/periods/${period.id}/`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(period);
    const list = (await (await projects(staff.token, `${project.id}/periods/`)).json()) as {
      results: { id: string; carbon_units: number }[];
    };
    expect(list.results.map((p) => [p.id, p.carbon_units])).toEqual([[period.id, 15]]);
    expect((await projects(other, `${project.id}/periods/${period.id}/`)).status).toBe(404);
    expect(
      (await projects(other, `${project.id}/periods/`, { method: "POST", json: { start: "2026-06-02", end: "2026-06-03" } })).status,
    ).toBe(404);

    // Overlapping, outside the project's dates, not on a whole hour: refused, naming the field.
    const refused: [unknown, string][] = [
      [
        { start: "2026-06-01T05:00", end: "2026-06-01T08:00" },
        `${fieldName("start")}: период пересекается с периодом 01.06.2026 00:00 – 01.06.2026 06:00`,
      ],
      [{ start: "2026-05-31T00:00", end: "2026-05-31T06:00" }, `${fieldName("start")}: период начинается раньше начала проекта`],
      [
        { start: "2026-06-01T06:30", end: "2026-06-01T08:00" },
        `${fieldName("start")}: укажите целый час в формате ГГГГ-ММ-ДДTЧЧ:00 (время компании)`,
      ],
      [{ start: "2026-06-02", end: "2026-06-02" }, `${fieldName("end")}: конец периода должен быть позже начала`],
      [
        { start: "2026-06-02", end: "2027-06-04" },
        `${fieldName("end")}: отчетный период не длиннее ${(8784).toLocaleString("ru-RU")} часов (года)`,
      ],
      [
        { start: "2026-06-02", end: "2099-01-01T00:00" },
        `${fieldName("end")}: отчетный период не длиннее ${(8784).toLocaleString("ru-RU")} часов (года)`,
      ],
      [{ start: "2026-06-02", end: "2026-02-30" }, `${fieldName("end")}: такой даты нет в календаре`],
    ];
    for (const [json, detail] of refused) {
      const res = await projects(staff.token, `${project.id}/periods/`, { method: "POST", json });
      expect(res.status, detail).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(detail);
    }
    // The next period: no minutes at all — every hour «нет данных», nothing credited, no deficit carried.
    const next = await created(
      await projects(staff.token, `${project.id}/periods/`, {
        method: "POST",
        json: {
          start: "2026-06-01T06:00",
          end: "2026-06-01T09:00",
          period: { e_grid_aux_mwh: 1, ef_grid_t_per_mwh: 0.5, ef_grid_source: "значение примера 13.5" },
        },
      }),
    );
    expect(next.carbon_units).toBe(0);
    expect((next.totals as Record<string, number>).deficit_carried_t_co2e).toBeCloseTo(0.6, 9);
    expect((next.deviations as { kind: string; hours: number }[]).find((d) => d.kind === "no_data")?.hours).toBe(3);
    // …and the one after carries that deficit in (D78).
    const third = await created(
      await projects(staff.token, `${project.id}/periods/`, {
        method: "POST",
        json: { start: "2026-06-01T09:00", end: "2026-06-01T10:00" },
      }),
    );
    expect((third.period as Record<string, number>).deficit_prev_t_co2e).toBeCloseTo(0.6, 9);
  });
});

describe("EF_grid with its source (D51, D75)", () => {
  it("is required where a period credits or buys electricity, used for BE_el and PE_ME, printed with its source; a project proposes one", async () => {
    const engine = {
      name: "ГПУ-1",
      point,
      kind: "engine",
      flow_basis: "standard_20C",
      sensors: { q: "Q-1", c: "C-1", run: "RUN-1", e_gen: "EL-1" },
    };
    const grid = { t_per_mwh: 0.62, source: "ОЭС Сибири, расчет по TOOL07 за 2025 год" };
    const project = await created(
      await projects(staff.token, "", {
        method: "POST",
        json: { ...body([engine]), name: "ГПУ с сетью", e_own_sensor: "EL-OWN", ef_grid: grid },
      }),
    );
    expect(project.ef_grid).toEqual(grid);
    const post = (json: unknown) => projects(staff.token, `${project.id}/periods/`, { method: "POST", json });
    const bounds = { start: "2026-06-03T00:00", end: "2026-06-03T02:00" };
    const without = await post({ ...bounds, period: { e_grid_aux_mwh: 2 } });
    expect(without.status).toBe(400);
    expect(((await without.json()) as { detail: string }).detail).toBe(
      `${fieldName("period.ef_grid_t_per_mwh")}: укажите коэффициент выбросов энергосистемы EF_grid и его источник: период зачитывает или покупает электроэнергию (D51, D75)`,
    );
    const noSource = await post({ ...bounds, period: { ef_grid_t_per_mwh: 0.62 } });
    expect(((await noSource.json()) as { detail: string }).detail).toBe(`${fieldName("period.ef_grid_source")}: укажите источник EF_grid`);
    const period = await created(
      await post({ ...bounds, period: { e_grid_aux_mwh: 2, ef_grid_t_per_mwh: 0.62, ef_grid_source: grid.source } }),
    );
    const totals = period.totals as Record<string, number>;
    expect(totals.pe_me_t_co2).toBeCloseTo(2 * 0.62 * 1.2, 12);
    expect((period.params as Record<string, number>).ef_grid_t_per_mwh).toBe(0.62);
    expect(period.period).toMatchObject({ ef_grid_t_per_mwh: 0.62, ef_grid_source: grid.source });
    const report = (await (await projects(staff.token, `${project.id}/periods/${period.id}/report/`)).json()) as {
      sections: { number: number; filled: { label: string; value: string }[]; tables: { rows: string[][] }[] }[];
    };
    const baseline = report.sections.find((s) => s.number === 9)!;
    expect(baseline.filled.find((f) => f.label.startsWith("EF_grid"))?.value).toBe(`0,620 — ${grid.source}`);
    const parameters = report.sections.find((s) => s.number === 7)!.tables[0].rows;
    expect(parameters.find((r) => r[0].includes("EF_grid"))).toEqual([
      "Коэффициент выбросов энергосистемы EF_grid",
      "0,620",
      "т CO2/МВт·ч",
      `${grid.source} (D51, D75)`,
    ]);
    // Recomputed with another value stated anew: PE_ME follows it.
    const again = await projects(staff.token, `${project.id}/periods/${period.id}/recompute/`, {
      method: "POST",
      json: { version: 1, period: { ef_grid_t_per_mwh: 0.7, ef_grid_source: "уточненный расчет" } },
    });
    expect(again.status, await again.clone().text()).toBe(200);
    expect(((await again.json()) as { totals: Record<string, number> }).totals.pe_me_t_co2).toBeCloseTo(2 * 0.7 * 1.2, 12);

    // A flare buying no electricity needs none: the report says it does not apply.
    const flareOnly = await created(await projects(staff.token, "", { method: "POST", json: { ...body(), name: "Факел без сети" } }));
    const plain = await created(
      await projects(staff.token, `${flareOnly.id}/periods/`, {
        method: "POST",
        json: { start: "2026-06-03T00:00", end: "2026-06-03T01:00" },
      }),
    );
    const plainReport = (await (await projects(staff.token, `${flareOnly.id}/periods/${plain.id}/report/`)).json()) as {
      sections: { number: number; filled: { label: string; value: string }[] }[];
    };
    expect(plainReport.sections.find((s) => s.number === 9)!.filled.find((f) => f.label.startsWith("EF_grid"))?.value).toBe(
      "не применяется: период не зачитывает и не покупает электроэнергию",
    );
  });
});

describe("NMHC declared per period (D74)", () => {
  it("is refused over 1 % naming the field, and printed in the report as declared", async () => {
    const project = await created(await projects(staff.token, "", { method: "POST", json: { ...body(), name: "Факел с анализом газа" } }));
    const post = (json: unknown) => projects(staff.token, `${project.id}/periods/`, { method: "POST", json });
    const over = await post({ start: "2026-06-04T00:00", end: "2026-06-04T01:00", period: { nmhc_pct_vol: 1.4 } });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { detail: string }).detail).toBe(
      `${fieldName("period.nmhc_pct_vol")}: НМУВ > 1 % — методология не поддерживается`,
    );
    const period = await created(await post({ start: "2026-06-04T00:00", end: "2026-06-04T01:00", period: { nmhc_pct_vol: 0.4 } }));
    expect(period.period).toMatchObject({ nmhc_pct_vol: 0.4 });
    const report = (await (await projects(staff.token, `${project.id}/periods/${period.id}/report/`)).json()) as {
      sections: { number: number; filled: { label: string; value: string }[] }[];
    };
    expect(report.sections.find((s) => s.number === 7)!.filled.find((f) => f.label.startsWith("Неметановые"))?.value).toBe(
      "0,400 (не более 1 %)",
    );
  });
});

describe("readings still being applied", () => {
  it("refuse a period whose hours a queued batch of its meters holds, naming how many; once applied, the period records the batch it read through", async () => {
    const project = await created(await projects(staff.token, "", { method: "POST", json: { ...body(), name: "Факел с очередью" } }));
    // 05.06.2026 00:00–02:00 on the company's clock: two hours of the flare's minutes, stored, not yet applied.
    const start = JUNE_1 + 4 * 86_400_000;
    const readings: { sensor: string; t: string; value: number }[] = [];
    for (let m = 0; m < 120; m++) {
      const t = new Date(start + m * 60_000 + 30_000).toISOString();
      readings.push({ sensor: "Q-1", t, value: 21 }, { sensor: "C-1", t, value: 38.5 }, { sensor: "FL-1", t, value: 1 });
    }
    const queued = await storeBatch(h.deps, staff.companyId, facility, { json: { readings } });
    // Another batch still queued, of hours after the period's, does not hold it up.
    const later = await storeBatch(h.deps, staff.companyId, facility, {
      json: { readings: [{ sensor: "Q-1", t: new Date(start + 5 * 3_600_000).toISOString(), value: 20 }] },
    });
    // Both answered 202 (listed) before the consumer took them.
    for (const batch of [queued, later]) await h.deps.repos.monitoring.listBatch(batch);
    const bounds = { start: "2026-06-05T00:00", end: "2026-06-05T02:00" };
    const refused = await projects(staff.token, `${project.id}/periods/`, { method: "POST", json: bounds });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      "Показания за эти часы еще применяются: 1 пакет. Повторите расчет, когда они будут применены",
    );
    await kickReadings(h.deps, queued);
    await kickReadings(h.deps, later);
    await monitoringIdle(h.deps);
    const period = await created(await projects(staff.token, `${project.id}/periods/`, { method: "POST", json: bounds }));
    expect((period.totals as Record<string, number>).m_ch4_t).toBeGreaterThan(0);
    expect((period.deviations as { kind: string }[]).some((d) => d.kind === "no_data")).toBe(false);
    const batches = await h.deps.repos.monitoring.batchesOfFacility(staff.companyId, facility, 1);
    expect(period.read_through).toEqual({ batch: batches[0].batch, received_at: batches[0].received_at });
  });
});

describe("two periods of one project", () => {
  // A period is heavy work (it reads up to a year of its meters' minutes): past the user's slots a parallel create
  // is answered 429 before it reads anything; those let in race on the project's periods, and one is stored.
  it("never overlap: ten parallel creates of periods that all overlap store one, the others refused", async () => {
    for (const [code, kind] of [
      ["Q-R", "flow"],
      ["C-R", "methane_high"],
      ["FL-R", "flame"],
    ]) {
      await created(
        await h.request(`/api/v1/facilities/${facility}/sensors/`, { method: "POST", token: staff.token, json: { code, kind, point } }),
      );
    }
    const device = { name: "Ф-1", point, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-R", c: "C-R", flame: "FL-R" } };
    const project = await created(await projects(staff.token, "", { method: "POST", json: { ...body([device]), name: "Гонка периодов" } }));
    // Each contains 03:00–05:00 of 01.06.2026: any two overlap.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        projects(staff.token, `${project.id}/periods/`, {
          method: "POST",
          json: { start: `2026-06-01T0${k % 3}:00`, end: `2026-06-01T0${5 + (k % 2)}:00` },
        }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400 || s === 409).length).toBeGreaterThanOrEqual(1);
    for (const res of answers.filter((r) => r.status !== 201 && r.status !== 429)) {
      expect([400, 409]).toContain(res.status);
      expect(((await res.json()) as { detail: string }).detail).toMatch(
        /^(start: период пересекается с периодом|Другой отчетный период этого проекта сейчас рассчитывается)/,
      );
    }
    const list = (await (await projects(staff.token, `${project.id}/periods/`)).json()) as { count: number };
    expect(list.count).toBe(1);
    // The claim was given back: the next period, after it, is stored.
    const next = await projects(staff.token, `${project.id}/periods/`, {
      method: "POST",
      json: { start: "2026-06-01T07:00", end: "2026-06-01T08:00" },
    });
    expect(next.status, await next.clone().text()).toBe(201);
  });
});

describe("a project started from an assessment («Снижение выбросов»)", () => {
  it("keeps the stored assessment's chosen option and its expected reductions, with a device of that option's kind", async () => {
    const assessment = await created(
      await h.request("/api/v1/abatement/assessments/", {
        method: "POST",
        token: staff.token,
        json: {
          name: "Оценка для проекта",
          streams: [{ code: "d1", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 35 }],
          params: ABATEMENT_PARAMS,
          chosen: { d1: "FLARE_OPEN" },
        },
      }),
    );
    const stream = (assessment.result as { streams: { code: string; chosen: string; options: Record<string, unknown>[] }[] }).streams[0];
    expect(stream.chosen).toBe("FLARE_OPEN");
    const option = stream.options.find((o) => o.option_code === "FLARE_OPEN") as { er_t_co2e: number; carbon_units: number };
    const from = { assessment: assessment.id, stream: "d1" };
    const project = await created(
      await projects(staff.token, "", { method: "POST", json: { ...body(), name: "Факел по оценке", from_assessment: from } }),
    );
    expect(project.expected).toEqual({
      assessment: assessment.id,
      assessment_name: "Оценка для проекта",
      stream: "d1",
      option_code: "FLARE_OPEN",
      option_label: "Открытый факел",
      device_kind: "flare_open",
      er_t_co2e_per_year: option.er_t_co2e,
      carbon_units_per_year: option.carbon_units,
    });
    expect(option.er_t_co2e).toBeGreaterThan(0);
    expect(((await (await projects(staff.token, `${project.id}/`)).json()) as { expected: unknown }).expected).toEqual(project.expected);

    const engine = { point, kind: "engine", flow_basis: "standard_20C", sensors: { q: "Q-1", c: "C-1", run: "RUN-1" } };
    const refused: [unknown, string][] = [
      [
        { ...body([engine]), from_assessment: from },
        `${fieldName("devices")}: в оценке выбран вариант «Открытый факел»: добавьте устройство «Открытый факел»`,
      ],
      [
        { ...body(), from_assessment: { ...from, stream: "d9" } },
        `${fieldName("from_assessment.stream")}: потока «d9» нет в оценке «Оценка для проекта»`,
      ],
    ];
    for (const [json, detail] of refused) {
      const res = await projects(staff.token, "", { method: "POST", json });
      expect(res.status, detail).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(detail);
    }
    // An id of no assessment of the company (another company's is read the same way: by the company first).
    const other = await projects(staff.token, "", {
      method: "POST",
      json: { ...body(), from_assessment: { ...from, assessment: "x".repeat(12) } },
    });
    expect(((await other.json()) as { detail: string }).detail).toBe(`${fieldName("from_assessment.assessment")}: оценка не найдена`);
  });
});
