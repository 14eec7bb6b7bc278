// «Мониторинг»'s 24-hour chart of a working (liveChart.ts chartFigure): the minute means on the
// company's clock, W and A as lines named with Russian numbers, each forecast's interval as a band under
// its line, and each event of the day as a marked span whose legend says the level in words (a stale
// channel «нет данных»), an open event drawn up to the chart's end.
import { describe, expect, it } from "vitest";
import type { SensorEvent } from "../../../api/monitoring";
import type { LiveChart } from "../../../api/live";
import { chartFigure } from "./liveChart";

const chart: LiveChart = {
  working: "Лава 12-1",
  from: "2026-03-01T03:00:00.000Z",
  to: "2026-03-02T03:00:00.000Z",
  meters: [
    {
      code: "М-7",
      warning: 1,
      alarm: 2,
      t: ["2026-03-01T17:00:00.000Z", "2026-03-01T17:01:00.000Z"],
      v: [0.95, 1.25],
      gassing: { since: "2026-03-01T17:01:00.000Z", norm: 1, label: "загазирование: 1,25 % при норме 1,00 %" },
    },
    { code: "М-8", warning: null, alarm: 1.5, t: ["2026-03-01T17:00:00.000Z"], v: [0.4], gassing: null },
  ],
  forecasts: [
    {
      horizon: 60,
      horizon_label: "1 ч",
      sensor: "М-7",
      t: ["2026-03-01T18:00:00.000Z"],
      result: [1.1],
      lo: [0.9],
      hi: [1.35],
    },
  ],
};

const event = (over: Partial<SensorEvent>): SensorEvent => ({
  id: "e",
  facility: "f",
  sensor: "s",
  sensor_code: "М-7",
  working: "Лава 12-1",
  kind: "threshold",
  level: "warning",
  threshold: 1,
  start: "2026-03-01T17:01:00.000Z",
  end: "2026-03-01T17:05:00.000Z",
  peak: 1.25,
  peak_at: "2026-03-01T17:01:00.000Z",
  minutes_above: 4,
  shift: { date: "2026-03-02", number: 1 },
  forecast: null,
  fault: null,
  acknowledged_by: null,
  acknowledged_at: null,
  comment: "",
  ...over,
});

describe("the working's 24 hours", () => {
  const figure = chartFigure(
    chart,
    [
      event({}),
      event({ id: "s", kind: "stale", level: null, sensor_code: "М-8", start: "2026-03-02T01:30:00.000Z", end: null, peak: null }),
    ],
    "Asia/Novokuznetsk",
  );
  const trace = (name: string) =>
    figure.data.find((d) => d.name === name) as { x: string[]; y: (number | null)[] } & Record<string, unknown>;

  it("draws each meter's minutes on the company's clock (UTC+7), and W and A as named lines", () => {
    expect(figure.title).toBe("Лава 12-1: сутки");
    expect(trace("М-7, % об.")).toMatchObject({ x: ["2026-03-02 00:00", "2026-03-02 00:01"], y: [0.95, 1.25] });
    expect(trace("М-7: W = 1 %")).toMatchObject({ x: ["2026-03-01 10:00", "2026-03-02 10:00"], y: [1, 1] });
    expect(trace("М-8: A = 1,5 %")).toMatchObject({ y: [1.5, 1.5] });
    // М-8 has no W: no line is drawn for it.
    expect(figure.data.some((d) => d.name?.startsWith("М-8: W"))).toBe(false);
  });

  // D98: a meter in a gassing of the book says so on the chart as the tile does, its norm drawn red from the entry's start.
  it("draws a gassing in force as its norm in red from its start, named as the tile names it", () => {
    expect(trace("М-7: загазирование: 1,25 % при норме 1,00 %, с 00:01")).toMatchObject({
      x: ["2026-03-02 00:01", "2026-03-02 10:00"],
      y: [1, 1],
      line: { color: "#cf1322", width: 2 },
    });
    expect(figure.data.some((d) => d.name?.startsWith("М-8: загазирование"))).toBe(false);
  });

  it("shows the forecast's interval as a band under its dotted line", () => {
    expect(trace("Прогноз на 1 ч: верхняя граница")).toMatchObject({ y: [1.35], showlegend: false });
    expect(trace("Прогноз на 1 ч: интервал")).toMatchObject({ x: ["2026-03-02 01:00"], y: [0.9], fill: "tonexty" });
    expect(trace("Прогноз М-7 на 1 ч")).toMatchObject({ y: [1.1] });
  });

  it("marks each event as a span named in words, an open one up to the chart's end", () => {
    expect(trace("Событие М-7: ≥ W, 00:01")).toMatchObject({
      x: ["2026-03-02 00:01", "2026-03-02 00:05"],
      y: [1.25, 1.25],
    });
    expect(trace("Событие М-8: нет данных, 08:30")).toMatchObject({
      x: ["2026-03-02 08:30", "2026-03-02 10:00"],
      y: [0, 0],
    });
  });

  // a day of many events is drawn whole, its legend holding the series, not a line per event.
  it("draws every event of a busy day but gives the legend one entry per meter and kind, with their count", () => {
    const many = Array.from({ length: 40 }, (_, k) =>
      event({
        id: `e${k}`,
        level: k % 4 === 0 ? "alarm" : "warning",
        start: new Date(Date.parse("2026-03-01T17:01:00.000Z") + k * 20 * 60_000).toISOString(),
        end: new Date(Date.parse("2026-03-01T17:05:00.000Z") + k * 20 * 60_000).toISOString(),
      }),
    );
    const busy = chartFigure(chart, many, "Asia/Novokuznetsk");
    const spans = busy.data.filter((d) => d.name?.startsWith("Событие "));
    expect(spans).toHaveLength(40);
    expect(spans.every((d) => (d as { showlegend?: boolean }).showlegend === false)).toBe(true);
    const legend = busy.data.filter((d) => (d as { showlegend?: boolean }).showlegend !== false).map((d) => d.name);
    expect(legend.filter((n) => n?.startsWith("Событ"))).toEqual(["События М-7: ≥ A (10)", "События М-7: ≥ W (30)"]);
    // The entry shows and hides its events together; the chart grows by its legend, not by its events.
    const group = (name: string) => (busy.data.find((d) => d.name === name) as { legendgroup?: string }).legendgroup;
    expect(group("Событие М-7: ≥ A, 00:01")).toBe(group("События М-7: ≥ A (10)"));
    expect(busy.layout.height).toBe(chartFigure(chart, [many[0], many[1]], "Asia/Novokuznetsk").layout.height);
    // A forecast event is named as one, not left without words.
    const ahead = chartFigure(chart, [event({ kind: "forecast", level: null })], "Asia/Novokuznetsk");
    expect(ahead.data.map((d) => d.name).filter((n) => n?.startsWith("Событ"))).toEqual([
      "Событие М-7: прогноз превышения, 00:01",
      "События М-7: прогноз превышения (1)",
    ]);
  });
});
