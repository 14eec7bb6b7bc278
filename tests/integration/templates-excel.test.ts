// The CSV upload templates open in a Russian spreadsheet as they are meant to: UTF-8 with a byte
// order mark, `;` between cells, decimal commas, Russian headers; LibreOffice with the Russian
// locale keeps every column and reads every number as the number of the example. The example's
// dates and years fall in the project's reporting year (?year=), a year that is no year is 400.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { russianCsvsToXlsx } from "../support/libreoffice";
import { TEMPLATES, templateFor } from "@server/contract/templates";

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;

beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser();
});
afterAll(() => h.close());

const get = (path: string) => h.request(`/api/v1/${path}`, { token: user.token });

describe("the CSV templates in a Russian spreadsheet", () => {
  const types = Object.keys(TEMPLATES);
  /** Each type's CSV template as served, and as LibreOffice (ru) saves it: all opened by one LibreOffice. */
  const served = new Map<string, { status: number; bytes: Uint8Array; xlsx?: Uint8Array }>();
  beforeAll(async () => {
    for (const type of types) {
      const res = await get(`${type}/template/?format=csv&year=2026`);
      served.set(type, { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) });
    }
    const ok = types.filter((type) => served.get(type)!.status === 200);
    russianCsvsToXlsx(ok.map((type) => served.get(type)!.bytes)).forEach((xlsx, i) => {
      served.get(ok[i])!.xlsx = xlsx;
    });
  }, 120_000);

  it.each(types)(
    "%s: BOM, «;», decimal commas; LibreOffice (ru) keeps its columns and numbers",
    async (type) => {
      const { status, bytes, xlsx } = served.get(type)!;
      expect(status).toBe(200);
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes.slice(3));
      const template = templateFor(type, 2026)!;
      const [header] = text.split("\r\n");
      expect(header.split(";")).toEqual(template.columns.map((c) => c.name));
      // No dot decimals: every fractional number of the example is written with a comma.
      expect(text).not.toMatch(/(^|;)-?\d+\.\d+(;|\r)/m);

      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(template.columns.map((c) => c.name));
      template.example.forEach((row, r) => {
        const cells = sheet.getRow(r + 2);
        row.forEach((value, c) => {
          const cell = cells.getCell(c + 1).value;
          if (typeof value === "number") expect(cell, `${type} row ${r + 2} column ${c + 1}`).toBe(value);
          else if (value === null) expect(cell ?? null).toBeNull();
          else if (/^\d{2}\.\d{2}\.\d{4}$/.test(value)) {
            // A date ДД.ММ.ГГГГ is read as that day.
            const [d, m, y] = value.split(".").map(Number);
            expect((cell as Date).toISOString().slice(0, 10)).toBe(new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10));
          } else expect(cell).toBe(value);
        });
      });
    },
    120_000,
  );
});

describe("the example in the project's reporting year", () => {
  it("moves the measured periods' dates and the series' years into the year asked for", async () => {
    expect(templateFor("underground", 2026)!.example.map((r) => r.slice(0, 2))).toEqual([
      ["01.01.2026", "31.01.2026"],
      ["01.02.2026", "28.02.2026"],
    ]);
    expect(templateFor("filling_blanks", 2026)!.example.map((r) => r[0])).toEqual([2023, 2024, 2025, 2026, 2023, 2024, 2025]);
    expect(templateFor("regres_methane", 2026)!.example).toEqual(TEMPLATES.regres_methane.example);
    const csv = new TextDecoder().decode(await (await get("underground/template/?format=csv&year=2026")).arrayBuffer());
    expect(csv).toContain("01.01.2026;31.01.2026;12,5;744;76;10,6");
    const xlsx = await get("underground/template/?year=2026");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    expect(workbook.worksheets[0].getRow(2).getCell(1).value).toBe("01.01.2026");
  });

  it("refuses a year that is no reporting year with 400 in Russian", async () => {
    for (const year of ["abc", "1800", "2026.5"]) {
      const res = await get(`underground/template/?format=csv&year=${year}`);
      expect(res.status, year).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Год: ожидается год от 1990 до 2100/);
    }
  });
});
