// A working's 24 hours as a chart: each meter's minutes and its W and A as lines named with
// their values the Russian way, the forecast with its interval as a band, and each event as a marked span
// named in words (level, sensor, start on the company's clock), so nothing is told by colour alone.
import { expect, it } from "vitest";
import type { LiveChart } from "../../../api/live";
import type { SensorEvent } from "../../../api/monitoring";
import { chartFigure } from "./liveChart";

const CHART: LiveChart = {
  working: "Лава 7",
  from: "2026-03-01T03:00:00.000Z",
  to: "2026-03-02T03:00:00.000Z",
  meters: [
    { code: "М-7", warning: 1, alarm: 1.5, t: ["2026-03-02T02:58:00.000Z", "2026-03-02T02:59:00.000Z"], v: [0.95, 1.6], gassing: null },
  ],
  forecasts: [
    {
      horizon: 60,
      horizon_label: "1 ч",
      sensor: "М-7",
      t: ["2026-03-02T03:58:00.000Z", "2026-03-02T03:59:00.000Z"],
      result: [1.1, 1.7],
      lo: [0.9, 1.4],
      hi: [1.3, null],
    },
  ],
};
const EVENT = {
  id: "e1",
  facility: "f1",
  sensor: "s1",
  sensor_code: "М-7",
  working: "Лава 7",
  kind: "threshold",
  level: "alarm",
  threshold: 1.5,
  start: "2026-03-02T02:59:00.000Z",
  end: null,
  peak: 1.6,
  peak_at: "2026-03-02T02:59:00.000Z",
  minutes_above: 1,
  shift: { date: "2026-03-02", number: 2 },
  forecast: null,
  fault: null,
  acknowledged_by: null,
  acknowledged_at: null,
  comment: "",
} as SensorEvent;

it("draws the meter, its levels, the forecast band and the events, each named in words on the company's clock", () => {
  const figure = chartFigure(CHART, [EVENT, { ...EVENT, id: "e2", kind: "stale", level: null, peak: null }], "Asia/Novokuznetsk");
  expect(figure.title).toBe("Лава 7: сутки");
  const names = figure.data.map((d) => d.name);
  expect(names).toEqual([
    "М-7, % об.",
    "М-7: W = 1 %",
    "М-7: A = 1,5 %",
    "Прогноз на 1 ч: верхняя граница",
    "Прогноз на 1 ч: интервал",
    "Прогноз М-7 на 1 ч",
    "Событие М-7: ≥ A, 09:59",
    "Событие М-7: нет данных, 09:59",
    "События М-7: ≥ A (1)",
    "События М-7: нет данных (1)",
  ]);
  const meter = figure.data[0] as { x: string[]; y: number[] };
  expect(meter.x).toEqual(["2026-03-02 09:58", "2026-03-02 09:59"]);
  expect(meter.y).toEqual([0.95, 1.6]);
  const band = figure.data[4] as { fill: string; y: (number | null)[] };
  expect(band.fill).toBe("tonexty");
  expect(band.y).toEqual([0.9, 1.4]);
  // An open event runs to the chart's end.
  expect((figure.data[6] as { x: string[] }).x).toEqual(["2026-03-02 09:59", "2026-03-02 10:00"]);
});

it("leaves out the band of a forecast without an interval, colours each horizon apart and grows with its legend", () => {
  const forecast = (horizon: number, label: string) => ({
    ...CHART.forecasts[0],
    horizon,
    horizon_label: label,
    lo: [null, null],
    hi: [null, null],
  });
  const five = {
    ...CHART,
    forecasts: [forecast(10, "10 мин"), forecast(30, "30 мин"), forecast(60, "1 ч"), forecast(120, "2 ч"), forecast(360, "6 ч")],
  };
  const figure = chartFigure(five, [], "Asia/Novokuznetsk");
  const names = figure.data.map((d) => d.name);
  expect(names.filter((n) => n?.includes("интервал") || n?.includes("граница"))).toEqual([]);
  expect(names.filter((n) => n?.startsWith("Прогноз М-7"))).toHaveLength(5);
  const colours = figure.data.filter((d) => d.name?.startsWith("Прогноз М-7")).map((d) => (d as { line: { color: string } }).line.color);
  expect(new Set(colours).size).toBe(5);
  // Eight entries in the legend: the plot's 320 px and a line for each entry past four.
  expect(figure.layout.height).toBe(320 + 4 * 19);
  expect(chartFigure(CHART, [], "Asia/Novokuznetsk").layout.height).toBe(320 + 19);
});
