// The charts of the series results as plotly figures (methodology D6, D7). Pure: one
// element of a stored result in, plotly `data` and `layout` out.
//  - filling_blanks: the series as a line; observed values as solid points, filled ones as hollow
//    points of another colour, their method (FILL_METHODS) in the hover text and the legend.
//  - sensitivity: res_co2_all by year as bars stacked from res_co2 (methane) and res_co2_transport
//    with the total marked above; and the sensitivity coefficients sn_volume, sn_methan by year.
import type { Data, Layout } from "plotly.js";
import { FILL_METHODS, REGISTRY, type FillMethod, type ResultField } from "@core/registry";
import type { FilledElement, SensitivityElement } from "./series";

export const SERIES_CHART_HEIGHT = 320;

export const OBSERVED_COLOR = "#1677ff";
export const FILLED_COLOR = "#fa8c16";
export const METHANE_COLOR = "#52c41a";
export const TRANSPORT_COLOR = "#8c8c8c";

export interface SeriesFigure {
  title: string;
  data: Data[];
  layout: Partial<Layout>;
}

const baseLayout = (yTitle: string, xTitle = "Год"): Partial<Layout> => ({
  height: SERIES_CHART_HEIGHT,
  autosize: true,
  margin: { l: 70, r: 16, t: 16, b: 48 },
  separators: ", ",
  legend: { orientation: "h", y: -0.22 },
  xaxis: { title: { text: xTitle }, tickformat: "d", dtick: 1, automargin: true },
  yaxis: { title: { text: yTitle }, automargin: true, rangemode: "tozero" },
  hovermode: "closest",
});

/** The Russian name of a fill method flag. */
export function fillMethodLabel(method: string | null | undefined): string | undefined {
  return method && method in FILL_METHODS ? FILL_METHODS[method as FillMethod] : undefined;
}

export function fillingFigure(element: FilledElement, valueLabel = "Значение"): SeriesFigure {
  const present = element.rows.filter((r) => r.value !== null);
  const observed = present.filter((r) => r.method === null);
  const filled = present.filter((r) => r.method !== null);
  return {
    title: element.name,
    data: [
      {
        type: "scatter",
        mode: "lines",
        name: "Ряд",
        x: present.map((r) => r.year),
        y: present.map((r) => r.value),
        line: { color: OBSERVED_COLOR, width: 1.5 },
        hoverinfo: "skip",
        showlegend: false,
      },
      {
        type: "scatter",
        mode: "markers",
        name: "Наблюдение",
        x: observed.map((r) => r.year),
        y: observed.map((r) => r.value),
        marker: { color: OBSERVED_COLOR, size: 9, symbol: "circle" },
        hovertemplate: "%{x}: %{y}<extra>наблюдение</extra>",
      },
      {
        type: "scatter",
        mode: "markers",
        name: "Заполнено",
        x: filled.map((r) => r.year),
        y: filled.map((r) => r.value),
        text: filled.map((r) => fillMethodLabel(r.method) ?? ""),
        // Hollow: a white disc with an orange ring (it also hides the line behind it).
        marker: { color: "#ffffff", size: 11, symbol: "circle", line: { color: FILLED_COLOR, width: 2.5 } },
        hovertemplate: "%{x}: %{y}<extra>%{text}</extra>",
      },
    ],
    layout: baseLayout(valueLabel),
  };
}

const sensitivityColumns: readonly ResultField[] = (REGISTRY.sensitivity.results[0] as ResultField).columns ?? [];

export function columnOf(name: string): ResultField | undefined {
  return sensitivityColumns.find((c) => c.name === name);
}

const label = (name: string) => columnOf(name)?.label ?? name;

export function emissionsFigure(element: SensitivityElement): SeriesFigure {
  const rows = element.data_sensitivity;
  const years = rows.map((r) => r.year);
  const bar = (name: "res_co2" | "res_co2_transport", color: string, unit: string, part: string): Data => ({
    type: "bar",
    name: label(name),
    x: years,
    y: rows.map((r) => r[name]),
    marker: { color },
    hovertemplate: `%{x}: %{y:,.2f} ${unit}<extra>${part}</extra>`,
  });
  return {
    title: `Суммарные выбросы по годам — ${element.name}`,
    data: [
      bar("res_co2", METHANE_COLOR, "т CO2-экв.", "метан"),
      bar("res_co2_transport", TRANSPORT_COLOR, "т CO2", "транспорт"),
      {
        type: "scatter",
        mode: "markers",
        name: `${label("res_co2_all")}`,
        x: years,
        y: rows.map((r) => r.res_co2_all),
        marker: { color: "#262626", symbol: "line-ew-open", size: 22, line: { width: 2 } },
        hovertemplate: "%{x}: %{y:,.2f} т CO2-экв.<extra>всего</extra>",
      },
    ],
    layout: {
      ...baseLayout("т CO2-экв."),
      barmode: "stack",
      yaxis: { title: { text: "т CO2-экв." }, automargin: true, rangemode: "tozero", tickformat: ",.0f" },
    },
  };
}

export function sensitivityFigure(element: SensitivityElement): SeriesFigure {
  const rows = element.data_sensitivity;
  const years = rows.map((r) => r.year);
  const line = (name: "sn_volume" | "sn_methan", color: string) =>
    ({
      type: "scatter",
      mode: "lines+markers",
      name: label(name),
      x: years,
      y: rows.map((r) => r[name]),
      line: { color },
      marker: { color, size: 7 },
      connectgaps: false,
      hovertemplate: "%{x}: %{y:.6f}<extra></extra>",
    }) satisfies Data;
  return {
    title: `Коэффициенты чувствительности — ${element.name}`,
    data: [line("sn_volume", OBSERVED_COLOR), line("sn_methan", METHANE_COLOR)],
    layout: { ...baseLayout("Коэффициент"), yaxis: { title: { text: "Коэффициент" }, automargin: true, rangemode: "tozero" } },
  };
}
