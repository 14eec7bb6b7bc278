// A forecast checked against its history (docs/user-guide.md, «Проверка на истории»): the chart of
// measured vs forecast with the interval's band, the back-test's rows as the results dialog prints
// them, and the features by their Russian names. Pure: stored rows and summary in, figures and
// table rows out.
import type { Data, Layout } from "plotly.js";
import type { Backtest, EventTable, ForecastScore } from "@core/gbdt/backtest";
import type { ForecastChart } from "@server/contract";
import { FORECAST_COLUMNS } from "./forecast";

export const HISTORY_CHART_HEIGHT = 340;

/** A row of the chart as the server thins it (GET regres_methane/{id}/chart/). */
export type HistoryRow = ForecastChart["points"][number];

/** «Расход воздуха в исходящей струе лавы (телеметрия), м³/мин»: a feature as a user reads it. */
export function featureTitle(name: string): string {
  const column = FORECAST_COLUMNS.find((c) => c.name === name);
  if (!column) return name;
  return column.unit ? `${column.label}, ${column.unit}` : column.label;
}

const numberOr = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Measured and forecast CH4 with the interval's band and the limit, by time (or row number): the
 *  rows as the server sends the chart (at most 2 000, a year's buckets' lowest and highest). */
export function historyFigure(
  rows: readonly HistoryRow[],
  limit: number,
  level: number,
  /** Minutes ahead: a row's forecast (and its band) is drawn at t + horizon, the fact at t. */
  horizon = 0,
): { title: string; data: Data[]; layout: Partial<Layout> } {
  const shown = rows;
  const byTime = shown.some((r) => typeof r.t === "string");
  const measuredX = shown.map((r, i) => (byTime ? r.t : typeof r.t === "number" ? r.t : (r.id ?? i + 1))) as Array<string | number>;
  const x = horizon === 0 ? measuredX : measuredX.map((v) => ahead(v, horizon));
  const data: Data[] = [];
  if (shown.some((r) => numberOr(r.hi) !== null)) {
    data.push(
      { type: "scatter", mode: "lines", x, y: shown.map((r) => numberOr(r.hi)), line: { width: 0 }, hoverinfo: "skip", showlegend: false },
      {
        type: "scatter",
        mode: "lines",
        name: `Интервал ${level} %`,
        x,
        y: shown.map((r) => numberOr(r.lo)),
        fill: "tonexty",
        fillcolor: "rgba(22, 119, 255, 0.15)",
        line: { width: 0 },
        hovertemplate: "%{y:.3f} %<extra>нижняя граница</extra>",
      },
    );
  }
  data.push({
    type: "scatter",
    mode: "lines",
    name: horizon === 0 ? "Прогноз" : "Прогноз (на момент, к которому он дан)",
    x,
    y: shown.map((r) => r.result),
    line: { color: "#1677ff", width: 1.5 },
    hovertemplate: "%{y:.3f} %<extra>прогноз</extra>",
  });
  const measured = shown.some((r) => numberOr(r.y) !== null);
  if (measured) {
    data.push({
      type: "scatter",
      mode: "lines",
      name: "Факт",
      x: measuredX,
      y: shown.map((r) => numberOr(r.y)),
      line: { color: "#262626", width: 1.2 },
      hovertemplate: "%{y:.3f} %<extra>факт</extra>",
    });
  }
  return {
    // A forecast without facts is charted all the same: its forecast and band.
    title: measured ? "Факт и прогноз концентрации CH4 в исходящей струе лавы" : "Прогноз концентрации CH4 в исходящей струе лавы",
    data,
    layout: {
      height: HISTORY_CHART_HEIGHT,
      autosize: true,
      margin: { l: 60, r: 16, t: 16, b: 56 },
      separators: ", ",
      legend: { orientation: "h", y: -0.25 },
      // Dates as the app writes them (01.01 08:10), never the chart library's English month names.
      xaxis: {
        title: { text: byTime ? "Время" : "Строка" },
        automargin: true,
        ...(byTime ? { type: "date" as const, tickformat: "%d.%m\n%H:%M", hoverformat: "%d.%m.%Y %H:%M" } : {}),
      },
      yaxis: { title: { text: "CH4, %" }, rangemode: "tozero" },
      shapes: [{ type: "line", xref: "paper", x0: 0, x1: 1, y0: limit, y1: limit, line: { color: "#cf1322", width: 1.5, dash: "dash" } }],
      annotations: [
        {
          xref: "paper",
          x: 1,
          y: limit,
          xanchor: "right",
          yanchor: "bottom",
          text: `Предел ${String(limit).replace(".", ",")} %`,
          showarrow: false,
          font: { color: "#cf1322", size: 11 },
        },
      ],
    },
  };
}

/** A row's time moved `minutes` ahead: an ISO date-time of the rows' clock, or a 10-minute step number. */
function ahead(value: string | number, minutes: number): string | number {
  if (typeof value === "number") return value + minutes / 10;
  return new Date(Date.parse(`${value.slice(0, 19)}Z`) + minutes * 60_000).toISOString().slice(0, 19);
}

export interface BacktestLine {
  key: string;
  label: string;
  model: number | null;
  persistence: number | null;
  /** The history's mean as every row's forecast (absent in a back-test stored before it was computed). */
  mean: number | null;
  /** D108 (e): the version's time-of-day mean as each row's forecast (null: the back-test has none). */
  time_of_day: number | null;
  /** Decimals to show; «%» etc. are in the label. */
  decimals: number;
}

const LEAD_UNITS = { min: "мин", step: "шагов", row: "строк" } as const;

/** The back-test table's rows: the model, persistence and the history's mean side by side. */
export function backtestLines(backtest: Backtest, level: number): BacktestLine[] {
  // A back-test stored before the history's mean was scored has none.
  const { model, persistence, mean } = backtest as Backtest & { mean?: ForecastScore };
  const timeOfDay = backtest.time_of_day ?? null;
  const per = model.unit === "shift" ? "Смен по 12 ч" : "Строк";
  const line = (key: string, label: string, value: (s: ForecastScore) => number | null, decimals: number): BacktestLine => ({
    key,
    label,
    model: value(model),
    persistence: value(persistence),
    mean: mean ? value(mean) : null,
    time_of_day: timeOfDay ? value(timeOfDay) : null,
    decimals,
  });
  const percent = (v: number | null) => (v === null ? null : v * 100);
  return [
    line("rows", "Строк с фактом", (s) => s.rows, 0),
    line("mae", "Средняя абсолютная ошибка (MAE), %", (s) => s.mae, 4),
    line("rmse", "Среднеквадратичная ошибка (RMSE), %", (s) => s.rmse, 4),
    line("mape", "Средняя относительная ошибка (MAPE), %", (s) => s.mape, 1),
    line("coverage", `Покрытие ${level}-процентного интервала, %`, (s) => percent(s.coverage), 1),
    // A back-test stored before the rows near the limit were scored apart has no such line.
    // The interval is the shown forecast's: persistence's where the model lost to it.
    ...(model.high_coverage || persistence.high_coverage
      ? [
          line(
            "coverage_high",
            `… на строках с прогнозом ≥ ${String(backtest.warning).replace(".", ",")} %, %`,
            (s) => percent(s.high_coverage?.coverage ?? null),
            1,
          ),
        ]
      : []),
    // The rows whose fact reached the limit (a back-test stored before they were scored apart has none).
    ...(model.limit_coverage || persistence.limit_coverage
      ? [
          line(
            "coverage_limit",
            `… на строках с фактом ≥ ${String(backtest.limit).replace(".", ",")} %, %`,
            (s) => percent(s.limit_coverage?.coverage ?? null),
            1,
          ),
        ]
      : []),
    // D96 (c): the error where the fact reached the limit — the forecast's mean error (minus: below the facts) and RMSE
    // there, beside persistence's (a back-test stored before has none).
    ...(model.at_limit || persistence.at_limit
      ? [
          line(
            "mean_error_limit",
            `Средняя ошибка на строках с фактом ≥ ${String(backtest.limit).replace(".", ",")} % (минус — занижает), %`,
            (s) => s.at_limit?.mean_error ?? null,
            4,
          ),
          line(
            "rmse_limit",
            `RMSE на строках с фактом ≥ ${String(backtest.limit).replace(".", ",")} %, %`,
            (s) => s.at_limit?.rmse ?? null,
            4,
          ),
        ]
      : []),
    line("exceedances", `${per} с превышением ${String(backtest.limit).replace(".", ",")} %`, (s) => s.exceedances, 0),
    line("caught", `Предупреждено (прогноз ≥ ${String(backtest.warning).replace(".", ",")} %)`, (s) => s.caught, 0),
    line("missed", "Пропущено", (s) => s.missed, 0),
    line("false_alarms", "Ложные тревоги", (s) => s.false_alarms, 0),
    line("lead", `Медианное упреждение, ${LEAD_UNITS[model.lead_time.unit]}`, (s) => s.lead_time.median, 0),
  ];
}

export interface EventLine {
  key: string;
  label: string;
  model: number | null;
  current: number | null;
  decimals: number;
}

/** The event table's rows (the back-test's `events`): the forecast's rule beside the current reading's. */
export function eventLines(events: EventTable): EventLine[] {
  const line = (key: string, label: string, value: (r: EventTable["model"]) => number | null, decimals: number): EventLine => ({
    key,
    label,
    model: value(events.model),
    current: value(events.current),
    decimals,
  });
  return [
    line("caught", "Предупреждено событий", (r) => r.caught, 0),
    line("missed", "Пропущено", (r) => r.missed, 0),
    line("lead", "Медианное упреждение, мин", (r) => r.lead_median, 0),
    line("false", "Ложных тревог за сутки", (r) => r.false_per_day, 2),
  ];
}
