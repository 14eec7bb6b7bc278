// The «Динамика» table as an xlsx (GET v1/inventory/trend/export/): one row per year, as reported or
// in comparable conditions, its numbers as numbers with the export's formats (a Russian spreadsheet
// shows «2 662,48»). A trend holds at most 30 years, so the file is made whole in memory.
import type { Trend } from "../domain/inventory/trend";
import type { Cell, Column, Sheet } from "./content";
import { xlsxBytes } from "./xlsx-writer";

export type TrendView = "reported" | "comparable";

const number = (header: string, decimals = 2, width = 16): Column => ({ header, kind: "number", decimals, width });

/** The table's sheet: year, status, total, change, each category, coal, intensity, methane destroyed. */
export function trendSheet(trend: Trend, view: TrendView): Sheet {
  const categories = [
    ...new Map(
      trend.years.flatMap((y) => (view === "comparable" ? y.comparable : y).categories).map((c) => [c.category, c.category_label]),
    ),
  ].sort((a, b) => a[0] - b[0]);
  const columns: Column[] = [
    { header: "Год", kind: "number", decimals: 0, grouping: false, width: 8 },
    { header: "Статус", kind: "text", width: 14 },
    number("Выбросы, т CO2-экв.", 2, 18),
    number("Изменение к предыдущему году, т CO2-экв.", 2, 20),
    number("Изменение, %", 1, 12),
    ...categories.map(([, label]) => number(`${label}, т CO2-экв.`, 2, 20)),
    number("Добыча угля, т", 0, 16),
    number("Удельные выбросы, т CO2-экв./т угля", 4, 18),
    number("Метан уничтожен, т CH4", 2, 16),
    { header: "ПГП CH4", kind: "number", decimals: 0, grouping: false, width: 10 },
  ];
  const rows = trend.years.map((year): Cell[] => {
    const figures = view === "comparable" ? year.comparable : year;
    const byCategory = new Map(figures.categories.map((c) => [c.category, c.t_co2e]));
    return [
      year.year,
      year.draft ? "черновик" : `утверждена, версия ${year.approved_version}`,
      figures.total_t_co2e,
      figures.change?.t_co2e ?? null,
      figures.change?.pct ?? null,
      ...categories.map(([category]) => byCategory.get(category) ?? null),
      year.coal.total_t ?? null,
      figures.intensity?.total ?? null,
      year.methane?.destroyed_t ?? null,
      view === "comparable" ? trend.comparable.gwp.gwp_ch4 : year.gwp.gwp_ch4,
    ];
  });
  const how =
    view === "comparable"
      ? `в сопоставимых условиях (ПГП и коэффициенты ${trend.comparable.year} года)`
      : "как отчитано (ПГП и коэффициенты каждого года)";
  return { name: "Динамика", text: { layout: "none" }, title: `Динамика выбросов ${trend.from}–${trend.to}, ${how}`, columns, rows };
}

export async function trendXlsx(trend: Trend, view: TrendView): Promise<Uint8Array> {
  return xlsxBytes([trendSheet(trend, view)]);
}
