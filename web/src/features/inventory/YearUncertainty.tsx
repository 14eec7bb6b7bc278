// The inventory screen's «Неопределенность» (D27; docs/methodology.md, Uncertainty): the year's
// uncertainty by IPCC line and gas on the netted lines (GET inventory/uncertainty/): each line's
// emission, the destroyed gas taken off it, the activity-data and factor uncertainties and the
// line's own, the total's Approach 1 interval and the Monte Carlo one, and the key categories by
// level and, with a base year picked, by trend. D91: the sources of error several calculations of a
// line share (one factor, one point's instruments) are named, as Approach 1 adds them linearly.
import { useState } from "react";
import { Alert, Card, Flex, Select, Tag, Typography, type TableColumnsType } from "antd";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { formatResult } from "../../shared/decimals";
import { useYearUncertainty, type YearTotals, type YearUncertainty as Answer } from "../../api/inventory";
import { T_CO2E, tonnes } from "./InventoryCalculations";

type Line = Answer["lines"][number];
type Ranked = Answer["key_level"][number];
interface Row extends Line {
  level?: Ranked;
  level2?: Ranked;
  trend?: Ranked;
}

/** 12,3 % (one decimal: an uncertainty is not known better). */
const percent = (value: number) => `${formatResult(value, 1)} %`;
/** A key-category column's cell: the share, the verdict under it (one column per approach, so the
 *  table with the trend's fits a 1440 px screen beside the menu). */
const ranking = (ranked: Ranked | undefined) =>
  ranked === undefined ? (
    "—"
  ) : (
    <Flex vertical gap={2} align="flex-end">
      <span>{percent(ranked.share * 100)}</span>
      {ranked.key ? <Tag color="red">ключевая</Tag> : <Tag>не ключевая</Tag>}
    </Flex>
  );

/** The columns' widths, summed into the table's scroll width: at 1440 px the card is about 1 130 px.
 *  The headers' long words may break at a soft hyphen («Неопре-деленность»), or their columns would
 *  take the words' width and push the last ones out of the card. */
const KEY_WIDTH = 110;

function columns(withTrend: boolean): TableColumnsType<Row> {
  return [
    { title: "Код МГЭИК", key: "ipcc", width: 180, render: (_: unknown, r) => `${r.ipcc_code} ${r.ipcc_label}` },
    { title: "Газ", dataIndex: "gas", width: 54 },
    { title: `Выбросы, ${T_CO2E}`, dataIndex: "t_co2e", width: 110, align: "right", render: (v: number) => tonnes(v) },
    {
      title: `Уничтожено (факел, котельная), ${T_CO2E}`,
      dataIndex: "destroyed_t_co2e",
      width: 130,
      align: "right",
      render: (v: number, r) => (v > 0 ? `${tonnes(v)} (±${percent(r.destroyed_u)})` : "—"),
    },
    { title: "Данные о деятель\u00adности, ± %", dataIndex: "ad_u", width: 100, align: "right", render: (v: number) => percent(v) },
    { title: "Коэф\u00adфициенты, ± %", dataIndex: "ef_u", width: 100, align: "right", render: (v: number) => percent(v) },
    { title: "Неопре\u00adделенность строки, ± %", dataIndex: "u_pct", width: 110, align: "right", render: (v: number) => percent(v) },
    {
      title: "Ключевая по уровню (подход 1, 95 %)",
      key: "level",
      width: KEY_WIDTH,
      align: "right",
      render: (_: unknown, r) => ranking(r.level),
    },
    {
      title: "По уровню × неопре\u00adделенности (подход 2, 90 %)",
      key: "level2",
      width: KEY_WIDTH,
      align: "right",
      render: (_: unknown, r) => ranking(r.level2),
    },
    ...(withTrend
      ? ([
          {
            title: "Ключевая по тренду (подход 1, 95 %)",
            key: "trend",
            width: KEY_WIDTH,
            align: "right",
            render: (_: unknown, r) => ranking(r.trend),
          },
        ] satisfies TableColumnsType<Row>)
      : []),
  ];
}

const scrollWidth = (withTrend: boolean) =>
  columns(withTrend).reduce((sum, column) => sum + (typeof column.width === "number" ? column.width : 0), 0);

function rowsOf(data: Answer): Row[] {
  const of = (list: readonly Ranked[] | undefined) => new Map((list ?? []).map((c) => [c.id, c]));
  const level = of(data.key_level);
  const level2 = of(data.key_level_approach2);
  const trend = of(data.trend?.key_trend);
  return data.lines
    .map((line) => ({ ...line, level: level.get(line.id), level2: level2.get(line.id), trend: trend.get(line.id) }))
    .sort((a, b) => b.t_co2e - a.t_co2e);
}

const NO_TREND = 0;

export function YearUncertainty({ year, facility, years }: { year: number; facility: string | undefined; years: readonly YearTotals[] }) {
  const [base, setBase] = useState<number>(NO_TREND);
  const bases = years.map((y) => y.year).filter((y) => y < year);
  const chosen = bases.includes(base) ? base : undefined;
  const query = useYearUncertainty(year, facility, chosen);
  const data = query.data;
  return (
    <Card title="Неопределенность" size="small" data-testid="year-uncertainty">
      {query.isError && <Alert type="error" showIcon title={`Не удалось рассчитать неопределенность: ${query.error.message}`} />}
      {query.isPending && <Typography.Text type="secondary">Расчет неопределенности…</Typography.Text>}
      {data && data.lines.length === 0 && (
        <Typography.Text type="secondary">За {year} год нет выбросов, неопределенность не рассчитывается</Typography.Text>
      )}
      {data && data.lines.length > 0 && (
        <Flex vertical gap={12}>
          <Flex vertical gap={4}>
            <Typography.Text strong data-testid="year-uncertainty-total">
              Итого: {tonnes(data.total.t_co2e)} {T_CO2E} ± {percent(data.total.u_pct)} (от {tonnes(data.total.lower)} до{" "}
              {tonnes(data.total.upper)}), подход 1
            </Typography.Text>
            {data.monte_carlo && (
              <Typography.Text data-testid="year-uncertainty-monte-carlo">
                Метод Монте-Карло ({formatResult(data.monte_carlo.trials, 0)} испытаний): 95 % интервал от {tonnes(data.monte_carlo.p2_5)}{" "}
                до {tonnes(data.monte_carlo.p97_5)} (±{percent(data.monte_carlo.half_width_pct)})
              </Typography.Text>
            )}
            <Typography.Text type="secondary">
              Строки учтены за вычетом уничтоженного газа; неопределенность строки — по уравнению 3.2 МГЭИК с вычитаемым слагаемым. ПГП CH4
              = {formatResult(data.gwp.gwp_ch4, 0)} для всех расчетов года.
            </Typography.Text>
          </Flex>
          <Flex gap={12} wrap align="center">
            <span>Базовый год для тренда</span>
            <Select
              aria-label="Базовый год для тренда"
              style={{ width: 160 }}
              value={chosen ?? NO_TREND}
              onChange={setBase}
              options={[{ value: NO_TREND, label: "без тренда" }, ...bases.map((y) => ({ value: y, label: String(y) }))]}
            />
            {data.trend && (
              <Typography.Text data-testid="year-uncertainty-trend">
                Тренд к {data.trend.base_year} году: {data.trend.trend_pct >= 0 ? "+" : "−"}
                {percent(Math.abs(data.trend.trend_pct))} ± {formatResult(data.trend.trend_uncertainty_pp, 1)} п. п.
              </Typography.Text>
            )}
            {chosen !== undefined && data.base_year === chosen && !data.trend && (
              <Typography.Text type="secondary">В {chosen} году нет учтенных выбросов</Typography.Text>
            )}
          </Flex>
          <ResponsiveTable<Row>
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: scrollWidth(data.trend !== null) }}
            columns={columns(data.trend !== null)}
            dataSource={rowsOf(data)}
          />
          <SharedSources lines={data.lines} />
          {data.lines.some((l) => l.without_uncertainty > 0) && (
            <Typography.Text type="warning">
              Без неопределенности исходных данных:{" "}
              {data.lines
                .filter((l) => l.without_uncertainty > 0)
                .map((l) => `${l.ipcc_code} ${l.gas} (${formatResult(l.without_uncertainty, 0)})`)
                .join(", ")}
            </Typography.Text>
          )}
          <Typography.Text type="secondary">Уничтоженный газ: {data.destroyed_source}</Typography.Text>
        </Flex>
      )}
    </Card>
  );
}

/** D91, D107: the groups of a shared source of error, by line: within a group the calculations'
 *  uncertainties add linearly, the groups and independent activity data by Eq. 3.2. */
function SharedSources({ lines }: { lines: readonly Line[] }) {
  const withShared = lines.filter((l) => l.shared_sources.length > 0);
  if (withShared.length === 0) return null;
  return (
    <Flex vertical gap={4} data-testid="year-uncertainty-shared">
      <Typography.Text strong>Общие источники погрешности</Typography.Text>
      <Typography.Text type="secondary">
        Расчеты с одним коэффициентом (запись справочника одной версии или значение, введенное с одним обоснованием) или с приборами одной
        точки ошибаются вместе: их неопределенности складываются, а не по уравнению 3.2, как независимые (МГЭИК 2006, т. 1, гл. 3, п.
        3.2.3.1).
      </Typography.Text>
      <ul style={{ margin: 0, paddingInlineStart: 20 }}>
        {withShared.flatMap((l) =>
          l.shared_sources.map((g) => (
            <li key={`${l.id}|${g.kind}|${g.label}`}>
              {l.ipcc_code} {l.gas}: {g.label.charAt(0).toUpperCase() + g.label.slice(1)} — расчетов: {formatResult(g.count, 0)};{" "}
              {tonnes(g.t_co2e)} {T_CO2E} до вычета уничтоженного газа; ±{percent(g.u_pct)}
            </li>
          )),
        )}
      </ul>
    </Flex>
  );
}
