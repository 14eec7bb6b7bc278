// D38: the passport describes what was burnt. A mine with a ventilation shaft (measured, gross), a
// drainage station whose volume is entered net (only what was vented), a flare by composition and a
// boiler on drained gas of 41,5 % CH4 and 2,8 % CO2, and a boiler on gas taken as pure methane: the
// passport (PDF text and xlsx cells) lists the shaft and the drainage under «Измерения (формула
// 3.1)» and the flare and the boilers apart with their own formula, volume, CH4 and CO2 contents and
// factor; the activity data print the mixture with its contents and «в т. ч. CH4», never «100 % CH4»
// for it; the balance reads gross (ventilation + drainage, the burnt gas included) = sent to burning
// + vented, with «уничтожено» the CH4 burnt only; a measured volume's tier is «Уровень 3».
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
let pdf: string;
let workbook: ExcelJS.Workbook;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown) => h.request(`/api/v1/${path}`, { method: "POST", token, json: body });

/** A sheet's rows as arrays of cell values (1-based columns dropped). */
function rowsOf(name: string): unknown[][] {
  const rows: unknown[][] = [];
  workbook.getWorksheet(name)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

const GAS = { p_co2: 1.8393, p_ch4: 0.668 };

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО «Сожженный газ»"));
  const mine = (await json<{ id: string }>(await post("facilities/", { name: "Шахта «Газовая»", kind: "underground_mine" }), 201)).id;
  const point = async (name: string, kind: string) =>
    (
      await json<{ id: string }>(
        await post(`facilities/${mine}/points/`, { name, kind, instrument: "Расходомер", frequency: "ежедневно" }),
        201,
      )
    ).id;
  const shaft = await point("ВС-1", "ventilation_shaft");
  const drainage = await point("ВДУ-1", "drainage_station");
  const flare = await point("Факел", "flare");
  const boiler = await point("Котельная", "boiler_engine");
  const engine = await point("ГПУ", "boiler_engine");
  const project = (
    await json<{ id: string }>(
      await post("projects/create_project/", { name: "Шахта 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: mine }),
      201,
    )
  ).id;
  const calc = (type: string, body: Record<string, unknown>) => post(`${type}/`, { project, ...body }).then((res) => json(res, 201));
  await calc("underground", { name: "Вентиляция", point: shaft, basis: "gross", volume: 400_000, ef_ch4: 0.5, ef_co2: 0.2, ...GAS });
  await calc("underground", {
    name: "Дегазация (выброшено)",
    point: drainage,
    basis: "net",
    volume: 5_000,
    ef_ch4: 41.5,
    ef_co2: 2.8,
    ...GAS,
  });
  await calc("torch_composition", {
    name: "Факел по составу",
    point: flare,
    volume: 4_000,
    w_ch4: 41.5,
    w_co2: 2.8,
    cf: 0.0006,
    ...GAS,
    dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
  });
  await calc("disposal_co2_stat_sources", {
    name: "Котельная на смеси",
    point: boiler,
    volume: 9_000,
    w_ch4: 41.5,
    w_co2: 2.8,
    dictionary_items: { get_disposal_co2_stat_sources: 8 },
  });
  await calc("disposal_co2_stat_sources", {
    name: "ГПУ на метане",
    point: engine,
    volume: 500,
    dictionary_items: { get_disposal_co2_stat_sources: 8 },
  });
  const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
  const res = await h.request("/api/v1/inventory/2025/report/?format=pdf", { token });
  expect(res.status).toBe(200);
  writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
  const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  pdf = out.stdout.replace(/[ \u00a0\u202f]+/g, " ");
  workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await (await h.request("/api/v1/inventory/2025/report/?format=xlsx", { token })).arrayBuffer()) as ArrayBuffer);
}, 60_000);
afterAll(() => h.close());

describe("the passport of a mine that burns its drained gas (D38)", () => {
  it("lists the measured releases under formula 3.1 and each device apart, with its own formula and the gas it burnt", () => {
    const measured = rowsOf("Измерения").slice(1);
    expect(measured.map((r) => r[1])).toEqual(["Вентиляция — источник «ВС-1»", "Дегазация (выброшено) — источник «ВДУ-1»"]);
    const burnt = rowsOf("Сжигание газа");
    expect(burnt[0]).toEqual(expect.arrayContaining(["Объем газовой смеси, тыс. м³", "CH4, % об.", "CO2, % об.", "в т. ч. CH4, тыс. м³"]));
    const device = (name: string) => burnt.find((r) => String(r[1]).startsWith(name))!;
    // Source, formula, volume, CH4 %, CO2 %, CH4 thousand m³, factor, value, note.
    expect(device("Факел по составу")[3]).toMatch(/^Приказ № 371, формулы 2\.1, 2\.2, 2\.4/);
    expect(device("Факел по составу").slice(7, 13)).toEqual([4000, 41.5, 2.8, 1660, "Коэффициент недожога (CF)", 0.0006]);
    expect(device("Котельная на смеси")[3]).toMatch(/^Приказ № 371, формулы 1\.1 и 1\.3 \(W_CH4 41,5 %, W_CO2 2,8 %\)/);
    expect(device("Котельная на смеси").slice(7, 13)).toEqual([9000, 41.5, 2.8, 3735, "Коэффициент окисления", 1]);
    expect(device("ГПУ на метане").slice(7, 14)).toEqual([500, 100, 0, 500, "Коэффициент окисления", 1, "газ принят за 100 % CH4"]);
    // The PDF says the same: the devices apart from formula 3.1, their contents printed.
    const devices = pdf.slice(pdf.indexOf("Сжигание каптированного газа (факелы, котельные, ГПУ)"));
    expect(devices).toContain("«Котельная на смеси — источник «Котельная»»");
    expect(devices).toMatch(/Содержание CH4 41,50* % об\./);
    expect(devices).toMatch(/Содержание CO2 2,80* % об\./);
    expect(devices).toMatch(/в т\. ч\. CH4 3 735,0+ тыс\. м³/);
    const measurements = pdf.slice(pdf.indexOf("Измерения (Приказ № 371, формула 3.1)"), pdf.indexOf("Сжигание каптированного газа"));
    expect(measurements).not.toContain("Котельная на смеси");
    expect(measurements).not.toContain("Факел по составу");
  });

  it("prints a mixture's volume with its contents and the CH4 in it, never «100 % CH4» for it", () => {
    const activity = rowsOf("Данные о деятельности").map((r) => [r[1], r[2], r[3]]);
    const at = activity.findIndex((r) => r[0] === "Топливо: Каптированный шахтный газ, смесь (CH4 41,5 % об., CO2 2,8 % об.)");
    expect(activity[at]).toEqual(["Топливо: Каптированный шахтный газ, смесь (CH4 41,5 % об., CO2 2,8 % об.)", 9000, "тыс. м³"]);
    expect(activity[at + 1]).toEqual(["в т. ч. CH4", 3735, "тыс. м³"]);
    // The pure-methane gas is its own row, not added to the mixture.
    expect(activity).toContainEqual(["Топливо: Каптированный шахтный метан (100 % CH4)", 500, "тыс. м³"]);
    const flared = activity.findIndex(
      (r) => r[0] === "Газовая смесь, сожженная на факельных установках: смесь (CH4 41,5 % об., CO2 2,8 % об.)",
    );
    expect(activity[flared + 1]).toEqual(["в т. ч. CH4", 1660, "тыс. м³"]);
    const measured = activity.findIndex((r) => r[0] === "Газовая смесь из систем дегазации и вентиляции (измеренный объем)");
    expect(activity[measured][1]).toBe(405_000);
    expect(activity[measured + 1][1]).toBeCloseTo(400_000 * 0.005 + 5_000 * 0.415, 9);
    expect(pdf).not.toMatch(/смесь.*100 % CH4/);
  });

  it("balances gross = sent to burning + vented, whatever basis the drainage used; «уничтожено» is the CH4 burnt only", () => {
    const rows = new Map(
      rowsOf("Баланс метана")
        .slice(1)
        .map((r) => [r[1] as string, r[2] as number]),
    );
    const gross = rows.get("при добыче, валовое (вентиляция и дегазация, включая направленное на сжигание)")!;
    const sent = rows.get("из него направлено на сжигание (факелы, котельные, ГПУ)")!;
    const vented = rows.get("из него выброшено без сжигания (вентиляция и дегазация)")!;
    // Ventilation 1 336 t and drainage vented 1 386,1 t, sent 443,488 + 994,98 + 334 t.
    expect(vented).toBeCloseTo((400_000 * 0.5 * 0.668) / 100 + (5_000 * 41.5 * 0.668) / 100, 6);
    expect(sent).toBeCloseTo((4_000 * 41.5 * 0.668) / 100 + (9_000 * 41.5 * 0.668) / 100 + 500 * 0.668, 6);
    expect(gross).toBeCloseTo(sent + vented, 9);
    expect(gross).toBeGreaterThanOrEqual(sent);
    expect(rows.get("в том числе на факелы")! + rows.get("в том числе в котельные и ГПУ")!).toBeCloseTo(sent, 9);
    expect(rows.get("уничтожено (метан сожжен)")! + rows.get("не сгорело на факелах (строка 1.B.1.a.i.4)")!).toBeCloseTo(sent, 9);
    // One word per quantity: «уничтожено» labels the CH4 burnt and nothing else, in every section.
    expect(pdf.match(/уничтожено/gi)).toHaveLength(1);
  });

  it("gives a measured volume its tier in «Источники»: Уровень 3", () => {
    const sources = rowsOf("Источники");
    const volume = sources.find((r) => r[3] === "Вентиляция" && r[6] === "Данные о деятельности")!;
    expect(volume[11]).toBe("Уровень 3 (измерения организации)");
  });
});
