// Exports never turn user text into a formula, and download names are safe for any project name.
// A project and calculations named like formulas (the classic CSV/DDE injection strings) are
// exported to xlsx (read back with exceljs and as raw XML) and xls (read back with SheetJS — in
// this test only, on our own output); every such text must be a plain string cell and no cell
// anywhere may carry a formula. Then Content-Disposition is checked as a property over arbitrary
// names (quotes, CR/LF, slashes, format characters, lone surrogates, any Unicode), directly and
// through the export route.
import ExcelJS from "exceljs";
import fc from "fast-check";
import JSZip from "jszip";
import * as XLSX from "xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachmentDisposition } from "../../functions/src/http/download";
import { createHarness, type Harness } from "../support/harness";
import { calculationForm } from "../support/tenant-objects";

const INJECTIONS = ["=cmd|' /C calc'!A0", "+1", "-1", "@SUM(1)", "=1+1", "+cmd|' /C calc'!A0", "-2+3", "=HYPERLINK(\"http://evil.example\",\"x\")"];
const FORMULA_START = /^[=+\-@]/;
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
    const res = await h.request("/api/v1/open_mining_co2/", { method: "POST", token: user.token, json: { name, project: projectId, volume: 10, ef: 3.149 } });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  // Text that comes from an uploaded file: element names of a series and the file's own name.
  const csv = ["year,element,value", ...INJECTIONS.flatMap((e, i) => [`2020,"${e.replace(/"/g, '""')}",${i + 1}`, `2021,"${e.replace(/"/g, '""')}",`])].join("\n");
  const form = calculationForm({ name: "@SUM(1)", project: projectId, name_value: "value", name_element: "element" }, { name: "=1+1.csv", text: csv });
  const series = await h.request("/api/v1/filling_blanks/", { method: "POST", token: user.token, body: form });
  expect(series.status, await series.clone().text()).toBe(201);
}, 60_000);
afterAll(() => h.close());

async function exported(format: "xlsx" | "xls", detail: boolean): Promise<{ bytes: Uint8Array; disposition: string }> {
  const res = await h.request(`/api/v1/projects/${projectId}/export_to_${format}/${detail ? "?detail=true" : ""}`, { token: user.token });
  expect(res.status).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), disposition: res.headers.get("content-disposition")! };
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

  it("keeps the project's formula-like name out of a formula in the file name too", async () => {
    const { disposition } = await exported("xlsx", false);
    expect(disposition).toBe(`attachment; filename="=cmd_' _C calc'!A0.xlsx"; filename*=UTF-8''${encodeURIComponent("=cmd_' _C calc'!A0.xlsx")}`);
  });
});

// ---- Content-Disposition ------------------------------------------------------------------------

const HOSTILE_UNITS = ['"', "'", "\r", "\n", "\r\n", "\0", "\t", "/", "\\", ":", "*", "?", "<", ">", "|", "%", ";", ",", "=", ".", " ", "\u202e", "\u200f", "\u2028", "\ufeff", "\ud800", "\udfff", "😀", "Ё", "ж", "€", "\u0301"];
const nameArbitrary = fc.string({
  unit: fc.oneof(fc.constantFrom(...HOSTILE_UNITS), fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 })),
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
      fc.asyncProperty(nameArbitrary.filter((n) => n.trim().length > 0), async (name) => {
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
      }),
      { seed: 20261121, numRuns: 150, examples: [["\ud800"], ["a".repeat(200) + "😀".repeat(60)], ["\u202egnp.exe"], ["..\\..\\boot.ini"], ['"; filename=evil.exe']] },
    );
  }, 60_000);
});
