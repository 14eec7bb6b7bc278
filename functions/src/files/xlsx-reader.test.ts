// The upload reader against exceljs's streaming reader (what tabular.ts used before): workbooks
// written by exceljs must read the same, value for value. Then hand-written parts for what exceljs
// never writes, and hostile input.
import { describe, expect, it, vi } from "vitest";
import ExcelJS from "exceljs";
import fc from "fast-check";
import { Readable } from "node:stream";
import { badFile, FileRefused } from "./errors";
import { parseTable, readXlsx, xlsxReadDeadline, type RawTable } from "./tabular";
import { zipOf } from "../../../tests/support/zip";
import { bySize } from "../../../tests/support/depth";

const CORRUPT = "Файл поврежден: не удалось прочитать книгу Excel (.xlsx)";
const TOO_COMPLEX = "Книга Excel слишком сложна для обработки: сократите файл или сохраните его в CSV";

/** The reader with a deadline that never passes: what it refuses, it refuses for what the file holds,
 *  not for how busy the machine is. */
const unhurried = (bytes: Uint8Array, maxRows: number) => readXlsx(bytes, maxRows, () => false);

/** A deadline that passes after `checks` inflated chunks: the reader's work counted, not timed. */
function afterChunks(checks: number) {
  let asked = 0;
  return () => ++asked > checks;
}

// ---- exceljs, read as tabular.ts read it before -------------------------------------------------

async function readWithExceljs(bytes: Uint8Array, maxRows: number): Promise<RawTable> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(Buffer.from(bytes)), {
    sharedStrings: "cache",
    hyperlinks: "ignore",
    styles: "ignore",
    worksheets: "emit",
    entries: "ignore",
  });
  try {
    for await (const worksheet of reader) {
      const sheet = (worksheet as unknown as { name?: string }).name ?? "Лист1";
      let header: string[] | undefined;
      const lines: Array<[number, unknown[]]> = [];
      for await (const row of worksheet) {
        const cells = (row.values as unknown[]).slice(1).map(exceljsValue);
        if (cells.every((c) => c === null || c === "")) continue;
        if (!header) {
          header = cells.map((c) => String(c ?? "").trim());
          continue;
        }
        if (lines.length >= maxRows) throw badFile(`Лист «${sheet}»: слишком много строк, допускается не более ${maxRows}`);
        lines.push([row.number, cells]);
      }
      if (!header) throw badFile(`Лист «${sheet}»: нет строки заголовков`);
      return { sheet, header, lines };
    }
  } catch (error) {
    if (error instanceof FileRefused) throw error;
    throw badFile("Файл поврежден: не удалось прочитать книгу Excel (.xlsx)");
  }
  throw badFile("Книга Excel не содержит листов");
}

function exceljsValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "object") {
    const v = value as { result?: unknown; text?: unknown; richText?: Array<{ text: string }>; error?: unknown };
    if ("result" in v) return exceljsValue(v.result);
    if (v.richText) return v.richText.map((t) => t.text).join("");
    if ("text" in v) return String(v.text);
    if ("error" in v) return String(v.error);
    if (value instanceof Date) return value.toISOString().slice(0, 10);
  }
  return value;
}

/** The table, or the error's text; sparse arrays made dense so both readers compare. */
async function outcome(read: Promise<RawTable>): Promise<unknown> {
  try {
    const { sheet, header, lines } = await read;
    const dense = (cells: unknown[]) => Array.from(cells, (c) => (c === undefined ? null : c));
    return { sheet, header: dense(header), lines: lines.map(([row, cells]) => [row, dense(cells)]) };
  } catch (error) {
    if (error instanceof FileRefused) return { error: error.detail };
    throw error;
  }
}

async function written(sheets: Array<[string, Array<[number, number, ExcelJS.CellValue]>]>, useSharedStrings = true): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  for (const [name, cells] of sheets) {
    const ws = wb.addWorksheet(name);
    for (const [row, column, value] of cells) ws.getRow(row).getCell(column).value = value;
  }
  return new Uint8Array(await wb.xlsx.writeBuffer({ useSharedStrings } as Parameters<typeof wb.xlsx.writeBuffer>[0]));
}

async function expectSameAsExceljs(bytes: Uint8Array, maxRows = 100): Promise<unknown> {
  const ours = await outcome(unhurried(bytes, maxRows));
  let theirs = await outcome(readWithExceljs(bytes, maxRows));
  // Without xl/sharedStrings.xml, exceljs's reader now and then fails on a race of its own
  // ("Cannot read properties of undefined (reading 'sheets')", about 1 read in 100 on a quiet
  // machine, several in a row on a busy one): read again, until it reads or fails 50 times.
  for (let retry = 0; retry < 50 && (theirs as { error?: string }).error === CORRUPT; retry++) {
    theirs = await outcome(readWithExceljs(bytes, maxRows));
  }
  expect(ours).toEqual(theirs);
  return ours;
}

const grid = (rows: ExcelJS.CellValue[][]): Array<[number, number, ExcelJS.CellValue]> =>
  rows.flatMap((row, r) => row.map((value, c): [number, number, ExcelJS.CellValue] => [r + 1, c + 1, value]));

describe("readXlsx against exceljs", () => {
  const rows: ExcelJS.CellValue[][] = [
    [null, null],
    ["year", "volume", "element", "Примечание <&>", "flag", "err", "when", "calc"],
    [
      2020,
      1000,
      "Шахта «Северная»",
      "кавычки \"x\" & 'y'",
      true,
      { error: "#N/A" },
      new Date(Date.UTC(2020, 0, 15)),
      { formula: "B3*2", result: 2000 },
    ],
    [
      2021,
      -12.5,
      { richText: [{ text: "Шахта ", font: { bold: true } }, { text: "Южная" }] },
      "  пробелы  ",
      false,
      { error: "#DIV/0!" },
      null,
      { formula: 'C3&"!"', result: "Шахта!" },
    ],
    [],
    [2022, 1.5e-7, null, "a < b > c", null, null, new Date(Date.UTC(1999, 11, 31)), { formula: "B5+1", result: -3.25e21 }],
    [null, null, null, null, null, null, null, null, "далеко справа"],
  ];
  const second = grid([
    ["не", "этот"],
    [1, 2],
  ]);

  it("reads the first sheet of a workbook with every kind of value the same, with shared strings", async () => {
    const table = await expectSameAsExceljs(
      await written([
        ["Данные 2020", grid(rows)],
        ["Второй", second],
      ]),
    );
    expect(table).toMatchObject({
      sheet: "Данные 2020",
      header: ["year", "volume", "element", "Примечание <&>", "flag", "err", "when", "calc"],
    });
    expect((table as RawTable).lines.map(([row]) => row)).toEqual([3, 4, 6, 7]);
    expect((table as RawTable).lines[0][1]).toEqual([2020, 1000, "Шахта «Северная»", "кавычки \"x\" & 'y'", true, "#N/A", 43845, 2000]);
  });

  it("reads the same with inline strings", async () => {
    // exceljs's reader keeps only the last run of inline rich text, so one run here.
    const inline = rows.map((row) =>
      row.map((v) => (v && typeof v === "object" && "richText" in v ? { richText: v.richText.slice(1) } : v)),
    );
    await expectSameAsExceljs(
      await written(
        [
          ["Лист & <данные>", grid(inline)],
          ["Второй", second],
        ],
        false,
      ),
    );
  });

  it("gives the same errors for a sheet without a header and for too many rows", async () => {
    const blank = await expectSameAsExceljs(
      await written([
        ["Пустой", [[3, 2, ""]]],
        ["Второй", second],
      ]),
    );
    expect(blank).toEqual({ error: "Лист «Пустой»: нет строки заголовков" });
    const many = await expectSameAsExceljs(await written([["Данные", grid(rows)]]), 2);
    expect(many).toEqual({ error: "Лист «Данные»: слишком много строк, допускается не более 2" });
  });

  it("reads random grids the same (property)", async () => {
    const chars = fc.constantFrom(..."aZ09 .,-ЖжЁё«»<>&\"';#№\t\n\r_".split(""), "&amp;", "&#x41;", "_x000D_");
    const text = (shared: boolean) =>
      fc
        .string({ unit: chars, maxLength: 6 })
        // exceljs decodes entities in str/inlineStr values twice; no such text outside shared strings.
        .filter((s) => shared || !/&(lt|gt|amp|apos|quot);/.test(s));
    const number = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const value = (shared: boolean): fc.Arbitrary<ExcelJS.CellValue> =>
      fc.oneof(
        fc.constant(null),
        number,
        text(shared),
        fc.boolean(),
        fc
          .constantFrom("#N/A", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!")
          .map((error) => ({ error }) as ExcelJS.CellErrorValue),
        fc
          .array(text(shared), { minLength: 1, maxLength: shared ? 3 : 1 })
          .map((runs) => ({ richText: runs.map((t, i) => ({ text: t, font: i % 2 ? { italic: true } : undefined })) })),
        // exceljs's reader loses a falsy cached result (0, "") and decodes a string one twice.
        fc
          .oneof(
            number.filter((n) => n !== 0),
            text(false).filter((s) => s !== ""),
          )
          .map((result) => ({ formula: "A1", result }) as ExcelJS.CellFormulaValue),
        fc.date({ min: new Date("1900-03-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
      );
    const cells = (shared: boolean) =>
      fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 7 }), value(shared)), { maxLength: 40 });
    const sheetName = fc.constantFrom("Данные", "Лист 1", "A & B", "<меньше>", 'Кавычки "x"', "Sheet1");
    await fc.assert(
      fc.asyncProperty(
        fc.boolean().chain((shared) => fc.tuple(fc.constant(shared), sheetName, cells(shared), cells(shared))),
        fc.integer({ min: 1, max: 12 }),
        async ([shared, name, first, second], maxRows) => {
          await expectSameAsExceljs(
            await written(
              [
                [name, first],
                ["Второй", second],
              ],
              shared,
            ),
            maxRows,
          );
        },
      ),
      // The same seed's first 20 grids in the unit tier, its 60 in the deep tier (vitest.config.ts's SIZED_TESTS).
      { seed: 20250101, numRuns: bySize(20, 60), endOnFailure: true },
    );
  }, 60_000);
});

// ---- Hand-written parts -------------------------------------------------------------------------

const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const sheetXml = (rows: string) =>
  `${XML}<worksheet ${MAIN} xmlns:r="${REL}"><dimension ref="A1"/><sheetData>${rows}</sheetData><pageMargins left="0.7"/></worksheet>`;
const stringsXml = (items: string) => `${XML}<sst ${MAIN}>${items}</sst>`;

/** A workbook whose sheets are listed in the given order, each with its own part name. */
function book(sheets: Array<{ name: string; part: string; xml?: string; type?: string }>, extra: Record<string, string> = {}): Uint8Array {
  const rels = sheets.map((s, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/${s.type ?? "worksheet"}" Target="${s.part}"/>`).join("");
  const listed = sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("");
  const files: Record<string, string> = {
    "_rels/.rels": `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `${XML}<workbook ${MAIN} xmlns:r="${REL}"><sheets>${listed}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  };
  for (const s of sheets) if (s.xml !== undefined) files[`xl/${s.part}`] = s.xml;
  return zipOf({ ...files, ...extra });
}

const oneSheet = (rows: string, strings = "", name = "Данные") =>
  book([{ name, part: "worksheets/sheet1.xml", xml: sheetXml(rows) }], strings ? { "xl/sharedStrings.xml": stringsXml(strings) } : {});

/** Letters that do not compress away (a part deflated more than 250 times is refused before reading). */
function noise(length: number): string {
  let seed = 12345;
  return Array.from({ length }, () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return String.fromCharCode(97 + ((seed >>> 16) % 26));
  }).join("");
}

describe("readXlsx on hand-written parts", () => {
  it("places cells without a reference after the previous cell, and rows without a number after the previous row", async () => {
    const bytes = oneSheet(
      '<row r="2"><c t="inlineStr"><is><t>year</t></is></c><c r="D2" t="inlineStr"><is><t>volume</t></is></c><c t="inlineStr"><is><t>x</t></is></c></row>' +
        "<row><c><v>2020</v></c><c/><c/><c><v>5</v></c></row>" +
        '<row r="7"><c r="B7"><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c></row>',
    );
    const table = await unhurried(bytes, 10);
    expect(await outcome(Promise.resolve(table))).toEqual({
      sheet: "Данные",
      header: ["year", null, null, "volume", "x"],
      lines: [
        [3, [2020, null, null, 5]],
        [7, [null, 1, 2]],
        [8, [3]],
      ],
    });
  });

  it("keeps spaces of xml:space=preserve, joins rich text runs and leaves out phonetic runs", async () => {
    const strings =
      '<si><t xml:space="preserve">  два  пробела </t></si>' +
      '<si><r><rPr><b/><sz val="11"/></rPr><t>Шах</t></r><r><t xml:space="preserve">та 1</t></r></si>' +
      '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>' +
      "<si><t/></si>";
    const bytes = oneSheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>' +
        '<row r="2"><c r="A2" t="inlineStr"><is><r><t>a</t></r><r><rPr><i/></rPr><t xml:space="preserve"> b</t></r><rPh sb="0" eb="1"><t>ア</t></rPh></is></c></row>',
      strings,
    );
    const table = await unhurried(bytes, 10);
    expect(table.header).toEqual(["два  пробела", "Шахта 1", "東京"]);
    expect(table.lines).toEqual([[2, ["a b"]]]);
  });

  it("decodes entity and character references and CDATA, in text and in the sheet name", async () => {
    const bytes = oneSheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>&#x41;&#1044;&amp;&lt;&gt;&quot;&apos;&#x1F600;</t></is></c>' +
        '<c r="C1" t="str"><f>"&lt;"</f><v>&lt;b&gt;</v></c><c r="D1" t="inlineStr"><is><t><![CDATA[<как есть> &amp;]]></t></is></c></row>',
      "<si><t>Ж&amp;amp;</t></si>",
      "&#x41;&amp;&#1041; &quot;1&quot;",
    );
    const table = await unhurried(bytes, 10);
    expect(table.sheet).toBe('A&Б "1"');
    expect(table.header).toEqual(["Ж&amp;", "AД&<>\"'😀", "<b>", "<как есть> &amp;"]);
  });

  it("reads every cell type, a formula by its cached result and a formula without one as empty", async () => {
    const bytes = oneSheet(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>h</t></is></c></row>' +
        '<row r="2"><c r="A2"><v>-1.25E-3</v></c><c r="B2" t="n"><v>42</v></c><c r="C2" t="b"><v>1</v></c><c r="D2" t="b"><v>0</v></c>' +
        '<c r="E2" t="e"><v>#N/A</v></c><c r="F2" t="str"><v>текст</v></c><c r="G2" t="d"><v>2021-03-04T00:00:00</v></c>' +
        '<c r="H2"><f>SUM(A1:A2)</f></c><c r="I2" s="3"><v>44197</v></c><c r="J2"><v></v></c></row>' +
        // Formula results exceljs lost (read back as an object): 0, "", FALSE, an error.
        '<row r="3"><c r="A3"><f>1-1</f><v>0</v></c><c r="B3" t="str"><f>""</f><v></v></c><c r="C3" t="b"><f>1&gt;2</f><v>0</v></c>' +
        '<c r="D3" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="E3" t="b"><f>TRUE()</f><v>1</v></c><c r="F3"><f t="shared" si="0"/><v>7</v></c></row>',
    );
    const table = await unhurried(bytes, 10);
    expect(await outcome(Promise.resolve(table))).toMatchObject({
      lines: [
        [2, [-0.00125, 42, true, false, "#N/A", "текст", "2021-03-04", null, 44197]],
        [3, [0, "", false, "#DIV/0!", true, 7]],
      ],
    });
  });

  it("reads numbers typed as text with a decimal comma, shared (one string for two cells) or inline, as numbers", async () => {
    const bytes = oneSheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>дата</t></is></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="inlineStr"><is><t>1 234,5</t></is></c><c r="C2" t="d"><v>2024-12-31T00:00:00Z</v></c></row>' +
        '<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3" t="str"><v>-0,25</v></c></row>',
      "<si><t>a</t></si><si><t>b</t></si><si><t>12,5</t></si>",
    );
    const spec = {
      maxRows: 10,
      columns: [
        { name: "a", required: true, kind: "number" as const },
        { name: "b", required: true, kind: "number" as const },
        { name: "дата", required: true, kind: "text" as const },
      ],
    };
    const table = await parseTable({ name: "данные.xlsx", bytes }, spec);
    expect(table.rows).toEqual([
      { row: 2, values: { a: 12.5, b: 1234.5, дата: "2024-12-31" } },
      { row: 3, values: { a: 12.5, b: -0.25, дата: null } },
    ]);
  });

  it("reads the first sheet in workbook order, not by part name, and skips a chart sheet", async () => {
    const bytes = book(
      [
        { name: "Диаграмма", part: "chartsheets/sheet1.xml", type: "chartsheet", xml: `${XML}<chartsheet ${MAIN}/>` },
        { name: "Первый", part: "worksheets/sheet2.xml" },
        { name: "Второй", part: "/xl/worksheets/sheet1.xml" },
      ],
      {
        "xl/worksheets/sheet1.xml": sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>второй</t></is></c></row>'),
        "xl/worksheets/sheet2.xml": sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>первый</t></is></c></row>'),
      },
    );
    const table = await unhurried(bytes, 10);
    expect(table).toMatchObject({ sheet: "Первый", header: ["первый"] });
  });

  it("reads namespace-prefixed elements and finds parts whatever their case", async () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const xml = `${XML}<x:worksheet ${ns}><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c></x:row></x:sheetData></x:worksheet>`;
    const bytes = book([{ name: "X", part: "worksheets/Sheet1.xml" }], {
      "xl/worksheets/sheet1.xml": xml,
      "xl/SharedStrings.xml": `${XML}<x:sst ${ns}><x:si><x:t>prefixed</x:t></x:si></x:sst>`,
    });
    expect((await unhurried(bytes, 10)).header).toEqual(["prefixed"]);
  });

  it("without a workbook part, reads the first worksheet part in the archive", async () => {
    const bytes = zipOf({
      "xl/worksheets/sheet3.xml": sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>три</t></is></c></row>'),
      "xl/worksheets/sheet1.xml": sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>один</t></is></c></row>'),
    });
    expect(await unhurried(bytes, 10)).toMatchObject({ sheet: "Sheet3", header: ["три"] });
  });

  it("refuses a workbook whose first sheet's part is missing", async () => {
    const bytes = book([{ name: "Нет", part: "worksheets/sheet1.xml" }], { "xl/worksheets/sheet2.xml": sheetXml("") });
    await expect(unhurried(bytes, 10)).rejects.toMatchObject({ kind: "invalid", detail: CORRUPT });
  });

  it("refuses a truncated or corrupt archive", async () => {
    const bytes = oneSheet('<row r="1"><c r="A1"><v>1</v></c></row>');
    for (const broken of [bytes.slice(0, bytes.length - 30), bytes.slice(0, 200), bytes.map((b, i) => (i > 60 && i < 90 ? b ^ 0x55 : b))]) {
      await expect(unhurried(broken, 10)).rejects.toMatchObject({ kind: "invalid", detail: expect.stringMatching(/^Файл поврежден/) });
    }
  });

  it("refuses malformed parts as a damaged file", async () => {
    const malformed = [
      '<row r="1"><c r="A1"><v>1</v></row>',
      '<row r="1"><c r="A1" t="s"><v>5</v></c></row>',
      '<row r="1"><c r="XFE1"><v>1</v></c></row>',
      '<row r="1"><c r="a1"><v>1</v></c></row>',
      '<row r="1048577"><c r="A1"><v>1</v></c></row>',
      '<row r="1"><c r="A1"><v>1x</v></c></row>',
      '<row r="1"><c r="A1" t="inlineStr"><is><t>&nbsp;</t></is></c></row>',
      '<row r="1"><c r="A1" t="inlineStr"><is><t>&#0;</t></is></c></row>',
      '<row r="1"><c r=A1><v>1</v></c></row>',
      "<row><row></row></row>",
    ];
    for (const rows of malformed) {
      await expect(unhurried(oneSheet(rows), 10), rows).rejects.toMatchObject({ detail: CORRUPT });
    }
    const doctype = `${XML}<!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet ${MAIN}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&a;</t></is></c></row></sheetData></worksheet>`;
    await expect(unhurried(book([{ name: "D", part: "worksheets/sheet1.xml", xml: doctype }]), 10)).rejects.toMatchObject({
      detail: CORRUPT,
    });
    const unfinished = book([
      { name: "U", part: "worksheets/sheet1.xml", xml: `${XML}<worksheet ${MAIN}><sheetData><row r="1"><c r="A1"><v>1</v></c></row>` },
    ]);
    await expect(unhurried(unfinished, 10)).rejects.toMatchObject({ detail: CORRUPT });
  });

  it("refuses a huge unfinished tag and deep nesting as damaged, before reading all of the part", async () => {
    const longTag = `${XML}<worksheet ${MAIN}><sheetData><row r="1" x="${noise(1_500_000)}`;
    const names = Array.from({ length: 300 }, (_, i) => `e${i}${noise(3)}`);
    const deep = `${XML}<worksheet ${MAIN}>${names.map((n) => `<${n}>`).join("")}${names
      .reverse()
      .map((n) => `</${n}>`)
      .join("")}</worksheet>`;
    for (const xml of [longTag, deep]) {
      // The part inflates in chunks of 64 KB: the long tag meets the 1 MB cap on unfinished markup in
      // its 17th of 23, so a reader that went on to the part's end would be refused at the 21st.
      await expect(readXlsx(book([{ name: "H", part: "worksheets/sheet1.xml", xml }]), 10, afterChunks(20))).rejects.toMatchObject({
        detail: CORRUPT,
      });
    }
  });

  it("refuses a workbook still being read when its deadline passes, and reads it with time to", async () => {
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c><c r="B${i + 2}" t="inlineStr"><is><t>${noise(40)}</t></is></c></row>`,
    );
    const bytes = oneSheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row>${rows.join("")}`);
    await expect(readXlsx(bytes, 5000, afterChunks(1))).rejects.toMatchObject({ kind: "invalid", detail: TOO_COMPLEX });
    expect((await readXlsx(bytes, 5000, afterChunks(100))).lines).toHaveLength(3000);
  });

  it("gives a workbook 2 s of the wall clock in the product", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 27, 12) });
    try {
      const passed = xlsxReadDeadline();
      vi.advanceTimersByTime(2000);
      expect(passed()).toBe(false);
      vi.advanceTimersByTime(1);
      expect(passed()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says a workbook has no sheets, and a sheet of blank rows has no header", async () => {
    await expect(unhurried(book([]), 10)).rejects.toMatchObject({ detail: "Книга Excel не содержит листов" });
    const blank = oneSheet('<row r="1"><c r="A1" t="inlineStr"><is><t></t></is></c></row><row r="2"/>', "", "Пусто");
    await expect(unhurried(blank, 10)).rejects.toMatchObject({ detail: "Лист «Пусто»: нет строки заголовков" });
  });

  it("stops reading at the row limit", async () => {
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row><row r="3"><c r="A3"><v>2</v></c></row>';
    // Well past the fourth row (in a later inflated chunk) the part is broken: only a reader that
    // stops at the limit gives the row error.
    const xml = `${XML}<worksheet ${MAIN}><sheetData>${rows}<row r="4"><c r="A4"><v>3</v></c></row><!--${noise(200_000)}--><row><row>`;
    const bytes = book([{ name: "Данные", part: "worksheets/sheet1.xml", xml }]);
    await expect(unhurried(bytes, 2)).rejects.toMatchObject({ detail: "Лист «Данные»: слишком много строк, допускается не более 2" });
    await expect(unhurried(bytes, 10)).rejects.toMatchObject({ detail: CORRUPT });
  });

  it("refuses a cell longer than Excel allows, shared or inline, before reading all of it", async () => {
    const long = noise(40_000);
    const shared = oneSheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', `<si><t>${long}</t></si>`);
    await expect(unhurried(shared, 10)).rejects.toMatchObject({ detail: expect.stringContaining("длиннее 32 767 символов") });
    const inline = oneSheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>${long}</t></is></c></row>`);
    await expect(unhurried(inline, 10)).rejects.toMatchObject({ detail: expect.stringContaining("длиннее 32 767 символов") });
    const fits = oneSheet(
      `<row r="1"><c r="A1" t="inlineStr"><is><t>${long.slice(0, 32_767)}</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>`,
    );
    expect((await unhurried(fits, 10)).header[0]).toHaveLength(32_767);
  });

  it("counts blank rows toward the row limit, and refuses a row with more cells than columns", async () => {
    const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row>';
    const blankRows = Array.from({ length: 10_050 }, (_, i) => `<row r="${i + 2}" spans="1:${(i * 7919) % 97}"/>`).join("");
    const blanks = oneSheet(header + blankRows + "<row><c><v>1</v></c></row>");
    await expect(unhurried(blanks, 40)).rejects.toMatchObject({ detail: "Лист «Данные»: слишком много строк, допускается не более 40" });
    expect((await unhurried(blanks, 100)).lines).toHaveLength(1);
    const wide = oneSheet(
      `${header}<row r="2">${Array.from({ length: 16_385 }, (_, i) => `<c r="A2" s="${(i * 7919) % 97}"/>`).join("")}</row>`,
    );
    await expect(unhurried(wide, 10)).rejects.toMatchObject({ detail: CORRUPT });
  });

  it("reads the same wherever the inflated chunks split tags, references, line ends and UTF-8", async () => {
    const row = (n: number) =>
      `<row r="${n}"><c r="A${n}" t="inlineStr"><is><t>Ж&amp;&#x41;\r\n${n}😀</t></is></c><c r="B${n}"><v>${n}.5</v></c></row>`;
    const body = Array.from({ length: 1500 }, (_, i) => row(i + 2)).join("");
    for (let pad = 0; pad < 120; pad += 3) {
      const xml = sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>${body}`).replace(
        "<sheetData>",
        `<!--${" ".repeat(pad)}--><sheetData>`,
      );
      const table = await unhurried(book([{ name: "S", part: "worksheets/sheet1.xml", xml }]), 2000);
      expect(table.lines).toHaveLength(1500);
      // One comparison of all the rows (a mismatch is shown by row).
      expect(table.lines.map(([, cells]) => cells)).toEqual(table.lines.map(([n]) => [`Ж&A\n${n}😀`, n + 0.5]));
    }
  });
});

describe("parseTable on hostile cells", () => {
  it("checks a long run of digits for a number in linear time", async () => {
    const bytes = new TextEncoder().encode(`year,volume\n2020,${"1".repeat(200_000)}x\n`);
    const started = performance.now();
    await expect(
      parseTable(
        { name: "x.csv", bytes },
        {
          maxRows: 10,
          columns: [
            { name: "year", required: true, kind: "number" },
            { name: "volume", required: true, kind: "number" },
          ],
        },
      ),
    ).rejects.toMatchObject({ kind: "invalid" });
    // A check linear in the cell takes a millisecond; a backtracking one (an unanchored pattern over
    // these digits) ran past two minutes. The bound is the gap between them, not a figure of speed.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
