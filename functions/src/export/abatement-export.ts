// An abatement assessment as a file (GET v1/abatement/assessments/{id}/export/): xlsx with its
// inputs, each stream's options with every result, the coefficients with their sources and the
// MACC table; PDF (pdfkit, DejaVu Sans as the passport) with the same and the MACC drawn. Every
// figure is shown with the decimals the screen shows (ABATEMENT_DECIMALS), the Russian way.
import {
  ABATEMENT_DECIMALS,
  ABATEMENT_OPTIONS,
  ABATEMENT_RESULT_COLUMNS,
  ESTIMATE_LABEL,
  ETA_LABEL,
  measuredMonthsText,
  missingInputLabel,
  ownValue,
  shownValue,
  type AbatementOptionResult,
} from "@core/abatement";
import type { AbatementAssessment } from "../ports";
import type { Cell, Column, Sheet } from "./content";
import { PASSPORT_FONTS } from "./formats";
import { fontFile, textPdf } from "./pdf-writer";
import { formatNumber } from "./txt-writer";
import { xlsxBytes } from "./xlsx-writer";

export type AbatementFileFormat = "xlsx" | "pdf";

/** The inputs of the assessment as label / value / unit rows. */
export const PARAM_ROWS: readonly { key: string; label: string; unit: string; decimals: number }[] = [
  { key: "ef_grid_t_per_mwh", label: "Коэффициент выбросов энергосистемы", unit: "т CO2/МВт·ч", decimals: 3 },
  { key: "price_el_rub_per_mwh", label: "Цена электроэнергии", unit: "₽/МВт·ч", decimals: 2 },
  { key: "price_heat_rub_per_mwh", label: "Цена тепла", unit: "₽/МВт·ч", decimals: 2 },
  { key: "price_carbon_unit_rub", label: "Цена углеродной единицы", unit: "₽", decimals: 2 },
  { key: "price_gas_rub_per_1000m3", label: "Цена газа", unit: "₽/тыс. м³", decimals: 2 },
  { key: "discount_rate", label: "Ставка дисконтирования", unit: "доля", decimals: 3 },
  { key: "lifetime_yr", label: "Срок проекта", unit: "лет", decimals: 0 },
  { key: "gwp_ch4", label: "ПГП метана", unit: "", decimals: 0 },
];

const KIND_LABEL = { drainage: "дегазация", ventilation: "вентиляция" } as const;

/** «; измерения за 2 из 12 месяцев (10.2026, 11.2026): …» of an inventory stream (none for one stored before). */
function monthsOf(origin: AbatementAssessment["origins"][string]): string {
  return origin.months && origin.hours && origin.year_hours
    ? `; ${measuredMonthsText(origin.months, origin.hours, origin.year_hours)}`
    : "";
}

/** A stream's name as the screen shows it. */
function streamName(a: AbatementAssessment, code: string): string {
  return a.input.streams.find((s) => s.code === code)?.name || code;
}

function optionRows(a: AbatementAssessment): { stream: string; option: AbatementOptionResult; chosen: boolean }[] {
  return a.result.streams.flatMap((s) =>
    s.options.map((option) => ({ stream: streamName(a, s.code), option, chosen: s.chosen === option.option_code })),
  );
}

/** The plan's totals as the screen's «Итог плана» writes them. */
export function planLine(a: AbatementAssessment): string {
  const t = a.result.totals;
  return (
    `Сокращение: ${formatNumber(t.er_t_co2e, ABATEMENT_DECIMALS.er_t_co2e)} т CO2-экв./год; углеродные единицы: ${formatNumber(t.carbon_units, 0)} в год; ` +
    `ЧДД: ${formatNumber(t.npv_rub, 0)} ₽; средняя LAC: ${t.lac_rub_per_t === null ? "—" : formatNumber(t.lac_rub_per_t, ABATEMENT_DECIMALS.lac_rub_per_t)} ₽/т CO2-экв.`
  );
}

const number = (header: string, decimals: number, width = 16): Column => ({ header, kind: "number", decimals, width });

export function abatementSheets(a: AbatementAssessment): Sheet[] {
  const params = a.input.params as Record<string, number | null | undefined>;
  const inputs: Sheet = {
    name: "Исходные данные",
    text: { layout: "none" },
    title: `${a.name}: исходные данные (методика ${a.methodology_version}${a.year ? `, ${a.year} год` : ""})`,
    columns: [
      { header: "Параметр", kind: "text", width: 44 },
      { header: "Значение", kind: "number", decimals: 3, width: 18, asStored: true },
      { header: "Единица", kind: "text", width: 14 },
    ],
    rows: PARAM_ROWS.filter((p) => params[p.key] !== undefined && params[p.key] !== null).map((p): Cell[] => [
      p.label,
      params[p.key] as number,
      p.unit,
    ]),
  };
  const streams: Sheet = {
    name: "Потоки",
    text: { layout: "none" },
    title: `${a.name}: потоки`,
    columns: [
      { header: "Поток", kind: "text", width: 28 },
      { header: "Вид", kind: "text", width: 12 },
      number("CH4, %", 2, 10),
      number("Дебит метана, м³/мин", 2, 14),
      { header: "Источник данных", kind: "text", width: 40 },
      { header: "Технология по п. 4.10", kind: "text", width: 24 },
      { header: "Почему варианты не предлагаются", kind: "text", width: 60 },
    ],
    rows: a.result.streams.map((s): Cell[] => {
      const origin = ownValue(a.origins, s.code);
      return [
        streamName(a, s.code),
        KIND_LABEL[s.kind],
        s.c_ch4_pct,
        s.q_ch4_m3_min,
        origin?.source === "inventory"
          ? `инвентаризация ${origin.year} г., ${origin.point_name}: ${formatNumber(origin.figure_t_ch4 ?? 0, 2)} т CH4${monthsOf(origin)}`
          : "введено вручную",
        s.tech_code,
        s.notice ?? "",
      ];
    }),
  };
  const options: Sheet = {
    name: "Варианты",
    text: { layout: "none" },
    title: `${a.name}: варианты по потокам (${ETA_LABEL})`,
    columns: [
      { header: "Поток", kind: "text", width: 24 },
      { header: "Вариант", kind: "text", width: 40 },
      { header: "В MACC", kind: "text", width: 8 },
      number("Эффективность уничтожения", 3, 12),
      ...ABATEMENT_RESULT_COLUMNS.map((c) => number(c.label, c.decimals)),
      { header: "Затраты", kind: "text", width: 22 },
    ],
    rows: optionRows(a).map(({ stream, option, chosen }): Cell[] => [
      stream,
      option.label,
      chosen ? "да" : "",
      option.eta_destruction,
      ...ABATEMENT_RESULT_COLUMNS.map((c) => shownValue(c, option)),
      option.costs_estimated ? ESTIMATE_LABEL : "введены",
    ]),
  };
  const coefficients: Sheet = {
    name: "Коэффициенты",
    text: { layout: "none" },
    title: `${a.name}: коэффициенты и их источники`,
    columns: [
      { header: "Поток", kind: "text", width: 24 },
      { header: "Вариант", kind: "text", width: 36 },
      { header: "Коэффициент", kind: "text", width: 50 },
      { header: "Значение", kind: "number", decimals: 3, width: 14, asStored: true },
      { header: "Единица", kind: "text", width: 14 },
      { header: "Источник", kind: "text", width: 30 },
    ],
    rows: optionRows(a).flatMap(({ stream, option }) =>
      option.coefficients.map((c): Cell[] => [stream, option.label, c.label, c.value, c.unit, c.source]),
    ),
  };
  const macc: Sheet = {
    name: "MACC",
    text: { layout: "none" },
    title: `${a.name}: кривая предельных затрат на сокращение (MACC)`,
    columns: [
      { header: "Поток", kind: "text", width: 24 },
      { header: "Вариант", kind: "text", width: 40 },
      number("Начало, т CO2-экв./год", 1, 16),
      number("Ширина (ER), т CO2-экв./год", 1, 16),
      number("LAC, ₽/т CO2-экв.", 2, 16),
    ],
    rows: a.result.macc.map((bar): Cell[] => [streamName(a, bar.stream), bar.label, bar.x_start, bar.width, bar.lac_rub_per_t]),
  };
  const plan: Sheet = {
    name: "Итог плана",
    text: { layout: "none" },
    title: `${a.name}: итог плана (выбранные варианты)`,
    columns: [
      number("Сокращение, т CO2-экв./год", ABATEMENT_DECIMALS.er_t_co2e, 18),
      number("Углеродные единицы в год", 0, 16),
      number("ЧДД, ₽", 0, 18),
      number("Средняя LAC, ₽/т CO2-экв.", ABATEMENT_DECIMALS.lac_rub_per_t, 16),
    ],
    rows: [[a.result.totals.er_t_co2e, a.result.totals.carbon_units, a.result.totals.npv_rub, a.result.totals.lac_rub_per_t]],
  };
  return [inputs, streams, options, coefficients, macc, plan];
}

export async function abatementXlsx(a: AbatementAssessment): Promise<Uint8Array> {
  return xlsxBytes(abatementSheets(a));
}

/** A figure as shown; null «—». */
const shown = (value: number | null, decimals: number) => (value === null ? "—" : formatNumber(value, decimals));

export async function abatementPdf(a: AbatementAssessment, issued: Date): Promise<Uint8Array> {
  const { doc, left, width, heading, line, bytes } = textPdf(a.name, issued, { margin: 40 });

  heading(`Оценка вариантов снижения выбросов метана: ${a.name}`, 14);
  line(
    `Методика ${a.methodology_version} (раздел 11, форма CDM ACM0008)${a.year ? `; год данных ${a.year}` : ""}. Оценка не входит в инвентаризацию. Версия оценки ${a.version}.`,
  );
  heading("Исходные данные");
  const params = a.input.params as Record<string, number | null | undefined>;
  for (const p of PARAM_ROWS) {
    const value = params[p.key];
    if (value !== undefined && value !== null) line(`${p.label}: ${formatNumber(value, p.decimals)}${p.unit ? ` ${p.unit}` : ""}`);
  }
  const t = a.thresholds;
  line(
    `Пороги дебита по п. 4.10 (справочник на дату оценки), м³/мин: котельная ${formatNumber(t.q_boiler, 2)}, ГПУ ${formatNumber(t.q_gas_engine, 2)}, окисление с энергией ${formatNumber(t.q_vam_energy, 2)}, сеть ${formatNumber(t.q_pipeline, 2)}, мини-ТЭС ${formatNumber(t.q_power_plant, 2)}`,
  );

  for (const s of a.result.streams) {
    const origin = ownValue(a.origins, s.code);
    heading(`Поток «${streamName(a, s.code)}» (${KIND_LABEL[s.kind]})`);
    line(
      `CH4 ${formatNumber(s.c_ch4_pct, 2)} %, дебит метана ${formatNumber(s.q_ch4_m3_min, 2)} м³/мин; технология по п. 4.10: ${s.tech_code}. ` +
        (origin?.source === "inventory"
          ? `Метан из инвентаризации ${origin.year} г. (${origin.point_name}): ${formatNumber(origin.figure_t_ch4 ?? 0, 2)} т CH4${monthsOf(origin)}.`
          : "Данные введены вручную."),
    );
    if (s.notice) line(s.notice);
    for (const r of s.refused) line(`Не предлагается: ${ownValue(ABATEMENT_OPTIONS, r.option_code)?.label ?? r.option_code} — ${r.reason}`);
    for (const option of s.options) {
      doc.moveDown(0.3);
      doc
        .font("Bold")
        .fontSize(10)
        .text(`${option.label}${s.chosen === option.option_code ? " — в MACC" : ""}`, left, undefined, { width });
      line(`${ETA_LABEL}: ${formatNumber(option.eta_destruction, 3)}. Затраты: ${option.costs_estimated ? ESTIMATE_LABEL : "введены"}.`);
      for (const c of ABATEMENT_RESULT_COLUMNS) line(`${c.label}: ${shown(shownValue(c, option), c.decimals)}`);
      if (option.missing.length > 0) line(`Не заданы (экономика не рассчитана): ${option.missing.map(missingInputLabel).join("; ")}`);
      line("Коэффициенты:");
      for (const c of option.coefficients) line(`  ${c.label}: ${formatNumber(c.value, 3)}${c.unit ? ` ${c.unit}` : ""} — ${c.source}`);
    }
  }

  heading("Итог плана");
  line(planLine(a));
  doc.addPage();
  heading("Кривая предельных затрат на сокращение выбросов (MACC)");
  for (const bar of a.result.macc) {
    line(
      `${streamName(a, bar.stream)}: ${bar.label} — от ${formatNumber(bar.x_start, 1)} до ${formatNumber(bar.x_start + bar.width, 1)} т CO2-экв./год, ширина ${formatNumber(bar.width, 1)}, LAC ${formatNumber(bar.lac_rub_per_t, 2)} ₽/т CO2-экв.`,
    );
  }
  drawMacc(doc, a, left, width);
  return bytes();
}

/** The MACC drawn: bars as wide as their ER, as high as their LAC, the zero line and the axes' names. */
function drawMacc(doc: PDFKit.PDFDocument, a: AbatementAssessment, left: number, width: number): void {
  const bars = a.result.macc;
  if (bars.length === 0) return;
  const top = doc.y + 20;
  const height = 260;
  const total = bars.reduce((sum, b) => sum + b.width, 0) || 1;
  const highest = Math.max(0, ...bars.map((b) => b.lac_rub_per_t));
  const lowest = Math.min(0, ...bars.map((b) => b.lac_rub_per_t));
  const span = highest - lowest || 1;
  const y = (lac: number) => top + ((highest - lac) / span) * height;
  const colours = ["#1677ff", "#52c41a", "#fa8c16", "#eb2f96", "#722ed1", "#13c2c2"];
  bars.forEach((bar, i) => {
    const x = left + (bar.x_start / total) * width;
    const w = Math.max(1, (bar.width / total) * width);
    const [y0, y1] = [y(Math.max(0, bar.lac_rub_per_t)), y(Math.min(0, bar.lac_rub_per_t))];
    doc.rect(x, y0, w, Math.max(1, y1 - y0)).fillAndStroke(colours[i % colours.length], "#333333");
  });
  doc
    .moveTo(left, y(0))
    .lineTo(left + width, y(0))
    .lineWidth(0.8)
    .stroke("#000000");
  doc.fillColor("#000000").font(fontFile(PASSPORT_FONTS.regular)).fontSize(8);
  doc.text("LAC, ₽/т CO2-экв.", left, top - 14);
  doc.text("Сокращение выбросов, т CO2-экв./год", left, top + height + 6, { width, align: "right" });
}
