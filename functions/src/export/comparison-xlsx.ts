// «Измерено и оценено» as an xlsx (GET v1/inventory/measured-vs-estimated/?format=xlsx):
// per mine the two figures, their uncertainties, the difference and the verdict; per month the
// measured CH4 against the estimate's share; the explanations. Numbers as numbers with the exports'
// formats (a Russian spreadsheet shows «2 662,48»); a year holds 12 months a mine, so made whole in memory.
import type { MeasuredVsEstimated } from "../contract/schemas/measured-vs-estimated";
import { MONTHLY_BASIS_TEXT, verdictText } from "../contract/comparison-texts";
import { monthLabel } from "../domain/inventory/measured-vs-estimated";
import type { Cell, Column, Sheet } from "./content";
import { xlsxBytes } from "./xlsx-writer";

const number = (header: string, decimals = 2, width = 16): Column => ({ header, kind: "number", decimals, width });
const text = (header: string, width = 30): Column => ({ header, kind: "text", width });

export function comparisonSheets(comparison: MeasuredVsEstimated): Sheet[] {
  const mines: Sheet = {
    name: "Сравнение",
    text: { layout: "none" },
    title: `Измерено и оценено, ${comparison.year}: валовый CH4 строки 1.B.1.a.i.1 по шахтам`,
    columns: [
      text("Шахта", 32),
      number("Измерено, т CH4"),
      number("Неопределенность измерения, ±%", 1),
      number("Оценка, т CH4"),
      number("Неопределенность оценки, ±%", 1),
      text("Метод оценки", 40),
      number("Коэффициент оценки, м³/т", 2),
      number("Добыча угля, т", 0),
      number("Разница, т CH4"),
      number("Разница, %", 1),
      number("Суммарная неопределенность, т CH4"),
      text("Вывод", 28),
      number("Коэффициент по измерению, м³/т", 2),
      number("Месяцев в сравнении", 0),
      number("Охват часов, %", 1),
      number("Измерено за эти месяцы, т CH4"),
      number("Доля оценки за эти месяцы, т CH4"),
      number("Добыча угля за эти месяцы, т", 0),
    ],
    rows: comparison.facilities.map((f): Cell[] => [
      f.facility_name,
      f.measured.ch4_t,
      f.measured.u_pct,
      f.estimated?.ch4_t ?? null,
      f.estimated?.u_pct ?? null,
      f.estimated?.method ?? null,
      f.estimated?.ef ?? null,
      f.coal_t,
      f.difference_t,
      f.difference_pct,
      f.combined_t,
      verdictText(f.consistent, f.verdict_reason),
      f.implied_ef_m3_per_t,
      f.measured.coverage.months,
      f.measured.coverage.hours_pct,
      f.compared?.measured_ch4_t ?? null,
      f.compared?.estimated_ch4_t ?? null,
      f.compared?.coal_t ?? null,
    ]),
  };
  const months: Sheet = {
    name: "По месяцам",
    text: { layout: "none" },
    title: `Измерено и доля оценки по месяцам, ${comparison.year}, т CH4`,
    columns: [
      text("Шахта", 32),
      text("Месяц", 10),
      number("Измерено, т CH4"),
      number("Полнота, %", 1),
      number("Оценка, т CH4"),
      text("Доля оценки", 40),
    ],
    rows: comparison.facilities.flatMap((f) =>
      f.measured.months.map((m, i): Cell[] => [
        f.facility_name,
        monthLabel(m.month),
        m.ch4_t,
        m.completeness === null ? null : 100 * m.completeness,
        f.estimated?.months[i]?.ch4_t ?? null,
        f.estimated ? MONTHLY_BASIS_TEXT[f.estimated.monthly_basis] : null,
      ]),
    ),
  };
  const explanations: Sheet = {
    name: "Пояснения",
    text: { layout: "none" },
    title: `Что разделяет измерение и оценку, ${comparison.year}`,
    columns: [text("Шахта", 32), text("Пояснение", 100), number("т CH4")],
    // D93: each kind's total before the lines.
    rows: comparison.facilities.flatMap((f) => [
      ...f.explanation_totals.map((e): Cell[] => [f.facility_name, `Итого — ${e.text}`, e.t ?? null]),
      ...f.explanations.map((e): Cell[] => [f.facility_name, e.text, e.t ?? null]),
    ]),
  };
  return [mines, months, explanations];
}

export async function comparisonXlsx(comparison: MeasuredVsEstimated): Promise<Uint8Array> {
  return xlsxBytes(comparisonSheets(comparison));
}
