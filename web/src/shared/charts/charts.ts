// The three infographics charts as plotly figures (docs/user-guide.md, «Infographics»).
// Pure: the data of the graphs endpoint in, plotly `data` and `layout` out.
import type { Data, Layout } from "plotly.js";
import type { ProjectGraphs } from "@server/contract";
import { METHANE_LIMIT_PERCENT } from "@core/registry";
import { emissionPointKindInText, type EmissionPointKind } from "@core/inventory";
import { methaneSankeyFigure } from "./methane-sankey";
import { plotlyText } from "./plotly-text";

export const CHART_HEIGHT = 300;

/** docs/user-guide.md: ef is compared as a string with 6 decimals. */
export const DIESEL_EF = "3.149000";
export const FUEL_EF = "3.026000";

export interface Figure {
  title: string;
  /** PNG file name, without extension. */
  fileName: string;
  data: Data[];
  layout: Partial<Layout>;
}

export { plotlyText };

const label = (name: string) => `Расчет: ${plotlyText(name)}`;

/** Room for the category labels under a bar chart in the half-width column, in pixels, and the width
 *  of one character of plotly's 12 px labels: a category gets its share as characters per line. */
const LABEL_ROW_PX = 400;
const CHAR_PX = 7.5;
/** A label takes at most this many lines; a longer one is cut with «…» (the hover shows it whole),
 *  so the plot keeps at least half the chart however long the names. */
export const MAX_LABEL_LINES = 3;

/** «Расчет: name» wrapped between words into lines of at most `width` characters, at most
 *  MAX_LABEL_LINES of them, a longer one (or a longer word) cut with «…»; escaped for plotly. */
export function tickLabel(name: string, width: number): string {
  const lines: string[] = [];
  let cut = false;
  for (const word of `Расчет: ${name}`.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else if (lines.length === MAX_LABEL_LINES) {
      cut = true;
      break;
    } else lines.push(word.length > width ? `${word.slice(0, width - 1)}…` : word);
  }
  const last = lines.length - 1;
  if (cut && !lines[last].endsWith("…")) {
    lines[last] = lines[last].length < width ? `${lines[last]}…` : `${lines[last].slice(0, width - 1)}…`;
  }
  return lines.map(plotlyText).join("<br>");
}

/** Characters per label line when `count` categories share the row. */
export const labelWidth = (count: number) => Math.max(6, Math.floor(LABEL_ROW_PX / Math.max(1, count) / CHAR_PX));

/** Longest line of a hover label, in characters: a long name wraps inside the chart. */
const HOVER_LINE = 48;

/** A bar trace's hover: the calculation's whole label, the series and the value in Russian
 *  format («2 662,48 т»), never the category's internal id. */
function bars(name: string, items: Array<{ id: string; name: string }>, y: number[], unit: string): Data {
  return {
    type: "bar",
    name,
    x: items.map((i) => i.id),
    y,
    customdata: items.map((i) => wrapLabel(label(i.name), HOVER_LINE)),
    hovertemplate: `%{customdata}<br>%{fullData.name}: %{y:,.2f} ${unit}<extra></extra>`,
  };
}

const efKey = (ef: unknown) => {
  const value = typeof ef === "number" ? ef : Number(ef);
  return Number.isFinite(value) ? value.toFixed(6) : String(ef);
};

const baseLayout = (yTitle: string): Partial<Layout> => ({
  height: CHART_HEIGHT,
  autosize: true,
  margin: { l: 56, r: 16, t: 40, b: 40 },
  // Plotly hides the legend of a single trace; the series names (docs/user-guide.md) must always show. Above the
  // plot, where neither the category labels nor the x-axis title can collide with it.
  showlegend: true,
  // Its right edge at the plot's, clear of the mode bar in the right margin (withModeBarRoom).
  legend: { orientation: "h", x: 1, y: 1.02, xanchor: "right", yanchor: "bottom" },
  // Russian numbers on the axis: «5 000», «0,5» (d3's «,» groups with `separators`' space).
  yaxis: { title: { text: yTitle }, rangemode: "tozero", automargin: true, tickformat: ",~f" },
  xaxis: { automargin: true },
  separators: ", ",
});

const noData = (shown: boolean): Partial<Layout> =>
  shown
    ? {}
    : {
        annotations: [{ text: "Нет расчетов", showarrow: false, xref: "paper", yref: "paper", x: 0.5, y: 0.5, font: { size: 14 } }],
        xaxis: { visible: false },
        yaxis: { visible: false },
      };

/** Categories by calculation id (two calculations may share a name), labelled «Расчет: name»: level,
 *  wrapped, cut to MAX_LABEL_LINES lines (tickLabel). */
function categories(items: Array<{ id: string; name: string }>): Partial<Layout["xaxis"]> {
  const width = labelWidth(items.length);
  return {
    tickvals: items.map((i) => i.id),
    ticktext: items.map((i) => tickLabel(i.name, width)),
    tickangle: 0,
    type: "category",
    automargin: true,
  };
}

/** One quantity of a bar chart: its legend name, the calculations it has a bar for, the bar's value. */
type BarSeries<T> = [name: string, items: T[], value: (item: T) => number];

/** Bars grouped by calculation (`shown`, the categories), a series a quantity, all in `unit`. */
function groupedBarChart<T extends { id: string; name: string }>(
  title: string,
  fileName: string,
  unit: string,
  shown: T[],
  series: BarSeries<T>[],
): Figure {
  return {
    title,
    fileName,
    data: series.map(([name, items, value]) => bars(name, items, items.map(value), unit)),
    layout: { ...baseLayout(unit), barmode: "group", xaxis: categories(shown), ...noData(shown.length > 0) },
  };
}

export function undergroundChart(graphs: ProjectGraphs): Figure {
  const items = graphs.underground;
  const series: BarSeries<(typeof items)[number]>[] = [
    ["Выбросы CO2 (Подземная добыча)", items, (i) => i.res_co2],
    ["Выбросы CH4 (Подземная добыча)", items, (i) => i.res_ch4],
  ];
  // D26: where the facility-year nets destroyed gas off these gross figures, what is left.
  if (items.some((i) => (i.subtracted_ch4 ?? 0) > 0)) {
    series.push(["Выбросы CH4 за вычетом уничтоженного (факел, котельная)", items, (i) => i.res_ch4 - (i.subtracted_ch4 ?? 0)]);
  }
  return groupedBarChart("Выбросы при подземной добыче", `Подземная добыча - ${graphs.project.name}`, "т", items, series);
}

export function openMiningChart(graphs: ProjectGraphs): Figure {
  const diesel = graphs.open_mining_co2.filter((i) => efKey(i.ef) === DIESEL_EF);
  const fuel = graphs.open_mining_co2.filter((i) => efKey(i.ef) === FUEL_EF);
  return groupedBarChart(
    "Выбросы CO2 при открытой добыче",
    `Открытая добыча - ${graphs.project.name}`,
    "т CO2",
    [...diesel, ...fuel],
    [
      ["Выбросы CO2 (Дизель)", diesel, (i) => i.res_co2],
      ["Выбросы CO2 (Топливо)", fuel, (i) => i.res_co2],
    ],
  );
}

/** The open pit's methane (open_mining_ch4): most of an open pit's emissions, a series beside the
 *  specification's three charts. */
export function openMiningMethaneChart(graphs: ProjectGraphs): Figure {
  const items = graphs.open_mining_ch4;
  return groupedBarChart("Выбросы CH4 при открытой добыче", `Открытая добыча CH4 - ${graphs.project.name}`, "т CH4", items, [
    ["Выбросы CH4 (Открытая добыча)", items, (i) => i.res_ch4],
  ]);
}

export function forecastChart(graphs: ProjectGraphs): Figure {
  const lastDay = Math.max(1, ...graphs.regres_methane.flatMap((s) => s.points.map((p) => p.day)));
  const firstDay = Math.min(lastDay, ...graphs.regres_methane.flatMap((s) => s.points.map((p) => p.day)));
  const series: Data[] = graphs.regres_methane.map((s) => ({
    type: "scatter",
    mode: "lines+markers",
    name: label(s.name),
    x: s.points.map((p) => p.day),
    y: s.points.map((p) => p.result),
  }));
  return {
    title: "Временной ряд",
    fileName: `Временной ряд - ${graphs.project.name}`,
    data: [
      ...series,
      {
        type: "scatter",
        mode: "lines",
        name: "Граница 1 процента",
        x: [firstDay === lastDay ? firstDay - 1 : firstDay, lastDay === firstDay ? lastDay + 1 : lastDay],
        y: [METHANE_LIMIT_PERCENT, METHANE_LIMIT_PERCENT],
        line: { color: "#d4380d", dash: "dash" },
      },
    ],
    layout: {
      ...baseLayout("Проценты (%)"),
      // Whole days: one tick a day for a short series, plotly's spacing (integers only) for a long one.
      xaxis: { title: { text: "Дни" }, automargin: true, tickformat: "d", ...(lastDay - firstDay <= 12 ? { dtick: 1 } : {}) },
      yaxis: { title: { text: "Проценты (%)" }, range: [0, 2], dtick: 0.2, tick0: 0, automargin: true },
    },
  };
}

const MONTHS = ["янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"];

/** "2025-03" as the axis reads it: «мар 2025». */
export const monthLabel = (month: string): string => `${MONTHS[Number(month.slice(5, 7)) - 1] ?? month} ${month.slice(0, 4)}`;

/** A point's kind as its legend entry ends: «ВДУ-1 (дегазация)». */
const KIND_IN_LEGEND: Partial<Record<EmissionPointKind, string>> = {
  ventilation_shaft: "вентиляция",
  drainage_station: "дегазация",
};

const pointLegend = (point: { name: string; kind: EmissionPointKind }) => {
  const kind = KIND_IN_LEGEND[point.kind] ?? emissionPointKindInText(point.kind);
  return point.name.toLowerCase() === kind.toLowerCase() ? point.name : `${point.name} (${kind})`;
};

/** D14, D25: the CH4 each emission point released by month, from its measured periods: a bar a
 *  month, stacked by point, the points grouped in the legend by their kind (shaft, drainage …). */
export function monthlyCh4Chart(graphs: ProjectGraphs): Figure {
  const months = [...new Set(graphs.monthly_ch4.flatMap((p) => p.months.map((m) => m.month)))].sort();
  const data: Data[] = graphs.monthly_ch4.map((point) => ({
    type: "bar",
    name: plotlyText(pointLegend(point)),
    legendgroup: point.kind,
    x: point.months.map((m) => m.month),
    y: point.months.map((m) => m.t),
    customdata: point.months.map((m) => monthLabel(m.month)),
    hovertemplate: `${wrapLabel(plotlyText(point.name), HOVER_LINE)}<br>%{customdata}: %{y:,.2f} т CH4<extra></extra>`,
  }));
  return {
    title: "Выделение CH4 по месяцам и источникам",
    fileName: `Выделение CH4 по месяцам - ${graphs.project.name}`,
    data,
    layout: {
      ...baseLayout("т CH4"),
      barmode: "stack",
      // «янв» over «2025»: twelve level labels fit the half-width chart.
      xaxis: {
        type: "category",
        tickvals: months,
        ticktext: months.map((month) => monthLabel(month).replace(" ", "<br>")),
        tickangle: 0,
        categoryorder: "array",
        categoryarray: months,
        automargin: true,
      },
    },
  };
}

type Balance = NonNullable<ProjectGraphs["balance"]>;

/** D17, D25: what became of the mine's methane, t CH4: captured by drainage, destroyed (flares,
 *  boilers, engines) and vented without burning, beside ventilation and post-mining methane. Each
 *  bar a short label, its figure above it and the whole meaning on hover. */
export function methaneFateChart(balance: Balance, year: number): Figure {
  const byStream = balance.drained_t !== undefined;
  const bars: Array<[string, string, number | undefined, string]> = byStream
    ? [
        ["Вентиляция", "Вентиляция: выброшено в атмосферу", balance.ventilation_t, "#69b1ff"],
        ["Каптировано", "Каптировано дегазацией", balance.drained_t, "#1677ff"],
        ["Уничтожено", "Уничтожено: факел, котельная, ГПУ", balance.destroyed_t, "#52c41a"],
        ["Выброшено без сжигания", "Дегазационный газ, выброшенный без сжигания", balance.drained_vented_t, "#8c8c8c"],
      ]
    : [
        ["Каптировано", "Направлено на факелы и утилизацию", balance.flared_t + balance.used_t, "#1677ff"],
        ["Уничтожено", "Уничтожено: факел, котельная, ГПУ", balance.destroyed_t, "#52c41a"],
        ["Выброшено без сжигания", "Выброшено без сжигания: вентиляция и дегазация", balance.vented_t, "#8c8c8c"],
      ];
  if ((balance.post_mining_t ?? 0) > 0) bars.push(["После добычи", "После добычи: обработка угля", balance.post_mining_t, "#d3adf7"]);
  const shown = bars.filter((bar): bar is [string, string, number, string] => bar[2] !== undefined);
  return {
    title: "Каптировано, уничтожено и выброшено CH4",
    fileName: `Каптировано и уничтожено CH4 - ${balance.facility_name} ${year}`,
    data: [
      {
        type: "bar",
        name: "Метан, т CH4",
        x: shown.map((bar) => bar[0]),
        y: shown.map((bar) => bar[2]),
        customdata: shown.map((bar) => bar[1]),
        marker: { color: shown.map((bar) => bar[3]) },
        texttemplate: "%{y:,.2f}",
        textposition: "outside",
        cliponaxis: false,
        hovertemplate: "%{customdata}: %{y:,.2f} т CH4<extra></extra>",
      },
    ],
    layout: {
      ...baseLayout("т CH4"),
      showlegend: false,
      xaxis: {
        type: "category",
        tickvals: shown.map((bar) => bar[0]),
        ticktext: shown.map((bar) => wrapLabel(bar[0], labelWidth(shown.length))),
        tickangle: 0,
        automargin: true,
      },
    },
  };
}

/** The methane balance's Sankey of the project's facility-year, titled with the facility and year;
 *  `compact` (a phone): its nodes numbered, named in the legend. */
export function methaneBalanceChart(balance: Balance, year: number, compact = false): Figure & { legend?: string[] } {
  return {
    title: `Баланс метана — ${balance.facility_name}, ${year}, т CH4`,
    fileName: `Баланс метана - ${balance.facility_name} ${year}`,
    ...methaneSankeyFigure(balance, compact),
  };
}

/** A chart of the infographics screen; `strict`: plotly's strict bundle draws it (a Sankey), which
 *  takes the whole width so its four columns of labels do not run into each other; `legend`: its
 *  nodes' names under it on a phone. */
export interface ShownChart {
  figure: Figure;
  strict?: boolean;
  legend?: string[];
}

/** The charts a project's infographics show: those of what it holds (a mine's months by point, its
 *  drained and destroyed methane and its balance; an open pit's CO2 and CH4; a forecast's line),
 *  never an empty chart of another kind. */
export function projectCharts(graphs: ProjectGraphs, compact = false): ShownChart[] {
  const charts: ShownChart[] = [];
  const balance = graphs.balance && graphs.balance.released_t > 0 ? graphs.balance : undefined;
  const year = graphs.project.reporting_year;
  if (graphs.monthly_ch4.length > 0) charts.push({ figure: monthlyCh4Chart(graphs) });
  if (graphs.underground.length > 0) charts.push({ figure: undergroundChart(graphs) });
  if (balance && (balance.drained_t ?? 0) + balance.flared_t + balance.used_t > 0) charts.push({ figure: methaneFateChart(balance, year) });
  if (balance) {
    const { legend, ...figure } = methaneBalanceChart(balance, year, compact);
    charts.push({ figure, strict: true, legend });
  }
  const open = openMiningChart(graphs);
  if (open.data.some((trace) => ((trace as { y?: unknown[] }).y ?? []).length > 0)) charts.push({ figure: open });
  if (graphs.open_mining_ch4.length > 0) charts.push({ figure: openMiningMethaneChart(graphs) });
  if (graphs.regres_methane.length > 0) charts.push({ figure: forecastChart(graphs) });
  return charts;
}

/** Room at a chart's right edge for plotly's mode bar, which stands upright there (withModeBarRoom). */
export const MODEBAR_MARGIN = 40;

/** Any figure's layout with the mode bar upright in a right margin of its own: it never covers the
 *  plot, a legend (which wraps within the plot's width) or a Sankey's nodes. */
export function withModeBarRoom(layout: Partial<Layout>): Partial<Layout> {
  return {
    ...layout,
    modebar: { ...layout.modebar, orientation: "v" },
    margin: { ...layout.margin, r: Math.max(layout.margin?.r ?? 0, MODEBAR_MARGIN) },
  };
}

/** What a chart on a phone gets in height over its figure's: its legend goes under the plot. */
export const NARROW_EXTRA_HEIGHT = 120;
/** Longest line of a category label on a phone, in characters; longer labels wrap between words. */
export const NARROW_LABEL_LINE = 16;

/** Length as shown: an entity of plotlyText is one character. */
const shownLength = (text: string) => text.replace(/&(?:amp|lt|gt);/g, "&").length;

/** A label (escaped by plotlyText) broken into lines of at most `width` shown characters between
 *  words (a longer word keeps its own line), joined by plotly's <br>. */
export function wrapLabel(text: string, width: number): string {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && shownLength(lines[last]) + 1 + shownLength(word) <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join("<br>");
}

/** A figure's layout for a phone's width (any chart: infographics and series results). The
 *  horizontal legend moves under the plot, spanning the whole figure, so no entry is cut at the
 *  plot's edge; category labels wrap between words and stay level instead of slanting across the
 *  figure; the chart grows by NARROW_EXTRA_HEIGHT so the plot keeps its room. */
export function narrowLayout(layout: Partial<Layout>): Partial<Layout> {
  const xaxis = layout.xaxis ?? {};
  const ticktext = xaxis.ticktext as string[] | undefined;
  return {
    ...layout,
    height: (layout.height ?? CHART_HEIGHT) + NARROW_EXTRA_HEIGHT,
    margin: { ...layout.margin, l: 8, r: 8, t: 16 },
    legend: { ...layout.legend, orientation: "h", xref: "container", x: 0, xanchor: "left", yref: "container", y: 0, yanchor: "bottom" },
    xaxis: ticktext
      ? { ...xaxis, ticktext: ticktext.map((text) => wrapLabel(text.replaceAll("<br>", " "), NARROW_LABEL_LINE)), tickangle: 0 }
      : xaxis,
    // The narrow left margin grows to fit the value labels, or plotly clips «12 000» to «0».
    yaxis: { ...layout.yaxis, automargin: true },
  };
}
