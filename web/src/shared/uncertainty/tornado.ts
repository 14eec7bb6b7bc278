// The tornado chart of a sensitivity result (methodology D6; docs/methodology.md, Uncertainty):
// for the last year of an element, how far the total res_co2_all moves when each input moves
// across its 95 % interval, one at a time — the change is the normalised sensitivity coefficient ×
// the input's −% / +% × the total (the model is linear in each input). The intervals come from the
// dictionaries: coal production from the activity-data entry, methane abundance from the IPCC
// underground factor's range. Widest bar on top.
import type { Data, Layout } from "plotly.js";
import type { SensitivityResultRow } from "@core/emissions-core";
import { formatResult } from "../decimals";
import { boundsText } from "./texts";

/** A stored sensitivity result of one element of a series: what the tornado draws. */
export interface SensitivityElement {
  id: number;
  name: string;
  data_sensitivity: SensitivityResultRow[];
}

export interface TornadoInput {
  label: string;
  /** Which sensitivity coefficient of the row applies. */
  coefficient: "sn_volume" | "sn_methan";
  lower_pct: number;
  upper_pct: number;
}

export interface TornadoBar {
  label: string;
  low: number;
  high: number;
}

export function tornadoBars(
  element: SensitivityElement,
  inputs: readonly TornadoInput[],
): { year: number; total: number; bars: TornadoBar[] } | undefined {
  const last = element.data_sensitivity.at(-1);
  if (!last || typeof last.res_co2_all !== "number") return undefined;
  const total = last.res_co2_all;
  const bars = inputs
    .map((input) => {
      const sn = last[input.coefficient];
      if (typeof sn !== "number" || !Number.isFinite(sn)) return undefined;
      return {
        label: `${input.label} (${boundsText(input)})`,
        low: (-sn * input.lower_pct * total) / 100,
        high: (sn * input.upper_pct * total) / 100,
      };
    })
    .filter((b): b is TornadoBar => b !== undefined)
    .sort((a, b) => a.high - a.low - (b.high - b.low));
  return { year: last.year, total, bars };
}

/** How a tornado's bars are drawn: the change's unit and decimals, the axis title, the two traces' names
 *  and colours, and the height each bar takes. */
export interface TornadoLook {
  unit: string;
  decimals: number;
  axis: string;
  low: { name: string; color: string };
  high: { name: string; color: string };
  barHeight: number;
}

/** The plotly figure of tornado bars (widest where the caller put it): the low and high changes as two
 *  overlaid horizontal traces. The sensitivity screen's chart and «Снижение выбросов»'s draw with it. */
export function tornadoBarsFigure(title: string, bars: readonly TornadoBar[], look: TornadoLook) {
  const labels = bars.map((b) => b.label);
  const text = (v: number) => `${v < 0 ? "−" : "+"}${formatResult(Math.abs(v), look.decimals)}`;
  const trace = (name: string, values: number[], color: string): Data => ({
    type: "bar",
    orientation: "h",
    name,
    y: labels,
    x: values,
    marker: { color },
    text: values.map(text),
    textposition: "auto",
    hovertemplate: `%{y}: %{text} ${look.unit}<extra></extra>`,
  });
  const layout: Partial<Layout> = {
    height: 120 + look.barHeight * bars.length,
    autosize: true,
    barmode: "overlay",
    separators: ", ",
    margin: { l: 16, r: 16, t: 16, b: 64 },
    legend: { orientation: "h", y: -0.35 },
    xaxis: { title: { text: look.axis }, zeroline: true, automargin: true, tickformat: ",.0f" },
    yaxis: { automargin: true },
  };
  return {
    title,
    data: [
      trace(
        look.low.name,
        bars.map((b) => b.low),
        look.low.color,
      ),
      trace(
        look.high.name,
        bars.map((b) => b.high),
        look.high.color,
      ),
    ],
    layout,
  };
}

export function tornadoFigure(element: SensitivityElement, inputs: readonly TornadoInput[]) {
  const tornado = tornadoBars(element, inputs);
  if (!tornado || tornado.bars.length === 0) return undefined;
  const { year, total, bars } = tornado;
  return tornadoBarsFigure(`Что сильнее всего влияет на выбросы — ${element.name}`, bars, {
    unit: "т CO2-экв.",
    decimals: 2,
    axis: `Изменение суммарных выбросов ${year} г., т CO2-экв. (итог ${formatResult(total, 2)})`,
    low: { name: "Нижняя граница 95 % интервала", color: "#52c41a" },
    high: { name: "Верхняя граница 95 % интервала", color: "#fa541c" },
    barHeight: 60,
  });
}
