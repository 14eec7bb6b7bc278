// A working's last 24 hours on «Мониторинг»: its methane meters' minute means, the levels W and A as
// lines, the events of the day (D65, «События») as marked spans with their words in the legend, and
// each bound model's forecast with its interval as a band. Plotly loads with the first chart.
import { useMemo } from "react";
import type { Data } from "plotly.js";
import { Typography } from "antd";
import { wallTimeIn } from "@core/company-clock";
import { Chart, type ChartFigure } from "../../shared/charts/Chart";
import { useTelemetryEvents, type TelemetryEvent } from "../../api/telemetry";
import { useLiveChart, type LiveChart } from "../../api/live";
import { companyZoneNow } from "../../shared/dates";
import { number } from "./liveTexts";

const COLORS = ["#1677ff", "#13c2c2", "#722ed1", "#eb2f96"];
const LEVEL_WORDS: Record<string, string> = { pre_warning: "≥ 0,9·W", warning: "≥ W", alarm: "≥ A" };

export function chartFigure(chart: LiveChart, events: readonly TelemetryEvent[], zone: string): ChartFigure {
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
  for (const f of chart.forecasts) {
    const x = f.t.map(local);
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
        fillcolor: "rgba(114,46,209,0.15)",
        line: { width: 0 },
      },
      {
        type: "scatter",
        mode: "lines",
        name: `Прогноз ${f.sensor} на ${f.horizon_label}`,
        x,
        y: f.result,
        line: { color: "#722ed1", dash: "dot", width: 1.5 },
      },
    );
  }
  for (const e of events) {
    const end = e.end ?? chart.to;
    const y = e.peak ?? 0;
    data.push({
      type: "scatter",
      mode: "lines+markers",
      name: `Событие ${e.sensor_code}: ${e.kind === "stale" ? "нет данных" : e.level === null ? "" : (LEVEL_WORDS[e.level] ?? "")}, ${local(e.start).slice(11)}`,
      x: [local(e.start), local(end)],
      y: [y, y],
      line: { color: "#cf1322", width: 3 },
      marker: { symbol: "line-ns-open", size: 10 },
    });
  }
  return {
    title: `${chart.working}: сутки`,
    data,
    layout: {
      margin: { l: 48, r: 16, t: 16, b: 48 },
      xaxis: { type: "date", tickformat: "%H:%M" },
      yaxis: { title: { text: "% об." }, rangemode: "tozero" },
      legend: { orientation: "h", y: -0.25 },
    },
  };
}

export default function LiveChartCard({ facility, working, updated }: { facility: string; working: string; updated: string | null }) {
  const chart = useLiveChart(facility, working, updated);
  const from = chart.data?.from;
  const events = useTelemetryEvents(facility, from ? { working, from, to: chart.data!.to } : undefined);
  const zone = companyZoneNow();
  const figure = useMemo(
    () => (chart.data ? chartFigure(chart.data, events.data?.results ?? [], zone) : undefined),
    [chart.data, events.data, zone],
  );
  if (chart.isError) return <Typography.Text type="danger">График не загрузился: {chart.error.message}</Typography.Text>;
  if (!figure) return <Typography.Text type="secondary">График загружается…</Typography.Text>;
  return (
    <>
      <Chart figure={figure} height={320} testId="live-chart" />
      <Typography.Text type="secondary">
        {events.data ? `Событий за сутки: ${events.data.count.toLocaleString("ru-RU")}` : "События загружаются…"}
      </Typography.Text>
    </>
  );
}
