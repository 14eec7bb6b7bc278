// A year of 10-minute readings in the results dialog (docs/api.md, «A forecast's rows and chart»):
// the 52 560 stored rows reach the browser as a page of the table at a time and a chart of at most
// MAX_GRAPH_POINTS points, in which each bucket's lowest and highest measured and forecast values
// and every reading at or above the warning level are kept, so a short exceedance is drawn.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_GRAPH_POINTS } from "@server/domain/forecast/downsample";
import { FORECAST_DATA_PAGE_MAX } from "@server/contract";
import { storeForecastRows, type ForecastKeptRow } from "@server/domain/forecast/rows";
import { newId } from "@server/domain/ids";
import type { ForecastChart, ForecastRowsPage } from "@server/contract/views";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import { longwallRows } from "../support/large-forecasts";
import type { Project } from "@server/contract/schemas/project";

const ROWS = 52_560;
/** Three 10-minute readings measured and forecast above 1 %. */
const EXCEEDANCE = [30_001, 30_002, 30_003];
/** A reading forecast at the warning level (0,8 %) with a measured 0,79 %. */
const WARNING_ROW = 12_345;
let h: Harness;
let user: SignedInUser;
let project: Project;
let forecastId: string;
let rows: ForecastKeptRow[];

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Лава 7, год телеметрии"));
  const start = Date.parse("2025-01-01T00:00:00Z");
  rows = longwallRows(ROWS).map((row, i) => {
    const result = 0.5 + ((i * 7919) % 97) / 1000;
    return {
      ...row,
      t: new Date(start + i * 600_000).toISOString().slice(0, 19),
      y: result - 0.01,
      result,
      lo: result - 0.05,
      hi: result + 0.05,
      p_exceed: 0,
    };
  });
  for (const id of EXCEEDANCE) Object.assign(rows[id - 1], { y: 1.12, result: 1.05, lo: 1.0, hi: 1.1 });
  Object.assign(rows[WARNING_ROW - 1], { y: 0.79, result: 0.8, lo: 0.75, hi: 0.85 });
  forecastId = newId();
  const at = new Date().toISOString();
  const common = {
    project: project.id,
    company: user.companyId,
    is_active: true,
    is_deleted: false,
    version: 1,
    methodology_version: "2026.1",
    created_at: at,
    created_by: user.email,
    updated_at: at,
    updated_by: user.email,
    coefficients: {},
  };
  await h.deps.repos.calculations.create({
    ...common,
    id: forecastId,
    type: "regres_methane",
    name: "Лава 7, год",
    inputs: { method: "xgboost" },
    results: { rows: ROWS, limit: 1, warning: 0.8, data_key: await storeForecastRows(h.deps, user.companyId, forecastId, rows) },
  });
}, 120_000);
afterAll(() => h.close());

const get = (path: string) => h.request(path, { token: user.token });

describe("a forecast of a year of 10-minute readings, read by its results dialog", () => {
  it("sends its chart as at most 2 000 points in row order, every reading at or above the warning level kept", async () => {
    const res = await get(`/api/v1/regres_methane/${forecastId}/chart/`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const chart = JSON.parse(text) as ForecastChart;
    console.log(`chart of a ${ROWS}-row forecast: ${chart.points.length} points, ${Math.round(text.length / 1024)} KB`);
    expect(chart.rows).toBe(ROWS);
    expect(chart.points.length).toBeLessThanOrEqual(MAX_GRAPH_POINTS);
    expect(chart.points.length).toBeGreaterThan(MAX_GRAPH_POINTS / 4);
    const ids = chart.points.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const id of [...EXCEEDANCE, WARNING_ROW]) {
      const row = rows[id - 1];
      expect(chart.points).toContainEqual({ id, t: row.t, y: row.y, result: row.result, lo: row.lo, hi: row.hi });
    }
    // The lowest and highest values of the whole year are drawn at their height.
    const results = rows.map((r) => r.result as number);
    expect(Math.min(...chart.points.map((p) => p.result))).toBe(Math.min(...results));
    expect(Math.max(...chart.points.map((p) => p.y ?? 0))).toBe(1.12);
    // The what-if starts from the row with the highest forecast, sent whole.
    expect(chart.peak).toEqual(rows[EXCEEDANCE[0] - 1]);
    expect(text.length).toBeLessThan(400_000);
  });

  /** A row as the table's page sends it: this forecast keeps no judged chance, so without it. */
  const tableRow = (row: (typeof rows)[number]) => {
    const { p_exceed: _p, ...rest } = row;
    return rest;
  };

  it("sends the table a page at a time, its count that of every row", async () => {
    const first = (await (await get(`/api/v1/regres_methane/${forecastId}/rows/`)).json()) as ForecastRowsPage;
    expect(first.count).toBe(ROWS);
    expect(first.results).toEqual(rows.slice(0, 5).map(tableRow));
    const later = (await (await get(`/api/v1/regres_methane/${forecastId}/rows/?offset=30000&limit=3`)).json()) as ForecastRowsPage;
    expect(later.results.map((r) => r.id)).toEqual(EXCEEDANCE);
    const last = (await (await get(`/api/v1/regres_methane/${forecastId}/rows/?offset=${ROWS - 2}&limit=100`)).json()) as ForecastRowsPage;
    expect(last.results.map((r) => r.id)).toEqual([ROWS - 1, ROWS]);
  });

  it("carries the chance in the table's rows only where the chance is shown", async () => {
    const shownId = newId();
    const stored = (await h.deps.repos.calculations.get(user.companyId, "regres_methane", forecastId))!;
    await h.deps.repos.calculations.create({
      ...stored,
      id: shownId,
      name: "Лава 7, год, вероятность показана",
      results: { ...stored.results, probability: { reliable: true, judgement: "better" } },
    });
    const page = (await (await get(`/api/v1/regres_methane/${shownId}/rows/?limit=3`)).json()) as ForecastRowsPage;
    expect(page.results).toEqual(rows.slice(0, 3));
    expect(page.results.every((r) => (r as { p_exceed?: number }).p_exceed === 0)).toBe(true);
  });

  it("with above=true pages the rows whose forecast is above the limit only", async () => {
    const above = (await (await get(`/api/v1/regres_methane/${forecastId}/rows/?above=true&limit=100`)).json()) as ForecastRowsPage;
    expect(above.count).toBe(EXCEEDANCE.length);
    expect(above.results).toEqual(EXCEEDANCE.map((id) => tableRow(rows[id - 1])));
  });

  it("refuses a page larger than 100 rows in Russian; under another type the forecast is not found", async () => {
    const big = await get(`/api/v1/regres_methane/${forecastId}/rows/?limit=101`);
    expect(big.status).toBe(400);
    expect(((await big.json()) as { detail: string }).detail).toMatch(/[а-я]/);
    for (const path of [`/api/v1/underground/${forecastId}/rows/`, `/api/v1/underground/${forecastId}/chart/`]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: expect.stringMatching(/[а-я]/) });
    }
  });
});

describe("a forecast of a year of 10-minute readings, read whole (GET {id}/, single_calc/)", () => {
  it("answers a page of at most 1 000 of its rows with their count, never the whole history", async () => {
    for (const path of [`/api/v1/regres_methane/${forecastId}/`, `/api/v1/regres_methane/${forecastId}/single_calc/1/`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const text = await res.text();
      const read = JSON.parse(text) as { data: ForecastKeptRow[]; data_count: number; rows: number };
      expect(read.data_count).toBe(ROWS);
      expect(read.data).toEqual(rows.slice(0, FORECAST_DATA_PAGE_MAX));
      // 16 MB as a whole before; a page now.
      expect(text.length).toBeLessThan(400_000);
    }
    const last = (await (await get(`/api/v1/regres_methane/${forecastId}/?offset=${ROWS - 2}&limit=10`)).json()) as {
      data: ForecastKeptRow[];
    };
    expect(last.data).toEqual(rows.slice(ROWS - 2));
  });

  it("refuses a page of more than 1 000 rows in Russian", async () => {
    const big = await get(`/api/v1/regres_methane/${forecastId}/single_calc/1/?limit=${FORECAST_DATA_PAGE_MAX + 1}`);
    expect(big.status).toBe(400);
    expect(((await big.json()) as { detail: string }).detail).toMatch(/[а-я]/);
  });
});
