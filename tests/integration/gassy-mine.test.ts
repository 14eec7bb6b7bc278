// Methodology D35–D37, D40, D42 on the verifier's constructed gassy mine: two ventilation shafts, one
// drainage station whose gas a flare, a boiler and a gas engine burn, entered for a 2024 draft and a
// 2025 approved year. For both years every output says the same per source: the facility view's
// rows add up to its total, each shaft's «чистые» is its gross, the drainage station's is its gross
// less the methane destroyed, and the balance, the passport's «Источники», the drill-down, the pack
// (approved year) and the uncertainty agree; the destroyed gas is as uncertain as the meters that
// measured it, and the project page gives the year page's uncertainty for the netted total. In a company of its own: more burnt than drained is an
// error naming both figures, a net drainage entry beside a flare warns with the gross figure, and a
// shaft measured January–June leaves a gap while the passport prints the days it covers.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
let reviewer: string;
let mine: string;
const points: Record<string, string> = {};
const projects: Record<number, string> = {};

type Inventory = {
  total_t_co2e: number;
  review: { version: number; status: string };
  approved?: { version: number };
  categories: Array<{ category: number; ipcc_code: string; gas: string; t: number; t_co2e: number }>;
  balance: Array<{ facility: string; netted_t: number; streams?: Array<{ point: string; route: string; t: number; to_air_t?: number }> }>;
  checks: Array<{ level: string; code: string; message: string }>;
};
type Row = {
  id: string;
  name: string;
  counted: boolean;
  point: string | null;
  gases: Array<{ gas: string; t: number; t_co2e: number }>;
  netting?: Array<{ gas: string; t: number; t_co2e: number }>;
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const get = async <T>(path: string, as = token) => json<T>(await h.request(`/api/v1/${path}`, { token: as }), 200);
const post = async <T>(path: string, body: unknown, as = token, status = 201) =>
  json<T>(await h.request(`/api/v1/${path}`, { method: "POST", token: as, json: body }), status);

const GAS = { p_co2: 1.8393, p_ch4: 0.668 };
/** t CH4 of V thousand m³ at W % CH4, 20 °C. */
const ch4 = (volume: number, w: number) => (volume * w * 0.668) / 100;
// The shafts' and the drainage station's gross releases, and what the flare, the boiler and the
// engine sent to burn (all of it destroyed: the flare's slip is its own line's, CF 0).
const GROSS = { "ВС-1": ch4(3_000_000, 0.6), "ВС-2": ch4(2_000_000, 0.5), "ВДУ-1": ch4(50_000, 41.5) };
const DESTROYED = ch4(20_000, 41.5) + ch4(9_000, 41.5) + ch4(4_000, 41.5);

async function point(facility: string, name: string, kind: string, as = token) {
  return (await post<{ id: string }>(`facilities/${facility}/points/`, { name, kind }, as)).id;
}

async function project(name: string, year: number, facility: string, as = token) {
  return (
    await post<{ id: string }>("projects/create_project/", { name, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility }, as)
  ).id;
}

async function enterMine(year: number) {
  const p = await project(`Шахта «Газовая» ${year}`, year, mine);
  projects[year] = p;
  const measured = (name: keyof typeof GROSS, volume: number, w_ch4: number, w_co2: number) =>
    post("underground/", { name, project: p, basis: "gross", volume, ef_ch4: w_ch4, ef_co2: w_co2, ...GAS, point: points[name] });
  await measured("ВС-1", 3_000_000, 0.6, 0.1);
  await measured("ВС-2", 2_000_000, 0.5, 0.1);
  await measured("ВДУ-1", 50_000, 41.5, 2.8);
  // The flare and the boiler take the station's gas by themselves (the mine's one drainage
  // station); the engine names it.
  await post("torch_composition/", {
    name: "Факел",
    project: p,
    volume: 20_000,
    w_ch4: 41.5,
    w_co2: 2.8,
    cf: 0,
    ...GAS,
    dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    point: points["Факел"],
  });
  const burnt = (name: string, volume: number, extra: Record<string, unknown> = {}) =>
    post("disposal_co2_stat_sources/", {
      name,
      project: p,
      volume,
      w_ch4: 41.5,
      w_co2: 2.8,
      dictionary_items: { get_disposal_co2_stat_sources: 8 },
      point: points[name],
      ...extra,
    });
  await burnt("Котельная", 9_000);
  await burnt("ГПУ", 4_000, { drainage_points: [points["ВДУ-1"]] });
}

async function review(year: number, action: string, as: string) {
  const inventory = await get<Inventory>(`inventory/?year=${year}`);
  await post(`inventory/${year}/review/`, { action, version: inventory.review.version }, as, 200);
}

beforeAll(async () => {
  h = await createHarness();
  const user = await h.signedInUser("ООО «Газовая шахта»");
  token = user.token;
  await createUser(h.deps, { companyId: user.companyId, email: "reviewer@gassy.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@gassy.example", "reviewer-password")).json()) as { access: string }).access;
  mine = (await post<{ id: string }>("facilities/", { name: "Шахта «Газовая»", kind: "underground_mine" })).id;
  for (const [name, kind] of [
    ["ВС-1", "ventilation_shaft"],
    ["ВС-2", "ventilation_shaft"],
    ["ВДУ-1", "drainage_station"],
    ["Факел", "flare"],
    ["Котельная", "boiler_engine"],
    ["ГПУ", "boiler_engine"],
  ]) {
    points[name] = await point(mine, name, kind);
  }
  await enterMine(2024);
  await enterMine(2025);
  await review(2025, "send_to_review", token);
  await review(2025, "approve", reviewer);
}, 120_000);
afterAll(() => h.close());

/** Each source's CH4 «чистые» as the drill-down gives it: its own result less what the netting took off it. */
async function drillDown(year: number): Promise<Map<string, { gross: number; net: number; off_t_co2e: number }>> {
  const page = await get<{ results: Row[] }>(`inventory/calculations/?year=${year}&facility=${mine}&limit=100`);
  return new Map(
    page.results
      .filter((r) => r.counted && r.gases.some((g) => g.gas === "CH4") && r.name in GROSS)
      .map((r) => {
        const gross = r.gases.find((g) => g.gas === "CH4")!.t;
        const off = r.netting?.find((g) => g.gas === "CH4");
        return [r.name, { gross, net: gross - (off?.t ?? 0), off_t_co2e: off?.t_co2e ?? 0 }];
      }),
  );
}

/** The passport's «Источники» (xlsx): each source's CH4 «чистые» (its plain figure when nothing came off it) and its period. */
async function passportSources(path: string): Promise<Map<string, { net: number; period: string }>> {
  const res = await h.request(`/api/v1/${path}`, { token });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(await res.arrayBuffer()) as unknown as ArrayBuffer);
  const sources = new Map<string, { net: number; period: string }>();
  workbook.getWorksheet("Источники")!.eachRow((row) => {
    const cells = (row.values as unknown[]).slice(1);
    if (cells[7] === "Выбросы CH4, чистые" || cells[7] === "Выбросы CH4") {
      sources.set(String(cells[3]), { net: Number(cells[8]), period: String(cells[13]) });
    }
  });
  return sources;
}

describe.each([
  [2024, "draft"],
  [2025, "approved"],
])("the constructed mine, %i (%s): one figure per source everywhere (D35, D40)", (year, status) => {
  it("the facility view's rows add up to its total, the status is the year's", async () => {
    const inventory = await get<Inventory>(`inventory/?year=${year}&facility=${mine}`);
    expect(inventory.review.status).toBe(status);
    expect(inventory.approved !== undefined).toBe(status === "approved");
    const rows = inventory.categories.reduce((sum, line) => sum + line.t_co2e, 0);
    expect(rows).toBeCloseTo(inventory.total_t_co2e, 6);
    expect(inventory.checks.filter((c) => c.level === "error")).toEqual([]);
  });

  it("each shaft's «чистые» is its gross; the drainage station's is its gross less the methane destroyed", async () => {
    const sources = await drillDown(year);
    for (const shaft of ["ВС-1", "ВС-2"] as const) {
      expect(sources.get(shaft)!.gross).toBeCloseTo(GROSS[shaft], 6);
      expect(sources.get(shaft)!.net).toBeCloseTo(GROSS[shaft], 6);
    }
    expect(sources.get("ВДУ-1")!.gross).toBeCloseTo(GROSS["ВДУ-1"], 6);
    expect(sources.get("ВДУ-1")!.net).toBeCloseTo(GROSS["ВДУ-1"] - DESTROYED, 6);
  });

  it("the balance and the Sankey send from each source to the air what the drill-down calls «чистые»", async () => {
    const sources = await drillDown(year);
    const inventory = await get<Inventory>(`inventory/?year=${year}&facility=${mine}`);
    const streams = inventory.balance.find((b) => b.facility === mine)!.streams!;
    for (const name of Object.keys(GROSS)) {
      const stream = streams.find((s) => s.point === points[name])!;
      expect(stream.to_air_t, name).toBeCloseTo(sources.get(name)!.net, 6);
    }
    // The mining line's CH4 is the sources' «чистые» together.
    const line = inventory.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!;
    expect(line.t).toBeCloseTo(
      [...sources.values()].reduce((sum, s) => sum + s.net, 0),
      6,
    );
  });

  it("the facility passport's «Источники» print each source's «чистые» as the drill-down gives it, with or without the version", async () => {
    const sources = await drillDown(year);
    const paths = [`inventory/${year}/report/?format=xlsx&facility=${mine}`];
    if (status === "approved") paths.push(`inventory/${year}/report/?format=xlsx&facility=${mine}&version=1`);
    for (const path of paths) {
      const printed = await passportSources(path);
      for (const [name, { net }] of sources) expect(printed.get(name)!.net, `${path}: ${name}`).toBeCloseTo(net, 6);
    }
  }, 60_000);

  it("the year's calculations workbook lists each counted source with its facility, point, line and netted figure, summing to the year's total", async () => {
    const res = await h.request(`/api/v1/inventory/${year}/report/?format=calculations`, { token });
    expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
    expect(res.headers.get("content-disposition")).toContain(encodeURIComponent(`Расчеты ${year}.xlsx`));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet(`Расчеты ${year}`)!;
    expect(String(sheet.getCell("A1").value)).toContain(status === "approved" ? "утвержденная версия 1" : "черновик");
    const rows = sheet
      .getSheetValues()
      .slice(3)
      .map((row) => (row as unknown[]).slice(1));
    const drained = rows.find((r) => r[3] === "ВДУ-1" && r[8] === "CH4")!;
    expect(drained.slice(0, 2)).toEqual(["Шахта «Газовая»", "ВДУ-1"]);
    expect(String(drained[7])).toMatch(/^1\.B\.1\.a\.i\.1 /);
    expect(drained[5]).toBe(`01.01.${year}–31.12.${year}`);
    const netted = (await drillDown(year)).get("ВДУ-1")!;
    expect(Number(drained[9])).toBeCloseTo(netted.gross, 6);
    expect(Number(drained[11])).toBeCloseTo(netted.net, 6);
    const total = rows.at(-1)!;
    expect(total[0]).toBe("Итого");
    const inventory = await get<Inventory>(`inventory/?year=${year}`);
    expect(Number(total[12])).toBeCloseTo(inventory.total_t_co2e, 4);
  });

  it("the year's uncertainty takes the destroyed gas off the drainage station's line as the drill-down does", async () => {
    const sources = await drillDown(year);
    const inventory = await get<Inventory>(`inventory/?year=${year}&facility=${mine}`);
    const uncertainty = await get<{
      lines: Array<{ id: string; t_co2e: number; gross_t_co2e: number; destroyed_t_co2e: number }>;
      total: { t_co2e: number };
    }>(`inventory/uncertainty/?year=${year}&facility=${mine}`);
    const line = uncertainty.lines.find((l) => l.id === "3|1.B.1.a.i.1|CH4")!;
    const inventoryLine = inventory.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!;
    expect(line.t_co2e).toBeCloseTo(inventoryLine.t_co2e, 6);
    expect(line.destroyed_t_co2e).toBeCloseTo(sources.get("ВДУ-1")!.off_t_co2e, 6);
    expect(line.gross_t_co2e).toBeCloseTo([...sources.values()].reduce((sum, s) => sum + s.gross, 0) * 25, 4);
    expect(uncertainty.total.t_co2e).toBeCloseTo(inventory.total_t_co2e, 6);
  });
});

describe.each([2024, 2025])("the constructed mine's uncertainty, %i (methodology 10.1)", (year) => {
  type Interval = { t_co2e: number; u_pct: number; lower: number; upper: number };

  it("the destroyed gas carries the uncertainty of the meters that measured it, as on their own lines", async () => {
    const uncertainty = await get<{ lines: Array<{ id: string; ad_u: number; destroyed_u: number }> }>(
      `inventory/uncertainty/?year=${year}&facility=${mine}`,
    );
    const line = (id: string) => uncertainty.lines.find((l) => l.id === id)!;
    // The flare's metered flow is ±20 % on its own line; the boiler's and the engine's metered gas ±5 %
    // each, one line for both.
    expect(line("2|1.B.1.a.i.4|CO2").ad_u).toBeCloseTo(20, 9);
    expect(line("1|1.B.1.a.i.4|CO2").ad_u).toBeCloseTo(Math.hypot(5 * 9_000, 5 * 4_000) / 13_000, 9);
    // All three burn the station's 41,5 % gas: Eq. 3.2 over the devices by the gas each burnt.
    const destroyedU = Math.hypot(20 * 20_000, 5 * 9_000, 5 * 4_000) / 33_000;
    expect(line("3|1.B.1.a.i.1|CH4").destroyed_u).toBeCloseTo(destroyedU, 9);
    expect(line("3|1.B.1.a.i.1|CO2").destroyed_u).toBeCloseTo(destroyedU, 9);
  });

  it("the project page gives the year page's uncertainty for the one netted figure", async () => {
    const year_ = await get<{ total: Interval; lines: Array<{ destroyed_t_co2e: number }> }>(
      `inventory/uncertainty/?year=${year}&facility=${mine}`,
    );
    const model = await get<{ netting: { subtracted_t_co2e: number; netted: Interval } | null }>(`projects/${projects[year]}/uncertainty/`);
    const netted = model.netting!.netted;
    expect(model.netting!.subtracted_t_co2e).toBeCloseTo(
      year_.lines.reduce((sum, l) => sum + l.destroyed_t_co2e, 0),
      4,
    );
    expect(netted.t_co2e).toBeCloseTo(year_.total.t_co2e, 4);
    expect(netted.u_pct).toBeCloseTo(year_.total.u_pct, 9);
    expect(netted.lower).toBeCloseTo(year_.total.lower, 3);
    expect(netted.upper).toBeCloseTo(year_.total.upper, 3);
  });
});

describe("the approved version's pack (D35)", () => {
  it("nets each source as the drill-down does, and verify.py agrees", async () => {
    const sources = await drillDown(2025);
    const res = await h.request("/api/v1/inventory/2025/versions/1/pack/", { token });
    expect(res.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "gassy-pack-"));
    writeFileSync(join(dir, "pack.zip"), new Uint8Array(await res.arrayBuffer()));
    const unzip = spawnSync("python3", ["-m", "zipfile", "-e", join(dir, "pack.zip"), join(dir, "pack")], { encoding: "utf8" });
    expect(unzip.status, unzip.stderr).toBe(0);
    const folder = join(dir, "pack", "calculations");
    const files = readdirSync(folder).map((name) => JSON.parse(readFileSync(join(folder, name), "utf8")) as Row & { results: unknown });
    for (const [name, { gross, net }] of sources) {
      const file = files.find((f) => f.name === name)!;
      const off = file.netting?.find((g) => g.gas === "CH4")?.t ?? 0;
      expect(gross - off, name).toBeCloseTo(net, 6);
    }
    // The platform's public key as GET v1/signing-keys/ serves it: the outside anchor.
    const keys = (await (await h.request("/api/v1/signing-keys/")).json()) as { keys: Array<{ pem: string }> };
    writeFileSync(join(dir, "platform.pem"), keys.keys.at(-1)!.pem);
    const verified = spawnSync("python3", ["verify.py", "--public-key", join(dir, "platform.pem")], {
      cwd: join(dir, "pack"),
      encoding: "utf8",
    });
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).not.toContain("РАСХОДИТСЯ");
  }, 60_000);
});

describe("what a verifier is warned of (D36, D37, D42)", () => {
  let other: string;
  beforeAll(async () => {
    ({ token: other } = await h.signedInUser("ООО «Проверки шахты»"));
  });

  it("a flare burning 16 633,2 t against 13 880,07 t drained is an error naming both, and the year cannot be sent", async () => {
    const facility = (await post<{ id: string }>("facilities/", { name: "Шахта «Перебор»", kind: "underground_mine" }, other)).id;
    const drainage = await point(facility, "ВДУ-1", "drainage_station", other);
    const shaft = await point(facility, "ВС-1", "ventilation_shaft", other);
    const p = await project("Перебор 2023", 2023, facility, other);
    await post(
      "underground/",
      { name: "ВС-1", project: p, basis: "gross", volume: 3_000_000, ef_ch4: 0.6, ef_co2: 0, ...GAS, point: shaft },
      other,
    );
    // 20 778,548 thousand m³ of pure methane: 13 880,07 t drained; the flare sent 24 900 × 0,668 = 16 633,2 t.
    await post(
      "underground/",
      { name: "ВДУ-1", project: p, basis: "gross", volume: 20_778.548, ef_ch4: 100, ef_co2: 0, ...GAS, point: drainage },
      other,
    );
    await post(
      "torch_composition/",
      {
        name: "Факел",
        project: p,
        volume: 24_900,
        w_ch4: 100,
        w_co2: 0,
        cf: 0,
        ...GAS,
        dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
      },
      other,
    );
    const inventory = await get<Inventory>(`inventory/?year=2023&facility=${facility}`, other);
    const error = inventory.checks.find((c) => c.code === "destroyed_exceeds_drained")!;
    expect(error.level).toBe("error");
    expect(error.message.replace(/\u00a0/g, " ")).toContain("«ВДУ-1»: на факелы, в котельные и ГПУ направлено 16 633,2 т CH4");
    expect(error.message.replace(/\u00a0/g, " ")).toContain("каптировано этой установкой (валовый выброс дегазации) 13 880,07 т");
    // The shaft's gas counts whole: only what the station drained comes off the line.
    const line = inventory.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!;
    expect(line.t).toBeCloseTo(ch4(3_000_000, 0.6), 6);
    const refused = await h.request("/api/v1/inventory/2023/review/", {
      method: "POST",
      token: other,
      json: { action: "send_to_review", version: inventory.review.version },
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toContain("уничтожено больше метана, чем каптировано");
  });

  it("a net drainage entry beside a flare warns, naming the figure a gross entry would give", async () => {
    const facility = (await post<{ id: string }>("facilities/", { name: "Шахта «Чистая»", kind: "underground_mine" }, other)).id;
    const drainage = await point(facility, "ВДУ-1", "drainage_station", other);
    const p = await project("Чистая 2022", 2022, facility, other);
    await post(
      "underground/",
      { name: "ВДУ-1", project: p, basis: "net", volume: 30_000, ef_ch4: 60, ef_co2: 0, ...GAS, point: drainage },
      other,
    );
    await post(
      "torch_composition/",
      {
        name: "Факел",
        project: p,
        volume: 10_000,
        w_ch4: 60,
        w_co2: 0,
        cf: 0,
        ...GAS,
        dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
      },
      other,
    );
    const inventory = await get<Inventory>(`inventory/?year=2022&facility=${facility}`, other);
    const warning = inventory.checks.find((c) => c.code === "possible_double_count")!;
    expect(warning.level).toBe("warning");
    // 12 024 t net and 4 008 t burnt: a gross entry would be 16 032 t.
    expect(warning.message.replace(/\u00a0/g, " ")).toContain("дал бы 16 032 т");
  });

  it("a shaft measured January–June raises the gap, and the passport prints the days it covers", async () => {
    const facility = (await post<{ id: string }>("facilities/", { name: "Шахта «Полгода»", kind: "underground_mine" }, other)).id;
    const shaft = await point(facility, "ВС-1", "ventilation_shaft", other);
    const p = await project("Полгода 2021", 2021, facility, other);
    const periods = [1, 2, 3, 4, 5, 6].map((m) => {
      const mm = String(m).padStart(2, "0");
      return {
        from: `2021-${mm}-01`,
        to: `2021-${mm}-${new Date(Date.UTC(2021, m, 0)).getUTCDate()}`,
        flow_m3_min: 2000,
        hours: 600,
        w_ch4: 0.6,
        w_co2: 0.1,
      };
    });
    await post(
      "underground/",
      { name: "ВС-1 январь–июнь", project: p, basis: "gross", periods, dictionary_items: { get_underground: 1 }, point: shaft },
      other,
    );
    const inventory = await get<Inventory>(`inventory/?year=2021&facility=${facility}`, other);
    const gap = inventory.checks.find((c) => c.code === "source_period_gap")!;
    expect(gap.message).toContain("«ВС-1»");
    expect(gap.message).toContain("01.07.2021–31.12.2021");
    const res = await h.request(`/api/v1/inventory/2021/report/?format=xlsx&facility=${facility}`, { token: other });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const periodsPrinted = new Set<string>();
    workbook.getWorksheet("Источники")!.eachRow((row) => {
      const cells = (row.values as unknown[]).slice(1);
      if (cells[3] === "ВС-1 январь–июнь") periodsPrinted.add(String(cells[13]));
    });
    expect([...periodsPrinted]).toEqual(["01.01.2021–30.06.2021"]);
  }, 60_000);
});
