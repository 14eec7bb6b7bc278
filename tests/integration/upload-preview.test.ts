// every upload takes the template's Russian headers and the English names as
// aliases (one table in the registry, case and spaces aside), and `?dry_run=1` answers what the
// file holds — the first rows, the count, each column's unit, every refused row with its sheet, row
// and column — storing nothing.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import type { Project } from "@server/contract/schemas/project";
import type { UploadPreviewView } from "@server/contract/schemas/upload-preview";
import { encodeLegacy } from "../support/legacy-encoding";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Загрузки"));
});
afterAll(() => h.close());

function send(type: string, fields: Record<string, string>, file: { name: string; bytes: Uint8Array }, query = "") {
  const form = new FormData();
  form.set("project", project.id);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file_data", new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
  return h.request(`/api/v1/${type}/${query}`, { method: "POST", token: user.token, body: form });
}

const utf8 = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });
const count = async (type: string) => {
  const res = await h.request(`/api/v1/${type}/?project=${project.id}`, { token: user.token });
  return ((await res.json()) as { count: number }).count;
};

const UNDERGROUND = { name: "Дегазация", dictionary_items: JSON.stringify({ get_underground: 1 }) };
// A monitoring export as Russian Excel saves it: Windows-1251, semicolons, decimal commas, and
// «м3» for «м³» (the code page has no superscript).
const RUSSIAN =
  "Начало периода;Конец периода;Расход газовой смеси, м3/мин;Время работы за период, ч;Содержание CH4 в смеси, % об.;Содержание CO2 в смеси, % об.\n" +
  "01.01.2024;31.01.2024;12,5;744;76;10,6\n" +
  "01.02.2024;28.02.2024;10,25;650,5;76;10,6\n";
const ENGLISH =
  "from;to;flow_m3_min;hours;w_ch4;w_co2\n01.01.2024;31.01.2024;12,5;744;76;10,6\n01.02.2024;28.02.2024;10,25;650,5;76;10,6\n";

describe("upload headers: Russian, English and the registry's aliases", () => {
  it("reads a Windows-1251 monitoring CSV with Russian headers as the English one", async () => {
    const english = await send("underground", UNDERGROUND, utf8("en.csv", ENGLISH));
    expect(english.status, await english.clone().text()).toBe(201);
    const russian = await send("underground", UNDERGROUND, { name: "ру.csv", bytes: encodeLegacy(RUSSIAN, "windows-1251") });
    expect(russian.status, await russian.clone().text()).toBe(201);
    const [a, b] = [(await english.json()) as Record<string, number>, (await russian.json()) as Record<string, number>];
    for (const name of ["res_co2", "res_ch4", "sum_co2", "volume"]) expect(b[name]).toBeCloseTo(a[name], 9);
  });

  it("ignores case and spaces, and takes the short names engineers write", async () => {
    const text = "  НАЧАЛО ;конец периода;Расход, м³/мин;Время работы;  ch4 ;CO2, % об.\n01.01.2024;31.01.2024;12,5;744;76;10,6\n";
    const res = await send("underground", UNDERGROUND, utf8("коротко.csv", text));
    expect(res.status, await res.clone().text()).toBe(201);
    const shouting = await send(
      "underground",
      UNDERGROUND,
      utf8("EN.csv", "FROM;To;Flow_M3_Min;HOURS;W_CH4;w_co2\n01.01.2024;31.01.2024;1;10;50;5\n"),
    );
    expect(shouting.status, await shouting.clone().text()).toBe(201);
  });

  it("names a refused cell by the file's own header", async () => {
    const res = await send("underground", UNDERGROUND, utf8("m.csv", RUSSIAN.replace("12,5", "двенадцать")));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toContain(
      "Лист «CSV», строка 2, столбец «Расход газовой смеси, м3/мин»: ожидается число, найдено «двенадцать»",
    );
  });

  it("takes Russian headers in the yearly series and the forecast rows too", async () => {
    const series = "Год;Добыча угля, т;Относительная метанообильность, м³/т\n2020;1 000 000;10\n2021;1 200 000;9\n";
    const sensitivity = await send("sensitivity", { name: "Ряд" }, utf8("ряд.csv", series));
    expect(sensitivity.status, await sensitivity.clone().text()).toBe(201);
    const blanks = await send(
      "filling_blanks",
      { name: "Пропуски", name_value: "Дебит" },
      utf8("п.csv", "ГОД;дебит\n2019;1\n2020;\n2021;3\n"),
    );
    expect(blanks.status, await blanks.clone().text()).toBe(201);
  });
});

describe("?dry_run=1: the preview of an upload", () => {
  it("answers the rows as read, their count and units, and stores nothing", async () => {
    const before = await count("underground");
    const res = await send("underground", UNDERGROUND, { name: "ру.csv", bytes: encodeLegacy(RUSSIAN, "windows-1251") }, "?dry_run=1");
    expect(res.status, await res.clone().text()).toBe(200);
    const preview = (await res.json()) as UploadPreviewView;
    expect(preview).toMatchObject({ format: "csv", sheet: "CSV", count: 2, errors: [] });
    expect(preview.rows[0]).toEqual({
      row: 2,
      values: { from: "01.01.2024", to: "31.01.2024", flow_m3_min: 12.5, hours: 744, w_ch4: 76, w_co2: 10.6 },
    });
    expect(preview.columns.find((c) => c.name === "flow_m3_min")).toEqual({
      name: "flow_m3_min",
      header: "Расход газовой смеси, м3/мин",
      label: "Расход газовой смеси, м³/мин",
      unit: "м³/мин",
    });
    expect(await count("underground")).toBe(before);
  });

  it("shows an Excel workbook's date cells as dates, as the save reads them", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Периоды");
    sheet.addRow(["from", "to", "flow_m3_min", "hours", "w_ch4", "w_co2"]);
    sheet.addRow([new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 31)), 12.5, 744, 76, 10.6]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const res = await send("underground", UNDERGROUND, { name: "периоды.xlsx", bytes }, "?dry_run=1");
    expect(res.status, await res.clone().text()).toBe(200);
    const preview = (await res.json()) as UploadPreviewView;
    expect(preview.errors).toEqual([]);
    expect(preview.rows[0].values).toMatchObject({ from: "01.01.2024", to: "31.01.2024" });
  });

  it("lists every refused row with its sheet, row and column; the first 20 rows are shown, then the refused ones below", async () => {
    const lines = Array.from({ length: 25 }, (_, i) => {
      const day = String(i + 1).padStart(2, "0");
      return `${day}.03.2024;${day}.03.2024;1;10;50;5`;
    });
    lines[2] = "03.03.2024;03.03.2024;один;10;50;5"; // row 4: not a number
    lines[6] = "07.03.2024;07.03.2024;1;30;50;5"; // row 8: more hours than the day has
    lines[22] = "23.03.2024;23.03.2024;1;10;80;40"; // row 24: CH4 + CO2 over 100 %
    const text = `from;to;flow_m3_min;hours;w_ch4;w_co2\n${lines.join("\n")}\n`;
    const before = await count("underground");
    const res = await send("underground", UNDERGROUND, utf8("m.csv", text), "?dry_run=1");
    expect(res.status, await res.clone().text()).toBe(200);
    const preview = (await res.json()) as UploadPreviewView;
    expect(preview.count).toBe(25);
    // Rows 2–21, then row 24 (refused, far down) so its bad cell can be shown; rows 22, 23, 25 are not.
    expect(preview.rows.map((r) => r.row)).toEqual([...Array.from({ length: 20 }, (_, i) => i + 2), 24]);
    expect(preview.rows[20].values).toMatchObject({ w_ch4: 80, w_co2: 40 });
    expect(preview.rows[2].values.flow_m3_min).toBe("один");
    expect(preview.errors.map((e) => [e.sheet, e.row, e.column])).toEqual([
      ["CSV", 4, "flow_m3_min"],
      ["CSV", 8, "hours"],
      ["CSV", 24, "w_co2"],
    ]);
    expect(preview.errors[1].message).toContain("Время работы больше продолжительности периода (24 ч)");
    // The save refuses the same file by its first problem and stores nothing either.
    const saved = await send("underground", UNDERGROUND, utf8("m.csv", text));
    expect(saved.status).toBe(400);
    expect(((await saved.json()) as { detail: string }).detail).toContain("строка 4, столбец «flow_m3_min»");
    expect(await count("underground")).toBe(before);
  });

  it("names every problem of a bad row, a period by its own row's number, and a date that has the form but not a day", async () => {
    // Row 3 (period 2): a flow that is no number, a date the calendar has not, hours over 100.
    // Row 4 (period 3): more hours than its day has.
    const text =
      "from;to;flow_m3_min;hours;w_ch4;w_co2\n" +
      "01.03.2024;01.03.2024;1;10;50;5\n" +
      "02.03.2024;31.02.2024;много;10;50;5\n" +
      "03.03.2024;03.03.2024;1;30;50;5\n";
    const res = await send("underground", UNDERGROUND, utf8("m.csv", text), "?dry_run=1");
    expect(res.status, await res.clone().text()).toBe(200);
    const preview = (await res.json()) as UploadPreviewView;
    expect(preview.errors.map((e) => [e.row, e.column])).toEqual([
      [3, "flow_m3_min"],
      [3, "to"],
      [4, "hours"],
    ]);
    expect(preview.errors[1].message).toBe("Период 2, «Конец периода»: Такой даты нет в календаре: 31.02.2024");
    expect(preview.errors[2].message).toMatch(/^Период 3 \(03\.03\.2024–03\.03\.2024\), «Время работы за период»: Время работы больше/);
  });

  it("checks the periods against the project's dates and refuses a file it cannot read as the save does", async () => {
    const outside = await send(
      "underground",
      UNDERGROUND,
      utf8("m.csv", ENGLISH.replace("01.02.2024;28.02.2024", "01.02.2030;28.02.2030")),
      "?dry_run=1",
    );
    const preview = (await outside.json()) as UploadPreviewView;
    expect(preview.errors).toHaveLength(1);
    expect(preview.errors[0]).toMatchObject({ row: 3, column: "to" });
    expect(preview.errors[0].message).toContain("выходит за даты проекта");
    const missing = await send("underground", UNDERGROUND, utf8("m.csv", "from;to\n01.01.2024;31.01.2024\n"), "?dry_run=1");
    expect(missing.status).toBe(400);
    // Named as the template heads them, not by the internal names (flow_m3_min), every one missing.
    expect(((await missing.json()) as { detail: string }).detail).toBe(
      "Лист «CSV»: нет столбцов «Расход газовой смеси, м³/мин», «Время работы за период, ч», «Содержание CH4 в смеси, % об.», «Содержание CO2 в смеси, % об.»",
    );
  });

  it("previews the yearly series and the forecast rows", async () => {
    const res = await send("sensitivity", {}, utf8("ряд.csv", "year,volume,methane\n2020,1000,10\n2020,1000,\n"), "?dry_run=1");
    const preview = (await res.json()) as UploadPreviewView;
    expect(preview.count).toBe(2);
    expect(preview.errors).toEqual([{ sheet: "CSV", row: 3, column: "methane", message: "значение не заполнено" }]);
    const forecast = await send(
      "regres_methane",
      { method: "xgboost" },
      utf8("f.csv", "x1,x2,x7,x8,x12,x13,x15\n1,2,3,4,5,6,7\n1,2,300,4,5,6,7\n"),
      "?dry_run=1",
    );
    expect(forecast.status, await forecast.clone().text()).toBe(200);
    const rows = (await forecast.json()) as UploadPreviewView;
    expect(rows.columns.find((c) => c.name === "x7")?.unit).toBe("%");
    expect(rows.errors.map((e) => [e.row, e.column])).toEqual([[3, "x7"]]);
  });
});
