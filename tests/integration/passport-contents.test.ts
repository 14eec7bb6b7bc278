// methodology 8.1, D21: the report passport of a company with two facilities
// prints, on each facility's report, the company's threshold verdict, the totals per gas with the
// other gases of 2979-р, the person responsible and the date of signing, the activity data (coal
// mined underground and open-pit, fuel by kind in its own unit), per line the formula followed and
// each coefficient's tier, and the measured source's periods, frequency and instruments — read back
// from the PDF with pdftotext and from the xlsx cells with exceljs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInAdmin } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
let admin: string;
let companyId: string;
let mine: { id: string };
let pit: { id: string };

type Inventory = {
  total_t_co2e: number;
  threshold: { regulated: boolean; company_t_co2e: number };
  categories: Array<{ gas: string; t: number; t_co2e: number }>;
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const RESPONSIBLE = {
  responsible_name: "Петров Иван Сергеевич",
  responsible_position: "Главный инженер по экологии",
  responsible_phone: "+7 (3842) 12-34-56",
  responsible_email: "petrov@ugol.example",
};

beforeAll(async () => {
  h = await createHarness();
  ({ token, companyId } = await h.signedInUser("ООО «Две площадки»"));
  ({ token: admin } = await signedInAdmin(h));
  // The person responsible is kept with the company's details and checked like them.
  const patch = (body: Record<string, unknown>) =>
    h.request(`/api/v1/admin/companies/${companyId}/`, { method: "PATCH", token: admin, json: body });
  const refused = await json<{ detail: string }>(await patch({ responsible_phone: "звонить Ивану" }), 400);
  expect(refused.detail).toMatch(new RegExp(`^${fieldName("responsible_phone")}: `));
  await json(await patch({ inn: "7707083893", kpp: "773601004", ...RESPONSIBLE }), 200);

  const facility = async (name: string, kind: string) =>
    json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind } }), 201);
  mine = await facility("Шахта «Северная»", "underground_mine");
  pit = await facility("Разрез «Восточный»", "open_pit");
  const project = async (name: string, site: { id: string }) =>
    json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name, start_date: "2025-01-01", end_date: "2025-12-31", facility: site.id },
      }),
      201,
    );
  const minePlan = await project("Северная 2025", mine);
  const pitPlan = await project("Восточный 2025", pit);
  const calc = async (type: string, on: { id: string }, name: string, body: Record<string, unknown>) =>
    json(await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name, project: on.id, ...body } }), 201);

  // D19: the two methods of one source split the year.
  await calc("underground_emission_ch4", minePlan, "Добыча шахты", {
    period: { from: "2025-07-01", to: "2025-12-31" },
    volume: 1_000_000,
    dictionary_items: { get_underground_emission_ch4: 1 },
  });
  // D17: the measured ventilation air is net; its periods, frequency and instruments go on the passport.
  await calc("underground", minePlan, "Вентиляция шахты", {
    basis: "net",
    period: { from: "2025-01-01", to: "2025-06-30" },
    periods: [
      { from: "01.01.2025", to: "31.03.2025", flow_m3_min: 10, hours: 2160, w_ch4: 0.4, w_co2: 0 },
      { from: "01.04.2025", to: "30.06.2025", flow_m3_min: 12, hours: 2184, w_ch4: 0.5, w_co2: 0 },
    ],
    dictionary_items: { get_underground: 1 },
    measurement_frequency: "непрерывно, осреднение за сутки",
    measurement_instruments: "АГК шахты, датчики CH4 ДМС-03",
  });
  await calc("open_mining_ch4", pitPlan, "Добыча разреза", { volume: 500_000, dictionary_items: { get_open_mining_ch4: 1 } });
  await calc("open_mining_co2", pitPlan, "Дизель техники", { volume: 1_200, dictionary_items: { get_open_mining_co2: 1 } });
  // The mine's boiler: the pit's machinery has the same IPCC code and gas (D19 would count it twice).
  await calc("disposal_co2_stat_sources", minePlan, "Котельная шахты", {
    volume: 800,
    of: 1,
    dictionary_items: { get_disposal_co2_stat_sources: 1 },
  });
});
afterAll(() => h.close());

const report = async (format: "pdf" | "xlsx", facility: { id: string }, year = 2025) => {
  const res = await h.request(`/api/v1/inventory/${year}/report/?format=${format}&facility=${facility.id}`, { token });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};

async function pdfText(facility: { id: string }, year = 2025): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
  writeFileSync(file, await report("pdf", facility, year));
  const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  // Numbers are grouped with a no-break space; long texts wrap onto the next line.
  return out.stdout.replace(/[ \u00a0\u202f]+/g, " ");
}

/** The text with its lines joined: a paragraph that wrapped reads as one. */
const joined = (text: string) => text.replace(/\s+/g, " ");

async function workbookOf(facility: { id: string }) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await report("xlsx", facility)) as unknown as ArrayBuffer);
  const rows = (sheet: string) => {
    const lines: unknown[][] = [];
    workbook.getWorksheet(sheet)!.eachRow((row) => lines.push((row.values as unknown[]).slice(1)));
    return lines;
  };
  return { workbook, rows };
}

/** The Russian way: thousands grouped by a space, a decimal comma. */
const russian = (value: number, decimals = 2) =>
  value
    .toFixed(decimals)
    .replace(".", ",")
    .replace(/\B(?=(\d{3})+(?!\d))/g, " ");

describe("the passport of each of a company's two facilities (8.1, D21)", () => {
  it("PDF: the company's verdict, totals per gas, the other gases, the person responsible, the activity data", async () => {
    const company = await json<Inventory>(await h.request("/api/v1/inventory/?year=2025", { token }), 200);
    expect(company.threshold.regulated).toBe(true);
    const texts = new Map<string, string>();
    for (const [site, own] of [
      [mine, "Добыча угля подземным способом"],
      [pit, "Добыча угля открытым способом"],
    ] as const) {
      const inventory = await json<Inventory>(await h.request(`/api/v1/inventory/?year=2025&facility=${site.id}`, { token }), 200);
      const lines = await pdfText(site);
      const text = joined(lines);
      texts.set(site.id, lines);
      // D21: the company's whole-year total and verdict, with the law's basis, on each site's report.
      expect(text).toContain(`Выбросы организации за год — ${russian(company.total_t_co2e, 0)} т CO2-экв.`);
      expect(text).toContain("организация — регулируемая, отчет о выбросах обязателен");
      expect(text).toContain("296-ФЗ, ст. 14, ч. 2–3; постановление Правительства РФ от 14.10.2025 № 1580");
      expect(text).not.toContain("Открытые проверки • Ошибка");
      expect(text).not.toMatch(/не обязателен/);
      // Totals per gas in t and t CO2-eq, as the facility's inventory sums them.
      for (const [gas, label] of [
        ["CO2", "Диоксид углерода \\(CO2\\)"],
        ["CH4", "Метан \\(CH4\\)"],
      ] as const) {
        const rows = inventory.categories.filter((row) => row.gas === gas);
        const t = rows.reduce((sum, row) => sum + row.t, 0);
        const co2e = rows.reduce((sum, row) => sum + row.t_co2e, 0);
        expect(lines).toMatch(new RegExp(`${label} ${russian(t)} ${russian(co2e)}`));
      }
      for (const gas of ["ГФУ", "ПФУ", "SF6", "NF3"]) expect(lines).toMatch(new RegExp(`\\(${gas}\\) не выбрасывается`));
      // Each site burns fuel (a boiler, the machinery): N2O is given off, and its method does not compute it.
      expect(lines).toMatch(/\(N2O\) не рассчитывается/);
      expect(lines).not.toMatch(/\(N2O\) не выбрасывается/);
      // The person responsible and the date of signing (the year is not approved yet).
      for (const value of Object.values(RESPONSIBLE)) expect(text).toContain(value);
      expect(text).toContain("Дата подписания не подписан: год не утвержден");
      expect(text).toContain("Отчетный период 01.01.2025–31.12.2025");
      expect(text).toContain(own);
    }
    const mineText = joined(texts.get(mine.id)!);
    // A column of figures in one count of decimals: the CH4 of the measured gas carries four.
    // Coal at its unit's precision, not the column's («4 500 000,0000 т»).
    expect(mineText).toMatch(/Добыча угля подземным способом 1 000 000,00 т/);
    expect(mineText).toContain("уравнение 4.1.3");
    expect(mineText).toContain("Приказ № 371, формула 3.1");
    expect(mineText).toContain("Периодичность измерений: непрерывно, осреднение за сутки");
    expect(mineText).toContain("АГК шахты, датчики CH4 ДМС-03");
    expect(mineText).toMatch(/01\.04\.2025–30\.06\.2025 12,00 2 184,00 0,50 0,00 1 572,48/);
    expect(mineText).toContain("Баланс метана шахт");
    expect(mineText).toMatch(/Топливо: Газ горючий природный 800,0000 тыс\. м³/);
    expect(mineText).toContain("Приказ № 371, формулы 1.1 и 1.2а");
    expect(mineText).not.toContain("тыс. м³ или т");
    expect(mineText).toContain("Уровень 1");
    expect(mineText).not.toContain("Разрез «Восточный»");
    const pitText = texts.get(pit.id)!;
    expect(pitText).toMatch(/Добыча угля открытым способом 500 000,00 т/);
    expect(pitText).toMatch(/Топливо: Дизельное топливо летнее 1 200,00 т/);
  }, 120_000);

  it("xlsx: one sheet per section with real numbers: verdict, gases, person responsible, activity data, measurements", async () => {
    const company = await json<Inventory>(await h.request("/api/v1/inventory/?year=2025", { token }), 200);
    for (const site of [mine, pit]) {
      const { workbook, rows } = await workbookOf(site);
      expect(workbook.worksheets.map((s) => s.name)).toEqual([
        "Паспорт",
        "Выбросы",
        "Данные о деятельности",
        "Источники",
        "Измерения",
        "Сжигание газа",
        "Баланс метана",
        "Проверки",
      ]);
      const passport = new Map(rows("Паспорт").map((r) => [r[0], r[1]]));
      expect(String(passport.get("Порог 296-ФЗ")).replace(/[\u00a0\u202f]/g, " ")).toContain(
        `Выбросы организации за год — ${russian(company.total_t_co2e, 0)} т CO2-экв., не меньше порога 50 000 т CO2-экв.`,
      );
      expect(passport.get("Отчетный период")).toBe("01.01.2025–31.12.2025");
      expect(passport.get("ФИО")).toBe(RESPONSIBLE.responsible_name);
      expect(passport.get("Должность")).toBe(RESPONSIBLE.responsible_position);
      expect(passport.get("Телефон")).toBe(RESPONSIBLE.responsible_phone);
      expect(passport.get("E-mail")).toBe(RESPONSIBLE.responsible_email);
      expect(passport.get("ИНН")).toBe("7707083893");
      expect(passport.get("Дата подписания")).toMatch(/^не подписан/);

      const inventory = await json<Inventory>(await h.request(`/api/v1/inventory/?year=2025&facility=${site.id}`, { token }), 200);
      const emissions = rows("Выбросы");
      const gas = (label: string) => emissions.find((r) => r[0] === label)!;
      const ch4 = inventory.categories.filter((r) => r.gas === "CH4").reduce((sum, r) => sum + r.t_co2e, 0);
      expect(gas("Метан (CH4)")[4]).toBeCloseTo(ch4, 6);
      expect(gas("Закись азота (N2O)").slice(0, 2)).toEqual([
        "Закись азота (N2O)",
        "не рассчитывается: методики сжигания топлива и газа (Приказ № 371) дают CO2 и CH4",
      ]);
      expect(gas("Гексафторид серы (SF6)").slice(0, 2)).toEqual(["Гексафторид серы (SF6)", "не выбрасывается"]);
      const total = workbook
        .getWorksheet("Выбросы")!
        .getRow(emissions.findIndex((r) => r[0] === "Итого") + 1)
        .getCell(5);
      expect(total.value).toBeCloseTo(inventory.total_t_co2e, 6);
      expect(total.numFmt).toBe("#,##0.00");
    }
    const activity = rows_((await workbookOf(pit)).rows("Данные о деятельности"));
    expect(activity).toContainEqual(["Разрез «Восточный»", "Добыча угля открытым способом", 500_000, "т"]);
    expect(activity).toContainEqual(["Разрез «Восточный»", "Топливо: Дизельное топливо летнее", 1_200, "т"]);
    // activity data the facility did not measure say why they have no tier, not an empty cell.
    const pitSources = (await workbookOf(pit)).rows("Источники");
    const tierColumn = pitSources.find((r) => r.includes("Уровень"))!.indexOf("Уровень");
    const activityRows = pitSources.filter((r) => r.includes("Данные о деятельности"));
    expect(activityRows.length).toBeGreaterThan(0);
    for (const row of activityRows) expect(row[tierColumn]).toBe("не применяется: данные учета организации");

    const { rows } = await workbookOf(mine);
    expect(rows_(rows("Данные о деятельности"))).toEqual([
      ["Шахта «Северная»", "Добыча угля подземным способом", 1_000_000, "т"],
      ["Шахта «Северная»", "Топливо: Газ горючий природный", 800, "тыс. м³"],
      ["Шахта «Северная»", "Газовая смесь из систем дегазации и вентиляции (измеренный объем)", expect.any(Number), "тыс. м³"],
      // D38: the CH4 the measured mixture held, by its periods: 1 296 × 0,4 % + 1 572,48 × 0,5 %.
      ["Шахта «Северная»", "в т. ч. CH4", expect.closeTo(1296 * 0.004 + 1572.48 * 0.005, 9), "тыс. м³"],
    ]);
    const measured = rows("Измерения").slice(1);
    expect(measured).toHaveLength(2);
    expect(measured[1].slice(3, 11)).toEqual([
      "непрерывно, осреднение за сутки",
      "АГК шахты, датчики CH4 ДМС-03",
      "01.04.2025–30.06.2025",
      12,
      2184,
      0.5,
      0,
      expect.closeTo((12 * 2184 * 60) / 1000, 6),
    ]);
    const sources = rows("Источники");
    const ef = sources.find((r) => r[3] === "Добыча шахты" && r[7] === "Коэффициент выбросов CH4 при подземной добыче")!;
    expect(ef.slice(8, 14)).toEqual([
      18,
      "м³/т",
      expect.stringMatching(/^Справочник/),
      "Уровень 1 (значение по умолчанию)",
      expect.stringContaining("уравнение 4.1.3"),
      "01.07.2025–31.12.2025",
    ]);
    expect(rows("Баланс метана").map((r) => r[1])).toContain(
      "Выброшено в атмосферу, всего (без сжигания, не сгорело на факелах, после добычи)",
    );
  });
});

/** Rows of the activity sheet without its header. */
const rows_ = (lines: unknown[][]) => lines.slice(1);

describe("the basis of the threshold by reporting year (D31)", () => {
  it("cites Decree 1580 in a 2025 passport and Decree 355 in a 2023 one, in the PDF and the xlsx", async () => {
    const plan = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Северная 2023", start_date: "2023-01-01", end_date: "2023-12-31", facility: mine.id },
      }),
      201,
    );
    await json(
      await h.request("/api/v1/underground_emission_ch4/", {
        method: "POST",
        token,
        json: { name: "Добыча 2023", project: plan.id, volume: 100_000, dictionary_items: { get_underground_emission_ch4: 1 } },
      }),
      201,
    );
    const decree1580 = "296-ФЗ, ст. 14, ч. 2–3; постановление Правительства РФ от 14.10.2025 № 1580";
    const decree355 = "296-ФЗ, ст. 14, ч. 2–3; постановление Правительства РФ от 14.03.2022 № 355";
    const verdictCell = async (year: number) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await report("xlsx", mine, year)) as unknown as ArrayBuffer);
      let verdict = "";
      workbook.getWorksheet("Паспорт")!.eachRow((row) => {
        if (row.getCell(1).value === "Порог 296-ФЗ") verdict = String(row.getCell(2).value);
      });
      return verdict;
    };
    // A long text may wrap after a dash.
    const pdf = async (year: number) => joined(await pdfText(mine, year)).replaceAll("– ", "–");
    const pdf2025 = await pdf(2025);
    expect(pdf2025).toContain(decree1580);
    expect(pdf2025).not.toContain("№ 355");
    expect(await verdictCell(2025)).toContain(decree1580);
    const pdf2023 = await pdf(2023);
    expect(pdf2023).toContain(decree355);
    expect(pdf2023).not.toContain("№ 1580");
    expect(await verdictCell(2023)).toContain(decree355);
    // Up to 2023 the threshold stays 150 000 t (D21).
    expect(await verdictCell(2023)).toMatch(/порога 150[\s\u00a0\u202f]000 т CO2-экв\./);
  });
});

describe("the oxidation factor left out (D28)", () => {
  it("is 1.0 by Order 371, labelled as the default on the calculation, after an edit and in the passport", async () => {
    const plan = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Котельная 2024", start_date: "2024-01-01", end_date: "2024-12-31", facility: pit.id },
      }),
      201,
    );
    type Boiler = {
      id: string;
      version: number;
      res_co2: number;
      coefficients: Record<string, { value: number; source: string }>;
    };
    const created = await json<Boiler>(
      await h.request("/api/v1/disposal_co2_stat_sources/", {
        method: "POST",
        token,
        json: { name: "Котельная", project: plan.id, volume: 800, dictionary_items: { get_disposal_co2_stat_sources: 1 } },
      }),
      201,
    );
    expect(created.coefficients.of).toMatchObject({ value: 1, source: "order_default" });
    const edited = await json<Boiler>(
      await h.request(`/api/v1/disposal_co2_stat_sources/${created.id}/`, {
        method: "PATCH",
        token,
        json: { volume: 400, version: created.version },
      }),
      200,
    );
    expect(edited.coefficients.of).toMatchObject({ value: 1, source: "order_default" });
    expect(edited.res_co2).toBeCloseTo(created.res_co2 / 2, 9);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await report("xlsx", pit, 2024)) as unknown as ArrayBuffer);
    const lines: unknown[][] = [];
    workbook.getWorksheet("Источники")!.eachRow((row) => lines.push((row.values as unknown[]).slice(1)));
    const of = lines.find((r) => r[3] === "Котельная" && r[7] === "Коэффициент окисления")!;
    expect(of.slice(8, 12)).toEqual([1, "доля", "По умолчанию (Приказ № 371)", "Уровень 1 (значение по умолчанию)"]);
    expect(lines.filter((r) => r[3] === "Котельная").map((r) => r[10])).not.toContain("Введено пользователем");
  });
});

describe("the passport's PDF tables", () => {
  /** A passport of no calculations, to fill by hand. */
  async function emptyPassport() {
    const { buildPassport } = await import("@server/export/inventory-passport");
    const company = (await h.deps.repos.companies.get(companyId))!;
    return buildPassport({
      company,
      facilities: [],
      inventory: {
        year: 2025,
        facility: null,
        gwp: { set: 1, name: "2979-р", gwp_ch4: 25, source: "" },
        categories: [],
        facilities: [],
        total_t_co2e: 0,
        threshold: { limit_t_co2e: 50_000, regulated: false, company_t_co2e: 0 },
        checks: [],
        calculations: [],
        balance: [],
      },
      review: { company: companyId, year: 2025, status: "draft", history: [], version: 0 } as never,
      users: [],
      now: new Date("2026-03-01T00:00:00Z"),
    });
  }

  it("print a number whole on one line, and each unit's figures at one precision, in the PDF and the xlsx", async () => {
    const { passportPdf } = await import("@server/export/inventory-passport-pdf");
    const { passportXlsx } = await import("@server/export/inventory-passport-xlsx");
    const passport = await emptyPassport();
    passport.activity = [
      { facility: "Шахта", label: "Добыча угля", value: 2662.48, unit: "т", decimals: 2 },
      { facility: "Шахта", label: "Топливо дизельное", value: 845.5, unit: "т", decimals: 4 },
      { facility: "Шахта", label: "Каптированный шахтный метан", value: 0.0006, unit: "тыс. м³", decimals: 4 },
    ];
    const gases = [{ gas: "CH4" as const, t: 254_520.78, t_co2e: 123_456_789.12 }];
    passport.facilities = [
      {
        name: "Шахта",
        details: "",
        t_co2e: 123_456_789.12,
        categories: [
          {
            title: "Категория 1",
            t_co2e: 123_456_789.12,
            sources: [
              {
                name: "Дегазация",
                project: "Проект",
                ipcc: "1.B.1.a.i.1",
                method: "измерения",
                formula: "формула",
                period: "",
                point: "",
                activity: [
                  {
                    label: "Объём газовой смеси",
                    value: 123_456.789,
                    unit: "тыс. м³",
                    decimals: 4,
                    tier: "Уровень 3 (измерения организации)",
                  },
                ],
                coefficients: [
                  { label: "Плотность CH4", value: 0.668, unit: "кг/м³", decimals: 4, source: "Справочник", tier: "Уровень 1" },
                ],
                gases,
                netting: [],
                net: gases,
                t_co2e: 123_456_789.12,
              },
            ],
          },
        ],
      },
    ];
    // a boiler's burnt gas as precise as a flare's.
    const device = (source: string, volume: number, w_ch4: number) => ({
      facility: "Шахта",
      source,
      project: "Проект",
      formula: "формула",
      period: "",
      frequency: "ежемесячно",
      instruments: "счетчик",
      volume,
      w_ch4,
      w_co2: 0,
      ch4_volume: (volume * w_ch4) / 100,
      note: "",
      factor: { label: "Коэффициент окисления", value: 1 },
    });
    passport.destruction = [device("Котельная", 1000, 100), device("Факел", 12.3456, 56.25)];
    const file = join(mkdtempSync(join(tmpdir(), "passport-")), "figures.pdf");
    writeFileSync(file, await passportPdf(passport));
    const text = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" }).stdout.replaceAll("\u00a0", " ");
    const line = (label: string) => text.split("\n").find((l) => l.includes(label)) ?? "";
    // Each unit at the decimals of its most precise figure across the passport: tonnes of coal and
    // diesel at two (not «2 662,4800 т» beside a gas at four), thousand m³ at four.
    expect(line("Добыча угля")).toMatch(/2 662,48 +т/);
    expect(line("Топливо дизельное")).toMatch(/845,50 +т/);
    expect(line("Каптированный шахтный метан")).toContain("0,0006");
    // A source's «Значение» column: each figure whole on its line, its unit's precision; emissions at two.
    expect(line("Данные о деятельности:")).toContain("123 456,7890");
    expect(line("Плотность CH4")).toContain("0,668");
    expect(line("Выбросы CH4 ")).toMatch(/254 520,78 /);
    expect(line("Выбросы CH4 в CO2-")).toMatch(/123 456 789,12 /);
    // Every device's burnt gas at one precision.
    const burnt = text.slice(text.indexOf("Сжигание каптированного газа"));
    const volumes = burnt
      .split("\n")
      .filter((l) => l.includes("Объем газовой смеси"))
      .map((l) => /(\d[\d ]*,\d+)/.exec(l)?.[1]);
    expect(volumes).toEqual(["1 000,0000", "12,3456"]);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await passportXlsx(passport)) as unknown as ArrayBuffer);
    const formats = (sheet: string, column: number) => {
      const found = new Set<string>();
      workbook.getWorksheet(sheet)!.eachRow((row) => {
        const cell = row.getCell(column);
        if (typeof cell.value === "number") found.add(cell.numFmt);
      });
      return [...found];
    };
    const places = (format: string) => format.split(".")[1]?.length ?? 0;
    expect(formats("Данные о деятельности", 3).map(places).sort()).toEqual([2, 4]);
    expect(formats("Источники", 9).map(places).sort()).toEqual([2, 3, 4]);
  }, 120_000);

  it("break across pages with their header row repeated on each page", async () => {
    const { buildPassport } = await import("@server/export/inventory-passport");
    const { passportPdf } = await import("@server/export/inventory-passport-pdf");
    const company = (await h.deps.repos.companies.get(companyId))!;
    const passport = buildPassport({
      company,
      facilities: [],
      inventory: {
        year: 2025,
        facility: null,
        gwp: { set: 1, name: "2979-р", gwp_ch4: 25, source: "" },
        categories: [],
        facilities: [],
        total_t_co2e: 0,
        threshold: { limit_t_co2e: 50_000, regulated: false, company_t_co2e: 0 },
        checks: [],
        calculations: [],
        balance: [],
      },
      review: { company: companyId, year: 2025, status: "draft", history: [], version: 0 } as never,
      users: [],
      now: new Date("2026-03-01T00:00:00Z"),
    });
    passport.activity = Array.from({ length: 150 }, (_, i) => ({
      facility: `Площадка ${i + 1}`,
      label: "Добыча угля открытым способом",
      value: 1000 + i,
      unit: "т",
      decimals: 2,
    }));
    const file = join(mkdtempSync(join(tmpdir(), "passport-")), "long.pdf");
    writeFileSync(file, await passportPdf(passport));
    const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    const pages = out.stdout.split("\f").filter((page) => page.includes("Площадка "));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(page).toMatch(/Площадка\s+Показатель\s+Значение\s+Единица/);
    expect(out.stdout).toContain("Площадка 150");
  }, 120_000);
});

describe("the frequency and instruments of a measured release", () => {
  it("are kept by `underground` only, within their length, and cleared by an empty text", async () => {
    const project = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Проверка измерений", start_date: "2024-01-01", end_date: "2024-12-31" },
      }),
      201,
    );
    const post = (type: string, body: Record<string, unknown>) =>
      h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name: "Замер", project: project.id, ...body } });
    const wrongType = await json<{ detail: string }>(
      await post("underground_emission_ch4", { volume: 1, ef: 18, measurement_frequency: "ежесуточно" }),
      400,
    );
    expect(wrongType.detail).toMatch(/^measurement_frequency: /);
    const measured = { volume: 100, ef_ch4: 0.4, ef_co2: 0, dictionary_items: { get_underground: 1 } };
    expect((await post("underground", { ...measured, measurement_instruments: "д".repeat(501) })).status).toBe(400);
    const created = await json<{ id: string; version: number; measurement_frequency?: string }>(
      await post("underground", { ...measured, measurement_frequency: " ежесуточно ", measurement_instruments: "АГК" }),
      201,
    );
    expect(created.measurement_frequency).toBe("ежесуточно");
    const patched = await json<{ measurement_frequency?: string; measurement_instruments?: string }>(
      await h.request(`/api/v1/underground/${created.id}/`, {
        method: "PATCH",
        token,
        json: { measurement_frequency: "", version: created.version },
      }),
      200,
    );
    expect(patched.measurement_frequency).toBeUndefined();
    expect(patched.measurement_instruments).toBe("АГК");
  });
});
