// One sensor's day as a chart (methodology D58–D60, D64): the valid minute values, the substituted ones
// apart, the flagged minutes as crosses with their reason, the levels 0,9·W, W and A as lines; and the
// same day's runs of flagged or substituted minutes in words (the table under the chart), so that
// nothing is told by colour or shape alone. Pure: the day's answer in, plotly's figure and rows out.
import type { Data, PlotData } from "plotly.js";
import { Flag, MinuteState } from "@core/monitoring";
import type { ChartFigure } from "../../../shared/charts/Chart";
import type { SensorDayView } from "../../../api/monitoring";
import { flagText, minutesText, reading } from "./sensorDataTexts";

const two = (n: number) => String(n).padStart(2, "0");
/** The minute `i` of the day as the company's clock reads it: «10:20». */
export const clock = (i: number) => `${two(Math.floor(i / 60) % 24)}:${two(i % 60)}`;

export function dayFigure(day: SensorDayView): ChartFigure {
  const x = day.value.map((_, i) => `${day.date} ${clock(i)}`);
  /** One trace of the day's minutes: those `keep` holds, at `y`; the others left as gaps. */
  const minutes = (name: string, keep: (i: number) => boolean, y: (i: number) => number | null, look: Partial<PlotData>): Data => ({
    type: "scatter",
    name,
    x,
    y: day.value.map((_, i) => (keep(i) ? y(i) : null)),
    ...look,
  });
  const data: Data[] = [
    minutes(
      "Достоверные значения",
      (i) => day.flag[i] === Flag.OK,
      (i) => day.value[i],
      { mode: "lines", line: { color: "#1677ff", width: 1.5 } },
    ),
    minutes(
      "Замещенные (D60)",
      (i) => day.state[i] === MinuteState.SUBSTITUTED,
      (i) => day.used[i],
      { mode: "lines", line: { color: "#722ed1", width: 1.5, dash: "dot" } },
    ),
    minutes(
      "Отмечены (D58)",
      (i) => day.flag[i] !== Flag.OK && day.flag[i] !== Flag.NONE,
      (i) => day.value[i] ?? day.used[i],
      {
        mode: "markers",
        text: day.flag.map((f) => flagText(f)),
        hovertemplate: "%{x|%H:%M}: %{y} — %{text}<extra></extra>",
        marker: { symbol: "x", size: 7, color: "#cf1322" },
      },
    ),
  ];
  const levels: [string, number | null, string][] = [
    ["0,9·W", day.levels.pre_warning, "dot"],
    ["W", day.levels.warning, "dash"],
    ["A", day.levels.alarm, "solid"],
  ];
  for (const [name, level, dash] of levels) {
    if (level === null) continue;
    data.push({
      type: "scatter",
      mode: "lines",
      name: `${name} = ${reading(level)} ${day.sensor.unit}`,
      x: [x[0], x[x.length - 1]],
      y: [level, level],
      line: { color: "#fa8c16", width: 1, dash: dash as "dot" | "dash" | "solid" },
      hoverinfo: "name",
    });
  }
  return {
    title: `${day.sensor.code}: минутные значения`,
    fileName: `${day.sensor.code} ${day.date}`,
    data,
    layout: {
      margin: { l: 56, r: 16, t: 16, b: 48 },
      xaxis: { type: "date", tickformat: "%H:%M" },
      yaxis: { title: { text: day.sensor.unit }, rangemode: "tozero" },
      legend: { orientation: "h", y: -0.2 },
    },
  };
}

/** A run of minutes of one flag and state that is not simply valid. */
export interface QualityRun {
  from: number;
  to: number;
  minutes: number;
  text: string;
}

/** The day's runs of flagged, substituted or missing minutes in words, in time order; the minutes
 *  before the sensor's service or after now are left out. */
export function qualityRuns(day: SensorDayView, expected: (i: number) => boolean = () => true): QualityRun[] {
  const runs: QualityRun[] = [];
  let i = 0;
  const n = day.flag.length;
  while (i < n) {
    if ((day.flag[i] === Flag.OK && day.state[i] === MinuteState.VALID) || !expected(i)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && expected(end) && day.flag[end] === day.flag[i] && day.state[end] === day.state[i] && day.used[end] === day.used[i])
      end++;
    const outcome =
      day.state[i] === MinuteState.SUBSTITUTED
        ? `замещено: ${reading(day.used[i])}`
        : day.state[i] === MinuteState.MISSING
          ? "нет данных"
          : "";
    runs.push({ from: i, to: end - 1, minutes: end - i, text: [flagText(day.flag[i]), outcome].filter(Boolean).join(" — ") });
    i = end;
  }
  return runs;
}

/** «10:20–10:29 (10 мин)». */
export const runTime = (run: QualityRun) =>
  run.from === run.to ? `${clock(run.from)} (1 мин)` : `${clock(run.from)}–${clock(run.to)} (${minutesText(run.minutes)} мин)`;
