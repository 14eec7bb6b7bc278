// /trend «Динамика»: the company's years side by side (docs/user-guide.md, «Динамика: годы рядом,
// базовый год и цели»; methodology D46): stacked bars by category per year, the intensity line and a
// target's path, a table under them whose year opens that year's inventory, the switch between
// «как отчитано» and «в сопоставимых условиях», the xlsx of the table, and the base year and targets.
import { lazy, Suspense, useMemo, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { Alert, Button, Card, Flex, Segmented, Tag, Typography, type TableColumnsType } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "@core/gwp-in-force";
import { api } from "../../api/client";
import { useFacilities } from "../../api/facilities";
import { formatAmount } from "../../shared/format";
import { Select } from "../../shared/LazySelect";
import { ListTable } from "../../shared/LazyTable";
import { LazyLoading } from "../../shared/LazyLoading";
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";
import { saveBlob } from "../../shared/saveBlob";
import { useUrlQuery } from "../../shared/urlState";
import { trendExportPath, useTrend, useTrendSettings, type TrendYear } from "./api";
import { chartTargets, figuresOf, trendFigure, type TrendView } from "./trend";

// The base year's and the targets' forms (antd's Form, InputNumber, Progress) load after the trend itself.
const BaseYearCard = lazy(() => import("./TrendSettingsCards").then((m) => ({ default: m.BaseYearCard })));
const TargetsCard = lazy(() => import("./TrendSettingsCards").then((m) => ({ default: m.TargetsCard })));
// The chart's wrapper comes with plotly's, after the first paint (the route's initial JS budget).
const Chart = lazy(() => import("../../shared/charts/Chart").then((m) => ({ default: m.Chart })));
const PlanClosureCard = lazy(() => import("./PlanClosureCard").then((m) => ({ default: m.PlanClosureCard })));

const T_CO2E = "т CO2-экв.";
/** The range shown first: the last ten reporting years up to this one. */
const SPAN = 10;

const yearParam = (raw: string | null, fallback: number) => {
  const year = Number(raw);
  return raw && Number.isInteger(year) && year >= REPORTING_YEAR_MIN && year <= REPORTING_YEAR_MAX ? year : fallback;
};

export default function TrendPage() {
  const { params, update } = useUrlQuery();
  const thisYear = useMemo(() => new Date().getFullYear(), []);
  const to = yearParam(params.get("to"), thisYear);
  const from = Math.min(to, yearParam(params.get("from"), to - SPAN + 1));
  const facility = params.get("facility") ?? undefined;
  const view: TrendView = params.get("view") === "reported" ? "reported" : "comparable";
  const trend = useTrend(from, to, facility);
  const settings = useTrendSettings();
  const facilities = useFacilities();
  const navigate = useNavigate();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string>();
  const targets = useMemo(() => chartTargets(settings.data?.targets ?? []), [settings.data]);
  const figure = useMemo(
    () => (trend.data ? trendFigure(trend.data, view, facility ? [] : targets) : undefined),
    [trend.data, view, facility, targets],
  );
  const yearChoices = Array.from({ length: 31 }, (_, i) => thisYear - i).map((y) => ({ value: y, label: String(y) }));

  async function download() {
    setExporting(true);
    setExportError(undefined);
    try {
      const file = await api.download(await trendExportPath(from, to, facility, view));
      saveBlob(file.blob, file.fileName ?? `Динамика ${from}-${to}.xlsx`);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  }

  const columns: TableColumnsType<TrendYear> = [
    {
      title: "Год",
      dataIndex: "year",
      fixed: "left",
      width: 72,
      render: (year: number) => (
        <Link to={`/inventory?year=${year}${facility ? `&facility=${facility}` : ""}`} data-testid={`trend-year-${year}`}>
          {year}
        </Link>
      ),
    },
    {
      title: "Статус",
      width: 180,
      render: (_, y) => (y.draft ? <Tag>черновик</Tag> : <Tag color="green">утверждена, версия {y.approved_version}</Tag>),
    },
    { title: `Выбросы, ${T_CO2E}`, width: 140, align: "right", render: (_, y) => formatAmount(figuresOf(y, view).total_t_co2e, 2) },
    {
      title: "Изменение к предыдущему году",
      width: 190,
      align: "right",
      render: (_, y) => {
        const change = figuresOf(y, view).change;
        if (!change) return "";
        // A typographic minus, as the inventory writes a fall.
        const sign = change.t_co2e > 0 ? "+" : change.t_co2e < 0 ? "−" : "";
        const pct = change.pct === undefined ? "" : ` (${sign}${formatAmount(Math.abs(change.pct), 1)} %)`;
        return `${sign}${formatAmount(Math.abs(change.t_co2e), 2)}${pct}`;
      },
    },
    { title: "Добыча угля, т", width: 130, align: "right", render: (_, y) => formatAmount(y.coal.total_t, 0) },
    {
      title: `Удельные выбросы, ${T_CO2E}/т угля`,
      width: 130,
      align: "right",
      render: (_, y) => formatAmount(figuresOf(y, view).intensity?.total, 4),
    },
    {
      title: "Метан уничтожен, т CH4",
      width: 170,
      align: "right",
      render: (_, y) =>
        y.methane
          ? `${formatAmount(y.methane.destroyed_t, 2)}${y.methane.destroyed_share_pct === undefined ? "" : ` (${formatAmount(y.methane.destroyed_share_pct, 1)} % каптированного)`}`
          : "",
    },
    {
      title: "ПГП CH4",
      width: 70,
      align: "right",
      render: (_, y) => (view === "comparable" ? trend.data?.comparable.gwp.gwp_ch4 : y.gwp.gwp_ch4),
    },
  ];

  const recomputed = (trend.data?.years ?? []).filter((y) => y.comparable.changes.length > 0 || y.comparable.gwp_changed);
  const methodChanges = (trend.data?.years ?? []).filter((y) => y.method_changes?.length);

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Динамика
      </Typography.Title>
      <Flex gap={12} wrap align="center">
        <span>С</span>
        <Select
          aria-label="Начальный год"
          value={from}
          options={yearChoices.filter((o) => o.value <= to && o.value > to - 30)}
          onChange={(next) => update({ from: String(next) }, { replace: true })}
          style={{ width: 96 }}
        />
        <span>по</span>
        <Select
          aria-label="Конечный год"
          value={to}
          options={yearChoices}
          onChange={(next) => update({ to: String(next), from: String(Math.min(from, next)) }, { replace: true })}
          style={{ width: 96 }}
        />
        <Select
          aria-label="Площадка"
          value={facility ?? ""}
          options={[{ value: "", label: "Вся компания" }, ...(facilities.data ?? []).map((f) => ({ value: f.id, label: f.name }))]}
          onChange={(next) => update({ facility: next || undefined }, { replace: true })}
          style={{ width: 240, maxWidth: "100%" }}
        />
        <Segmented<TrendView>
          value={view}
          options={[
            { value: "reported", label: "Как отчитано" },
            { value: "comparable", label: "В сопоставимых условиях" },
          ]}
          onChange={(next) => update({ view: next }, { replace: true })}
        />
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void download()} data-testid="trend-export">
          Экспорт в Excel
        </Button>
      </Flex>
      {exportError && <Alert type="error" showIcon title={`Не удалось выгрузить таблицу: ${exportError}`} />}
      {trend.isPending && <PageLoading />}
      {trend.isError && <LoadError what="динамику" message={trend.error.message} retry={() => void trend.refetch()} />}
      {trend.data && (
        <>
          {view === "comparable" && (
            <Typography.Text type="secondary">
              Все годы приведены к ПГП CH4 = {trend.data.comparable.gwp.gwp_ch4} ({trend.data.comparable.gwp.name}) и коэффициентам
              справочников {trend.data.comparable.year} года.
            </Typography.Text>
          )}
          {trend.data.years.length === 0 ? (
            <Alert type="info" showIcon title="За эти годы нет учтенных расчетов" />
          ) : (
            <>
              {figure && (
                <Suspense fallback={<LazyLoading />}>
                  <Chart
                    figure={{ title: `Выбросы по категориям, ${T_CO2E}, и удельные выбросы`, fileName: "Динамика", ...figure }}
                    height={360}
                    testId="trend-chart"
                    onPointClick={(x) => {
                      // A bar's or the intensity's year opens its inventory; the target's 2030 has none.
                      if (trend.data?.years.some((y) => String(y.year) === x)) {
                        navigate(`/inventory?year=${x}${facility ? `&facility=${facility}` : ""}`);
                      }
                    }}
                  />
                </Suspense>
              )}
              <ListTable<TrendYear>
                rowKey="year"
                columns={columns}
                dataSource={trend.data.years}
                // The columns' widths (about 1 080 px): at 1440 px beside the menu every column shows,
                // headers wrapping, instead of the last ones hidden past the table's edge.
                scroll={{ x: columns.reduce((sum, column) => sum + (typeof column.width === "number" ? column.width : 0), 0) }}
                data-testid="trend-table"
              />
              {view === "comparable" && recomputed.length > 0 && (
                <Card size="small" title="Что пересчитано в сопоставимых условиях">
                  <Flex vertical gap={4}>
                    {recomputed.map((y) => (
                      <div key={y.year}>
                        <Typography.Text strong>{y.year}:</Typography.Text>{" "}
                        {[
                          ...(y.comparable.gwp_changed ? [`ПГП CH4 ${y.gwp.gwp_ch4} → ${trend.data.comparable.gwp.gwp_ch4}`] : []),
                          ...y.comparable.changes.map(
                            (c) =>
                              `«${c.calculation_name}»: ${c.coefficient_label} (${c.item_name}) ${formatAmount(c.before, 4)} → ${formatAmount(c.after, 4)}`,
                          ),
                        ].join("; ")}
                      </div>
                    ))}
                  </Flex>
                </Card>
              )}
              {methodChanges.length > 0 && (
                <Alert
                  type="warning"
                  showIcon
                  title="Смена метода между годами: поясните или пересчитайте прошлые годы тем же методом"
                  description={methodChanges.flatMap((y) =>
                    (y.method_changes ?? []).map((m) => (
                      <div key={`${y.year}-${m.ipcc_code}-${m.gas}`}>
                        {y.year}, {m.ipcc_code} {m.gas}: {m.before.join(", ")} → {m.after.join(", ")}
                      </div>
                    )),
                  )}
                />
              )}
            </>
          )}
        </>
      )}
      {settings.isError && <LoadError what="базовый год и цели" message={settings.error.message} retry={() => void settings.refetch()} />}
      {settings.data && (
        <Suspense fallback={<LazyLoading />}>
          <Flex vertical gap={16}>
            <BaseYearCard settings={settings.data} years={(trend.data?.years ?? []).map((y) => y.year)} />
            <TargetsCard settings={settings.data} facilities={facilities.data ?? []} />
            <PlanClosureCard targets={settings.data.targets} />
          </Flex>
        </Suspense>
      )}
    </Flex>
  );
}
