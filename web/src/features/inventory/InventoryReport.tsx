// The year's inventory once it has loaded (InventoryPage loads this module right after it paints):
// the total with the 296-FZ threshold verdict, the review, the table by Order 371 category, IPCC
// code and gas with the calculations behind each row and their coefficients, the checks with links
// to the calculations to fix, the facilities, and totals by category and year.
import { lazy, Suspense, useMemo } from "react";
import { Link } from "react-router-dom";
import { Alert, Card, Col, Descriptions, Flex, Row, Statistic, Tag, Typography, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import { LazyLoading } from "../../shared/LazyLoading";
import { METHOD_LABELS, INVENTORY_SOURCES, thresholdVerdict } from "@core/inventory";
import { REGISTRY, isCalculationType, type CalculationType } from "@core/registry";
import { formatResult, formatStored } from "../../shared/decimals";
import { Chart } from "../graphs/Chart";
import type { Inventory, YearTotals } from "./api";
// The review's timeline, date picker and dialog load after the figures.
const ReviewPanel = lazy(() => import("./ReviewPanel").then((m) => ({ default: m.ReviewPanel })));
import { changeFromYearBefore, totalsByCategoryFigure } from "./inventory";
import { periodText } from "@core/source-periods";
import { flagTexts } from "../calculations/flags";
import { MethaneBalance } from "./MethaneBalance";
import { CoalProcessed } from "./CoalProcessed";

const T_CO2E = "т CO2-экв.";
const tonnes = (value: number) => formatResult(value, 2);

type CategoryRow = Inventory["categories"][number];
type CalculationRow = Inventory["calculations"][number];

const CHECK_TYPES = { error: "error", warning: "warning", info: "info" } as const;

/** The calculation itself: its project's list of its type with its results open. */
function calculationLink(row: CalculationRow) {
  return `/projects/${encodeURIComponent(row.project.id)}/calculations?type=${encodeURIComponent(row.type)}&open=${encodeURIComponent(row.id)}`;
}

/** The field's label as the dialog shows it (never its API name). */
function fieldLabel(type: string, name: string): string {
  if (!isCalculationType(type)) return name;
  const def = REGISTRY[type];
  return [...def.inputs, ...def.settings].find((f) => f.name === name)?.label ?? name;
}

function coefficientsText(row: CalculationRow): string {
  return Object.entries(row.coefficients)
    .filter(([name]) => name !== "gwp_ch4")
    .map(([name, use]) => {
      const origin = use.source === "custom" ? "фактическое значение" : (use.item_name ?? use.reference ?? "");
      return `${fieldLabel(row.type, name)}: ${formatStored(use.value)} ${use.unit}${origin ? ` (${origin})` : ""}`;
    })
    .join("; ");
}

const calculationColumns: TableColumnsType<CalculationRow> = [
  {
    title: "Расчет",
    key: "name",
    render: (_: unknown, row) => (
      <Flex vertical gap={2}>
        <Link to={calculationLink(row)}>{row.name}</Link>
        <Typography.Text type="secondary">
          {row.type_title}; проект «{row.project.name}»{row.period && `; ${periodText(row.period)}`}
        </Typography.Text>
        {/* D16, D22: notes on the line; D10, D23: what a reader should check. */}
        {[...(row.notes ?? []), ...(isCalculationType(row.type) ? flagTexts(row.type, row.flags) : [])].map((text) => (
          <Typography.Text key={text} type="warning" style={{ fontSize: 12 }}>
            {text}
          </Typography.Text>
        ))}
      </Flex>
    ),
  },
  {
    title: "Роль",
    key: "role",
    width: 150,
    render: (_: unknown, row) => (row.counted ? <Tag color="blue">основной</Tag> : <Tag>альтернативный</Tag>),
  },
  {
    title: "Метод",
    key: "method",
    width: 200,
    render: (_: unknown, row) => row.method ?? METHOD_LABELS[INVENTORY_SOURCES[row.type as CalculationType]?.method ?? "coefficients"],
  },
  {
    title: "Выбросы",
    key: "gases",
    width: 230,
    render: (_: unknown, row) =>
      row.gases.map((g) => (
        <div key={g.gas}>
          {g.gas}: {tonnes(g.t)} т ({tonnes(g.t_co2e)} {T_CO2E})
        </div>
      )),
  },
  { title: "Коэффициенты", key: "coefficients", render: (_: unknown, row) => coefficientsText(row) || "—" },
];

const categoryColumns: TableColumnsType<CategoryRow> = [
  { title: "Категория (Приказ 371)", key: "category", render: (_: unknown, r) => `${r.category}. ${r.category_label}` },
  { title: "Код МГЭИК", key: "ipcc", render: (_: unknown, r) => `${r.ipcc_code} ${r.ipcc_label}` },
  { title: "Газ", dataIndex: "gas", width: 70 },
  { title: "Выбросы, т", dataIndex: "t", width: 150, align: "right", render: (v: number) => tonnes(v) },
  { title: `Выбросы, ${T_CO2E}`, dataIndex: "t_co2e", width: 170, align: "right", render: (v: number) => tonnes(v) },
];

export function InventoryReport({ data, years, year }: { data: Inventory; years: readonly YearTotals[]; year: number }) {
  const byId = useMemo(() => new Map(data.calculations.map((c) => [c.id, c])), [data]);
  const change = changeFromYearBefore(years, year, data.total_t_co2e);
  const chart = useMemo(() => totalsByCategoryFigure(years), [years]);

  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card>
            <Statistic title={`Всего за ${data.year} год, ${T_CO2E}`} value={tonnes(data.total_t_co2e)} />
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
            type={data.threshold.regulated ? "warning" : "success"}
            showIcon
            data-testid="threshold"
            // D21: the company's verdict, on a facility's inventory too.
            title={thresholdVerdict(data.threshold, (value) => formatResult(value, 0))}
            description={`ПГП CH4 = ${formatStored(data.gwp.gwp_ch4)}: набор «${data.gwp.name}», действующий для ${data.year} года`}
          />
        </Col>
      </Row>
      <Suspense fallback={<LazyLoading />}>
        <ReviewPanel review={data.review} />
      </Suspense>
      <Card title="Выбросы по категориям и газам" size="small">
        <Table<CategoryRow>
          rowKey={(r) => `${r.category}|${r.ipcc_code}|${r.gas}`}
          size="small"
          pagination={false}
          scroll={{ x: 800 }}
          columns={categoryColumns}
          dataSource={data.categories}
          locale={{ emptyText: `За ${data.year} год нет расчетов, входящих в инвентаризацию` }}
          expandable={{
            expandedRowRender: (row) => (
              <Table<CalculationRow>
                rowKey="id"
                size="small"
                pagination={false}
                columns={calculationColumns}
                dataSource={row.calculations.map((id) => byId.get(id)!).filter(Boolean)}
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
                description={
                  <Flex gap={12} wrap>
                    {check.calculations
                      .map((id) => byId.get(id))
                      .filter((c): c is CalculationRow => c !== undefined)
                      .map((c) => (
                        <Link key={c.id} to={calculationLink(c)}>
                          Открыть «{c.name}»
                        </Link>
                      ))}
                  </Flex>
                }
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
