// Exports never turn user text into a formula, and download names are safe for any project name.
// A project and calculations named like formulas (the classic CSV/DDE injection strings) are
// exported to xlsx (read back with exceljs and as raw XML) and xls (read back with SheetJS — in
// this test only, on our own output); every such text must be a plain string cell and no cell
// anywhere may carry a formula. Every text cell that starts with = + - @, a tab or a CR also carries
// the quote prefix (OWASP, CSV injection), so that editing it in Excel keeps it text: quotePrefix="1"
// on its cellXfs entry in xlsx, the f123Prefix bit of its XF record in xls (the BIFF8 records are
// walked here); numbers, negative ones included, and other texts do not. Then Content-Disposition is checked as a property over arbitrary
// names (quotes, CR/LF, slashes, format characters, lone surrogates, any Unicode), directly and
// through the export route.
import ExcelJS from "exceljs";
import fc from "fast-check";
import JSZip from "jszip";
import * as XLSX from "xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cell, Sheet } from "@server/export/content";
import { writeXls } from "@server/export/xls-writer";
import { writeXlsx } from "@server/export/xlsx-writer";
import { attachmentDisposition } from "@server/files/file-names";
import { bySize } from "../support/depth";
import { createHarness, type Harness } from "../support/harness";
import { calculationForm } from "../support/tenant-objects";

const INJECTIONS = [
  "=cmd|' /C calc'!A0",
  "+1",
  "-1",
  "@SUM(1)",
  "=1+1",
  "+cmd|' /C calc'!A0",
  "-2+3",
  '=HYPERLINK("http://evil.example","x")',
];
const FORMULA_START = /^[=+\-@]/;
/** What a spreadsheet could take for the start of a formula when the cell is edited. */
const QUOTED_START = /^[=+\-@\t\r]/;
const decodeXml = (text: string) =>
  text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]!);

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;
let projectId: string;

beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser();
  const project = await h.request("/api/v1/projects/create_project/", {
    method: "POST",
    token: user.token,
    json: { name: INJECTIONS[0], start_date: "2024-01-01", end_date: "2024-12-31" },
  });
  expect(project.status).toBe(201);
  projectId = ((await project.json()) as { id: string }).id;
  for (const name of INJECTIONS) {
    const res = await h.request("/api/v1/open_mining_co2/", {
      method: "POST",
      token: user.token,
      json: { name, project: projectId, volume: 10, ef: 3.149 },
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  // Text that comes from an uploaded file: element names of a series and the file's own name.
  const csv = [
    "year,element,value",
    ...INJECTIONS.flatMap((e, i) => [`2020,"${e.replace(/"/g, '""')}",${i + 1}`, `2021,"${e.replace(/"/g, '""')}",`]),
  ].join("\n");
  const form = calculationForm(
    { name: "@SUM(1)", project: projectId, name_value: "value", name_element: "element" },
    { name: "=1+1.csv", text: csv },
  );
  const series = await h.request("/api/v1/filling_blanks/", { method: "POST", token: user.token, body: form });
  expect(series.status, await series.clone().text()).toBe(201);
}, 60_000);
afterAll(() => h.close());

async function exported(format: "xlsx" | "xls", detail: boolean): Promise<{ bytes: Uint8Array; disposition: string }> {
  const res = await h.request(`/api/v1/projects/${projectId}/export_to_${format}/${detail ? "?detail=true" : ""}`, { token: user.token });
  expect(res.status).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), disposition: res.headers.get("content-disposition")! };
}

// ---- Reading the quote prefix back --------------------------------------------------------------

interface ReadCell {
  where: string;
  value: string | number;
  quoted: boolean;
}

/** Every cell of an xlsx with its value and whether its style has quotePrefix, from the raw XML. */
async function xlsxCells(bytes: Uint8Array): Promise<ReadCell[]> {
  const zip = await JSZip.loadAsync(bytes);
  const styles = await zip.files["xl/styles.xml"].async("string");
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? "";
  const quotedXf = [...cellXfs.matchAll(/<xf\b([^>]*)>/g)].map(([, attrs]) => /\bquotePrefix="(1|true)"/.test(attrs));
  const shared = zip.files["xl/sharedStrings.xml"]
    ? [...(await zip.files["xl/sharedStrings.xml"].async("string")).matchAll(/<si>([\s\S]*?)<\/si>/g)].map(([, si]) =>
        decodeXml([...si.matchAll(/<t[^>]*>([^<]*)<\/t>/g)].map((m) => m[1]).join("")),
      )
    : [];
  const cells: ReadCell[] = [];
  for (const name of Object.keys(zip.files).filter((n) => /^xl\/worksheets\/.+\.xml$/.test(n))) {
    const xml = await zip.files[name].async("string");
    for (const [, attrs, inner = ""] of xml.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const type = /\bt="([^"]*)"/.exec(attrs)?.[1] ?? "n";
      const style = Number(/\bs="(\d+)"/.exec(attrs)?.[1] ?? 0);
      const raw = /<v>([^<]*)<\/v>/.exec(inner)?.[1] ?? /<is>[\s\S]*?<t[^>]*>([^<]*)<\/t>/.exec(inner)?.[1];
      if (raw === undefined) continue;
      const value = type === "n" ? Number(raw) : type === "s" ? shared[Number(raw)] : decodeXml(raw);
      cells.push({ where: `${name}!${/\br="([^"]+)"/.exec(attrs)?.[1]}`, value, quoted: quotedXf[style] ?? false });
    }
  }
  return cells;
}

/** Every cell of an xls with its value (SheetJS, on our own output) and whether its XF record has
 *  the f123Prefix bit (bit 3 of the flags after ifnt and ifmt, [MS-XLS] 2.4.353), walking BIFF8. */
function xlsCells(bytes: Uint8Array): ReadCell[] {
  const wb = XLSX.read(bytes, { type: "array" });
  const stream = XLSX.CFB.find(XLSX.CFB.read(Buffer.from(bytes), { type: "buffer" }), "/Workbook")!.content as Uint8Array;
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const xfQuoted: boolean[] = [];
  const cells: ReadCell[] = [];
  let substream = -1; // -1 before the globals' BOF, 0 in the globals, n in the n-th sheet
  for (let at = 0; at + 4 <= stream.byteLength; ) {
    const type = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    const data = at + 4;
    if (type === 0x0809)
      substream += 1; // BOF
    else if (type === 0x00e0 && substream === 0)
      xfQuoted.push((view.getUint16(data + 4, true) & 0x0008) !== 0); // XF
    else if (substream > 0 && [0x00fd, 0x0204, 0x0203, 0x027e].includes(type)) {
      // LabelSst, Label, Number, RK: row, column, XF index first.
      const sheetName = wb.SheetNames[substream - 1];
      const address = XLSX.utils.encode_cell({ r: view.getUint16(data, true), c: view.getUint16(data + 2, true) });
      const value = (wb.Sheets[sheetName][address] as XLSX.CellObject).v as string | number;
      cells.push({ where: `${sheetName}!${address}`, value, quoted: xfQuoted[view.getUint16(data + 4, true)] ?? false });
    }
    at = data + size;
  }
  return cells;
}

/** Quote prefix on exactly the text cells that start like a formula. */
function expectQuotedExactly(cells: ReadCell[]): void {
  expect(cells.length).toBeGreaterThan(0);
  for (const { where, value, quoted } of cells) {
    const shouldBe = typeof value === "string" && QUOTED_START.test(value);
    expect(quoted, `${where} ${JSON.stringify(value)}`).toBe(shouldBe);
  }
}

describe("formula injection", () => {
  it.each([false, true])("xlsx (detail=%s): every formula-like text is a string cell, and no cell has a formula", async (detail) => {
    const { bytes } = await exported("xlsx", detail);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const seen = new Set<string>();
    wb.eachSheet((ws) =>
      ws.eachRow((row) =>
        row.eachCell((cell) => {
          expect(cell.formula, `${ws.name}!${cell.address}`).toBeUndefined();
          expect(cell.type, `${ws.name}!${cell.address}`).not.toBe(ExcelJS.ValueType.Formula);
          if (typeof cell.value === "string" && FORMULA_START.test(cell.value)) {
            expect(cell.type, `${ws.name}!${cell.address} ${cell.value}`).toBe(ExcelJS.ValueType.String);
            seen.add(cell.value);
          }
        }),
      ),
    );
    for (const text of INJECTIONS) expect(seen.has(text), `«${text}» exported as text`).toBe(true);

    // The same on the raw SpreadsheetML: no <f> element anywhere. (exceljs's streaming writer types
    // inline text t="str" with only a <v>: a value, which Excel and LibreOffice show as text.)
    const zip = await JSZip.loadAsync(bytes);
    let textCells = 0;
    for (const name of Object.keys(zip.files).filter((n) => /^xl\/worksheets\/.+\.xml$/.test(n))) {
      const xml = await zip.files[name].async("string");
      expect(xml, name).not.toMatch(/<f[\s>/]/);
      for (const [cell, value] of xml.matchAll(/<c [^>]*>(?:<v>|<is><t[^>]*>)([^<]*)</g)) {
        if (!INJECTIONS.includes(decodeXml(value))) continue;
        expect(cell, name).toMatch(/^<c [^>]*\bt="(str|s|inlineStr)"/);
        textCells += 1;
      }
    }
    expect(textCells).toBeGreaterThanOrEqual(INJECTIONS.length);
  });

  it.each([false, true])("xls (detail=%s): SheetJS reads every formula-like text as a string cell, and no formula", async (detail) => {
    const { bytes } = await exported("xls", detail);
    const wb = XLSX.read(bytes, { type: "array", cellFormula: true });
    const seen = new Set<string>();
    for (const sheetName of wb.SheetNames) {
      const sheet = wb.Sheets[sheetName];
      for (const [address, cell] of Object.entries(sheet)) {
        if (address.startsWith("!")) continue;
        const c = cell as XLSX.CellObject;
        expect(c.f, `${sheetName}!${address}`).toBeUndefined();
        if (typeof c.v === "string" && FORMULA_START.test(c.v)) {
          expect(c.t, `${sheetName}!${address} ${c.v}`).toBe("s");
          seen.add(c.v);
        }
      }
    }
    for (const text of INJECTIONS) expect(seen.has(text), `«${text}» exported as text`).toBe(true);
  });

  it.each([false, true])("xlsx (detail=%s): formula-like texts carry quotePrefix, and nothing else does", async (detail) => {
    const cells = await xlsxCells((await exported("xlsx", detail)).bytes);
    expectQuotedExactly(cells);
    for (const text of INJECTIONS)
      expect(
        cells.some((c) => c.value === text && c.quoted),
        `«${text}» quoted`,
      ).toBe(true);
  });

  it.each([false, true])("xls (detail=%s): formula-like texts carry the f123Prefix bit, and nothing else does", async (detail) => {
    const cells = xlsCells((await exported("xls", detail)).bytes);
    expectQuotedExactly(cells);
    for (const text of INJECTIONS)
      expect(
        cells.some((c) => c.value === text && c.quoted),
        `«${text}» quoted`,
      ).toBe(true);
  });

  it("the writers quote texts starting with = + - @ tab CR, not numbers (negative ones included) nor other texts", async () => {
    const texts = ["=1+1", "+7 912", "-1", "@SUM(1)", "\t=1+1", "\r=1+1", "Обычный текст", "1-2", " =1", "a=b", "—", ""];
    async function* book(): AsyncGenerator<Sheet> {
      yield {
        name: "Данные",
        title: "-Заголовок",
        text: { layout: "none" },
        columns: [
          { header: "Текст", kind: "text", width: 20 },
          { header: "Число, т", kind: "number", decimals: 3, width: 10 },
        ],
        rows: (async function* (): AsyncGenerator<Cell[]> {
          for (const [i, text] of texts.entries()) yield [text, -(i + 0.5)];
          yield [-2, "-3"];
        })(),
      };
    }
    const chunks: Buffer[] = [];
    const { Writable } = await import("node:stream");
    await writeXlsx(book(), new Writable({ write: (chunk: Buffer, _enc, done) => (chunks.push(chunk), done()) }));
    for (const cells of [await xlsxCells(new Uint8Array(Buffer.concat(chunks))), xlsCells(await writeXls(book()))]) {
      expectQuotedExactly(cells);
      const quoted = cells.filter((c) => c.quoted).map((c) => c.value);
      expect(quoted).toEqual(expect.arrayContaining(["-Заголовок", "=1+1", "+7 912", "-1", "@SUM(1)", "-3"]));
      expect(quoted.filter((v) => /^[\t\r\n]=1\+1$/.test(String(v))).length, JSON.stringify(quoted)).toBe(2);
      expect(cells.filter((c) => typeof c.value === "number" && c.value < 0).length).toBe(texts.length + 1);
    }
  });

  it("keeps the project's formula-like name out of a formula in the file name too", async () => {
    const { disposition } = await exported("xlsx", false);
    expect(disposition).toBe(
      `attachment; filename="=cmd_' _C calc'!A0.xlsx"; filename*=UTF-8''${encodeURIComponent("=cmd_' _C calc'!A0.xlsx")}`,
    );
  });
});

// ---- Content-Disposition ------------------------------------------------------------------------

const HOSTILE_UNITS = [
  '"',
  "'",
  "\r",
  "\n",
  "\r\n",
  "\0",
  "\t",
  "/",
  "\\",
  ":",
  "*",
  "?",
  "<",
  ">",
  "|",
  "%",
  ";",
  ",",
  "=",
  ".",
  " ",
  "\u202e",
  "\u200f",
  "\u2028",
  "\ufeff",
  "\ud800",
  "\udfff",
  "😀",
  "Ё",
  "ж",
  "€",
  "\u0301",
];
const nameArbitrary = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...HOSTILE_UNITS),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 300,
});

const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}"\\/:*?<>|]/u;

/** Checks a Content-Disposition value; returns the decoded UTF-8 file name. */
function checkDisposition(value: string): string {
  expect(() => new Headers({ "Content-Disposition": value })).not.toThrow();
  expect(value).toMatch(/^[\x20-\x7e]+$/);
  const match = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9\-_.!~*'()%]+)$/.exec(value);
  expect(match, value).not.toBeNull();
  const ascii = match![1];
  const decoded = decodeURIComponent(match![2]);
  for (const name of [ascii, decoded]) {
    expect(name.length).toBeGreaterThan(0);
    expect(name, JSON.stringify(name)).not.toMatch(FORBIDDEN);
    expect(name).not.toMatch(/^[.\s]|[.\s]$/);
  }
  expect(Array.from(decoded).length).toBeLessThanOrEqual(150);
  expect(decoded).toBe(decoded.normalize("NFC"));
  return decoded;
}

describe("download names", () => {
  it("are a safe header and a safe file name for any project name", () => {
    fc.assert(
      fc.property(nameArbitrary, fc.constantFrom("txt", "xls", "xlsx"), (name, ext) => {
        const decoded = checkDisposition(attachmentDisposition(`${name}.${ext}`));
        // The extension survives any cleaning and any cut.
        expect(decoded.endsWith(`.${ext}`) || decoded === ext, JSON.stringify(name)).toBe(true);
        if (/^[\p{L}\p{N}][\p{L}\p{N} _-]{0,99}$/u.test(name) && !/\s$/.test(name)) expect(decoded).toBe(`${name}.${ext}`.normalize("NFC"));
      }),
      { seed: 20261121, numRuns: 2000 },
    );
  });

  it("are safe through the export route for names a client can send", async () => {
    await fc.assert(
      fc.asyncProperty(
        nameArbitrary.filter((n) => n.trim().length > 0),
        async (name) => {
          const created = await h.request("/api/v1/projects/create_project/", {
            method: "POST",
            token: user.token,
            json: { name: name.slice(0, 255), start_date: "2024-01-01", end_date: "2024-12-31" },
          });
          expect(created.status, await created.clone().text()).toBeLessThan(500);
          if (created.status !== 201) return;
          const { id } = (await created.json()) as { id: string };
          const res = await h.request(`/api/v1/projects/${id}/export_to_txt/`, { token: user.token });
          expect(res.status, await res.clone().text()).toBe(200);
          expect(checkDisposition(res.headers.get("content-disposition")!).endsWith(".txt")).toBe(true);
        },
      ),
      {
        seed: 20261121,
        // The names themselves are checked 2 000 times above; here, that the route sends what they
        // check, for the hostile examples and a sample of names (all 150 in the deep tier).
        numRuns: bySize(50, 150),
        examples: [["\ud800"], ["a".repeat(200) + "😀".repeat(60)], ["\u202egnp.exe"], ["..\\..\\boot.ini"], ['"; filename=evil.exe']],
      },
    );
  }, 60_000);
});
