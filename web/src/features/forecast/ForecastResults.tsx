// The stored regres_methane forecast (docs/api.md, docs/user-guide.md): a summary (rows, the share above
// the forecast's own limit, maximum and mean), the model it was computed with, the uploaded source file, and every data row
// with its inputs and «Прогноз, %» — 5 rows a page, values above that limit red and bold. The rows are
// asked a page at a time and the chart as the server thins it (GET …/rows/, …/chart/): a year of
// 10-minute readings never comes to the browser whole.
import { useEffect, useState } from "react";
import { Alert, Descriptions, Flex, Segmented, Spin, Typography, type TableColumnsType } from "antd";
import { Link } from "react-router-dom";
import { Table } from "../../shared/LazyTable";
import type { ForecastMethod } from "@core/registry";
import { useForecastChart, useForecastRows, type Calculation } from "../../api/calculations";
import {
  FORECAST_COLUMNS,
  METHOD_TITLES,
  libraryTitle,
  libraryVersion,
  limitText,
  forecastSummary,
  type ForecastDataRow,
} from "./forecast";
import { LimitLegend, PredictionText } from "./ForecastForm";
import { formatStoredAtMost } from "../../shared/decimals";
import { formatAmount } from "../../shared/format";
import { SourceFileLink } from "../../shared/SourceFileLink";
import { RESULTS_PAGE_SIZE } from "../../shared/calculationKindRegistry";
import { DEFAULT_WARNING_PERCENT, nearLimitNote as nearLimitText, type Backtest } from "@core/gbdt/backtest";
import { DEFAULT_INTERVAL_LEVEL } from "@core/gbdt/conformal";
import { horizonLabel } from "@core/gbdt/horizon";
import { BacktestTable, ForecastAdvisory, HistoryChart, WhatIfPanel } from "./ForecastCheck";
import type { HistoryRow } from "./forecastCheck";

/** True once `ready` has held and the browser has had an idle moment (at most a second later). */
function useIdleAfter(ready: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!ready || idle) return;
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: 1000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(() => setIdle(true), 200);
    return () => window.clearTimeout(timer);
  }, [ready, idle]);
  return idle;
}

const percent = (share: number) => `${formatAmount(share * 100, 1)} %`;

const numberCell = (value: number | null | undefined, decimals: number) =>
  typeof value === "number" && Number.isFinite(value) ? (
    formatAmount(value, decimals)
  ) : (
    <Typography.Text type="secondary">—</Typography.Text>
  );

/** A row's interval; near the limit (forecast at or above the warning) where the band did not hold there on this
 *  history, said not to be checked instead of drawn as if it held. */
const intervalText = (row: ForecastDataRow, doubtfulFrom: number | null) => {
  if (typeof row.lo !== "number" || typeof row.hi !== "number") return "—";
  const band = `${formatAmount(row.lo, 3)} – ${formatAmount(row.hi, 3)}`;
  if (doubtfulFrom === null || typeof row.result !== "number" || row.result < doubtfulFrom) return band;
  return (
    <Typography.Text type="secondary" title="У предела интервал на этой истории не выдержал уровня — не доверять">
      {band} (у предела не проверен)
    </Typography.Text>
  );
};

/** «2025-01-01T08:10:00» → «01.01.2025 08:10»; a step number as it is. */
function timeText(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return "";
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  return m ? `${m[3]}.${m[2]}.${m[1]} ${m[4]}:${m[5]}` : value;
}

const periodText = (period: { from: unknown; to: unknown } | null) => (period ? `, ${timeText(period.from)} – ${timeText(period.to)}` : "");

/** What is shown in the model's place, in words (D96 d, D108 e). */
const SHOWN_WORDS = {
  persistence: "Прогнозом показан последний замер",
  mean: "Прогнозом показано среднее за период обучения модели",
  time_of_day: "Прогнозом показано среднее по времени суток (калибровки модели)",
} as const;

export function ForecastResults({ calculation }: { calculation: Calculation }) {
  const [filter, setFilter] = useState<"all" | "above">("all");
  const [page, setPage] = useState(1);
  const summary = forecastSummary(calculation);
  const rowsPage = useForecastRows(calculation.id, page, RESULTS_PAGE_SIZE, filter === "above");
  const chart = useForecastChart(calculation.id);
  // The chart's library (its own chunk) loads while the server reads the rows, not after.
  useEffect(() => {
    void import("../../shared/charts/plotly");
  }, []);
  // The what-if panel downloads the model and compiles it in the browser: that waits until the
  // back-test and the chart are shown and the browser is idle, so as not to hold them up.
  const whatIfReady = useIdleAfter(chart.data !== undefined);
  const model = summary.model;
  const method = calculation.method as ForecastMethod;
  // The chart's points keep every line's lowest and highest of each bucket: a measured value, a
  // time or an interval anywhere in the rows is among them.
  const history: readonly HistoryRow[] = chart.data?.points ?? [];
  const hasY = history.some((r) => typeof r.y === "number");
  const hasTime = history.some((r) => r.t !== undefined && r.t !== null);
  const calibrated = history.some((r) => typeof r.hi === "number");
  const level = typeof calculation.level === "number" ? calculation.level : DEFAULT_INTERVAL_LEVEL;
  const limit = summary.limit;
  const backtest = calculation.backtest as Backtest | null | undefined;
  // The calibration is judged by its own intervals as stored; the ones shown may be updated on the history's facts.
  const staleCoverage = backtest?.interval?.stored?.recent_coverage ?? backtest?.model.recent_coverage ?? null;
  const calibration = calculation.calibration as { rows: number; scope: string; period: { from: unknown; to: unknown } | null } | null;
  const peak = (chart.data?.peak ?? undefined) as ForecastDataRow | undefined;
  const horizon = typeof calculation.horizon === "number" ? calculation.horizon : 0;
  // The chance of reaching the limit is shown only where judged better than the base rate (// «too early» is not shown either). A forecast stored before the judgement had no verdict: not shown.
  const probability = calculation.probability as { reliable: boolean; note: string | null } | null | undefined;
  const chanceShown = probability?.reliable === true;
  // The model lost to persistence or to the training mean on this history: the forecast shown is
  // the better of them, the model's figure beside it.
  // The band near the limit judged on this history: where it did not hold, said so.
  const warning = typeof calculation.warning === "number" ? calculation.warning : DEFAULT_WARNING_PERCENT;
  const nearLimitNote = backtest?.interval?.near_limit ? nearLimitText(backtest.interval.near_limit, level, warning, limit) : null;
  // D96 (c): where the forecast shown under-forecast the facts at the limit on this history, said at the top.
  const limitNote = backtest?.limit_error?.note ?? null;
  const otherShown =
    backtest?.shown === "persistence" || backtest?.shown === "mean" || backtest?.shown === "time_of_day" ? backtest.shown : null;
  // The history's barometric pressure, where its rows carry it (a model ahead may read it).
  const hasPressure = (rowsPage.data?.results ?? []).some((r) => typeof (r as ForecastDataRow).p_atm === "number");
  // the model's own named channels (the working's: the face meter, the shearer's run and position),
  // each a column by its name, as the rows carry them.
  const channels = [
    ...new Set((rowsPage.data?.results ?? []).flatMap((r) => Object.keys((r as { features?: Record<string, unknown> }).features ?? {}))),
  ];

  const columns: TableColumnsType<ForecastDataRow> = [
    { title: "№", dataIndex: "id", width: 64 },
    ...(hasTime ? [{ title: "Время", dataIndex: "t", render: (value: string | number | null) => timeText(value) }] : []),
    // Each feature by its label and unit, as the entry table heads it.
    ...FORECAST_COLUMNS.map((column) => ({
      title: (
        <span title={`${column.label}, ${column.unit}`} style={{ display: "inline-block", maxWidth: 150, whiteSpace: "normal" }}>
          {column.label}
          <Typography.Text type="secondary" style={{ fontSize: 11, fontWeight: 400, display: "block" }}>
            {column.unit}
          </Typography.Text>
        </span>
      ),
      dataIndex: column.name,
      align: "right" as const,
      // A row made from the readings' minute means holds a worked-out figure («1 705,0866212718838»): shown to 4 places.
      render: (value: number | null) =>
        value === null || value === undefined ? <Typography.Text type="secondary">—</Typography.Text> : formatStoredAtMost(value, 4),
    })),
    {
      // a horizon whose forecast warned no earlier than the meter on this history does not promise it.
      title:
        horizon === 0 ? "Прогноз, %" : `Прогноз на ${horizonLabel(horizon)} вперед${backtest?.lead_note ? " (не раньше датчика)" : ""}, %`,
      dataIndex: "result",
      align: "right",
      width: 110,
      render: (value: number, row) => <PredictionText value={value} testId={`stored-result-${row.id}`} limit={limit} />,
    },
    ...(otherShown
      ? [
          {
            title: "Прогноз модели, %",
            dataIndex: "model_result",
            align: "right" as const,
            width: 110,
            render: (v: number | null) => numberCell(v, 4),
          },
        ]
      : []),
    ...channels.map((name) => ({
      title: <span style={{ display: "inline-block", maxWidth: 150, whiteSpace: "normal" }}>{name}</span>,
      key: `channel:${name}`,
      align: "right" as const,
      render: (_: unknown, r: ForecastDataRow) => {
        const value = (r as unknown as { features?: Record<string, number | null> }).features?.[name];
        return numberCell(typeof value === "number" ? value : null, 4);
      },
    })),
    ...(hasY
      ? [{ title: "Факт, %", dataIndex: "y", align: "right" as const, width: 90, render: (v: number | null) => numberCell(v, 4) }]
      : []),
    ...(hasPressure
      ? [
          {
            title: "Барометрическое давление, кПа",
            dataIndex: "p_atm",
            align: "right" as const,
            width: 120,
            render: (v: number | null) => numberCell(v, 3),
          },
        ]
      : []),
    ...(calibrated
      ? [
          {
            title: `Интервал ${level} %, %`,
            key: "interval",
            align: "right" as const,
            render: (_: unknown, r: ForecastDataRow) => intervalText(r, nearLimitNote ? warning : null),
          },
          ...(chanceShown
            ? [
                {
                  title: "Вероятность достичь предела, %",
                  dataIndex: "p_exceed",
                  align: "right" as const,
                  render: (v: number | null) => numberCell(typeof v === "number" ? v * 100 : null, 1),
                },
              ]
            : []),
        ]
      : []),
  ];

  return (
    <Flex vertical gap={12} data-testid="forecast-results">
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={[
          { key: "method", label: "Метод", children: METHOD_TITLES[method] ?? String(calculation.method) },
          { key: "horizon", label: "Горизонт прогноза", children: <span data-testid="forecast-horizon">{horizonLabel(horizon)}</span> },
          { key: "rows", label: "Строк", children: <span data-testid="forecast-rows-count">{summary.rows}</span> },
          {
            key: "above",
            label: `Выше ${limitText(limit)} %`,
            children: (
              <Typography.Text strong={summary.above > 0} type={summary.above > 0 ? "danger" : undefined} data-testid="forecast-above">
                {summary.above} из {summary.rows} ({percent(summary.share)})
              </Typography.Text>
            ),
          },
          {
            key: "max",
            label: "Максимум",
            children: summary.max === null ? "—" : <PredictionText value={summary.max} testId="forecast-max" unit="%" limit={limit} />,
          },
          { key: "mean", label: "Среднее", children: summary.mean === null ? "—" : `${formatAmount(summary.mean, 4)} %` },
          {
            key: "model",
            label: "Модель",
            children: model ? (
              <span data-testid="forecast-model">
                {libraryTitle(model.library)} {libraryVersion(model.library_version)}, версия {model.version}
                {model.description ? (
                  <Typography.Text type="secondary" style={{ display: "block", fontSize: 12 }}>
                    {model.description}
                  </Typography.Text>
                ) : null}
              </span>
            ) : (
              "—"
            ),
          },
          {
            key: "calibration",
            label: "Калибровка",
            children: (
              <span data-testid="forecast-calibration">
                {calibration
                  ? `${calibration.rows} строк с фактом${periodText(calibration.period)}${calibration.scope === "all" ? " (для всех компаний)" : ""}`
                  : "модель не откалибрована: интервал и вероятность превышения не рассчитаны"}
              </span>
            ),
          },
          ...(calibration && typeof calculation.interval_method_label === "string"
            ? [
                {
                  key: "interval",
                  label: "Интервал",
                  children: <span data-testid="forecast-interval-method">{calculation.interval_method_label}</span>,
                },
              ]
            : []),
        ]}
      />
      <ForecastAdvisory />
      {calculation.calibration_stale === true && staleCoverage ? (
        <Alert
          type="warning"
          showIcon
          data-testid="calibration-stale"
          message={`Калибровка устарела: на последних ${staleCoverage.rows} строках с фактом её интервал ${level} % накрыл факт в ${formatAmount(staleCoverage.coverage * 100, 1)} % случаев`}
          description={
            <span>
              {backtest?.interval?.stored
                ? "Интервалы этой истории подстроены по её фактам, но прогноз без фактов получит интервал калибровки, который сейчас занижает риск. "
                : "Интервалы и вероятность превышения этой модели сейчас занижают риск. "}
              <Link to="/forecast-models">Переобучить / Откалибровать заново</Link>
            </span>
          }
        />
      ) : null}
      {backtest?.lead_note ? <Alert type="warning" showIcon data-testid="lead-note" message={`${backtest.lead_note}.`} /> : null}
      {nearLimitNote ? <Alert type="warning" showIcon data-testid="near-limit-unreliable" message={nearLimitNote} /> : null}
      {limitNote ? <Alert type="warning" showIcon data-testid="limit-under-forecast" message={`${limitNote}.`} /> : null}
      {!chanceShown && probability?.note ? (
        <Alert type="info" showIcon data-testid="probability-unreliable" message={probability.note} />
      ) : null}
      {otherShown ? (
        <Alert
          type="info"
          showIcon
          data-testid="persistence-shown"
          message={
            // D96 (d): the model not shown because its advantage did not hold in the day-block bootstrap — it adds nothing here.
            backtest?.gain_note && (backtest.model.rmse ?? Infinity) <= (backtest[otherShown]?.rmse ?? Infinity)
              ? `${backtest.gain_note}. ${SHOWN_WORDS[otherShown]}; прогноз модели — в столбце «Прогноз модели» рядом.`
              : otherShown === "persistence"
                ? `Прогнозом показан последний замер: на этой истории он точнее модели на горизонте ${horizonLabel(horizon)}. Прогноз модели — в столбце «Прогноз модели» рядом.`
                : `${SHOWN_WORDS[otherShown]}: на этой истории оно точнее модели и других ориентиров на горизонте ${horizonLabel(horizon)}. Прогноз модели — в столбце «Прогноз модели» рядом.`
          }
        />
      ) : null}
      <SourceFileLink calculation={calculation} />
      {backtest ? <BacktestTable backtest={backtest} level={level} /> : null}
      {chart.isPending ? (
        <Flex justify="center" style={{ padding: 16 }}>
          <Spin />
        </Flex>
      ) : history.length > 0 ? (
        <HistoryChart rows={history} limit={limit} level={level} horizon={horizon} />
      ) : null}
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Segmented<"all" | "above">
          size="small"
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
          options={[
            { label: "Все строки", value: "all" },
            { label: `Только выше ${limitText(limit)} %`, value: "above" },
          ]}
        />
        <LimitLegend limit={limit} />
      </Flex>
      <div data-testid="forecast-rows">
        <Table<ForecastDataRow>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={(rowsPage.data?.results ?? []) as ForecastDataRow[]}
          loading={rowsPage.isFetching}
          scroll={{ x: "max-content" }}
          pagination={{
            current: page,
            total: rowsPage.data?.count ?? 0,
            onChange: setPage,
            pageSize: RESULTS_PAGE_SIZE,
            showSizeChanger: false,
            hideOnSinglePage: false,
            showTotal: (total) => `Строк: ${total}`,
          }}
        />
      </div>
      {/* What-if varies one row's readings: a model ahead also reads the last hour's measured y. */}
      {model && peak && whatIfReady && horizon === 0 ? (
        <WhatIfPanel method={model.method} modelId={model.id} start={peak} limit={limit} level={level} />
      ) : null}
    </Flex>
  );
}
