// The year's inventory once it has loaded (InventoryPage loads this module right after it paints):
// the total with the 296-FZ threshold verdict, the review, the table by Order 371 category, IPCC
// code and gas with the calculations behind each row (InventoryCalculations, read when the row
// opens), the checks with links to the calculations to fix and the left-out ones on request, the
// year's uncertainty and key categories by line and gas, the facilities, and totals by category and year.
import { lazy, Suspense, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { Alert, Button, Card, Col, Descriptions, Flex, Row, Statistic, Typography, type TableColumnsType } from "antd";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { LazyLoading } from "../../shared/LazyLoading";
import { isIncomplete, thresholdVerdict } from "@core/inventory";
import { formatResult, formatStored } from "../../shared/decimals";
import { Chart } from "../../shared/charts/Chart";
import type { Inventory, YearTotals } from "../../api/inventory";
// The review's timeline, date picker and dialog load after the figures.
const ReviewPanel = lazy(() => import("./ReviewPanel").then((m) => ({ default: m.ReviewPanel })));
import { changeFromYearBefore, totalsByCategoryFigure } from "./inventory";
import { calculationLink, InventoryCalculations, T_CO2E, tonnes } from "./InventoryCalculations";
import { MethaneBalance } from "./MethaneBalance";
import { CoalProcessed } from "./CoalProcessed";
import { YearUncertainty } from "./YearUncertainty";

type CategoryRow = Inventory["categories"][number];
type Check = Inventory["checks"][number];

const CHECK_TYPES = { error: "error", warning: "warning", info: "info" } as const;

/** A line's key, as inventory/calculations takes it: `category|ipcc_code|gas`. */
const lineKey = (row: CategoryRow) => `${row.category}|${row.ipcc_code}|${row.gas}`;

const categoryColumns: TableColumnsType<CategoryRow> = [
  { title: "Категория (Приказ 371)", key: "category", render: (_: unknown, r) => `${r.category}. ${r.category_label}` },
  { title: "Код МГЭИК", key: "ipcc", render: (_: unknown, r) => `${r.ipcc_code} ${r.ipcc_label}` },
  { title: "Газ", dataIndex: "gas", width: 70 },
  { title: "Выбросы, т", dataIndex: "t", width: 150, align: "right", render: (v: number) => tonnes(v) },
  { title: `Выбросы, ${T_CO2E}`, dataIndex: "t_co2e", width: 170, align: "right", render: (v: number) => tonnes(v) },
  { title: "Расчетов", dataIndex: "count", width: 100, align: "right" },
];

/** A check's links to the calculations it names; the rest of a long one (9.1: its `list`) and, D18,
 *  the left-out ones on request, a page at a time. */
function CheckCalculations({ check, data }: { check: Check; data: Inventory }) {
  const [shown, setShown] = useState(false);
  const named = check.calculations
    .map((id) => data.check_calculations.find((c) => c.id === id))
    .filter((c): c is Inventory["check_calculations"][number] => c !== undefined);
  const leftOut = check.code === "alternatives_excluded";
  const more = check.list !== undefined && (check.count ?? 0) > named.length;
  if (named.length === 0 && !leftOut && !more) return null;
  const of = { year: data.year, facility: data.facility ?? undefined };
  return (
    <Flex vertical gap={8}>
      {named.length > 0 && (
        <Flex gap={12} wrap>
          {named.map((c) => (
            <Link key={c.id} to={calculationLink(c)}>
              Открыть «{c.name}»
            </Link>
          ))}
        </Flex>
      )}
      {(leftOut || more) && (
        <>
          <Button size="small" style={{ alignSelf: "flex-start" }} aria-expanded={shown} onClick={() => setShown(!shown)}>
            {shown ? "Скрыть расчеты" : more ? `Показать все расчеты (${formatResult(check.count ?? 0, 0)})` : "Показать расчеты"}
          </Button>
          {shown && (
            <InventoryCalculations
              // A check's list is every calculation behind it, counted or not (D43: a duplicate's are not).
              of={leftOut ? { ...of, counted: false } : { ...of, check: check.list }}
              emptyText={leftOut ? "Все расчеты года входят в итог" : "Расчетов нет"}
              testId={leftOut ? "left-out-calculations" : "check-calculations"}
            />
          )}
        </>
      )}
    </Flex>
  );
}

/** D32: an approved year shows its approved version's figures; the live recomputation (a
 *  dictionary corrected since) only as what it would be if reopened. */
export function ApprovedNote({ approved, shown }: { approved: NonNullable<Inventory["approved"]>; shown: number }) {
  const live = approved.live_if_reopened.total_t_co2e;
  return (
    <Flex vertical data-testid="approved-figures">
      <Typography.Text type="secondary">Утвержденная версия {approved.version}</Typography.Text>
      {tonnes(live) !== tonnes(shown) && (
        <Typography.Text type="warning">
          Если переоткрыть: {tonnes(live)} {T_CO2E}
        </Typography.Text>
      )}
    </Flex>
  );
}

export function InventoryReport({ data, years, year }: { data: Inventory; years: readonly YearTotals[]; year: number }) {
  const change = changeFromYearBefore(years, year, data.total_t_co2e);
  const chart = useMemo(() => totalsByCategoryFigure(years), [years]);

  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card>
            <Statistic title={`Всего за ${data.year} год, ${T_CO2E}`} value={tonnes(data.total_t_co2e)} />
            {data.approved && <ApprovedNote approved={data.approved} shown={data.total_t_co2e} />}
            {change && (
              <Typography.Text type="secondary" data-testid="year-change">
                {change.previousYear}: {tonnes(change.previous)}
                {change.percent !== undefined && ` (${change.percent >= 0 ? "+" : "−"}${formatResult(Math.abs(change.percent), 1)} %)`}
              </Typography.Text>
            )}
          </Card>
        </Col>
        <Col xs={24} md={16}>
          <Alert
            // A year not yet whole gets no green verdict: it may still reach the threshold.
            type={data.threshold.regulated ? "warning" : isIncomplete(data.checks) ? "info" : "success"}
            showIcon
            data-testid="threshold"
            // D21: the company's verdict, on a facility's inventory too.
            title={thresholdVerdict(data.threshold, data.year, (value) => formatResult(value, 0), data.checks)}
            description={`ПГП CH4 = ${formatStored(data.gwp.gwp_ch4)}: набор «${data.gwp.name}», действующий для ${data.year} года`}
          />
        </Col>
      </Row>
      <Suspense fallback={<LazyLoading />}>
        <ReviewPanel
          review={data.review}
          readingsChanges={data.checks.filter((check) => check.code === "telemetry_changed").map((check) => check.message)}
        />
      </Suspense>
      <Card title="Выбросы по категориям и газам" size="small" data-testid="inventory-lines">
        <ResponsiveTable<CategoryRow>
          rowKey={lineKey}
          size="small"
          pagination={false}
          scroll={{ x: 800 }}
          columns={categoryColumns}
          dataSource={data.categories}
          locale={{ emptyText: `За ${data.year} год нет расчетов, входящих в инвентаризацию` }}
          expandable={{
            // The line's calculations are read when it is opened.
            expandedRowRender: (row) => (
              <InventoryCalculations
                of={{ year: data.year, facility: data.facility ?? undefined, line: lineKey(row), counted: true }}
                emptyText="В строке нет расчетов"
              />
            ),
          }}
          footer={() =>
            data.categories.length > 0 ? (
              <strong>
                Итого: {tonnes(data.total_t_co2e)} {T_CO2E}
              </strong>
            ) : null
          }
        />
      </Card>
      <YearUncertainty year={data.year} facility={data.facility ?? undefined} years={years} />
      <MethaneBalance balance={data.balance} />
      <CoalProcessed inventory={data} />
      <Card title="Проверки" size="small" data-testid="checks">
        {data.checks.length === 0 ? (
          <Typography.Text type="secondary">Замечаний нет</Typography.Text>
        ) : (
          <Flex vertical gap={8}>
            {data.checks.map((check, i) => (
              <Alert
                key={`${check.code}-${i}`}
                type={CHECK_TYPES[check.level]}
                showIcon
                title={check.message}
                description={<CheckCalculations check={check} data={data} />}
              />
            ))}
          </Flex>
        )}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Card title="По площадкам" size="small">
            <Descriptions
              column={1}
              bordered
              size="small"
              items={
                data.facilities.length > 0
                  ? data.facilities.map((f) => ({ key: f.id ?? "none", label: f.name, children: `${tonnes(f.t_co2e)} ${T_CO2E}` }))
                  : [{ key: "none", label: "Площадки", children: "Нет данных" }]
              }
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          {years.length > 0 && (
            <Chart
              figure={{ title: "Выбросы по категориям и годам, т CO2-экв.", fileName: "Инвентаризация по годам", ...chart }}
              height={320}
              testId="inventory-chart"
            />
          )}
        </Col>
      </Row>
    </>
  );
}
