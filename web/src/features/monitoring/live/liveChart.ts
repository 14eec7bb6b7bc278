// A working's last 24 hours as plotly's figure («Мониторинг»): its methane meters' minute
// means, the levels W and A as lines named with their values the Russian way, each bound model's
// forecast with its interval as a band, and each event of the day as a marked span named in words (the legend: one
// entry per meter and kind of event), so nothing is told by colour alone. Pure, as dayChart.ts is: its tests run in Node without loading the
// card's React and antd.
import type { Data, Layout } from "plotly.js";
import { wallTimeIn } from "@core/company-clock";
import type { ChartFigure } from "../../../shared/charts/Chart";
import type { SensorEvent } from "../../../api/monitoring";
import type { LiveChart } from "../../../api/live";
import { number } from "../texts/liveTexts";

const COLORS = ["#1677ff", "#13c2c2", "#722ed1", "#eb2f96"];
/** One colour per bound horizon (the demo binds five): the forecasts told apart by colour and by name. */
const FORECAST_COLORS = ["#722ed1", "#eb2f96", "#2f54eb", "#08979c", "#ad6800"];
/** The chart's height: its plot, and a line of the legend under it for each entry past four (plotly
 *  gave a long legend a scroll bar of its own in a tile half the page wide; entries side by side were
 *  cut at their width). */
export const PLOT_HEIGHT = 320;
const LEGEND_LINE = 19;
const chartHeight = (data: readonly Data[]) =>
  PLOT_HEIGHT + LEGEND_LINE * Math.max(0, data.filter((d) => (d as { showlegend?: boolean }).showlegend !== false).length - 4);
const LEVEL_WORDS: Record<string, string> = { pre_warning: "≥ 0,9·W", warning: "≥ W", alarm: "≥ A" };
const EVENT_LINE = { color: "#cf1322", width: 3 };
const EVENT_MARKER = { symbol: "line-ns-open", size: 10 } as const;

export function chartFigure(chart: LiveChart, events: readonly SensorEvent[], zone: string): ChartFigure {
  const local = (iso: string) => wallTimeIn(iso, zone).replace("T", " ");
  const data: Data[] = [];
  chart.meters.forEach((m, i) => {
    data.push({
      type: "scatter",
      mode: "lines",
      name: `${m.code}, % об.`,
      x: m.t.map(local),
      y: m.v,
      line: { color: COLORS[i % COLORS.length], width: 1.5 },
    });
    for (const [name, level, dash] of [
      ["W", m.warning, "dash"],
      ["A", m.alarm, "solid"],
    ] as const) {
      if (level === null) continue;
      data.push({
        type: "scatter",
        mode: "lines",
        name: `${m.code}: ${name} = ${number(level, 2)} %`,
        x: [local(chart.from), local(chart.to)],
        y: [level, level],
        line: { color: "#fa8c16", width: 1, dash },
        hoverinfo: "name",
      });
    }
  });
  // D98: a meter in a gassing of the book: its norm drawn red from the entry's start, named as the tile says it.
  for (const m of chart.meters) {
    if (!m.gassing) continue;
    data.push({
      type: "scatter",
      mode: "lines",
      name: `${m.code}: ${m.gassing.label}, с ${local(m.gassing.since).slice(11)}`,
      x: [local(m.gassing.since < chart.from ? chart.from : m.gassing.since), local(chart.to)],
      y: [m.gassing.norm, m.gassing.norm],
      line: { color: "#cf1322", width: 2 },
      hoverinfo: "name",
    });
  }
  chart.forecasts.forEach((f, i) => {
    const x = f.t.map(local);
    const color = FORECAST_COLORS[i % FORECAST_COLORS.length];
    // A model without calibration gives no interval: no band, and no band's name in the legend.
    const band = f.lo.some((v) => v !== null) && f.hi.some((v) => v !== null);
    if (band)
      data.push(
        {
          type: "scatter",
          mode: "lines",
          name: `Прогноз на ${f.horizon_label}: верхняя граница`,
          x,
          y: f.hi,
          line: { width: 0 },
          showlegend: false,
        },
        {
          type: "scatter",
          mode: "lines",
          name: `Прогноз на ${f.horizon_label}: интервал`,
          x,
          y: f.lo,
          fill: "tonexty",
          fillcolor: `${color}26`,
          line: { width: 0 },
        },
      );
    data.push({
      type: "scatter",
      mode: "lines",
      name: `Прогноз ${f.sensor} на ${f.horizon_label}`,
      x,
      y: f.result,
      line: { color, dash: "dot", width: 1.5 },
    });
  });
  // every event is drawn (its span named with its time where the pointer rests), but the legend
  // holds the series — one entry per meter and kind of event with their count, which shows or hides them all — not
  // one per event (a day of 40 events pushed the plot under a legend of 40 lines).
  const kinds = new Map<string, number>();
  for (const e of events) {
    const end = e.end ?? chart.to;
    const y = e.peak ?? 0;
    const words =
      e.kind === "stale"
        ? "нет данных"
        : e.kind === "fault"
          ? "неисправность датчика"
          : e.kind === "forecast"
            ? "прогноз превышения"
            : e.level === null
              ? ""
              : (LEVEL_WORDS[e.level] ?? "");
    const kind = `${e.sensor_code}: ${words}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    data.push({
      type: "scatter",
      mode: "lines+markers",
      name: `Событие ${kind}, ${local(e.start).slice(11)}`,
      x: [local(e.start), local(end)],
      y: [y, y],
      line: EVENT_LINE,
      marker: EVENT_MARKER,
      legendgroup: `event ${kind}`,
      showlegend: false,
    });
  }
  for (const [kind, count] of kinds)
    data.push({
      type: "scatter",
      mode: "lines+markers",
      name: `События ${kind} (${count.toLocaleString("ru-RU")})`,
      x: [null],
      y: [null],
      line: EVENT_LINE,
      marker: EVENT_MARKER,
      legendgroup: `event ${kind}`,
      hoverinfo: "skip",
    });
  return {
    title: `${chart.working}: сутки`,
    data,
    layout: {
      margin: { l: 48, r: 16, t: 16, b: 48 },
      xaxis: { type: "date", tickformat: "%H:%M" },
      yaxis: { title: { text: "% об." }, rangemode: "tozero" },
      // No scroll bar of the legend's own (plotly 4's maxheight, a share of the chart's height; not in
      // @types/plotly.js): the chart is as tall as its legend needs (chartHeight).
      legend: { orientation: "h", y: -0.25, maxheight: 1 } as Partial<Layout["legend"]>,
      // Also the phone's base height (Chart, narrowLayout).
      height: chartHeight(data),
    },
  };
}
