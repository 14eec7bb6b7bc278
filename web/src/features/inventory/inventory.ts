// What the inventory report derives from the API's answer: the change against the year before and
// the chart of totals by category and year (the years to offer are in years.ts).
import type { Data, Layout } from "plotly.js";
import { ORDER_371_CATEGORIES, type Order371Category } from "@core/inventory";
import type { Facility, Inventory, YearTotals } from "../../api/inventory";

export interface YearChange {
  previousYear: number;
  previous: number;
  /** Percent of the previous year's total; undefined when it was 0. */
  percent?: number;
}

export function changeFromYearBefore(years: readonly YearTotals[], year: number, total: number): YearChange | undefined {
  const previous = years.find((y) => y.year === year - 1);
  if (!previous) return undefined;
  const percent = previous.total_t_co2e === 0 ? undefined : ((total - previous.total_t_co2e) / previous.total_t_co2e) * 100;
  return { previousYear: previous.year, previous: previous.total_t_co2e, percent };
}

/** 8.1: the facilities whose coal processed the year asks for: those of the chosen facility (or all),
 *  but an archived one (a mine closed or sold) only where the year has its figures or its value. */
export function coalProcessedFacilities<F extends Pick<Facility, "id" | "is_active">>(
  facilities: readonly F[],
  inventory: Pick<Inventory, "facility" | "facilities"> & { review: Pick<Inventory["review"], "coal_processed"> },
) {
  const reported = new Set([...inventory.facilities.map((f) => f.id), ...(inventory.review.coal_processed ?? []).map((r) => r.facility)]);
  return facilities.filter((f) => (!inventory.facility || f.id === inventory.facility) && (f.is_active !== false || reported.has(f.id)));
}

const CATEGORY_COLORS: Record<Order371Category, string> = { 1: "#8c8c8c", 2: "#fa8c16", 3: "#1677ff", 18: "#52c41a" };

/** Stacked bars: one per reporting year, a segment per Order 371 category (t CO2-eq). */
export function totalsByCategoryFigure(years: readonly YearTotals[]): { data: Data[]; layout: Partial<Layout> } {
  const sorted = [...years].sort((a, b) => a.year - b.year);
  const categories = (Object.keys(ORDER_371_CATEGORIES).map(Number) as Order371Category[]).filter((c) =>
    sorted.some((y) => (y.by_category[c] ?? 0) !== 0),
  );
  const data: Data[] = categories.map((category) => ({
    type: "bar",
    name: `${category}. ${ORDER_371_CATEGORIES[category]}`,
    x: sorted.map((y) => String(y.year)),
    y: sorted.map((y) => y.by_category[category] ?? 0),
    marker: { color: CATEGORY_COLORS[category] },
    hovertemplate: "%{x}: %{y:,.2f} т CO2-экв.<extra>%{fullData.name}</extra>",
  }));
  return {
    data,
    layout: {
      barmode: "stack",
      separators: ", ",
      margin: { l: 70, r: 10, t: 10, b: 40 },
      xaxis: { type: "category", title: { text: "Отчетный год" } },
      yaxis: { title: { text: "т CO2-экв." }, tickformat: ",.0f" },
      legend: { orientation: "h", y: -0.2 },
    },
  };
}

type BalanceRow = Inventory["balance"][number];

/** D17: a facility's methane, t CH4: ventilation and drainage → flared, used or vented → emitted.
 *  Drainage is what went to flares and use; ventilation the rest of what was released. The slip
 *  of the flares and boilers (sent less destroyed) reaches the atmosphere too. */
/** D25: the flows by stream when the facility's calculations name emission points: each
 *  ventilation shaft to the atmosphere; each drainage station into the drained gas, which goes to
 *  each flare and boiler (destroyed, their unburnt part to the atmosphere) and, what is left,
 *  vented. Undefined when the points do not tell every stream (a figure of the mine as a whole,
 *  a flare or a boiler without its point): the figure by totals is drawn instead. */
export function streamSankeyFigure(row: BalanceRow): { data: Data[]; layout: Partial<Layout> } | undefined {
  const streams = row.streams ?? [];
  if (streams.length === 0 || streams.some((s) => s.route === "mine")) return undefined;
  const sum = (route: string) => streams.filter((s) => s.route === route).reduce((t, s) => t + s.t, 0);
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  if (!near(sum("flared"), row.flared_t) || !near(sum("used"), row.used_t)) return undefined;
  const labels = ["Выбросы в атмосферу", "Уничтожено", "Каптированный газ (дегазация)", "Выброшено из дегазации без сжигания"];
  const colors = ["#cf1322", "#95de64", "#1677ff", "#8c8c8c"];
  const links: Array<[number, number, number]> = [];
  const slip = Math.max(0, row.flared_t + row.used_t - row.destroyed_t);
  const slipOfFlares = row.flared_t > 0 ? Math.min(slip, row.flared_t) : 0;
  const COLOR: Record<string, string> = { atmosphere: "#69b1ff", drained: "#1677ff", flared: "#fa8c16", used: "#52c41a" };
  for (const stream of streams) {
    const node = labels.push(stream.name) - 1;
    colors.push(COLOR[stream.route]);
    if (stream.route === "atmosphere") links.push([node, 0, stream.t]);
    else if (stream.route === "drained") links.push([node, 2, stream.t]);
    else {
      const unburnt =
        stream.route === "flared"
          ? row.flared_t > 0
            ? (stream.t / row.flared_t) * slipOfFlares
            : 0
          : row.used_t > 0
            ? (stream.t / row.used_t) * (slip - slipOfFlares)
            : 0;
      links.push([2, node, stream.t], [node, 1, stream.t - unburnt], [node, 0, unburnt]);
    }
  }
  links.push([2, 3, row.drained_vented_t ?? 0], [3, 0, row.drained_vented_t ?? 0]);
  const shown = links.filter((link) => link[2] > 0);
  const data = [
    {
      type: "sankey",
      orientation: "h",
      valueformat: ",.2f",
      valuesuffix: " т CH4",
      node: { label: labels, color: colors, pad: 18, thickness: 16 },
      link: { source: shown.map((l) => l[0]), target: shown.map((l) => l[1]), value: shown.map((l) => l[2]) },
    },
  ] as unknown as Data[];
  return { data, layout: { separators: ", ", margin: { l: 10, r: 10, t: 10, b: 10 }, font: { size: 12 } } };
}

export function methaneSankeyFigure(row: BalanceRow): { data: Data[]; layout: Partial<Layout> } {
  const byStream = streamSankeyFigure(row);
  if (byStream) return byStream;
  const labels = [
    "Вентиляция",
    "Дегазация",
    "Сожжено на факелах",
    "Утилизировано",
    "Выброшено без сжигания",
    "Выбросы в атмосферу",
    "Уничтожено",
  ];
  const slip = Math.max(0, row.flared_t + row.used_t - row.destroyed_t);
  const slipOfFlares = row.flared_t > 0 ? Math.min(slip, row.flared_t) : 0;
  const links: Array<[number, number, number]> = [
    [0, 4, row.vented_t],
    [1, 2, row.flared_t],
    [1, 3, row.used_t],
    [4, 5, row.vented_t],
    [2, 5, slipOfFlares],
    [3, 5, slip - slipOfFlares],
    [2, 6, row.flared_t - slipOfFlares],
    [3, 6, row.used_t - (slip - slipOfFlares)],
  ].filter((link): link is [number, number, number] => link[2] > 0);
  const data = [
    {
      type: "sankey",
      orientation: "h",
      valueformat: ",.2f",
      valuesuffix: " т CH4",
      node: {
        label: labels,
        color: ["#69b1ff", "#1677ff", "#fa8c16", "#52c41a", "#8c8c8c", "#cf1322", "#95de64"],
        pad: 18,
        thickness: 16,
      },
      link: { source: links.map((l) => l[0]), target: links.map((l) => l[1]), value: links.map((l) => l[2]) },
    },
  ] as unknown as Data[];
  return { data, layout: { separators: ", ", margin: { l: 10, r: 10, t: 10, b: 10 }, font: { size: 12 } } };
}
