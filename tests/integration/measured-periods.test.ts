// an earlier round / D14: `underground` from measurement periods through the API — periods of equal
// contents store what their summed volume stores, each period's contribution is in the results,
// the densities follow the measurement conditions, errors name periods[i].field, and a CSV of the
// gas-monitoring system (or the Excel template) gives the same as the typed periods.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import type { Project } from "@server/contract/schemas/project";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import type { CalculationOf } from "@server/contract";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture());
});
afterAll(() => h.close());

const TOTALS = ["res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"] as const;
const PERIODS = [
  { from: "01.01.2024", to: "31.01.2024", flow_m3_min: 12.5, hours: 744, w_ch4: 76, w_co2: 10.6 },
  { from: "2024-02-01", to: "2024-02-28", flow_m3_min: 10.25, hours: 650.5, w_ch4: 76, w_co2: 10.6 },
];
const VOLUME = (12.5 * 744 * 60) / 1000 + (10.25 * 650.5 * 60) / 1000;

const post = (body: Record<string, unknown>) =>
  h.request("/api/v1/underground/", { method: "POST", token: user.token, json: { name: "Дегазация", project: project.id, ...body } });

function upload(file: { name: string; bytes: Uint8Array }) {
  const form = new FormData();
  form.set("project", project.id);
  form.set("name", "Дегазация из файла");
  form.set("dictionary_items", JSON.stringify({ get_underground: 1 }));
  form.set("file_data", new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
  return h.request("/api/v1/underground/", { method: "POST", token: user.token, body: form });
}

const created = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationOf<"underground">;
};

describe("underground from measurement periods (D14)", () => {
  it("gives the result of the summed volume when the periods' contents are equal, with each period's contribution", async () => {
    const byPeriods = await created(await post({ periods: PERIODS, dictionary_items: { get_underground: 1 } }));
    const byVolume = await created(await post({ volume: VOLUME, ef_ch4: 76, ef_co2: 10.6, dictionary_items: { get_underground: 1 } }));
    expect(byPeriods.volume).toBeCloseTo(VOLUME, 9);
    for (const name of TOTALS) expect(byPeriods[name] as number, name).toBeCloseTo(byVolume[name] as number, 6);
    expect(byPeriods.periods).toHaveLength(2);
    expect(byPeriods.periods[0]).toMatchObject({ from: "2024-01-01", to: "2024-01-31", flow_m3_min: 12.5, hours: 744, volume: 558 });
    const sum = byPeriods.periods.reduce((total, p) => total + p.sum_co2, 0);
    expect(sum).toBeCloseTo(byPeriods.sum_co2, 6);
    // The contents are the measured ones, not a dictionary's; the densities are the conditions'.
    expect(byPeriods.coefficients.ef_ch4).toMatchObject({ value: 76, source: "periods" });
    // The volume is their sum, computed: never «Введено пользователем»; the measured flow's uncertainty stays.
    expect(byPeriods.coefficients.volume).toMatchObject({ unit: "тыс. м³", source: "periods" });
    expect(byPeriods.coefficients.volume.value).toBeCloseTo(VOLUME, 9);
    expect(byPeriods.coefficients.volume.uncertainty).toMatchObject({ origin: "activity", lower_pct: 20 });
    expect(byVolume.coefficients.volume).toMatchObject({ value: VOLUME, source: "input" });
    expect(byPeriods.coefficients.p_ch4).toMatchObject({ source: "dictionary", item_id: 1 });
    expect(byPeriods.flags).toEqual([]);

    const read = (await (
      await h.request(`/api/v1/underground/${byPeriods.id}/`, { token: user.token })
    ).json()) as CalculationOf<"underground">;
    expect(read.periods).toEqual(byPeriods.periods);
  });

  it("takes each period's own contents and the densities of the chosen conditions", async () => {
    const periods = [PERIODS[0], { ...PERIODS[1], w_ch4: 0.4, w_co2: 0 }];
    const at0C = await created(await post({ periods, dictionary_items: { get_underground: 3 } }));
    const p = at0C.coefficients.p_ch4.value;
    expect(p).not.toBe(0.668);
    expect(at0C.res_ch4).toBeCloseTo(((558 * 76 + ((10.25 * 650.5 * 60) / 1000) * 0.4) * p) / 100, 6);
  });

  it("keeps the periods on an edit that changes the conditions only", async () => {
    const calc = await created(await post({ periods: PERIODS, dictionary_items: { get_underground: 1 } }));
    const at0C = await created(await post({ periods: PERIODS, dictionary_items: { get_underground: 3 } }));
    const densities = { p_co2: at0C.coefficients.p_co2.value, p_ch4: at0C.coefficients.p_ch4.value };
    const res = await h.request(`/api/v1/underground/${calc.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { version: calc.version, dictionary_items: { get_underground: 3 }, ...densities },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const edited = (await res.json()) as CalculationOf<"underground">;
    expect(edited.periods.map((p) => p.volume)).toEqual(calc.periods.map((p) => p.volume));
    expect(edited.sum_co2).toBeCloseTo(at0C.sum_co2, 6);
  });

  it("refuses a period in Russian naming it by number and dates, the cell by «periods[i].field»", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { hours: 745 },
        "periods[0].hours: Период 1 (01.01.2024–31.01.2024), «Время работы за период»: Время работы больше продолжительности периода (744 ч)",
      ],
      [{ from: "01.02.2024" }, "periods[0].to: Период 1 (01.02.2024–31.01.2024), «Конец периода»: Начало периода позже его конца"],
      [{ from: "2024/01/01" }, "periods[0].from: Период 1, «Начало периода»: Укажите дату"],
      [{ flow_m3_min: -1 }, "«Расход газовой смеси»: Значение должно быть неотрицательным"],
      [{ w_co2: 101 }, "periods[0].w_co2: Период 1 (01.01.2024–31.01.2024), «Содержание CO2 в смеси»: Значение должно быть не больше 100"],
    ];
    for (const [change, message] of cases) {
      const res = await post({ periods: [{ ...PERIODS[0], ...change }], dictionary_items: { get_underground: 1 } });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(await res.text()).toContain(message);
    }
  });

  // hostile: three identical periods were all counted, CH4 + CO2 = 200 % and periods
  // outside the project's dates were stored, an overflowing flow was reported against `volume`.
  it("refuses overlapping periods, contents above 100 %, periods outside the project and an overflowing flow", async () => {
    const refused = async (periods: unknown[], message: string) => {
      const res = await post({ periods, dictionary_items: { get_underground: 1 } });
      const body = (await res.json()) as { detail: string };
      expect(res.status, JSON.stringify(periods)).toBe(400);
      expect(body.detail).toBe(message);
      // The prefix marks the cell for the dialog; the message itself names no internal field.
      expect(body.detail.replace(/^periods\[\d+\]\.\w+: /, "")).not.toMatch(/w_ch4|w_co2|volume|flow_m3_min/);
    };
    await refused(
      [PERIODS[0], PERIODS[0], PERIODS[0]],
      "periods[1].from: Период 2 (01.01.2024–31.01.2024), «Начало периода»: пересекается с периодом 1 (01.01.2024–31.01.2024): один день не учитывается дважды",
    );
    await refused(
      [{ ...PERIODS[0], w_ch4: 100, w_co2: 100 }],
      "periods[0].w_co2: Период 1 (01.01.2024–31.01.2024): Сумма содержаний («Содержание CH4 в смеси» + «Содержание CO2 в смеси») должна быть не больше 100 % об., получено 200",
    );
    // The fixture's project runs 01.01.2014–31.12.2024.
    await refused(
      [PERIODS[0], { ...PERIODS[1], from: "01.12.2024", to: "15.01.2025" }],
      "periods[1].to: Период 2 (01.12.2024–15.01.2025), «Конец периода»: выходит за даты проекта (01.01.2014–31.12.2024)",
    );
    await refused(
      [{ ...PERIODS[0], flow_m3_min: 1e308 }],
      "periods[0].flow_m3_min: Период 1 (01.01.2024–31.01.2024), «Расход газовой смеси»: Значение должно быть не больше 100 000 м³/мин",
    );
    // The same rows from a file are refused the same way, by the file's row.
    const csv = "from;to;flow_m3_min;hours;w_ch4;w_co2\n01.01.2024;31.01.2024;1;10;50;5\n15.01.2024;31.01.2024;1;10;50;5\n";
    const res = await upload({ name: "m.csv", bytes: new TextEncoder().encode(csv) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      "строка 3, столбец «from»: Период 2 (15.01.2024–31.01.2024), «Начало периода»: пересекается с периодом 1",
    );
  });

  it("refuses an edit of stored periods once the project's dates no longer hold them", async () => {
    const own = await h.newProject(user.token, "Сужение дат");
    const res = await h.request("/api/v1/underground/", {
      method: "POST",
      token: user.token,
      json: { name: "По периодам", project: own.id, periods: PERIODS, dictionary_items: { get_underground: 1 } },
    });
    const calc = await created(res);
    const narrowed = await h.request(`/api/v1/projects/${own.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { start_date: "2024-02-01", end_date: "2024-12-31" },
    });
    expect(narrowed.status, await narrowed.clone().text()).toBe(200);
    const edit = await h.request(`/api/v1/underground/${calc.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { version: calc.version, dictionary_items: { get_underground: 3 } },
    });
    expect(edit.status).toBe(400);
    expect(await edit.text()).toContain(
      "Период 1 (01.01.2024–31.01.2024), «Начало периода»: выходит за даты проекта (01.02.2024–31.12.2024)",
    );
  });

  it("reads the periods from a monitoring system's CSV and from the Excel template the same as typed", async () => {
    const typed = await created(await post({ periods: PERIODS, dictionary_items: { get_underground: 1 } }));
    const csv =
      "from;to;flow_m3_min;hours;w_ch4;w_co2\n01.01.2024;31.01.2024;12,5;744;76;10,6\n01.02.2024;28.02.2024;10,25;650,5;76;10,6\n";
    const fromCsv = await created(await upload({ name: "мониторинг.csv", bytes: new TextEncoder().encode(csv) }));
    for (const name of TOTALS) expect(fromCsv[name] as number, name).toBeCloseTo(typed[name] as number, 9);
    expect((fromCsv.file_data as { name: string }).name).toBe("мониторинг.csv");

    const template = await h.request("/api/v1/underground/template/", { token: user.token });
    expect(template.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await template.arrayBuffer());
    const sheet = wb.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([
      "Начало периода",
      "Конец периода",
      "Расход газовой смеси, м³/мин",
      "Время работы за период, ч",
      "Содержание CH4 в смеси, % об.",
      "Содержание CO2 в смеси, % об.",
    ]);
    const filled = new ExcelJS.Workbook();
    const ws = filled.addWorksheet("Периоды");
    ws.addRow(header);
    // Excel keeps a typed date as a date cell.
    ws.addRow([new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 31)), 12.5, 744, 76, 10.6]);
    ws.addRow(["01.02.2024", "28.02.2024", 10.25, 650.5, 76, 10.6]);
    const fromXlsx = await created(await upload({ name: "периоды.xlsx", bytes: new Uint8Array(await filled.xlsx.writeBuffer()) }));
    for (const name of TOTALS) expect(fromXlsx[name] as number, name).toBeCloseTo(typed[name] as number, 9);
    expect(fromXlsx.periods[0].from).toBe("2024-01-01");
  });

  it("names the file's row and column of a refused period", async () => {
    const csv = "from,to,flow_m3_min,hours,w_ch4,w_co2\n01.01.2024,01.01.2024,1,30,1,0\n";
    const res = await upload({ name: "m.csv", bytes: new TextEncoder().encode(csv) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      "строка 2, столбец «hours»: Период 1 (01.01.2024–01.01.2024), «Время работы за период»: Время работы больше продолжительности периода (24 ч)",
    );
  });

  it("exports each period's contribution: the count on the type's sheet, the rows in the detailed export", async () => {
    const own = await h.newProject(user.token, "Экспорт периодов");
    const res = await h.request("/api/v1/underground/", {
      method: "POST",
      token: user.token,
      json: { name: "По периодам", project: own.id, periods: PERIODS, dictionary_items: { get_underground: 1 } },
    });
    const calc = await created(res);
    const download = await h.request(`/api/v1/projects/${own.id}/export_to_xlsx/?detail=true`, { token: user.token });
    expect(download.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await download.arrayBuffer());
    const values = (ws: ExcelJS.Worksheet, row: number) => (ws.getRow(row).values as unknown[]).slice(1);
    const main = wb.worksheets.find((ws) => ws.name.startsWith("Выбросы CO2 и CH4 из систем"))!;
    const header = values(main, 2) as string[];
    const row = values(main, 3);
    expect(row[header.indexOf("Периодов измерений")]).toBe(2);
    expect(row[header.indexOf("Объём газовой смеси, выброшенной без сжигания, тыс. м³")] as number).toBeCloseTo(VOLUME, 9);

    const rows = wb.worksheets.find((ws) => ws.name.startsWith("Строки. Выбросы CO2 и CH4"))!;
    const columns = values(rows, 2) as string[];
    expect(columns.slice(0, 5)).toEqual([
      "Расчет",
      "Начало периода",
      "Конец периода",
      "Расход газовой смеси, м³/мин",
      "Время работы за период, ч",
    ]);
    expect(values(rows, 3).slice(0, 5)).toEqual(["По периодам", "01.01.2024", "31.01.2024", 12.5, 744]);
    const sums = [3, 4].map((r) => values(rows, r)[columns.indexOf("Выбросы в CO2-эквиваленте, т CO2-экв.")] as number);
    expect(sums[0] + sums[1]).toBeCloseTo(calc.sum_co2 as number, 6);
  });
});
