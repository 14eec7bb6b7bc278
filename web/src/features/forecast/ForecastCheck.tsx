// The parts of a forecast's results that say how far to trust it (docs/user-guide.md): the advisory
// note, the back-test table (model vs the last measured value), the chart of measured vs forecast
// with the band, and the what-if / air-needed panel, which runs the core in the browser (the same
// code as POST forecast/what_if/ and air_needed/) and answers as the user types.
import { useMemo, useState, type ReactNode } from "react";
import { Alert, Card, Flex, Form, Input, Select, Typography } from "antd";
import { ListTable } from "../../shared/LazyTable";
import type { Backtest } from "@core/gbdt/backtest";
import { horizonLabel } from "@core/gbdt/horizon";
import { calibrationChanceNote } from "@core/gbdt/probability";
import { DEFAULT_INTERVAL_LEVEL, INTERVAL_LEVELS, isIntervalLevel, type Calibration, type IntervalLevel } from "@core/gbdt/conformal";
import type { ForecastMethod } from "@core/registry";
import { Chart } from "../../shared/charts/Chart";
import { useForecastCalibration, useForecastModelCore } from "../../api/calculations";
import { FORECAST_COLUMNS, FORECAST_FEATURES } from "./forecast";
import { backtestLines, eventLines, featureTitle, historyFigure, HISTORY_CHART_HEIGHT, type HistoryRow } from "./forecastCheck";
import { formatAmount } from "../../shared/format";
import { parseNumericInput } from "../../shared/decimals";

export const ADVISORY_NOTE =
  "Прогноз носит рекомендательный характер и не заменяет сертифицированную аппаратуру газовой защиты (АГК): отключение электроэнергии при достижении уставок выполняет только она.";

export function ForecastAdvisory() {
  return <Alert type="info" showIcon message={ADVISORY_NOTE} data-testid="forecast-advisory" />;
}

const shown = (value: number | null, decimals: number) => (value === null ? "—" : formatAmount(value, decimals));

/** A line of figures: its label, its figures by column, the decimals they are shown with. */
interface FigureLine {
  key: string;
  label: string;
  decimals: number;
}

/** A titled table of figures, a line a row under «Показатель» and a column a figure each line has,
 *  its cells tested as «{name}-{figure}-{line}»; what is said under the table follows it. */
function FigureTable<L extends FigureLine>({
  name,
  title,
  titleId,
  lines,
  figures,
  children,
}: {
  name: string;
  title: string;
  titleId: string;
  lines: L[];
  figures: { title: string; figure: keyof L & string }[];
  children?: ReactNode;
}) {
  return (
    <Flex vertical gap={4}>
      <Typography.Text strong data-testid={titleId}>
        {title}
      </Typography.Text>
      <ListTable<L>
        rowKey="key"
        dataSource={lines}
        data-testid={`${name}-table`}
        columns={[
          { title: "Показатель", dataIndex: "label" },
          ...figures.map(({ title, figure }) => ({
            title,
            key: figure,
            align: "right" as const,
            render: (_: unknown, line: L) => (
              <span data-testid={`${name}-${figure}-${line.key}`}>{shown(line[figure] as number | null, line.decimals)}</span>
            ),
          })),
        ]}
      />
      {children}
    </Flex>
  );
}

export function BacktestTable({ backtest, level }: { backtest: Backtest; level: number }) {
  const horizon = backtest.horizon ?? 0;
  // The forecast shown is the best of the three on this history; the model is then shown beside it.
  const shown = backtest.shown ?? "model";
  const mark = (which: typeof shown) => (shown === which ? " — показан прогнозом" : "");
  return (
    <FigureTable
      name="backtest"
      title={`Проверка на истории, горизонт ${horizonLabel(horizon)}`}
      titleId="backtest-horizon"
      lines={backtestLines(backtest, level)}
      figures={[
        { title: shown !== "model" ? "Модель (показана рядом)" : "Модель", figure: "model" },
        {
          title: `${horizon === 0 ? "Последнее измеренное значение" : `Факт в момент прогноза (на ${horizonLabel(horizon)} раньше)`}${mark("persistence")}`,
          figure: "persistence",
        },
        ...(backtest.mean
          ? [
              {
                title: `${backtest.mean_source === "training" ? "Среднее периода обучения" : "Среднее по истории"}${mark("mean")}`,
                figure: "mean" as const,
              },
            ]
          : []),
        // D108 (e): the version's time-of-day mean, the third baseline, where the back-test scored it.
        ...(backtest.time_of_day ? [{ title: `Среднее по времени суток${mark("time_of_day")}`, figure: "time_of_day" as const }] : []),
      ]}
    >
      {backtest.verdict ? <Typography.Text data-testid="backtest-verdict">{backtest.verdict}</Typography.Text> : null}
      {/* D96 (b): the rows the model was trained and calibrated on are counted apart, not judged. */}
      {backtest.seen_note ? (
        <Typography.Text type="secondary" data-testid="backtest-seen">
          {backtest.seen_note}.
        </Typography.Text>
      ) : null}
      {backtest.events ? <EventsTable events={backtest.events} /> : null}
      {/* Which interval and what it held on this history (absent from a back-test stored before it was said). */}
      {backtest.interval?.sentence ? <Typography.Text data-testid="backtest-interval">{backtest.interval.sentence}</Typography.Text> : null}
      {backtest.probability ? <ProbabilityTable check={backtest.probability} /> : null}
    </FigureTable>
  );
}

const limitNumber = (v: number) => String(v).replace(".", ",");

/** The chance of reaching the limit against the base rate: the sentence and the reliability table
 *  (the bins with rows: the chance shown beside the share that reached the limit). */
function ProbabilityTable({ check }: { check: NonNullable<Backtest["probability"]> }) {
  const share = (v: number | null) => (v === null ? "—" : formatAmount(v * 100, 1));
  return (
    <Flex vertical gap={4} data-testid="backtest-probability">
      <Typography.Text>{check.sentence}</Typography.Text>
      <ListTable
        rowKey="from"
        dataSource={check.table.filter((bin) => bin.rows > 0)}
        columns={[
          {
            title: "Вероятность по прогнозу, %",
            key: "bin",
            render: (_: unknown, bin) => `${formatAmount(bin.from * 100, 0)}–${formatAmount(bin.to * 100, 0)}`,
          },
          { title: "Строк", dataIndex: "rows", align: "right" },
          { title: "Средняя вероятность, %", dataIndex: "mean_p", align: "right", render: share },
          { title: `Достигли ${limitNumber(check.limit)} %, доля строк, %`, dataIndex: "observed", align: "right", render: share },
        ]}
      />
    </Flex>
  );
}

/** The events the history had (onsets at or above the limit) and what each alert rule made of them. */
function EventsTable({ events }: { events: NonNullable<Backtest["events"]> }) {
  return (
    <FigureTable
      name="events"
      title={`События: ${events.events} выходов концентрации на ${limitNumber(events.level)} % и выше за ${formatAmount(events.days, 1)} сут (тревога засчитана, если подана не раньше чем за ${events.window} мин)`}
      titleId="events-title"
      lines={eventLines(events)}
      figures={[
        { title: `Прогноз ≥ ${limitNumber(events.warning)} %`, figure: "model" },
        { title: `Текущий замер ≥ ${limitNumber(events.warning)} %`, figure: "current" },
      ]}
    />
  );
}

type AirModel = { reachable: boolean; value: number | null; at: { hi: number | null }; range: [number, number] };

/** The air needed as the panel says it: the recommendation (never below the formula with its margin)
 *  first, the model's figure beside it, never as a lower bound when it is below the formula. */
export function airNeededText(
  air: AirModel,
  advice: { value: number | null; source: "formula" | "model" | null; model_below_formula: boolean } | undefined,
  { unit, level, limitText }: { unit: string; level: number; limitText: string },
): string {
  const amount = (v: number) => `${formatAmount(v, 0)} ${unit}`;
  const model = air.reachable
    ? `верхняя граница ${level}-процентного интервала ${formatAmount(air.at.hi ?? Number.NaN, 3)} % ниже предела ${limitText} %`
    : `недостижимо в диапазоне ${formatAmount(air.range[0], 0)}–${amount(air.range[1])} — даже при ${amount(air.range[1])} верхняя граница ${formatAmount(air.at.hi ?? Number.NaN, 3)} %`;
  if (!advice || advice.value === null) {
    return air.reachable && air.value !== null
      ? `Нужный расход воздуха: не меньше ${amount(air.value)} — ${model}`
      : `Нужный расход воздуха: ${model}`;
  }
  const head = `Нужный расход воздуха: не меньше ${amount(advice.value)}`;
  if (advice.source === "model") return `${head} — по модели: ${model}; по формуле с запасом меньше`;
  const beside = !air.reachable
    ? `; по модели ${model}`
    : advice.model_below_formula && air.value !== null
      ? `; по модели ${model} уже при ${amount(air.value)}, но это меньше формулы и не нижняя граница`
      : "";
  return `${head} — по формуле Q = 100·(q + запас) / C_пред с запасом по ${level}-процентному интервалу${beside}`;
}

export function HistoryChart({
  rows,
  limit,
  level,
  horizon = 0,
}: {
  rows: readonly HistoryRow[];
  limit: number;
  level: number;
  horizon?: number;
}) {
  const figure = useMemo(() => historyFigure(rows, limit, level, horizon), [rows, limit, level, horizon]);
  return <Chart figure={figure} height={HISTORY_CHART_HEIGHT} testId="forecast-history-chart" />;
}

const typed = (value: number | null | undefined) => (typeof value === "number" && Number.isFinite(value) ? formatAmount(value, 4) : "");

/**
 * What-if along one feature and the air needed, for one row (the row with the highest forecast to
 * begin with), answered in the browser as the user types.
 */
export function WhatIfPanel({
  method,
  modelId,
  start,
  limit: storedLimit,
  level: storedLevel,
}: {
  method: ForecastMethod;
  modelId: string;
  start: Record<string, number | null>;
  limit: number;
  level: number;
}) {
  const core = useForecastModelCore(method, modelId);
  const calibration = useForecastCalibration(modelId);
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(FORECAST_FEATURES.map((f) => [f, typed(start[f])])));
  const [feature, setFeature] = useState<string>("x1");
  const range = calibration.data?.ranges?.[feature];
  const [fromText, setFromText] = useState<string>("");
  const [toText, setToText] = useState<string>("");
  const [limitText, setLimitText] = useState(formatAmount(storedLimit, 2));
  const [level, setLevel] = useState<IntervalLevel>(isIntervalLevel(storedLevel) ? storedLevel : DEFAULT_INTERVAL_LEVEL);

  const row = useMemo(() => Object.fromEntries(FORECAST_FEATURES.map((f) => [f, parseNumericInput(texts[f] ?? "") ?? null])), [texts]);
  const limit = parseNumericInput(limitText);
  const column = FORECAST_COLUMNS.find((c) => c.name === feature);
  const from = parseNumericInput(fromText) ?? range?.[0] ?? (column?.name === "x1" ? 800 : 0);
  const to = parseNumericInput(toText) ?? range?.[1] ?? Math.max(from + 1, (start[feature] ?? 1) * 1.5);

  // The calibration's check of its chance at this limit: shown only where judged better than the base rate.
  const chanceNote = calibration.data && limit !== undefined ? calibrationChanceNote(calibration.data.probability, limit) : null;

  const answer = useMemo(() => {
    if (!core.data || limit === undefined || !(limit > 0)) return undefined;
    const { gbdt, model } = core.data;
    const cal = (calibration.data ?? null) as Calibration | null;
    try {
      const points = gbdt.whatIf(model, row, { feature, from, to, steps: 10 }, cal, level, limit);
      const air = cal?.ranges?.x1 ? gbdt.airNeeded(model, row, cal, level, limit) : undefined;
      // The ventilation formula with the interval's margin, from the row's forecast: the recommendation
      // is never below it, the model's figure only raises it.
      const x1 = row.x1;
      let formula: ReturnType<typeof gbdt.airFormula> | undefined;
      if (cal && typeof x1 === "number" && x1 > 0) {
        const [here] = gbdt.whatIf(model, row, { feature: "x1", from: x1, to: x1, steps: 1 }, cal, level, limit);
        formula = gbdt.airFormula({
          concentration: here.result,
          airFlow: x1,
          intake: 0,
          limit,
          halfWidth: gbdt.halfWidth(cal, level) ?? 0,
        });
      }
      const advice = formula ? gbdt.airRecommendation(formula, air) : undefined;
      return { points, air, formula, advice };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [core.data, calibration.data, row, feature, from, to, level, limit]);

  const air = answer && "air" in answer ? answer.air : undefined;
  const advice = answer && "advice" in answer ? answer.advice : undefined;
  const airUnit = FORECAST_COLUMNS.find((c) => c.name === "x1")?.unit ?? "";
  return (
    <Card size="small" title="Что, если: прогноз при других показаниях и нужный расход воздуха" data-testid="what-if">
      <Flex vertical gap={8}>
        {calibration.data === null ? (
          <Alert
            type="warning"
            showIcon
            message="Модель не откалибрована: интервал, вероятность превышения и нужный расход воздуха не рассчитываются"
          />
        ) : null}
        <Form layout="vertical" size="small">
          <Flex wrap gap={8}>
            {FORECAST_COLUMNS.map((c) => (
              <Flex key={c.name} vertical justify="space-between" gap={2} style={{ width: 230 }}>
                <Typography.Text style={{ fontSize: 12 }}>{`${c.label}, ${c.unit}`}</Typography.Text>
                <Input
                  size="small"
                  aria-label={`${c.label}, ${c.unit}`}
                  value={texts[c.name]}
                  onChange={(e) => setTexts({ ...texts, [c.name]: e.target.value })}
                />
              </Flex>
            ))}
          </Flex>
          <Flex wrap gap={8} align="end">
            <Form.Item label="Изменять показатель" style={{ width: 300, marginBottom: 4 }}>
              <Select
                aria-label="Изменять показатель"
                value={feature}
                onChange={(value) => {
                  setFeature(value);
                  setFromText("");
                  setToText("");
                }}
                options={FORECAST_COLUMNS.map((c) => ({ value: c.name, label: featureTitle(c.name) }))}
              />
            </Form.Item>
            <Form.Item label="от" style={{ width: 110, marginBottom: 4 }}>
              <Input aria-label="от" placeholder={formatAmount(from, 0)} value={fromText} onChange={(e) => setFromText(e.target.value)} />
            </Form.Item>
            <Form.Item label="до" style={{ width: 110, marginBottom: 4 }}>
              <Input aria-label="до" placeholder={formatAmount(to, 0)} value={toText} onChange={(e) => setToText(e.target.value)} />
            </Form.Item>
            <Form.Item label="Предел, %" style={{ width: 100, marginBottom: 4 }}>
              <Input aria-label="Предел, %" value={limitText} onChange={(e) => setLimitText(e.target.value)} />
            </Form.Item>
            <Form.Item label="Уровень интервала" style={{ width: 140, marginBottom: 4 }}>
              <Select
                aria-label="Уровень интервала"
                value={level}
                onChange={setLevel}
                options={INTERVAL_LEVELS.map((l) => ({ value: l, label: `${l} %` }))}
              />
            </Form.Item>
          </Flex>
        </Form>
        {air ? (
          <Alert
            type={advice?.value != null || air.reachable ? "success" : "error"}
            data-testid="air-needed"
            message={airNeededText(air, advice, { unit: airUnit, level, limitText })}
          />
        ) : null}
        {answer && "error" in answer ? <Alert type="error" message={answer.error} /> : null}
        {chanceNote ? <Alert type="info" showIcon data-testid="what-if-chance-note" message={chanceNote} /> : null}
        {answer && "points" in answer ? (
          <ListTable
            rowKey="value"
            data-testid="what-if-points"
            dataSource={answer.points}
            columns={[
              {
                title: featureTitle(feature),
                dataIndex: "value",
                align: "right",
                render: (v: number) => formatAmount(v, column?.name === "x1" ? 0 : 2),
              },
              { title: "Прогноз CH4, %", dataIndex: "result", align: "right", render: (v: number) => formatAmount(v, 3) },
              { title: "Нижняя граница, %", dataIndex: "lo", align: "right", render: (v: number | null) => shown(v, 3) },
              { title: "Верхняя граница, %", dataIndex: "hi", align: "right", render: (v: number | null) => shown(v, 3) },
              ...(chanceNote
                ? []
                : [
                    {
                      title: "Вероятность достичь предела, %",
                      dataIndex: "p_exceed",
                      align: "right" as const,
                      render: (v: number | null) => shown(v === null ? null : v * 100, 1),
                    },
                  ]),
            ]}
          />
        ) : (
          <Typography.Text type="secondary">Загрузка модели …</Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
