// «Проверить расчет»: a day's stored minutes of a project's meters, read by
// GET v1/climate-projects/{id}/minutes/ and evaluated by the web module in the browser's way
// (web/src/features/climate/dayCheck.ts), give exactly the hours POST …/evaluate/ gives for them and
// exactly the hours of a period stored over that day. The day: section 13.5 (a)'s open flare (flame
// lost 7 minutes, the flow missing 25) and an engine fed all day whose run status goes silent 7
// minutes, stops 11 minutes while fed, and whose flow misses 10 minutes (substituted).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import type { ClimateDayMinutes } from "@server/contract/schemas/climate";
import { climateReadAnswer } from "@server/domain/climate/day-minutes";
import type { Actor } from "@server/domain/context";
import type { ClimateRead } from "@server/ports";
import { checkDay, dayInputs } from "@web/features/climate/dayCheck";
import { CASE_A_METHODOLOGY, caseAReadings } from "../support/climate-case-a";
import { createHarness, type Harness } from "../support/harness";

/** 2026-06-01 00:00 in Novokuznetsk (UTC+7). */
const JUNE_1 = Date.UTC(2026, 4, 31, 17, 0);
const GRID = { ef_grid_t_per_mwh: 0.62, ef_grid_source: "расчет сетевой компании за 2025 год" };

let h: Harness;
let token: string;
let project: string;

const call = async (method: string, path: string, json?: unknown) => {
  const res = await h.request(`/api/${path}`, { method, token, json });
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown> & { id: string }>;
};

/** The engine's day: a reading at :30 of each minute; the hour's generation at its last minute. */
function engineReadings() {
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < 24 * 60; m++) {
    const t = new Date(JUNE_1 + m * 60_000 + 30_000).toISOString();
    if (m < 300 || m >= 310) readings.push({ sensor: "Q-E", t, value: 18 + (m % 7) * 0.1 });
    readings.push({ sensor: "C-E", t, value: 52 - (m % 5) * 0.2 });
    if (m < 600 || m >= 607) readings.push({ sensor: "RUN-E", t, value: m >= 910 && m < 921 ? 0 : 1 });
    if (m % 60 === 59) readings.push({ sensor: "EG-E", t, value: 1.06 });
  }
  return readings;
}

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser());
  const facility = (
    await call("POST", "v1/facilities/", { name: "Шахта «Проверка дня»", kind: "underground_mine", address: "г. Новокузнецк" })
  ).id;
  const point = (await call("POST", `v1/facilities/${facility}/points/`, { name: "ДС-1", kind: "drainage_station", instrument: "АГК" })).id;
  for (const [code, kind] of [
    ["Q-A", "flow"],
    ["C-A", "methane_high"],
    ["FL-A", "flame"],
    ["Q-E", "flow"],
    ["C-E", "methane_high"],
    ["RUN-E", "run_status"],
    ["EG-E", "electricity"],
  ]) {
    await call("POST", `v1/facilities/${facility}/sensors/`, {
      code,
      kind,
      point,
      in_service_from: "2026-01-15",
      in_service_to: "2027-01-14",
    });
  }
  const readings = [...caseAReadings(JUNE_1, { q: "Q-A", c: "C-A", flame: "FL-A" }), ...engineReadings()];
  for (let i = 0; i < readings.length; i += 5_000) {
    await call("POST", "v1/telemetry/readings/", { facility, readings: readings.slice(i, i + 5_000) });
  }
  await monitoringIdle(h.deps);
  const devices = [
    { name: "Ф-1", point, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-A", c: "C-A", flame: "FL-A" } },
    { name: "ГПУ-1", point, kind: "engine", flow_basis: "standard_20C", sensors: { q: "Q-E", c: "C-E", run: "RUN-E", e_gen: "EG-E" } },
  ];
  project = (
    await call("POST", "v1/climate-projects/", {
      name: "Проверка дня",
      facility,
      start: "2026-06-01",
      end: "2026-12-31",
      methodology: CASE_A_METHODOLOGY,
      devices,
    })
  ).id;
});
afterAll(() => h.close());

describe("«Проверить расчет»: a day's minutes evaluated in the browser", () => {
  it("gives exactly the hours of POST …/evaluate/ and of a period stored over the day", async () => {
    const day = (await call("GET", `v1/climate-projects/${project}/minutes/?date=2026-06-01`)) as unknown as ClimateDayMinutes;
    expect(day.start_utc).toBe(new Date(JUNE_1).toISOString());
    expect(day.meters.find((m) => m.code === "RUN-E")?.times).toHaveLength(24 * 60 - 7);
    // The web module, as the page runs it (JSON as the page would keep it).
    const browser = JSON.parse(JSON.stringify(checkDay(day)));
    const served = await call("POST", "v1/climate-projects/evaluate/", dayInputs(day));
    expect(served.devices).toEqual(browser.devices);
    expect(served.deviations).toEqual(browser.deviations);
    expect(served.totals).toEqual(browser.totals);
    // The day has what the check is for: hours credited, not proven, with no data and substituted.
    const engine = browser.devices.find((d: { id: string }) => d.id === "ГПУ-1");
    expect(engine.summary).toMatchObject({ hours: 24, hours_not_proven: 2, hours_substituted: 1 });
    const bases = new Set(browser.devices.flatMap((d: { blocks: { eta_basis: string }[] }) => d.blocks.map((b) => b.eta_basis)));
    for (const basis of [
      "default_open_flame_60",
      "not_proven_flame",
      "no_data",
      "engine_run",
      "not_proven_run",
      "not_proven_run_no_data",
    ]) {
      expect(bases, basis).toContain(basis);
    }
    // The same day as a stored period: the server folds the same minutes into the same hours.
    const period = await call("POST", `v1/climate-projects/${project}/periods/`, { start: "2026-06-01", end: "2026-06-02", period: GRID });
    expect(period.devices).toEqual(browser.devices);
    expect(period.deviations).toEqual(browser.deviations);
  });

  it("refuses a day that is no date, before the project, or not begun, naming date; another company's project is 404", async () => {
    for (const [date, detail] of [
      ["2026-02-30", /^Дата: /],
      ["01.06.2026", /^Дата: /],
      ["", /^Дата: /],
      ["__proto__", /^Дата: /],
      ["2026-06-01".repeat(1_000), /^Дата: /],
      ["2026-05-31", /^Дата: день раньше начала проекта$/],
      ["2026-12-31", /^Дата: этот день еще не наступил$/],
    ] as const) {
      const res = await h.request(`/api/v1/climate-projects/${project}/minutes/?date=${encodeURIComponent(date)}`, { token });
      expect(res.status, date).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
    const other = await h.signedInUser("Чужая компания");
    const res = await h.request(`/api/v1/climate-projects/${project}/minutes/?date=2026-06-01`, { token: other.token });
    expect(res.status).toBe(404);
  });
});

describe("the day's minutes off the request thread", () => {
  it("are read where the host's threads read them (the local host's spreadsheet threads), the answer the same", async () => {
    const path = `v1/climate-projects/${project}/minutes/?date=2026-06-01`;
    const here = await call("GET", path);
    // The loop budget measured the read on the request thread at 51–269 ms under load.
    const spreadsheets = h.deps.spreadsheets;
    const before = spreadsheets.climateRead;
    const asked: ClimateRead[] = [];
    spreadsheets.climateRead = async (actor, read) => {
      asked.push(read);
      return climateReadAnswer(h.deps, actor as Actor, read);
    };
    try {
      const threaded = await call("GET", path);
      expect(asked).toEqual([{ read: "climate_day", query: { project, date: "2026-06-01" } }]);
      expect(threaded).toEqual(here);
    } finally {
      spreadsheets.climateRead = before;
    }
  });

  it("computes a period below the job's bound where the host's threads compute it, and gives the hold back", async () => {
    const periods = (await call("GET", `v1/climate-projects/${project}/periods/`)) as unknown as { results: { id: string }[] };
    const id = periods.results[0].id;
    const stored = await call("GET", `v1/climate-projects/${project}/periods/${id}/`);
    // Its minutes folded on the request thread held it 20–140 ms at load 5–12 (the loop budget).
    const spreadsheets = h.deps.spreadsheets;
    const before = spreadsheets.climateRead;
    const asked: ClimateRead[] = [];
    spreadsheets.climateRead = async (actor, read) => {
      asked.push(read);
      return climateReadAnswer(h.deps, actor as Actor, read);
    };
    try {
      const again = await call("POST", `v1/climate-projects/${project}/periods/${id}/recompute/`, { version: stored.version });
      expect(asked).toMatchObject([{ read: "climate_period", request: { recompute: { period: id, version: stored.version } } }]);
      expect(again).toMatchObject({ id, version: Number(stored.version) + 1, devices: stored.devices, totals: stored.totals });
      const body = { start: "2026-06-02T00:00", end: "2026-06-02T06:00", period: GRID };
      const made = await call("POST", `v1/climate-projects/${project}/periods/`, body);
      expect(asked[1]).toMatchObject({ read: "climate_period", request: { project, body, claim: { token: expect.any(String) } } });
      expect(await call("GET", `v1/climate-projects/${project}/periods/${made.id}/`)).toMatchObject({ id: made.id, version: 1 });
      // The project's periods are not held after it: the next one is made at once.
      await call("POST", `v1/climate-projects/${project}/periods/`, { ...body, start: "2026-06-02T06:00", end: "2026-06-02T07:00" });
      expect(asked).toHaveLength(3);
    } finally {
      spreadsheets.climateRead = before;
    }
  });
});
