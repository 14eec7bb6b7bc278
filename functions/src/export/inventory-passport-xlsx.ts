// The report passport as a workbook, one sheet per section of methodology 8.1: «Паспорт» (the legal
// entity, the period, status and version, the person responsible and the date of signing, the
// threshold verdict), «Выбросы» (per gas with the other gases of 2979-р, by category and gas, by
// facility), «Данные о деятельности», «Источники» (per facility, category and calculation: the
// method and formula, the activity data, every coefficient with its source and tier, the
// emissions), «Измерения» (formula 3.1), «Сжигание газа» (flares, boilers and engines on drained
// gas, D38), «Баланс метана» and «Проверки». Numbers are real numbers with number
// formats, so they can be summed and checked.
// Texts typed by users get the quote prefix and lose XML-invalid characters like the project export's.
import ExcelJS from "exceljs";
import type { Cell } from "./content";
import {
  EMISSION_DECIMALS,
  SIGNING_KEY_LABEL,
  columnDecimals,
  destructionDecimals,
  passportUnitDecimals,
  type Passport,
  type Quantity,
} from "./inventory-passport";
import { learnQuotePrefix, numberFormat, quoteFormulaLike, workbookBytes, xmlCells } from "./xlsx-writer";
import { NETTING_LABEL } from "@core/inventory";
import { stampZip } from "./zip-writer";
import { wallTimeIn } from "@core/company-clock";

/** A column of figures in one count of decimals: as many as its most precise figure carries. */
const columnFormat = (figures: ReadonlyArray<Pick<Quantity, "value" | "decimals">>) => numberFormat(columnDecimals(figures));
const EMISSIONS_FORMAT = numberFormat(EMISSION_DECIMALS);

interface Line {
  cells: Cell[];
  /** Number format per column index (0-based) of the numbers in this line. */
  formats?: Record<number, string>;
  bold?: boolean;
}

function addLines(worksheet: ExcelJS.Worksheet, lines: Line[]): void {
  for (const line of lines) {
    const cells = xmlCells(line.cells);
    const row = worksheet.addRow(cells);
    if (line.bold) row.font = { bold: true };
    for (const [index, format] of Object.entries(line.formats ?? {})) row.getCell(Number(index) + 1).numFmt = format;
    quoteFormulaLike(row, cells).commit();
  }
}

function passportLines(p: Passport): Line[] {
  return [
    { cells: [p.title], bold: true },
    { cells: [] },
    { cells: ["Организация"], bold: true },
    ...p.requisites.map(([label, value]) => ({ cells: [label, value] })),
    { cells: [] },
    { cells: ["Отчетный период", p.period] },
    { cells: ["Отчетный год", p.year], formats: { 1: "0" } },
    { cells: ["Статус", p.status] },
    ...(p.version ? [{ cells: ["Версия", p.version.number], formats: { 1: "0" } }, { cells: ["SHA-256 версии", p.version.sha256] }] : []),
    ...(p.version?.key ? [{ cells: [SIGNING_KEY_LABEL, p.version.key] }] : []),
    ...p.approvals.map((text) => ({ cells: ["Согласование", text] })),
    { cells: ["Площадки", p.scope] },
    { cells: ["Потенциал глобального потепления", p.gwp] },
    { cells: [] },
    { cells: ["Ответственное лицо"], bold: true },
    ...p.responsible.map(([label, value]) => ({ cells: [label, value] })),
    { cells: ["Дата подписания", p.signing] },
    { cells: [] },
    { cells: ["Порог 296-ФЗ", p.threshold] },
    { cells: ["Измерено и оценено", p.measured_vs_estimated] },
    { cells: [] },
    { cells: [`Сформировано ${p.generated}. ${p.footnote}`] },
  ];
}

function emissionLines(p: Passport): Line[] {
  const emissions = { 3: EMISSIONS_FORMAT, 4: EMISSIONS_FORMAT };
  return [
    { cells: ["Выбросы по газам"], bold: true },
    { cells: ["Газ", null, null, "Выбросы, т", "Выбросы, т CO2-экв."], bold: true },
    ...p.gases.map((g) => ({ cells: [g.gas, g.note || null, null, g.t, g.t_co2e], formats: emissions })),
    { cells: ["Итого", null, null, null, p.total_t_co2e], formats: emissions, bold: true },
    ...(p.rounding.gases ? [{ cells: [p.rounding.gases] }] : []),
    { cells: [] },
    { cells: ["Выбросы по категориям и газам"], bold: true },
    { cells: ["Категория (Приказ № 371)", "Код МГЭИК", "Газ", "Выбросы, т", "Выбросы, т CO2-экв."], bold: true },
    ...p.totals.map((row) => ({ cells: [row.category, row.ipcc, row.gas, row.t, row.t_co2e], formats: emissions })),
    { cells: ["Итого по категориям", null, null, null, p.total_t_co2e], formats: emissions, bold: true },
    ...(p.rounding.totals ? [{ cells: [p.rounding.totals] }] : []),
    { cells: [] },
    { cells: ["Выбросы по площадкам"], bold: true },
    { cells: ["Площадка", null, null, null, "Выбросы, т CO2-экв."], bold: true },
    ...p.facilities.map((f) => ({ cells: [f.name, f.details, null, null, f.t_co2e], formats: emissions })),
    ...(p.rounding.facilities ? [{ cells: [p.rounding.facilities] }] : []),
  ];
}

function activityLines(p: Passport): Line[] {
  // One precision per unit, as the PDF prints it (passportUnitDecimals).
  const units = passportUnitDecimals(p);
  return [
    { cells: ["Площадка", "Показатель", "Значение", "Единица"], bold: true },
    ...p.activity.map((a) => ({
      cells: [a.facility, a.label, a.value, a.unit],
      formats: { 2: numberFormat(units.get(a.unit) ?? a.decimals) },
    })),
  ];
}

function measurementLines(p: Passport): Line[] {
  const header = ["Площадка", "Расчет", "Проект", "Периодичность измерений", "Средства измерений", "Период"];
  const numbers = ["Расход, м³/мин", "Время, ч", "CH4, % об.", "CO2, % об.", "Объем, тыс. м³"];
  const rows = p.measurements.flatMap((m) => m.periods);
  const column = (value: (row: (typeof rows)[number]) => number | null, decimals: number) =>
    columnFormat(rows.flatMap((row) => (value(row) === null ? [] : [{ value: value(row)!, decimals }])));
  const formats = {
    6: column((row) => row.flow, 4),
    7: column((row) => row.hours, 2),
    8: column((row) => row.w_ch4, 4),
    9: column((row) => row.w_co2, 4),
    10: column((row) => row.volume, 4),
  };
  return [
    { cells: [...header, ...numbers], bold: true },
    ...p.measurements.flatMap((m) =>
      m.periods.map((row) => ({
        cells: [
          m.facility,
          m.source,
          m.project,
          m.frequency,
          m.instruments,
          row.period,
          row.flow,
          row.hours,
          row.w_ch4,
          row.w_co2,
          row.volume,
        ],
        formats,
      })),
    ),
  ];
}

/** D38: the devices that burnt drained gas, each with its formula and the gas it burnt. */
function destructionLines(p: Passport): Line[] {
  const header = ["Площадка", "Расчет", "Проект", "Формула", "Период", "Периодичность измерений", "Средства измерений"];
  const numbers = [
    "Объем газовой смеси, тыс. м³",
    "CH4, % об.",
    "CO2, % об.",
    "в т. ч. CH4, тыс. м³",
    "Коэффициент",
    "Значение, доля",
    "Примечание",
  ];
  // One precision per unit across the devices, as the PDF prints it.
  const places = destructionDecimals(p);
  const [gas, share, factor] = [places.gas, places.share, places.factor].map((decimals) => numberFormat(decimals));
  const formats = { 7: gas, 8: share, 9: share, 10: gas, 12: factor };
  return [
    { cells: [...header, ...numbers], bold: true },
    ...p.destruction.map((d) => ({
      cells: [
        d.facility,
        d.source,
        d.project,
        d.formula,
        d.period,
        d.frequency,
        d.instruments,
        d.volume,
        d.w_ch4,
        d.w_co2,
        d.ch4_volume,
        d.factor.label,
        d.factor.value,
        d.note || null,
      ],
      formats,
    })),
  ];
}

const balanceLines = (p: Passport): Line[] => [
  { cells: ["Площадка", "Показатель", "т CH4"], bold: true },
  ...p.balance.flatMap((b) => b.rows.map((row) => ({ cells: [b.facility, row.label, row.t], formats: { 2: EMISSIONS_FORMAT } }))),
];

const checkLines = (p: Passport): Line[] => [
  ...(p.changes ? [{ cells: [p.changes.title], bold: true }, ...p.changes.lines.map((text) => ({ cells: [text] })), { cells: [] }] : []),
  { cells: ["Открытые проверки"], bold: true },
  ...(p.checks.length > 0 ? p.checks.map((text) => ({ cells: [text] })) : [{ cells: ["Замечаний нет"] }]),
];

const SOURCE_HEADER = [
  "Площадка",
  "Категория (Приказ № 371)",
  "Код МГЭИК",
  "Расчет",
  "Проект",
  "Метод",
  "Вид",
  "Показатель",
  "Значение",
  "Единица",
  "Источник значения",
  "Уровень",
  "Формула (уравнение)",
  "Период",
  // D25: the calculation's emission point with its instrument and frequency, as the PDF prints it.
  "Источник выбросов (точка измерения)",
];

function sourceLines(p: Passport): Line[] {
  // «Значение» holds every figure of the sheet: each unit at one precision, as the PDF prints it.
  const units = passportUnitDecimals(p);
  const lines: Line[] = [
    { cells: [p.title], bold: true },
    { cells: SOURCE_HEADER, bold: true },
  ];
  for (const facility of p.facilities) {
    for (const category of facility.categories) {
      for (const source of category.sources) {
        const about = [facility.name, category.title, source.ipcc, source.name, source.project, source.method];
        const quantity = (kind: string, q: Quantity, note: string | null = null, tier: string | null = null, emission = false): Line => ({
          cells: [...about, kind, q.label, q.value, q.unit, note, tier, source.formula, source.period, source.point || null],
          formats: { 8: numberFormat(emission ? EMISSION_DECIMALS : (units.get(q.unit) ?? q.decimals)) },
        });
        lines.push(...source.activity.map((q) => quantity("Данные о деятельности", q, null, q.tier || null)));
        lines.push(...source.coefficients.map((c) => quantity("Коэффициент", c, c.source, c.tier)));
        for (const gas of source.gases) {
          const t = (label: string, value: number, unit = `т ${gas.gas}`) =>
            quantity("Выбросы", { label, value, unit, decimals: EMISSION_DECIMALS }, null, null, true);
          // D26: gross, the netting and net, so the facility's sources add up to its total.
          const off = source.netting.find((n) => n.gas === gas.gas);
          const net = source.net.find((n) => n.gas === gas.gas) ?? gas;
          if (off) {
            lines.push(t(`Выбросы ${gas.gas}, валовые`, gas.t));
            lines.push(t(NETTING_LABEL, off.t));
            lines.push(t(`Выбросы ${gas.gas}, чистые`, net.t));
            lines.push(t(`Выбросы ${gas.gas} в CO2-эквиваленте, чистые`, net.t_co2e, "т CO2-экв."));
          } else {
            lines.push(t(`Выбросы ${gas.gas}`, gas.t));
            lines.push(t(`Выбросы ${gas.gas} в CO2-эквиваленте`, gas.t_co2e, "т CO2-экв."));
          }
        }
      }
    }
  }
  return lines;
}

export async function passportXlsx(passport: Passport): Promise<Uint8Array> {
  const { stream: out, bytes } = workbookBytes();
  // D39: the workbook's properties and its zip entries are dated by the document's own moment.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.created = passport.issued;
  workbook.modified = passport.issued;
  learnQuotePrefix(workbook);
  workbook.creator = "Цифровая платформа расчета неорганизованных выбросов";

  const sheet = (name: string, widths: number[], lines: Line[], frozen = 0) => {
    const worksheet = workbook.addWorksheet(name, frozen ? { views: [{ state: "frozen", xSplit: 0, ySplit: frozen }] } : {});
    worksheet.columns = widths.map((width) => ({ width }));
    addLines(worksheet, lines);
    worksheet.commit();
  };
  sheet("Паспорт", [42, 80], passportLines(passport));
  sheet("Выбросы", [42, 48, 8, 16, 20], emissionLines(passport));
  sheet("Данные о деятельности", [30, 60, 18, 12], activityLines(passport), 1);
  sheet("Источники", [24, 30, 36, 28, 24, 30, 22, 44, 16, 16, 60, 30, 60, 24], sourceLines(passport), 2);
  sheet("Измерения", [24, 28, 24, 30, 40, 24, 16, 12, 12, 12, 16], measurementLines(passport), 1);
  sheet("Сжигание газа", [24, 28, 24, 60, 24, 24, 30, 26, 12, 12, 20, 28, 14, 28], destructionLines(passport), 1);
  // The balance's labels say what each row is (D38): wide enough to read whole.
  sheet("Баланс метана", [30, 90, 16], balanceLines(passport), 1);
  sheet("Проверки", [120], checkLines(passport));

  await workbook.commit();
  // A zip entry's time has no zone: the company's wall clock at the document's moment.
  return stampZip(await bytes, new Date(`${wallTimeIn(passport.issued, passport.zone)}Z`));
}
