import { describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { MAX_TABULAR_UPLOAD_BYTES } from "../contract/schemas/uploads";
import { CSV_ENCODING_MESSAGE, decodeCsv, parseTable, plausibleCp1251, type TableSpec } from "./tabular";
import { checkZip } from "./zip-guard";
import { zipOf } from "../../../tests/support/zip";
import { encodeLegacy } from "../../../tests/support/legacy-encoding";

const spec: TableSpec = {
  maxRows: 100,
  columns: [
    { name: "year", required: true, kind: "number" },
    { name: "volume", required: true, kind: "number" },
    { name: "transport_fuel", required: false, kind: "number" },
    { name: "element", required: false, kind: "text" },
  ],
};

async function xlsx(rows: unknown[][], sheet = "Данные"): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const row of rows) ws.addRow(row);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

const csv = (text: string) => new TextEncoder().encode(text);

describe("parseTable", () => {
  it("reads an .xlsx by header names in any order, with empty cells as null", async () => {
    const bytes = await xlsx([
      ["Volume", "year", "element"],
      [1000, 2020, "Шахта 1"],
      [null, 2021, "Шахта 1"],
    ]);
    const table = await parseTable({ name: "ряд.xlsx", bytes }, spec);
    expect(table).toMatchObject({ format: "xlsx", sheet: "Данные" });
    expect(table.rows).toEqual([
      { row: 2, values: { year: 2020, volume: 1000, element: "Шахта 1" } },
      { row: 3, values: { year: 2021, volume: null, element: "Шахта 1" } },
    ]);
  });

  it("refuses a text cell longer than 255 characters, naming the sheet, row and column", async () => {
    const name = "ш".repeat(256);
    await expect(parseTable({ name: "a.csv", bytes: csv(`year;volume;element\n2020;1;ок\n2021;2;${name}\n`) }, spec)).rejects.toMatchObject(
      {
        detail: "Лист «CSV», строка 3, столбец «element»: текст длиннее 255 символов (256); сократите его",
      },
    );
    const fits = await parseTable({ name: "a.csv", bytes: csv(`year;volume;element\n2020;1;${name.slice(1)}\n`) }, spec);
    expect(fits.rows[0].values.element).toHaveLength(255);
  });

  it("reads a CSV with commas, and a Russian CSV with semicolons and decimal commas", async () => {
    const plain = await parseTable({ name: "a.csv", bytes: csv("year,volume\n2020,1.5\n2021,NaN\n") }, spec);
    expect(plain.rows.map((r) => r.values)).toEqual([
      { year: 2020, volume: 1.5 },
      { year: 2021, volume: null },
    ]);
    const russian = await parseTable({ name: "a.csv", bytes: csv('\ufeffyear;volume;element\r\n2020;"1 200,5";"Шахта; №1"\r\n') }, spec);
    expect(russian.rows[0].values).toEqual({ year: 2020, volume: 1200.5, element: "Шахта; №1" });
  });

  it("reads thousands grouped by spaces as the app's inputs do, and says how to write an ambiguous number", async () => {
    const grouped = await parseTable(
      { name: "a.csv", bytes: csv("year;volume\n2020;3 100\n2021;\u00a012\u00a0480,7504\n2022;1,5e3\n") },
      spec,
    );
    expect(grouped.rows.map((r) => r.values.volume)).toEqual([3100, 12480.7504, 1500]);
    await expect(parseTable({ name: "a.csv", bytes: csv("year;volume\n2020;1.250,5\n") }, spec)).rejects.toMatchObject({
      kind: "invalid",
      message: expect.stringMatching(/строка 2, столбец «volume».*отделяйте разряды пробелом/),
    });
  });

  it("names the sheet, row and column of a text in a number cell", async () => {
    const bytes = await xlsx([
      ["year", "volume"],
      [2020, 1],
      [2021, "много"],
    ]);
    await expect(parseTable({ name: "x.xlsx", bytes }, spec)).rejects.toMatchObject({
      kind: "invalid",
      detail: "Лист «Данные», строка 3, столбец «volume»: ожидается число, найдено «много»",
    });
  });

  it("names a missing required column", async () => {
    await expect(parseTable({ name: "x.csv", bytes: csv("year,amount\n2020,1\n") }, spec)).rejects.toMatchObject({
      kind: "invalid",
      detail: "Лист «CSV»: нет столбца «volume»",
    });
  });

  it("refuses an empty file, a file with a header only, and too many rows", async () => {
    await expect(parseTable({ name: "x.csv", bytes: new Uint8Array() }, spec)).rejects.toMatchObject({ kind: "invalid" });
    await expect(parseTable({ name: "x.xlsx", bytes: await xlsx([["year", "volume"]]) }, spec)).rejects.toMatchObject({
      detail: "Лист «Данные»: нет строк с данными",
    });
    const many = "year,volume\n" + Array.from({ length: 101 }, (_, i) => `${2000 + i},1`).join("\n");
    await expect(parseTable({ name: "x.csv", bytes: csv(many) }, spec)).rejects.toMatchObject({
      detail: "Лист «CSV»: слишком много строк, допускается не более 100",
    });
  });

  it("refuses a million-row CSV within the byte cap with 413, before reading it", async () => {
    const bytes = new Uint8Array(MAX_TABULAR_UPLOAD_BYTES + 1);
    await expect(parseTable({ name: "x.csv", bytes }, spec)).rejects.toMatchObject({ kind: "too_large" });
  });

  it("refuses other file types with 415, whatever their name", async () => {
    await expect(parseTable({ name: "x.pdf", bytes: csv("%PDF-1.7") }, spec)).rejects.toMatchObject({ kind: "unsupported_media" });
    await expect(parseTable({ name: "x.xlsx", bytes: csv("year,volume") }, spec)).rejects.toMatchObject({ kind: "unsupported_media" });
    await expect(parseTable({ name: "x.csv", bytes: await xlsx([["a"]]) }, spec)).rejects.toMatchObject({ kind: "unsupported_media" });
  });

  it("refuses a corrupt .xlsx with a clear 400", async () => {
    const bytes = await xlsx([
      ["year", "volume"],
      [1, 2],
    ]);
    const broken = bytes.slice(0, bytes.length - 40);
    await expect(parseTable({ name: "x.xlsx", bytes: broken }, spec)).rejects.toMatchObject({ kind: "invalid" });
  });
});

describe("CSV encodings", () => {
  // What Russian Excel's «CSV (разделители — точки с запятой)» writes: Windows-1251, «;», decimal
  // commas, CRLF, no BOM; a no-break space between thousands.
  const EXCEL = "year;volume;element\r\n2020;1\u00a0200,5;Шахта «Северная» №1\r\n2021;;Шахта «Северная» №1\r\n";

  it("has Node decode Windows-1251 (full ICU) as the code page says", () => {
    const bytes = encodeLegacy("Шахта №1 «ё»", "windows-1251");
    expect([...bytes.subarray(0, 5)]).toEqual([0xd8, 0xe0, 0xf5, 0xf2, 0xe0]);
    expect(bytes[6]).toBe(0xb9);
    expect(new TextDecoder("windows-1251").decode(new Uint8Array([0xc3, 0xee, 0xe4, 0xa8, 0xb8]))).toBe("ГодЁё");
  });

  it("reads UTF-8 with and without a BOM, and Windows-1251, to the same rows", async () => {
    const utf8 = csv(EXCEL);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
    const cp1251 = encodeLegacy(EXCEL, "windows-1251");
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(cp1251)).toThrow();
    for (const bytes of [utf8, bom, cp1251]) {
      expect(decodeCsv(bytes)).toBe(EXCEL);
      const table = await parseTable({ name: "Книга1.csv", bytes }, spec);
      expect(table.rows).toEqual([
        { row: 2, values: { year: 2020, volume: 1200.5, element: "Шахта «Северная» №1" } },
        { row: 3, values: { year: 2021, volume: null, element: "Шахта «Северная» №1" } },
      ]);
    }
  });

  it("takes Cyrillic headers, units and a Latin word among Cyrillic ones in Windows-1251", () => {
    const text = "Год;Выбросы CH4, т;Мощность, кВт;Примечание\r\n2020;12,5;1500;СН4 по данным АГК — 0,5 % (±0,1)\r\n";
    expect(decodeCsv(encodeLegacy(text, "windows-1251"))).toBe(text);
  });

  it("refuses a file in neither encoding with a clear message", async () => {
    const refused = { kind: "invalid", detail: CSV_ENCODING_MESSAGE };
    // KOI8-R and Windows-1252 decode to letters, but not to words.
    const koi8 = encodeLegacy("Год;Шахта;Метан;Примечание\n2020;Северная;10;нет данных\n", "koi8-r");
    expect(plausibleCp1251(new TextDecoder("windows-1251").decode(koi8))).toBe(false);
    await expect(parseTable({ name: "a.csv", bytes: koi8 }, spec)).rejects.toMatchObject(refused);
    const western = encodeLegacy("year;Größe;Maß\n2020;1;2\n", "windows-1252");
    await expect(parseTable({ name: "a.csv", bytes: western }, spec)).rejects.toMatchObject(refused);
    // Bytes that are no text (Windows-1251 maps them to Ђ, ‡, ¤ and controls).
    const junk = new Uint8Array([...csv("year;volume\n"), 0x80, 0x87, 0xa4, 0x98, 0x8f, 0x0a]);
    await expect(parseTable({ name: "a.csv", bytes: junk }, spec)).rejects.toMatchObject(refused);
    // Excel's «Текст Юникод» (UTF-16 with a BOM).
    const utf16 = new Uint8Array([0xff, 0xfe, ...[..."year"].flatMap((c) => [c.charCodeAt(0), 0])]);
    await expect(parseTable({ name: "a.txt", bytes: utf16 }, spec)).rejects.toMatchObject(refused);
    expect(CSV_ENCODING_MESSAGE).toMatch(/UTF-8.*Windows-1251/);
  });
});

describe("checkZip", () => {
  it("accepts a real workbook", async () => {
    expect(() => checkZip(new Uint8Array(0))).toThrow();
    checkZip(await xlsx([["year"], [1]]));
  });

  it("refuses a zip bomb from its declared sizes, without inflating it", () => {
    const bomb = zipOf({ "xl/worksheets/sheet1.xml": new Uint8Array(20 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(100_000);
    expect(() => checkZip(bomb)).toThrow(/слишком велик/);
  });
});
