// The stored regres_methane forecast (docs/api.md, docs/user-guide.md): a summary (rows, the share above the 1 % limit,
// maximum and mean), the model it was computed with, the uploaded source file, and every data row
// with its inputs and «Прогноз, %» — 5 rows a page, values above 1 % red and bold.
import { useState } from "react";
import { Descriptions, Flex, Segmented, Typography, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import type { ForecastMethod } from "@core/registry";
import type { Calculation } from "./api";
import {
  FORECAST_COLUMNS,
  METHOD_TITLES,
  libraryTitle,
  libraryVersion,
  RESULTS_PAGE_SIZE,
  forecastSummary,
  isAboveLimit,
  storedRows,
  type ForecastDataRow,
} from "./forecast";
import { LimitLegend, PredictionText } from "./ForecastForm";
import { formatAmount, formatStored } from "./format";
import { SourceFileLink } from "./SourceFileLink";

const percent = (share: number) => `${formatAmount(share * 100, 1)} %`;

export function ForecastResults({ calculation }: { calculation: Calculation }) {
  const [filter, setFilter] = useState<"all" | "above">("all");
  const summary = forecastSummary(calculation);
  const rows = storedRows(calculation);
  const shown = filter === "above" ? rows.filter((r) => isAboveLimit(r.result)) : rows;
  const model = summary.model;
  const method = calculation.method as ForecastMethod;

  const columns: TableColumnsType<ForecastDataRow> = [
    { title: "№", dataIndex: "id", width: 64 },
    // Each feature by its label and unit, as the entry table heads it.
    ...FORECAST_COLUMNS.map((column) => ({
      title: (
        <span title={`${column.label}, ${column.unit}`}>
          {column.name}
          <Typography.Text type="secondary" style={{ fontSize: 11, fontWeight: 400, display: "block" }}>
            {column.label}, {column.unit}
          </Typography.Text>
        </span>
      ),
      dataIndex: column.name,
      align: "right" as const,
      render: (value: number | null) =>
        value === null || value === undefined ? <Typography.Text type="secondary">—</Typography.Text> : formatStored(value),
    })),
    {
      title: "Прогноз, %",
      dataIndex: "result",
      align: "right",
      width: 110,
      render: (value: number, row) => <PredictionText value={value} testId={`stored-result-${row.id}`} />,
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="forecast-results">
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={[
          { key: "method", label: "Метод", children: METHOD_TITLES[method] ?? String(calculation.method) },
          { key: "rows", label: "Строк", children: <span data-testid="forecast-rows-count">{summary.rows}</span> },
          {
            key: "above",
            label: "Выше 1 %",
            children: (
              <Typography.Text strong={summary.above > 0} type={summary.above > 0 ? "danger" : undefined} data-testid="forecast-above">
                {summary.above} из {summary.rows} ({percent(summary.share)})
              </Typography.Text>
            ),
          },
          {
            key: "max",
            label: "Максимум",
            children: summary.max === null ? "—" : <PredictionText value={summary.max} testId="forecast-max" unit="%" />,
          },
          { key: "mean", label: "Среднее", children: summary.mean === null ? "—" : `${formatAmount(summary.mean, 4)} %` },
          {
            key: "model",
            label: "Модель",
            children: model ? (
              <span data-testid="forecast-model">
                {libraryTitle(model.library)} {libraryVersion(model.library_version)}, версия {model.version}
              </span>
            ) : (
              "—"
            ),
          },
        ]}
      />
      <SourceFileLink calculation={calculation} />
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Segmented<"all" | "above">
          size="small"
          value={filter}
          onChange={setFilter}
          options={[
            { label: "Все строки", value: "all" },
            { label: "Только выше 1 %", value: "above" },
          ]}
        />
        <LimitLegend />
      </Flex>
      <Table<ForecastDataRow>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={shown}
        scroll={{ x: "max-content" }}
        pagination={{
          pageSize: RESULTS_PAGE_SIZE,
          showSizeChanger: false,
          hideOnSinglePage: false,
          showTotal: (total) => `Строк: ${total}`,
        }}
      />
    </Flex>
  );
}
