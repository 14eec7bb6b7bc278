// D26 «Done when»: a year with every kind of source — a mine with ventilation and drainage measured
// with W_CO2 (gross), post-mining, a flare by composition and a boiler on the drained gas, an open
// pit with CH4, diesel and petrol, one alternative, one forecast and one calculation stored at another
// GWP set (AR5, CH4 = 28; the year's is 25) —
// and every total printed anywhere equals the inventory's figure, or differs from it only by lines
// printed beside it (the netting «− направлено на сжигание (факел, котельная)»).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { read as readXls, utils as xlsUtils } from "xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
const ids: Record<string, string> = {};
const projects: Record<string, string> = {};
const facilities: Record<string, string> = {};
/** The destroyed CH4's uncertainty, %: the flare's 4 008 t metered ±20 %, the boiler's 2 004 t ±5 % (Eq. 3.2). */
const DESTROYED_U = Math.hypot(20 * 4_008, 5 * 2_004) / 6_012;

type Line = { category: number; ipcc_code: string; gas: string; t: number; t_co2e: number };
type Inventory = {
  total_t_co2e: number;
  gwp: { gwp_ch4: number; name: string };
  categories: Line[];
  facilities: Array<{ id: string | null; name: string; t_co2e: number }>;
  balance: Array<{ facility: string | null; netted_t: number; emitted_t: number; slip_t: number }>;
};
type Row = {
  id: string;
  name: string;
  counted: boolean;
  gases: Array<{ gas: string; t: number; t_co2e: number }>;
  netting?: Array<{ gas: string; t: number; t_co2e: number }>;
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const get = async <T>(path: string) => json<T>(await h.request(`/api/v1/${path}`, { token }), 200);

/** Printed figures are rounded to 2 decimals: a sum of n of them may be n half-cents off. */
const agrees = (printed: number, figure: number, n = 1) => expect(Math.abs(printed - figure)).toBeLessThanOrEqual(0.005 * n + 1e-9);

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО «Сверка»"));
  const facility = async (name: string, kind: string) =>
    (await json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind } }), 201)).id;
  facilities.mine = await facility("Шахта «Сверка»", "underground_mine");
  facilities.pit = await facility("Разрез «Сверка»", "open_pit");
  const project = async (name: string, facilityId: string) =>
    (
      await json<{ id: string }>(
        await h.request("/api/v1/projects/create_project/", {
          method: "POST",
          token,
          json: { name, start_date: "2025-01-01", end_date: "2025-12-31", facility: facilityId },
        }),
        201,
      )
    ).id;
  projects.mining = await project("Шахта: добыча 2025", facilities.mine);
  projects.destroyed = await project("Шахта: факел и котельная 2025", facilities.mine);
  projects.pit = await project("Разрез 2025", facilities.pit);
  const calc = async (key: string, type: string, projectId: string, body: Record<string, unknown>) => {
    const made = await json<{ id: string }>(
      await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name: key, project: projectId, ...body } }),
      201,
    );
    ids[key] = made.id;
  };
  const gas = { p_co2: 1.8393, p_ch4: 0.668 };
  // The mine: ventilation air and the drainage station measured (formula 3.1) with W_CO2, gross,
  // each at its emission point (D25: two sources).
  const point = async (name: string, kind: string) =>
    (
      await json<{ id: string }>(
        await h.request(`/api/v1/facilities/${facilities.mine}/points/`, { method: "POST", token, json: { name, kind } }),
        201,
      )
    ).id;
  const shaft = await point("ВС-1", "ventilation_shaft");
  const drainage = await point("ВДУ-1", "drainage_station");
  await calc("Вентиляция", "underground", projects.mining, {
    basis: "gross",
    volume: 400_000,
    ef_ch4: 0.5,
    ef_co2: 0.2,
    ...gas,
    point: shaft,
  });
  await calc("Дегазация", "underground", projects.mining, {
    basis: "gross",
    volume: 30_000,
    ef_ch4: 60,
    ef_co2: 5,
    ...gas,
    point: drainage,
  });
  await calc("После добычи", "handling_underground_ch4", projects.mining, { volume: 2_000_000, ef: 2.5, koef_transform: 0.67 });
  // The drained gas: part to the flare (by composition), part to the boiler.
  await calc("Факел", "torch_composition", projects.destroyed, {
    volume: 10_000,
    w_ch4: 60,
    w_co2: 5,
    cf: 0.0006,
    ...gas,
    dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
  });
  await calc("Котельная на шахтном метане", "disposal_co2_stat_sources", projects.destroyed, {
    volume: 3_000,
    dictionary_items: { get_disposal_co2_stat_sources: 8 },
  });
  // An IPCC flare of the same gas is an alternative (D22): listed, never summed.
  await calc("Факел МГЭИК", "torch_ch4", projects.destroyed, { volume: 6_000, koef_transform: 0.67 });
  // The pit: CH4 of surface mining, diesel and petrol of its machinery; one stored at AR5.
  await calc("Добыча разреза", "open_mining_ch4", projects.pit, {
    volume: 5_000_000,
    gwp_set: 2,
    dictionary_items: { get_open_mining_ch4: 1 },
  });
  // A forecast of the mine's methane: listed apart, never summed (D18).
  await calc("Прогноз лавы", "regres_methane", projects.mining, {
    method: "xgboost",
    data: [{ x1: 1000, x2: 1010, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 }],
  });
  await calc("Дизель", "open_mining_co2", projects.pit, { volume: 1_200, dictionary_items: { get_open_mining_co2: 1 } });
  await calc("Бензин", "open_mining_co2", projects.pit, { volume: 300, dictionary_items: { get_open_mining_co2: 3 } });
}, 60_000);
afterAll(() => h.close());

const report = async (format: "pdf" | "xlsx") => {
  const res = await h.request(`/api/v1/inventory/2025/report/?format=${format}`, { token });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};

describe("one netted figure everywhere (D26)", () => {
  it("the inventory nets the destroyed gas off the mine's gross lines, and its lines add up", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    const mine = inventory.balance.find((b) => b.facility === facilities.mine)!;
    expect(mine.netted_t).toBeGreaterThan(0);
    const sum = inventory.categories.reduce((total, line) => total + line.t_co2e, 0);
    expect(sum).toBeCloseTo(inventory.total_t_co2e, 6);
    expect(inventory.facilities.reduce((total, f) => total + f.t_co2e, 0)).toBeCloseTo(inventory.total_t_co2e, 6);
  });

  it("counts the CO2 the drained gas carried once: with the flare's line, taken off the mining line's CO2 (D28)", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    const co2 = inventory.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CO2")!;
    // Measured: 400 000 × 0,2 % and 30 000 × 5 % at 1,8393 kg/m³; the flare burnt 10 000 at 5 %.
    const gross = (400_000 * 0.2 * 1.8393) / 100 + (30_000 * 5 * 1.8393) / 100;
    const carried = (10_000 * 5 * 1.8393) / 100;
    expect(co2.t).toBeCloseTo(gross - carried, 6);
    const page = await get<{ results: Row[] }>(`inventory/calculations/?year=2025&line=${encodeURIComponent("3|1.B.1.a.i.1|CO2")}`);
    const off = page.results.flatMap((r) => r.netting ?? []).filter((g) => g.gas === "CO2");
    expect(off.reduce((sum, g) => sum + g.t, 0)).toBeCloseTo(carried, 6);
  });

  it("the drill-down of the mining line notes what the netting took off each gross figure", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    const line = inventory.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!;
    const page = await get<{ results: Row[] }>(`inventory/calculations/?year=2025&line=${encodeURIComponent(`3|1.B.1.a.i.1|CH4`)}`);
    const counted = page.results.filter((r) => r.counted);
    expect(counted.map((r) => r.name).sort()).toEqual(["Вентиляция", "Дегазация"]);
    const net = counted.reduce((sum, r) => {
      const ch4 = r.gases.find((g) => g.gas === "CH4")!;
      const off = r.netting?.find((g) => g.gas === "CH4");
      return sum + ch4.t - (off?.t ?? 0);
    }, 0);
    // D35: the flare's and the boiler's gas comes off the drainage station alone, never off the shaft.
    expect(counted.find((r) => r.name === "Дегазация")!.netting?.length).toBeGreaterThan(0);
    expect(counted.find((r) => r.name === "Вентиляция")!.netting).toBeUndefined();
    expect(net).toBeCloseTo(line.t, 6);
  });

  it("the passport's sources add up to each facility's total and the category subtotals to the category table (PDF, xlsx)", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await report("xlsx")) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.getWorksheet("Источники")!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const facilityNames = new Map(inventory.facilities.map((f) => [f.name, f.t_co2e]));
    const netCo2e = (label: unknown) => typeof label === "string" && /^Выбросы (CO2|CH4) в CO2-эквиваленте(, чистые)?$/.test(label);
    for (const [name, total] of facilityNames) {
      const own = rows.filter((r) => r[0] === name && netCo2e(r[7]));
      agrees(
        own.reduce((sum, r) => sum + Number(r[8]), 0),
        total,
        own.length,
      );
    }
    expect(rows.some((r) => r[7] === "− направлено на сжигание (факел, котельная)")).toBe(true);
    // D26: a gross measured volume is never called «выброшенная без сжигания».
    expect(rows.some((r) => String(r[7]).includes("без сжигания"))).toBe(false);
    expect(rows.some((r) => r[7] === "Объём газовой смеси (вентиляция, дегазация), измеренный")).toBe(true);

    const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
    writeFileSync(file, await report("pdf"));
    const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    const text = out.stdout.replace(/[ \u00a0\u202f]+/g, " ");
    const category3 = inventory.categories.filter((l) => l.category === 3).reduce((sum, l) => sum + l.t_co2e, 0);
    // Both facilities have category 3 lines: their subtotals add up to the category's.
    const subtotals = [...text.matchAll(/Категория 3\. Фугитивные выбросы: ([\d ]+,\d\d) т CO2-экв\./g)].map((m) =>
      Number(m[1].replace(/ /g, "").replace(",", ".")),
    );
    expect(subtotals).toHaveLength(2);
    agrees(
      subtotals.reduce((a, b) => a + b, 0),
      category3,
      2,
    );
    // The label wraps in its column.
    expect(text.replace(/\s+/g, " ")).toMatch(/− направлено на [^(]*сжигание \(факел, [^)]*котельная\)/);
  }, 120_000);

  it("each project's «Итоги» (txt, xls, xlsx) print its calculations, the netting and a total; a facility's projects add up to its total", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    const totals = new Map<string, number>();
    for (const [key, id] of Object.entries(projects)) {
      const exported = async (format: string) => {
        const res = await h.request(`/api/v1/projects/${id}/export_to_${format}/`, { token });
        expect(res.status).toBe(200);
        return res;
      };
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await (await exported("xlsx")).arrayBuffer());
      const sheet = workbook.getWorksheet("Итоги")!;
      const rows = Array.from({ length: sheet.rowCount }, (_, i) => (sheet.getRow(i + 1).values as unknown[]).slice(1));
      const total = rows.find((r) => typeof r[0] === "string" && r[0].startsWith("Всего"))!;
      const byType = rows.slice(2, rows.indexOf(total)).filter((r) => typeof r[2] === "number");
      const netting = byType.find((r) => String(r[0]).startsWith("− направлено на сжигание"));
      const types = byType.filter((r) => r !== netting).reduce((sum, r) => sum + Number(r[2]), 0);
      // The total differs from the types' sum only by the netting line printed beside it.
      expect(Number(total[2])).toBeCloseTo(types - Number(netting?.[2] ?? 0), 6);
      expect(Boolean(netting)).toBe(key === "mining");
      expect(String(rows.at(-1)?.[0])).toMatch(/^ПГП: .*ПГП CH4 = 25 \(отчетный год 2025\)$/);
      totals.set(key, Number(total[2]));

      const xls = readXls(new Uint8Array(await (await exported("xls")).arrayBuffer()), { type: "array" });
      const xlsRows = xlsUtils.sheet_to_json<unknown[]>(xls.Sheets["Итоги"], { header: 1 });
      const xlsTotal = xlsRows.find((r) => typeof r[0] === "string" && r[0].startsWith("Всего"))!;
      expect(Number(xlsTotal[2])).toBeCloseTo(Number(total[2]), 6);
      const text = await (await exported("txt")).text();
      const txtTotal = /Всего[^\n]*\n {4}Расчетов: \d+\n {4}Выбросы, т CO2-экв\.: ([\d\s,]+)\n/.exec(text.slice(text.indexOf("Итоги по")))!;
      agrees(Number(txtTotal[1].replace(/\s/g, "").replace(",", ".")), Number(total[2]));
    }
    const facility = (id: string) => inventory.facilities.find((f) => f.id === id)!.t_co2e;
    expect(totals.get("mining")! + totals.get("destroyed")!).toBeCloseTo(facility(facilities.mine), 6);
    expect(totals.get("pit")!).toBeCloseTo(facility(facilities.pit), 6);
  }, 120_000);

  it("each project's infographics give its netted total; a facility's projects add up to its total", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    type Graphs = {
      underground: Array<{ name: string; res_ch4: number; subtracted_ch4: number }>;
      totals: { gross_t_co2e: number; subtracted_t_co2e: number; t_co2e: number; gwp: string };
    };
    const graphs = async (key: string) => get<Graphs>(`projects/${projects[key]}/graphs/`);
    // One at a time: the infographics take a heavy-work slot (two per user).
    const mining = await graphs("mining");
    const destroyed = await graphs("destroyed");
    const pit = await graphs("pit");
    expect(mining.totals.gross_t_co2e - mining.totals.subtracted_t_co2e).toBeCloseTo(mining.totals.t_co2e, 6);
    // D35: off the drainage station that fed the flare and the boiler, never off the shaft.
    expect(mining.underground.find((u) => u.name === "Дегазация")!.subtracted_ch4).toBeGreaterThan(0);
    expect(mining.underground.find((u) => u.name === "Вентиляция")!.subtracted_ch4).toBe(0);
    const balance = inventory.balance.find((b) => b.facility === facilities.mine)!;
    expect(mining.underground.reduce((sum, u) => sum + u.subtracted_ch4, 0)).toBeCloseTo(balance.netted_t, 6);
    const facility = (id: string) => inventory.facilities.find((f) => f.id === id)!.t_co2e;
    expect(mining.totals.t_co2e + destroyed.totals.t_co2e).toBeCloseTo(facility(facilities.mine), 6);
    expect(pit.totals.t_co2e).toBeCloseTo(facility(facilities.pit), 6);
    expect(pit.totals.gwp).toMatch(/ПГП CH4 = 25 \(отчетный год 2025\)/);
  });

  it("each project's uncertainty model gives its calculations, then the netting line; the netted totals add up to the facility's", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    type Model = { calculations: Array<{ co2e: number }>; netting: { label: string; subtracted_t_co2e: number; upper_pct: number } | null };
    const netted = async (key: string) => {
      const model = await get<Model>(`projects/${projects[key]}/uncertainty/`);
      return { model, total: model.calculations.reduce((sum, c) => sum + c.co2e, 0) - (model.netting?.subtracted_t_co2e ?? 0) };
    };
    const mining = await netted("mining");
    const destroyed = await netted("destroyed");
    const pit = await netted("pit");
    // Methodology 10.1: the destroyed gas is as uncertain as the meters that measured it, as the year's
    // lines give it (the CH4 and the CO2 the gas carried, each line apart by Eq. 3.2).
    expect(mining.model.netting).toMatchObject({ label: "− направлено на сжигание (факел, котельная)" });
    const year = await get<{ lines: Array<{ destroyed_t_co2e: number; destroyed_u: number }> }>("inventory/uncertainty/?year=2025");
    const burnt = year.lines.reduce((sum, l) => sum + l.destroyed_t_co2e, 0);
    expect(mining.model.netting!.upper_pct).toBeCloseTo(
      Math.hypot(...year.lines.map((l) => l.destroyed_t_co2e * l.destroyed_u)) / burnt,
      6,
    );
    expect(destroyed.model.netting).toBeNull();
    const facility = (id: string) => inventory.facilities.find((f) => f.id === id)!.t_co2e;
    expect(mining.total + destroyed.total).toBeCloseTo(facility(facilities.mine), 6);
    expect(pit.total).toBeCloseTo(facility(facilities.pit), 6);
  });

  it("the year's uncertainty by IPCC line and gas is on the inventory's netted lines, and the command-line tool prints the same figures from them", async () => {
    const inventory = await get<Inventory>("inventory/?year=2025");
    type U = {
      lines: Array<{
        id: string;
        t_co2e: number;
        gross_t_co2e: number;
        destroyed_t_co2e: number;
        ad_u: number;
        ef_u: number;
        destroyed_u: number;
        u_pct: number;
      }>;
      total: { t_co2e: number; u_pct: number };
      monte_carlo: { trials: number; seed: number; mean: number; p2_5: number; p97_5: number; half_width_pct: number };
      key_level: Array<{ id: string; share: number; cumulative: number; key: boolean }>;
      key_level_approach2: Array<{ id: string; share: number; key: boolean }>;
    };
    const year = await get<U>("inventory/uncertainty/?year=2025");
    expect(year.total.t_co2e).toBe(inventory.total_t_co2e);
    for (const line of inventory.categories) {
      expect(year.lines.find((l) => l.id === `${line.category}|${line.ipcc_code}|${line.gas}`)?.t_co2e).toBe(line.t_co2e);
    }
    // D27: the mine's CH4 line nets what the drill-down takes off its gross figures, Eq. 3.2 with the subtracted term.
    const mine = year.lines.find((l) => l.id === "3|1.B.1.a.i.1|CH4")!;
    const page = await get<{ results: Row[] }>(`inventory/calculations/?year=2025&line=${encodeURIComponent("3|1.B.1.a.i.1|CH4")}`);
    const off = page.results.flatMap((r) => r.netting ?? []).filter((g) => g.gas === "CH4");
    expect(mine.destroyed_t_co2e).toBeCloseTo(
      off.reduce((sum, g) => sum + g.t_co2e, 0),
      6,
    );
    expect(mine.destroyed_u).toBeCloseTo(DESTROYED_U, 6);
    const grossU = Math.hypot(mine.ad_u, mine.ef_u);
    expect(grossU).toBeGreaterThan(0);
    expect(mine.u_pct).toBeCloseTo(Math.hypot(grossU * mine.gross_t_co2e, mine.destroyed_u * mine.destroyed_t_co2e) / mine.t_co2e, 9);
    // D27: fuel (activity ±5 %, factor by IPCC Table 1.4) and the burnt drained gas carry cited defaults, never 0 %.
    for (const line of year.lines) expect(line.u_pct, line.id).toBeGreaterThan(0);
    // Diesel and petrol, each ±5 % metered, uncorrelated (Eq. 3.2): under 5 % together; their factors −2,0/+0,9 and −2,6/+5,3 %.
    const fuel = year.lines.find((l) => l.id === "18|1.A.1.c.ii|CO2")!;
    expect(fuel.ad_u).toBeGreaterThan(3.5);
    expect(fuel.ad_u).toBeLessThan(5);
    expect(fuel.ef_u).toBeGreaterThan(0.9);
    expect(fuel.ef_u).toBeLessThan(5.3);
    // The command-line tool on the same lines (base = this year: no trend asked).
    const dir = mkdtempSync(join(tmpdir(), "year-uncertainty-"));
    const file = join(dir, "lines.csv");
    const csv = [
      "id,category,base,current,ad_u,ef_u,destroyed,destroyed_u",
      ...year.lines.map((l) =>
        [l.id, l.id.split("|")[0], l.t_co2e, l.t_co2e, l.ad_u, l.ef_u, l.destroyed_t_co2e, l.destroyed_u].map(String).join(","),
      ),
    ].join("\n");
    writeFileSync(file, csv);
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "wasm-core/src/inventory-cli.ts",
        "uncertainty",
        "--csv",
        file,
        "--monte-carlo",
        String(year.monte_carlo.trials),
        "--seed",
        String(year.monte_carlo.seed),
      ],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as {
      rows: Array<{ id: string; G: number }>;
      level_pct: number;
      kca_level: Array<{ id: string; L: number; cumulative: number; key: boolean }>;
      kca_level_approach2: Array<{ id: string; LU: number; key: boolean }>;
      monte_carlo: { mean: number; p2_5: number; p97_5: number; half_width_pct: number };
    };
    expect(printed.level_pct).toBe(year.total.u_pct);
    expect(printed.rows.map((r) => [r.id, r.G])).toEqual(year.lines.map((l) => [l.id, l.u_pct]));
    expect(printed.kca_level.map(({ id, L, cumulative, key }) => ({ id, share: L, cumulative, key }))).toEqual(year.key_level);
    expect(printed.kca_level_approach2.map((c) => [c.id, c.LU, c.key])).toEqual(
      year.key_level_approach2.map((c) => [c.id, c.share, c.key]),
    );
    const { trials: _trials, seed: _seed, ...monteCarlo } = year.monte_carlo;
    expect(printed.monte_carlo).toEqual(monteCarlo);
    // The Monte Carlo of the netted total sits on it: mean within 1 % of the inventory's total.
    expect(Math.abs(year.monte_carlo.mean - inventory.total_t_co2e) / inventory.total_t_co2e).toBeLessThan(0.01);
  });

  it("the year's uncertainty takes a base year for the trend at this year's GWP, and refuses a base not before the year", async () => {
    const bad = async (query: string) => {
      const res = await h.request(`/api/v1/inventory/uncertainty/?${query}`, { token });
      expect(res.status).toBe(400);
      return ((await res.json()) as { detail: string }).detail;
    };
    expect(await bad("year=2025&base=2025")).toMatch(new RegExp(`^${fieldName("base")}: базовый год должен быть раньше отчетного`));
    expect(await bad("year=2025&base=20x4")).toMatch(new RegExp(`^${fieldName("base")}: укажите базовый год`));
    expect(await bad("base=2024")).toMatch(/^Год: укажите отчетный год/);
    type Trend = {
      base_year: number | null;
      lines: Array<{ id: string; t_co2e: number; base_t_co2e: number | null }>;
      total: { t_co2e: number };
      trend: { base_year: number; base_t_co2e: number; trend_pct: number; key_trend: Array<{ id: string; key: boolean }> } | null;
    };
    const empty = await get<Trend>("inventory/uncertainty/?year=2025&base=2024");
    expect(empty).toMatchObject({ base_year: 2024, trend: null });
    expect(empty.lines.every((l) => l.base_t_co2e === null)).toBe(true);
    // A 2024 pit producing 4 000 000 t (CH4 of surface mining only).
    const old = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Разрез 2024", start_date: "2024-01-01", end_date: "2024-12-31", facility: facilities.pit },
      }),
      201,
    );
    await json(
      await h.request("/api/v1/open_mining_ch4/", {
        method: "POST",
        token,
        json: { name: "Добыча разреза 2024", project: old.id, volume: 4_000_000, dictionary_items: { get_open_mining_ch4: 1 } },
      }),
      201,
    );
    const withBase = await get<Trend>("inventory/uncertainty/?year=2025&base=2024");
    const pit = withBase.lines.find((l) => l.id === "3|1.B.1.a.ii.1|CH4")!;
    expect(pit.base_t_co2e).toBeCloseTo((pit.t_co2e * 4) / 5, 6);
    expect(withBase.trend!.base_t_co2e).toBeCloseTo(pit.base_t_co2e!, 6);
    expect(withBase.trend!.trend_pct).toBeCloseTo(((withBase.total.t_co2e - pit.base_t_co2e!) / pit.base_t_co2e!) * 100, 9);
    expect(withBase.trend!.key_trend.map((c) => c.id).sort()).toEqual(withBase.lines.map((l) => l.id).sort());
  });
});
