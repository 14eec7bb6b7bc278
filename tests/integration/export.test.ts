// Infographics data and project export (docs/user-guide.md, docs/api.md) through the real API: each format read
// back — xlsx with exceljs, xls as a genuine BIFF8 file converted to CSV by LibreOffice (when it is
// installed), txt as text — plus the errors and the tenant isolation.
import ExcelJS from "exceljs";
import { read as readXls, utils as xlsUtils } from "xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { xlsToCsv } from "../support/libreoffice";
import { exportProject } from "@server/export/project-export";
import { formatNumber } from "@server/export/txt-writer";
import { newId } from "@server/domain/ids";
import type { StoredCalculation } from "@server/ports";
import type { Project } from "@server/contract/schemas/project";
import type { CalculationView } from "@server/contract";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;
let other: Awaited<ReturnType<Harness["signedInUser"]>>;
let project: Project;
const INJECTION = '=HYPERLINK("http://evil.example","Нажмите")';

const UNDERGROUND = { p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 };

async function newProject(token: string, name: string): Promise<Project> {
  const res = await h.request("/api/v1/projects/create_project/", {
    method: "POST",
    token,
    json: { name, start_date: "2024-01-01", end_date: "2024-12-31" },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Project;
}

async function create(
  type: string,
  name: string,
  body: Record<string, unknown>,
  projectId = project.id,
  token = user.token,
): Promise<CalculationView> {
  const res = await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name, project: projectId, ...body } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationView;
}

async function uploadFillingBlanks(name: string): Promise<CalculationView> {
  const form = new FormData();
  form.set("project", project.id);
  form.set("name", name);
  form.set("name_value", "CH4");
  form.set("name_element", "Шахта");
  const csv = "year,Шахта,CH4\n2019,Северная,100\n2020,Северная,\n2021,Северная,130\n";
  form.set("file_data", new Blob([csv], { type: "text/csv" }), "ряд.csv");
  const res = await h.request("/api/v1/filling_blanks/", { method: "POST", token: user.token, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationView;
}

async function uploadSensitivity(name: string): Promise<CalculationView> {
  const form = new FormData();
  form.set("project", project.id);
  form.set("name", name);
  form.set(
    "file_data",
    new Blob(["year,volume,methane\n2020,1000000,10\n2021,1200000,9\n2022,1100000,11\n"], { type: "text/csv" }),
    "чувствительность.csv",
  );
  const res = await h.request("/api/v1/sensitivity/", { method: "POST", token: user.token, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationView;
}

type ForecastRow = Record<string, number | null> & { id: number; result: number };
interface Forecast {
  calc: CalculationView;
  /** The rows as the calculation's own view reads them back (single_calc). */
  rows: ForecastRow[];
  max: number;
}

/** A forecast made through the API as a user makes it, with its rows as the API gives them back. */
async function forecast(res: Response): Promise<Forecast> {
  expect(res.status, await res.clone().text()).toBe(201);
  const calc = (await res.json()) as CalculationView;
  const single = await h.request(`/api/v1/regres_methane/${calc.id}/single_calc/1/`, { token: user.token });
  const rows = ((await single.json()) as { data: ForecastRow[] }).data;
  expect(rows.length).toBeGreaterThan(0);
  return { calc, rows, max: Math.max(...rows.map((r) => r.result)) };
}

/** From the dialog's manual table. */
async function forecastFromRows(name: string): Promise<Forecast> {
  const data = [
    { x1: 1000, x2: 1010, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 },
    { x1: 1200, x2: 1190, x7: 35, x8: 55, x12: 0.6, x13: 9100, x15: 16 },
    { x1: 900, x2: 905, x7: 28, x8: 40, x12: 0.9, x13: 8800, x15: 12 },
  ];
  return forecast(
    await h.request("/api/v1/regres_methane/", {
      method: "POST",
      token: user.token,
      json: { name, project: project.id, method: "xgboost", data },
    }),
  );
}

/** From an uploaded file, with ids of its own. */
async function forecastFromFile(name: string): Promise<Forecast> {
  const csv =
    "id,x1,x2,x7,x8,x12,x13,x15\n11,1000,1010,30,50,0.5,9000,15\n12,1300,1290,40,60,0.7,9200,18\n13,800,790,25,45,0.4,8700,11\n14,1100,1100,33,52,0.55,9050,14\n";
  const form = new FormData();
  form.set("project", project.id);
  form.set("name", name);
  form.set("method", "lightgbm");
  form.set("file_data", new Blob([csv], { type: "text/csv" }), "телеметрия.csv");
  return forecast(await h.request("/api/v1/regres_methane/", { method: "POST", token: user.token, body: form }));
}

let underground: CalculationView;
let diesel: CalculationView;
let fuel: CalculationView;
let resultless: StoredCalculation;
let manual: Forecast;
let uploaded: Forecast;

beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser();
  other = await h.signedInUser();
  project = await newProject(user.token, "Шахта «Северная»");
  underground = await create("underground", "Вентиляция", { volume: 1000, ...UNDERGROUND });
  diesel = await create("open_mining_co2", "Дизель карьера", { volume: 10, ef: 3.149 });
  fuel = await create("open_mining_co2", "Бензин карьера", { volume: 20, ef: 3.026 });
  await create("underground", INJECTION, { volume: 500, ...UNDERGROUND });
  await create("recycle_technology", "Технология", { metan: 30, a_metan: 3 });
  await uploadFillingBlanks("Пропуски");
  await uploadSensitivity("Чувствительность");
  manual = await forecastFromRows("Прогноз лавы");
  uploaded = await forecastFromFile("Прогноз из файла");
  // An underground calculation whose results were never stored: the charts count it as 0.
  const now = new Date().toISOString();
  resultless = {
    ...(await h.deps.repos.calculations.get(user.companyId, "underground", underground.id))!,
    id: newId(),
    name: "Без результата",
    results: {},
    created_at: now,
  };
  await h.deps.repos.calculations.create(resultless);
  // Archived calculations are in neither the charts nor the export.
  const archived = await create("open_mining_co2", "Архивный", { volume: 1, ef: 3.149 });
  const res = await h.request(`/api/v1/open_mining_co2/${archived.id}/`, {
    method: "PATCH",
    token: user.token,
    json: { is_deleted: true, is_active: false },
  });
  expect(res.status).toBe(200);
});
afterAll(() => h.close());

/** Excel's 31-character sheet names, cut from the registry titles. */
const sheet31 = (title: string) => title.slice(0, 31).trimEnd();
const UG_SHEET = sheet31("Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча)");
const OM_SHEET = sheet31("Выбросы CO2 от сжигания топлива техникой при открытой добыче");
const FILL_ROWS = sheet31("Строки. Заполнение пропусков во временных рядах");
const FORECAST_SHEET = sheet31("Прогноз концентрации метана в исходящей струе лавы");
const FORECAST_ROWS = sheet31("Строки. Прогноз концентрации метана в исходящей струе лавы");
const FORECAST_HEADERS = ["Строк прогноза", "Максимальный прогноз, %"];

const exportUrl = (format: string, query = "", projectId = project.id) => `/api/v1/projects/${projectId}/export_to_${format}/${query}`;

async function download(format: string, query = ""): Promise<{ res: Response; bytes: Uint8Array }> {
  const res = await h.request(exportUrl(format, query), { token: user.token });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function workbook(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return wb;
}

function rowValues(ws: ExcelJS.Worksheet, row: number): unknown[] {
  return (ws.getRow(row).values as unknown[]).slice(1);
}

function headerIndex(ws: ExcelJS.Worksheet, header: string): number {
  const index = rowValues(ws, 2).indexOf(header);
  expect(index, `no column «${header}» in ${ws.name}: ${rowValues(ws, 2).join(" | ")}`).toBeGreaterThanOrEqual(0);
  return index + 1;
}

function findRow(ws: ExcelJS.Worksheet, name: string): ExcelJS.Row {
  for (let r = 3; r <= ws.rowCount; r++) if (ws.getRow(r).getCell(2).value === name) return ws.getRow(r);
  throw new Error(`no row «${name}» in ${ws.name}`);
}

/** A sheet as rows of cell values, header row 2 first (an xls read by SheetJS, an xlsx by exceljs). */
type Grid = unknown[][];

function xlsxGrid(ws: ExcelJS.Worksheet): Grid {
  const rows: Grid = [];
  for (let r = 2; r <= ws.rowCount; r++) rows.push(rowValues(ws, r));
  return rows;
}

function xlsGrids(bytes: Uint8Array): Map<string, Grid> {
  const wb = readXls(bytes, { type: "array" });
  return new Map(
    wb.SheetNames.map((name) => [name, (xlsUtils.sheet_to_json(wb.Sheets[name], { header: 1, defval: null }) as Grid).slice(1)]),
  );
}

/** The forecasts' main-sheet rows: their row counts and maxima, by name. */
function expectForecastSummary(grid: Grid) {
  const [header, ...rows] = grid;
  const [count, max] = FORECAST_HEADERS.map((h) => header.indexOf(h));
  expect(count, `no forecast columns in ${header.join(" | ")}`).toBeGreaterThan(0);
  for (const f of [manual, uploaded]) {
    const row = rows.find((r) => r[1] === f.calc.name)!;
    expect(row, f.calc.name).toBeDefined();
    expect(row[count]).toBe(f.rows.length);
    expect(row[max] as number).toBeCloseTo(f.max, 9);
  }
}

/** The detailed export's forecast rows: every row of both forecasts, with its id, inputs and result. */
function expectForecastRows(grid: Grid) {
  const [header, ...rows] = grid;
  expect(header.slice(0, 3)).toEqual(["Расчет", "Строка", "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин"]);
  // The result, then the interval and the chance of reaching the limit (empty: the model is not calibrated), and
  // the note of why a chance is empty or a band not to be trusted near the limit (none here).
  expect(header.slice(-5)).toEqual([
    "Концентрация метана, %",
    "Нижняя граница интервала, %",
    "Верхняя граница интервала, %",
    "Вероятность достичь предела, доля",
    "Примечание",
  ]);
  const expected = [manual, uploaded].flatMap((f) => f.rows.map((r) => [f.calc.name, r.id, r.x1, r.result]));
  const result = header.length - 5;
  expect(rows.map((r) => [r[0], r[1], r[2], r[result]])).toEqual(expected);
  expect(rows.every((r) => r.slice(result + 1).every((cell) => cell === null || cell === "" || cell === undefined))).toBe(true);
  expect(expected.map((r) => r[1])).toEqual([1, 2, 3, 11, 12, 13, 14]);
}

describe("graphs data", () => {
  it("returns the project's underground, open-mining CO2 and forecast series, missing results as 0", async () => {
    const res = await h.request(`/api/v1/projects/${project.id}/graphs/`, { token: user.token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      project: Project;
      underground: Array<{ id: string; name: string; res_co2: number; res_ch4: number }>;
      open_mining_co2: Array<{ id: string; name: string; ef: number; res_co2: number }>;
      regres_methane: Array<{ name: string; points: Array<{ day: number; result: number }> }>;
    };
    expect(body.project.id).toBe(project.id);
    expect(body.underground.map((u) => u.name)).toEqual(["Вентиляция", INJECTION, "Без результата"]);
    expect(body.underground[0].res_co2).toBeCloseTo(underground.res_co2 as number, 9);
    expect(body.underground[0].res_ch4).toBeCloseTo(underground.res_ch4 as number, 9);
    expect(body.underground[2]).toEqual({ id: resultless.id, name: "Без результата", res_co2: 0, res_ch4: 0, subtracted_ch4: 0 });
    expect(body.open_mining_co2).toEqual([
      { id: diesel.id, name: "Дизель карьера", ef: 3.149, res_co2: diesel.res_co2 },
      { id: fuel.id, name: "Бензин карьера", ef: 3.026, res_co2: fuel.res_co2 },
    ]);
    expect(body.open_mining_co2.map((o) => o.ef.toFixed(6))).toEqual(["3.149000", "3.026000"]);
    const points = (f: Forecast) => f.rows.map((r, i) => ({ day: i + 1, result: r.result }));
    expect(body.regres_methane).toEqual([
      { id: manual.calc.id, name: "Прогноз лавы", points: points(manual) },
      { id: uploaded.calc.id, name: "Прогноз из файла", points: points(uploaded) },
    ]);
    expect(body.regres_methane[1].points).toHaveLength(4);
  });

  it("returns 404 for another company's project and empty lists for a project without calculations", async () => {
    const res = await h.request(`/api/v1/projects/${project.id}/graphs`, { token: other.token });
    expect(res.status).toBe(404);
    const own = await newProject(other.token, "Пустой");
    const empty = await h.request(`/api/v1/projects/${own.id}/graphs`, { token: other.token });
    expect(await empty.json()).toMatchObject({ underground: [], open_mining_co2: [], open_mining_ch4: [], regres_methane: [] });
  });

  it("returns the open pit's methane, what the project counts only", async () => {
    const pit = await newProject(user.token, "Разрез «Южный»");
    const methane = await create("open_mining_ch4", "Метан разреза", { volume: 1_000_000, ef: 1.2, koef_transform: 0.67 }, pit.id);
    await create(
      "open_mining_ch4",
      "Оценка для сравнения",
      { volume: 1_000_000, ef: 2, koef_transform: 0.67, inventory_role: "alternative" },
      pit.id,
    );
    const res = await h.request(`/api/v1/projects/${pit.id}/graphs/`, { token: user.token });
    const body = (await res.json()) as { open_mining_ch4: unknown[]; not_counted: string | null };
    // 1 000 000 t × 1,2 m³/t × 0,67 kg/m³ = 804 t CH4.
    expect(methane.res_ch4).toBeCloseTo(804, 9);
    expect(body.open_mining_ch4).toEqual([{ id: methane.id, name: "Метан разреза", res_ch4: methane.res_ch4 }]);
    expect(body.not_counted).toMatch(/альтернативный/);
  });

  it("returns a mine's monthly CH4 by emission point from its measured periods and its facility-year's balance", async () => {
    const post = async <T>(path: string, json: unknown) => {
      const res = await h.request(`/api/v1/${path}`, { method: "POST", token: user.token, json });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as T;
    };
    const mine = await post<{ id: string; name: string }>("facilities/", { name: "Шахта «Графиковая»", kind: "underground_mine" });
    const shaft = await post<{ id: string }>(`facilities/${mine.id}/points/`, { name: "Ствол № 1", kind: "ventilation_shaft" });
    const drainage = await post<{ id: string }>(`facilities/${mine.id}/points/`, { name: "ВДУ-1", kind: "drainage_station" });
    const flare = await post<{ id: string }>(`facilities/${mine.id}/points/`, { name: "Факел", kind: "flare" });
    const p = await post<{ id: string }>("projects/create_project/", {
      name: "Шахта «Графиковая» 2024",
      start_date: "2024-01-01",
      end_date: "2024-12-31",
      facility: mine.id,
    });
    const period = (from: string, to: string, w_ch4: number) => ({ from, to, flow_m3_min: 1000, hours: 240, w_ch4, w_co2: 0.1 });
    // The second period runs across two months: each month takes its days' share.
    const ventilation = await create(
      "underground",
      "Ствол № 1",
      {
        basis: "gross",
        periods: [period("2024-01-01", "2024-01-31", 0.5), period("2024-02-16", "2024-03-15", 0.5)],
        point: shaft.id,
        ...UNDERGROUND,
      },
      p.id,
    );
    await create(
      "underground",
      "ВДУ-1",
      { basis: "gross", periods: [period("2024-01-01", "2024-01-31", 40)], point: drainage.id, ...UNDERGROUND },
      p.id,
    );
    await create(
      "torch_composition",
      "Факел",
      {
        volume: 100,
        w_ch4: 40,
        w_co2: 0.1,
        cf: 0,
        p_co2: 1.8393,
        p_ch4: 0.668,
        point: flare.id,
        dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
      },
      p.id,
    );
    await create("handling_underground_ch4", "Обработка угля", { volume: 1_000_000, ef: 1, koef_transform: 0.67 }, p.id);
    const res = await h.request(`/api/v1/projects/${p.id}/graphs/`, { token: user.token });
    const body = (await res.json()) as {
      monthly_ch4: Array<{ name: string; kind: string; months: Array<{ month: string; t: number }> }>;
      balance?: { facility_name: string; drained_t?: number; destroyed_t: number; post_mining_t?: number };
    };
    const periods = (ventilation as unknown as { periods: Array<{ res_ch4: number }> }).periods;
    expect(body.monthly_ch4.map((point) => [point.name, point.kind])).toEqual([
      ["ВДУ-1", "drainage_station"],
      ["Ствол № 1", "ventilation_shaft"],
    ]);
    const shaftMonths = body.monthly_ch4[1].months;
    expect(shaftMonths.map((m) => m.month)).toEqual(["2024-01", "2024-02", "2024-03"]);
    expect(shaftMonths[0].t).toBeCloseTo(periods[0].res_ch4, 9);
    // 16–29 February: 14 of the period's 29 days.
    expect(shaftMonths[1].t).toBeCloseTo((periods[1].res_ch4 * 14) / 29, 9);
    expect(shaftMonths[1].t + shaftMonths[2].t).toBeCloseTo(periods[1].res_ch4, 9);
    expect(body.balance).toMatchObject({ facility_name: "Шахта «Графиковая»" });
    expect(body.balance?.drained_t).toBeGreaterThan(0);
    expect(body.balance?.destroyed_t).toBeGreaterThan(0);
    expect(body.balance?.post_mining_t).toBeCloseTo(670, 6);
    // A project of no facility has no balance.
    const plain = (await (await h.request(`/api/v1/projects/${project.id}/graphs/`, { token: user.token })).json()) as {
      balance?: unknown;
    };
    expect(plain.balance).toBeUndefined();
  });

  it("keeps the per-item calls of the original client working", async () => {
    const res = await h.request(`/api/v1/underground/${underground.id}/single_calc/1/`, { token: user.token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as CalculationView).name).toBe("Вентиляция");
  });
});

describe("export to xlsx", () => {
  it("writes the project and a sheet per type with units in the headers, frozen headers and results", async () => {
    const { res, bytes } = await download("xlsx");
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("content-disposition")).toContain(`filename*=UTF-8''${encodeURIComponent("Шахта «Северная».xlsx")}`);
    const wb = await workbook(bytes);
    expect(wb.worksheets.map((ws) => ws.name)).toEqual([
      "Проект",
      sheet31("Выбор технологии утилизации шахтного метана"),
      OM_SHEET,
      UG_SHEET,
      sheet31("Прогноз концентрации метана в исходящей струе лавы"),
      sheet31("Заполнение пропусков во временных рядах"),
      sheet31("Анализ чувствительности выбросов"),
      "Итоги",
    ]);
    const info = wb.getWorksheet("Проект")!;
    expect(rowValues(info, 3)).toEqual(["Название", "Шахта «Северная»"]);
    expect(rowValues(info, 4)).toEqual(["Дата начала", "01.01.2024"]);

    const ug = wb.getWorksheet(UG_SHEET)!;
    expect(ug.getCell("A1").value).toBe("Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча)");
    expect(ug.views[0]).toMatchObject({ state: "frozen", ySplit: 2 });
    const co2 = headerIndex(ug, "Выбросы CO2, т CO2");
    headerIndex(ug, "Суммарные выбросы в CO2-эквиваленте, т CO2-экв.");
    const row = findRow(ug, "Вентиляция");
    expect(row.getCell(co2).value).toBeCloseTo(underground.res_co2 as number, 9);
    expect(row.getCell(co2).numFmt).toBe("#,##0.00");
    // Plain export: no inputs.
    expect(rowValues(ug, 2)).not.toContain("Плотность CO2, кг/м³");
    expect(ug.rowCount).toBe(2 + 3);

    const om = wb.getWorksheet(OM_SHEET)!;
    expect(om.rowCount).toBe(2 + 2); // the archived one is left out
    const tech = wb.getWorksheet(sheet31("Выбор технологии утилизации шахтного метана"))!;
    expect(String(findRow(tech, "Технология").getCell(4).value)).toMatch(/газопоршнев/i);
    const fill = wb.getWorksheet(sheet31("Заполнение пропусков во временных рядах"))!;
    expect(rowValues(fill, 2)).toEqual(["№", "Название", "Дата создания", "Элементов", "Строк", "Заполнено пропусков"]);
    expect(rowValues(fill, 3).slice(3)).toEqual([1, 3, 1]);
    const sensitivity = wb.getWorksheet(sheet31("Анализ чувствительности выбросов"))!;
    expect(rowValues(sensitivity, 2).slice(3)).toEqual(["Элементов", "Строк"]);
    expect(rowValues(sensitivity, 3).slice(3)).toEqual([1, 3]);
    expectForecastSummary(xlsxGrid(wb.getWorksheet(FORECAST_SHEET)!));
  });

  it("stores a name that looks like a formula as a text cell", async () => {
    const { bytes } = await download("xlsx");
    const wb = await workbook(bytes);
    const cell = findRow(wb.getWorksheet(UG_SHEET)!, INJECTION).getCell(2);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe(INJECTION);
    expect(cell.formula).toBeUndefined();
  });

  it("adds inputs, coefficient sources, audit and row sheets in the detailed export, with the asked decimals", async () => {
    const { bytes } = await download("xlsx", "?detail=true&decimals=3");
    const wb = await workbook(bytes);
    expect(wb.worksheets.map((ws) => ws.name)).toContain(FILL_ROWS);
    expect(wb.worksheets.map((ws) => ws.name)).toContain(FORECAST_ROWS);
    expect(wb.getWorksheet("Проект")!.getCell("B8").value).toBe("Подробный экспорт");

    const om = wb.getWorksheet(OM_SHEET)!;
    const row = findRow(om, "Дизель карьера");
    expect(row.getCell(headerIndex(om, "Расход топлива, т топлива")).value).toBe(10);
    expect(row.getCell(headerIndex(om, "Коэффициент выбросов CO2, т CO2/т топлива")).value).toBe(3.149);
    const source = String(row.getCell(headerIndex(om, "Источник: Коэффициент выбросов CO2")).value);
    expect(source).toContain("«Дизельное топливо летнее»");
    expect(source).toContain("версия 1");
    expect(source).toContain("371");
    // D29: each source with its tier, as the results dialog and the passport read it.
    expect(row.getCell(headerIndex(om, "Уровень: Коэффициент выбросов CO2")).value).toBe("Уровень 1 (значение по умолчанию)");
    const ug = wb.getWorksheet(UG_SHEET)!;
    const contents = findRow(ug, "Вентиляция");
    expect(String(contents.getCell(headerIndex(ug, "Источник: Содержание CH4 в смеси")).value)).toMatch(/^Справочник/);
    expect(contents.getCell(headerIndex(ug, "Уровень: Содержание CH4 в смеси")).value).toBe("Уровень 1 (значение по умолчанию)");
    const result = row.getCell(headerIndex(om, "Выбросы CO2, т CO2"));
    expect(result.value).toBeCloseTo(31.49, 9);
    expect(result.numFmt).toBe("#,##0.000");
    expect(row.getCell(headerIndex(om, "Автор")).value).toBe(user.email);
    // No internal id: a user reads the calculation by its name.
    expect(rowValues(om, 1).concat(rowValues(om, 2))).not.toContain("Идентификатор");
    expect(row.getCell(headerIndex(om, "Версия методики")).value).toBe("2026.7");

    const fill = wb.getWorksheet(FILL_ROWS)!;
    expect(fill.views[0]).toMatchObject({ state: "frozen", ySplit: 2 });
    expect(rowValues(fill, 2)).toEqual(["Расчет", "Элемент", "Год", "Значение", "Способ заполнения"]);
    expect(rowValues(fill, 3)).toEqual(["Пропуски", "Северная", 2019, 100, "наблюдение"]);
    expect(rowValues(fill, 4)).toEqual(["Пропуски", "Северная", 2020, 115, "линейная интерполяция"]);
    // A year is a name: 2020, never «2 020».
    expect(fill.getRow(4).getCell(3).numFmt).toBe("0");

    const sensitivity = wb.getWorksheet(sheet31("Строки. Анализ чувствительности выбросов"))!;
    const columns = rowValues(sensitivity, 2) as string[];
    expect(columns.slice(0, 4)).toEqual(["Расчет", "Элемент", "Год", "Добыча угля, т"]);
    expect(columns).toContain("Выбросы метана в CO2-эквиваленте, т CO2-экв.");
    expect(sensitivity.rowCount).toBe(2 + 3);
    expect(rowValues(sensitivity, 4).slice(0, 4)).toEqual(["Чувствительность", "Чувствительность", 2021, 1200000]);

    expectForecastSummary(xlsxGrid(wb.getWorksheet(FORECAST_SHEET)!));
    expectForecastRows(xlsxGrid(wb.getWorksheet(FORECAST_ROWS)!));
  });
});

describe("export to xls", () => {
  it("writes a genuine BIFF8 workbook", async () => {
    const { res, bytes } = await download("xls", "?detail=true");
    expect(res.headers.get("content-type")).toBe("application/vnd.ms-excel");
    expect(res.headers.get("content-disposition")).toContain(encodeURIComponent("Шахта «Северная» (подробный).xls"));
    expect([...bytes.subarray(0, 8)]).toEqual([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  });

  it("holds the forecasts' counts and maxima, and in the detailed export their rows", async () => {
    const plain = xlsGrids((await download("xls")).bytes);
    expectForecastSummary(plain.get(FORECAST_SHEET)!);
    expect(plain.has(FORECAST_ROWS)).toBe(false);
    const detailed = xlsGrids((await download("xls", "?detail=true")).bytes);
    expectForecastSummary(detailed.get(FORECAST_SHEET)!);
    expectForecastRows(detailed.get(FORECAST_ROWS)!);
  });

  it("reads back in LibreOffice with the values, units and a formula-like name as text", async () => {
    const { bytes } = await download("xls", "?detail=true&decimals=1");
    const csv = xlsToCsv(bytes);
    const sheet = (name: string) => {
      expect(csv.has(name), `no sheet «${name}» among ${[...csv.keys()].join(", ")}`).toBe(true);
      return csv.get(name)!;
    };
    const ug = sheet(UG_SHEET);
    expect(ug).toContain('"Выбросы CO2, т CO2"');
    expect(ug).toContain('"Плотность CO2, кг/м³"');
    expect(ug).toContain("Вентиляция");
    expect(ug).toContain(`${(underground.res_co2 as number).toFixed(1)}`);
    expect(ug).toContain('"=HYPERLINK(""http://evil.example"",""Нажмите"")"');
    expect(sheet(OM_SHEET)).toMatch(/Дизель карьера,[^\n]*31\.5/);
    expect(sheet("Проект")).toContain("Шахта «Северная»");
    expect(sheet(FILL_ROWS)).toContain("линейная интерполяция");
    // Shown as formatted: the result column has 4 decimals.
    const forecastRows = sheet(FORECAST_ROWS);
    for (const r of [...manual.rows, ...uploaded.rows]) expect(forecastRows).toContain(r.result.toFixed(4));
    expect(forecastRows).toContain("Прогноз из файла,14,");
  }, 180_000);
});

describe("export to txt", () => {
  it("writes readable UTF-8 text with the project, type titles and results with units", async () => {
    const { res, bytes } = await download("txt");
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    expect(text).toContain("Проект: Шахта «Северная»");
    expect(text).toContain("Дата начала: 01.01.2024");
    expect(text).toContain("Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча)");
    expect(text).toContain(`1. Вентиляция`);
    // Numbers the Russian way, as the web app shows them: a decimal comma, thousands by a no-break space.
    expect(text).toContain(`Выбросы CO2, т CO2: ${formatNumber(underground.res_co2 as number, 2)}`);
    expect(text).toContain("Выбросы CO2, т CO2: 31,49");
    expect(text).toContain("Заполнено пропусков: 1");
    // Each forecast's block: its row count and maximum, with a decimal comma.
    const block = (n: number, f: Forecast) =>
      new RegExp(
        `${n}\\. ${f.calc.name}\\n(    .*\\n)*?    Строк прогноза: ${f.rows.length}\\n    Максимальный прогноз, %: ${f.max.toFixed(4).replace(".", ",")}\\n`,
      );
    expect(text).toMatch(block(1, manual));
    expect(text).toMatch(block(2, uploaded));
    expect(text).not.toContain("Архивный");
  });
});

describe("export errors and names", () => {
  it("answers 400 «Unsupported file type» for any other format", async () => {
    for (const format of ["pdf", "csv", "", "XLSX"]) {
      const res = await h.request(exportUrl(format), { token: user.token });
      expect(res.status, format).toBe(400);
      expect(await res.json()).toEqual({ detail: "Unsupported file type" });
    }
  });

  it("rejects decimals outside 0..4", async () => {
    const res = await h.request(exportUrl("xlsx", "?decimals=7"), { token: user.token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("decimals")}: `));
  });

  it("answers 404 for another company's project and 401 without a token", async () => {
    for (const format of ["txt", "xls", "xlsx"]) {
      expect((await h.request(exportUrl(format), { token: other.token })).status).toBe(404);
    }
    expect((await h.request(exportUrl("txt"))).status).toBe(401);
  });

  it("accepts the path without a trailing slash", async () => {
    const res = await h.request(`/api/v1/projects/${project.id}/export_to_txt`, { token: user.token });
    expect(res.status).toBe(200);
  });

  it("exports an empty project with the project sheet and totals", async () => {
    const empty = await newProject(other.token, "Без расчетов");
    const res = await h.request(exportUrl("xlsx", "", empty.id), { token: other.token });
    const wb = await workbook(new Uint8Array(await res.arrayBuffer()));
    expect(wb.worksheets.map((ws) => ws.name)).toEqual(["Проект", "Итоги"]);
  });

  it("stores a large file under exports/{company}/ and redirects when the blob store hands out URLs", async () => {
    const puts: string[] = [];
    const deps = {
      ...h.deps,
      blobs: {
        ...h.deps.blobs,
        put: async (key: string, body: Uint8Array, type: string) => {
          puts.push(key);
          await h.deps.blobs.put(key, body, type);
        },
        downloadUrl: async (key: string, fileName: string) => `https://downloads.example/${key}?name=${encodeURIComponent(fileName)}`,
      },
    };
    const actor = { id: user.userId, company: user.companyId, email: user.email, role: "staff" as const };
    const small = await exportProject(deps, actor, project.id, "xlsx", { detail: true });
    expect(small.kind).toBe("body");
    const large = await exportProject(deps, actor, project.id, "xlsx", { detail: true, inlineLimitBytes: 1000 });
    expect(large).toEqual({
      kind: "redirect",
      url: expect.stringMatching(/^https:\/\/downloads\.example\/exports\//),
      fileName: expect.any(String),
    });
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatch(new RegExp(`^exports/${user.companyId}/${project.id}/[\\w-]+\\.xlsx$`));
    const stored = await h.deps.blobs.get(puts[0]);
    expect((await workbook(stored!.body)).worksheets.length).toBeGreaterThan(3);
  });
});

// D10, D12: the mine's own coefficients with their justification in the detailed export, and
// «Отметки» in words, never as the API's codes, in every export.
describe("custom coefficients and marks in the exports", () => {
  const EF = "Коэффициент выбросов CH4 при подземной добыче";
  const SHEET = sheet31("Выбросы CH4 при добыче угля подземным способом");
  const WHY = "Замеры газовыделения 2024 г., протокол № 17";
  const NO_JUSTIFICATION = `${EF}: фактическое значение без обоснования`;
  const OUT_OF_RANGE = `${EF}: фактическое значение вне правдоподобного диапазона`;
  const GWP = "набор ПГП не действует для отчетного года 2024";
  let own: Project;

  beforeAll(async () => {
    own = await newProject(user.token, "Шахта «Южная»");
    const measured = await create(
      "underground_emission_ch4",
      "Замеренный",
      {
        volume: 1_000_000,
        ef: 14.3,
        dictionary_items: { get_underground_emission_ch4: null },
        justifications: { ef: WHY },
        uncertainty: { ef: { lower_pct: 10, upper_pct: 10, distribution: "normal" } },
      },
      own.id,
    );
    expect(measured.flags).toEqual([]);
    const bare = await create(
      "underground_emission_ch4",
      "Без обоснования",
      { volume: 1000, ef: 14.3, uncertainty: { ef: { lower_pct: 10, upper_pct: 10, distribution: "normal" } } },
      own.id,
    );
    expect(bare.flags).toEqual(["custom_without_justification:ef"]);
    const outburst = await create(
      "underground_emission_ch4",
      "Выбросоопасный",
      {
        volume: 1000,
        ef: 60,
        justifications: { ef: "Выбросоопасный пласт" },
        uncertainty: { ef: { lower_pct: 10, upper_pct: 10, distribution: "normal" } },
      },
      own.id,
    );
    expect(outburst.flags).toEqual(["custom_out_of_range:ef"]);
    const gwp = await create("underground_emission_ch4", "Другой ПГП", { volume: 1000, ef: 18, gwp_set: 2 }, own.id);
    expect(gwp.gwp_not_in_force).toBe(true);
    await create("underground_emission_ch4", "Справочный", { volume: 1000, ef: 18 }, own.id);
  });

  const get = async (format: string, query = "") => {
    const res = await h.request(exportUrl(format, query, own.id), { token: user.token });
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };

  /** Name → [«Отметки», «Источник: …» (detailed only)] of the sheet's rows, header at grid[0]. */
  function marksOf(grid: Grid): Map<string, [unknown, unknown]> {
    const [header, ...rows] = grid;
    const marks = header.indexOf("Отметки");
    expect(marks, header.join(" | ")).toBeGreaterThan(0);
    const source = header.indexOf(`Источник: ${EF}`);
    return new Map(rows.map((r) => [String(r[1]), [r[marks] ?? null, source < 0 ? undefined : (r[source] ?? null)]]));
  }

  function expectMarks(grid: Grid, detail: boolean) {
    const rows = marksOf(grid);
    expect(rows.get("Замеренный")![0] ?? null).toBeNull();
    expect(rows.get("Без обоснования")![0]).toBe(NO_JUSTIFICATION);
    expect(rows.get("Выбросоопасный")![0]).toBe(OUT_OF_RANGE);
    expect(rows.get("Другой ПГП")![0]).toBe(GWP);
    expect(rows.get("Справочный")![0] ?? null).toBeNull();
    if (!detail) {
      expect(grid[0]).not.toContain(`Источник: ${EF}`);
      return;
    }
    expect(rows.get("Замеренный")![1]).toBe(`Фактическое значение; обоснование: ${WHY}`);
    expect(rows.get("Без обоснования")![1]).toBe("Фактическое значение; без обоснования");
    expect(rows.get("Выбросоопасный")![1]).toBe("Фактическое значение; обоснование: Выбросоопасный пласт");
    expect(String(rows.get("Справочный")![1])).toMatch(/^Справочник /);
  }

  it("xlsx: the source says «Фактическое значение» with the justification; «Отметки» in words, plain and detailed", async () => {
    for (const detail of [false, true]) {
      const wb = await workbook(await get("xlsx", detail ? "?detail=true" : ""));
      expectMarks(xlsxGrid(wb.getWorksheet(SHEET)!), detail);
    }
  });

  it("xls: the same, read back by SheetJS", async () => {
    for (const detail of [false, true]) {
      expectMarks(xlsGrids(await get("xls", detail ? "?detail=true" : "")).get(SHEET)!, detail);
    }
  });

  it("xls: LibreOffice reads the justification and the marks", async () => {
    const csv = xlsToCsv(await get("xls", "?detail=true")).get(SHEET)!;
    expect(csv).toContain(`Фактическое значение; обоснование: ${WHY}`);
    expect(csv).toContain(NO_JUSTIFICATION);
    expect(csv).toContain(OUT_OF_RANGE);
    expect(csv).toContain(GWP);
    expect(csv).not.toMatch(/custom_|gwp_not_in_force/);
  }, 180_000);

  it("txt (one kind, docs/user-guide.md): each block lists its marks in words, no internal codes", async () => {
    const text = new TextDecoder().decode(await get("txt", "?detail=true"));
    expect(text).toMatch(new RegExp(`\\d\\. Без обоснования\\n(    .*\\n)*?    Отметки: ${NO_JUSTIFICATION}\\n`));
    expect(text).toMatch(new RegExp(`\\d\\. Выбросоопасный\\n(    .*\\n)*?    Отметки: ${OUT_OF_RANGE}\\n`));
    expect(text).toMatch(new RegExp(`\\d\\. Другой ПГП\\n(    .*\\n)*?    Отметки: ${GWP}\\n`));
    // The measured one, justified and plausible, has no mark: its block ends at the next.
    expect(text).toMatch(/\d\. Замеренный\n( {4}(?!Отметки).*\n)*\d\. Без обоснования/);
    expect(text).not.toMatch(/custom_|gwp_not_in_force/);
  });
});
