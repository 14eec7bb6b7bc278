import { describe, expect, it } from "vitest";
import { FORECAST_FEATURES } from "@core/registry";
import { checkTable, parseTable, type UploadedFile } from "../../files/tabular";
import { PREVIEW_ROWS } from "../../contract/schemas/upload-preview";
import { forecastRowsFromFile, forecastRowsFromTable, forecastSpec } from "./forecast";
import { readForecastCsv } from "./file";
import { previewUpload } from "../calculations/upload-preview";

const HEADER = ["Время", ...FORECAST_FEATURES, "y"];
const file = (text: string, name = "история.csv"): UploadedFile => ({ name, bytes: new TextEncoder().encode(text) });

/** A generated history: 10-minute date-times, decimal commas, some empty cells. */
function history(rows: number, seed = 7): string[][] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const start = Date.UTC(2025, 0, 1);
  const two = (n: number) => String(n).padStart(2, "0");
  return Array.from({ length: rows }, (_, r) => {
    const d = new Date(start + r * 600_000);
    const time = `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
    const features = FORECAST_FEATURES.map((f) =>
      random() < 0.02 ? "" : String(Math.round(random() * (f === "x1" ? 2000 : 0.9) * 1e4) / 1e4).replace(".", ","),
    );
    return [time, ...features, random() < 0.05 ? "" : String(Math.round(random() * 1.2 * 1e4) / 1e4).replace(".", ",")];
  });
}

const csvOf = (rows: string[][], header = HEADER, delimiter = ";", newline = "\n") =>
  [header, ...rows].map((r) => r.join(delimiter)).join(newline);

/** The general reader's rows and preview rows, to which the one-pass reader's must be equal. */
async function general(f: UploadedFile) {
  const spec = forecastSpec();
  const checked = await checkTable(f, spec);
  return {
    rows: forecastRowsFromTable(await parseTable(f, spec)),
    head: checked.rows.slice(0, PREVIEW_ROWS),
    headers: checked.headers,
    count: checked.rows.length,
  };
}

async function expectSameAsGeneral(f: UploadedFile) {
  const read = readForecastCsv(f, forecastSpec());
  expect(read).toBeDefined();
  const expected = await general(f);
  expect(read!.head).toEqual(expected.head);
  expect(read!.headers).toEqual(expected.headers);
  expect(read!.columns.count).toBe(expected.count);
  const rows = await forecastRowsFromFile(f);
  // The stored JSON is the same text: the same fields in the same order.
  expect(JSON.stringify(rows)).toBe(JSON.stringify(expected.rows));
  const preview = await previewUpload("regres_methane", f, {});
  expect(preview).toMatchObject({ format: "csv", sheet: "CSV", count: expected.count, errors: [] });
  expect(preview.rows).toEqual(expected.head);
}

describe("a forecast's CSV read in one pass into columns", () => {
  it("gives the general reader's rows, preview rows and headers for a generated history", async () => {
    await expectSameAsGeneral(file(csvOf(history(500))));
  });

  it("reads what people and monitoring systems write as the general reader does", async () => {
    const rows = history(40);
    rows[1][0] = "2025-01-01T00:10:00";
    rows[2][0] = "2025-01-01 00:20";
    rows[3][0] = "01.01.2025, 00:30:15";
    rows[4][0] = "1.1.2025";
    rows[5][0] = "45658,5"; // an Excel date-time written as a number
    rows[6][0] = "";
    rows[7][1] = "1 234,5"; // a typed group
    rows[8][2] = "NaN";
    rows[9][3] = "1.5e-3";
    rows[10][4] = "+0,25";
    rows[11][5] = "  0,125  ";
    rows[12] = rows[12].slice(0, 5); // a short line: the rest are empty cells
    await expectSameAsGeneral(file(`\ufeff${csvOf(rows, HEADER, ";", "\r\n")}\r\n\r\n;;;\r\n`));
    // Step numbers, commas, an id column (repeated and missing ids numbered as the general reader does).
    const steps = history(30).map((r, i) => [
      String(i % 7 === 0 ? 3 : i + 1),
      String(i * 10),
      ...r.slice(1).map((c) => c.replace(",", ".")),
    ]);
    await expectSameAsGeneral(file(csvOf(steps, ["id", "t", ...FORECAST_FEATURES, "y"], ",")));
    // Tabs, and the header's unit lost as Windows-1251 loses «³».
    const header = HEADER.map((h) => (h === "x13" ? "Расход воздуха в исходящей струе шахты, м?/мин" : h));
    const tabbed = csvOf(history(10), header, "\t");
    await expectSameAsGeneral(file(tabbed));
  });

  it("reads the barometric pressure where the history has it, as the general reader does, and refuses one out of bounds in words", async () => {
    const rows = history(60).map((r, i) => [...r, i === 7 ? "" : String(98 + Math.round(Math.sin(i / 9) * 1000) / 1000).replace(".", ",")]);
    const header = [...HEADER, "Барометрическое давление, кПа"];
    const f = file(csvOf(rows, header));
    await expectSameAsGeneral(f);
    const read = readForecastCsv(f, forecastSpec())!;
    expect(read.columns.pressure[0]).toBe(98);
    expect(Number.isNaN(read.columns.pressure[7])).toBe(true);
    const kept = await forecastRowsFromFile(f);
    expect(kept[1].p_atm).toBe(98 + Math.round(Math.sin(1 / 9) * 1000) / 1000);
    expect(kept[7]).not.toHaveProperty("p_atm");
    // Without the column no row has it.
    expect((await forecastRowsFromFile(file(csvOf(history(5))))).some((r) => "p_atm" in r)).toBe(false);
    rows[3][header.length - 1] = "250";
    const high = file(csvOf(rows, header));
    expect(readForecastCsv(high, forecastSpec())).toBeUndefined();
    await expect(forecastRowsFromFile(high)).rejects.toThrow(
      "Лист «CSV», строка 5, столбец «Барометрическое давление, кПа»: давление не больше 200 кПа",
    );
  });

  it("leaves to the general reader every file it would refuse or read otherwise, which answers as before", async () => {
    const cases: Array<[string, (rows: string[][]) => void]> = [
      ["a negative value", (rows) => (rows[3][2] = "-1")],
      ["a concentration above 100 %", (rows) => (rows[4][FORECAST_FEATURES.length + 1] = "101")],
      ["a text in a number cell", (rows) => (rows[5][7] = "нет")],
      ["a time that is none", (rows) => (rows[6][0] = "31.02.2025 10:00")],
      ["a time past midnight", (rows) => (rows[6][0] = "01.02.2025 24:00")],
      ["a year Date.UTC reads as 19xx", (rows) => (rows[6][0] = "01.02.0025 10:00")],
      ["a quoted cell", (rows) => (rows[2][1] = '"12,5"')],
    ];
    for (const [name, spoil] of cases) {
      const rows = history(20);
      spoil(rows);
      const f = file(csvOf(rows));
      expect(readForecastCsv(f, forecastSpec()), name).toBeUndefined();
      const refused = await parseTable(f, forecastSpec())
        .then((t) => forecastRowsFromTable(t))
        .then(
          (r) => ({ rows: JSON.stringify(r) }),
          (e: Error) => ({ error: e.message }),
        );
      const read = await forecastRowsFromFile(f).then(
        (r) => ({ rows: JSON.stringify(r) }),
        (e: Error) => ({ error: e.message }),
      );
      expect(read, name).toEqual(refused);
    }
    // File-wide problems: no data rows, a missing column, too many rows, an .xlsx.
    expect(readForecastCsv(file(HEADER.join(";")), forecastSpec())).toBeUndefined();
    expect(readForecastCsv(file(csvOf(history(3), HEADER.slice(0, 5))), forecastSpec())).toBeUndefined();
    expect(readForecastCsv(file(csvOf(history(5))), { ...forecastSpec(), maxRows: 4 })).toBeUndefined();
    expect(readForecastCsv(file(csvOf(history(5)), "история.xlsx"), forecastSpec())).toBeUndefined();
    await expect(forecastRowsFromFile(file(HEADER.join(";")))).rejects.toThrow("Лист «CSV»: нет строк с данными");
  });
});
