import { describe, expect, it } from "vitest";
import { backtest } from "@core/gbdt/backtest";
import { backtestLines, eventLines, historyFigure } from "./forecastCheck";

describe("the back-test's lines", () => {
  // Four rows scored (the first, with no fact before it, is not: model and persistence score the
  // same rows), two forecast at or above the 0,8 % warning; the interval holds three facts, one of those two.
  const check = backtest({
    measured: [0.45, 0.5, 0.6, 0.9, 1.2],
    predicted: [0.45, 0.5, 0.7, 0.85, 0.95],
    lo: [0.4, 0.4, 0.6, 0.8, 0.9],
    hi: [0.5, 0.6, 0.8, 0.9, 1.0],
    storedLo: [0.4, 0.45, 0.65, 0.82, 0.92],
    storedHi: [0.5, 0.55, 0.75, 0.88, 0.98],
    intervalMethod: "adaptive",
    level: 90,
  });

  it("give the interval's coverage on the rows forecast at or above the warning beside its coverage on all", () => {
    const lines = backtestLines(check, 90);
    expect(lines.find((l) => l.key === "coverage")?.model).toBe(75);
    expect(lines.find((l) => l.key === "coverage_high")).toMatchObject({
      label: "… на строках с прогнозом ≥ 0,8 %, %",
      model: 50,
      persistence: null,
    });
    // The one row whose fact reached 1 % was not held.
    expect(lines.find((l) => l.key === "coverage_limit")).toMatchObject({
      label: "… на строках с фактом ≥ 1 %, %",
      model: 0,
      persistence: null,
    });
  });

  it("say which interval it was and what the calibration as stored held", () => {
    expect(check.interval?.sentence).toBe(
      "Интервал 90 % (конформный по уровню прогноза, подстроенный по фактам истории) накрыл факт в 75,0 % строк, " +
        "в 50,0 % строк с прогнозом от 0,8 %; о покрытии на пределе судить рано: строк с фактом от 1 % 1, нужно не меньше 200 " +
        "(накрыто 0,0 %); калибровка без подстройки — в 25,0 %. " +
        "Интервалу 90 % у предела не доверять: строк с прогнозом от 0,8 % 2 (накрыто 50,0 %), судить можно не меньше чем по 100; " +
        "строк с фактом от 1,0 % 1 (накрыто 0,0 %), судить можно не меньше чем по 30.",
    );
    expect(check.interval?.near_limit).toEqual({
      rows: 2,
      coverage: 0.5,
      reliable: false,
      by_forecast: { rows: 2, coverage: 0.5 },
      by_fact: { rows: 1, coverage: 0 },
    });
  });

  it("leave the line out for a back-test stored before it was counted", () => {
    const { high_coverage: _high, limit_coverage: _limit, ...model } = check.model;
    const lines = backtestLines({ ...check, model: model as typeof check.model }, 90);
    expect(lines.some((l) => l.key === "coverage_high" || l.key === "coverage_limit")).toBe(false);
  });
});

describe("the event table's lines", () => {
  it("set the forecast's rule beside the current reading's", () => {
    const rule = (caught: number, lead: number | null, perDay: number) => ({
      caught,
      missed: 4 - caught,
      lead_median: lead,
      false_alerts: 1,
      false_per_day: perDay,
    });
    const lines = eventLines({
      level: 1,
      warning: 0.8,
      horizon: 60,
      window: 120,
      events: 4,
      days: 2,
      model: rule(3, 40, 0.5),
      current: rule(4, 10, 0.25),
    });
    expect(lines.map((l) => [l.label, l.model, l.current])).toEqual([
      ["Предупреждено событий", 3, 4],
      ["Пропущено", 1, 0],
      ["Медианное упреждение, мин", 40, 10],
      ["Ложных тревог за сутки", 0.5, 0.25],
    ]);
  });
});

describe("the history's chart", () => {
  it("draws a forecast without facts: its forecast and band by time, no line of facts", () => {
    const rows = [
      { id: 1, t: "2025-01-01T08:00:00Z", result: 0.6, lo: 0.5, hi: 0.7 },
      { id: 2, t: "2025-01-01T08:10:00Z", result: 0.9, lo: 0.8, hi: 1.0 },
    ];
    const figure = historyFigure(rows, 1, 90, 60);
    expect(figure.title).toBe("Прогноз концентрации CH4 в исходящей струе лавы");
    expect(figure.data.map((d) => d.name).filter(Boolean)).toEqual(["Интервал 90 %", "Прогноз (на момент, к которому он дан)"]);
    const forecast = figure.data.find((d) => d.name?.startsWith("Прогноз")) as { y: number[] };
    expect(forecast.y).toEqual([0.6, 0.9]);
  });
});
