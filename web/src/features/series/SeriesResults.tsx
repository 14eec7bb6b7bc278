// The stored results of the file-based types, per element (docs/api.md, docs/user-guide.md; methodology D6, D7):
//  - filling_blanks: year and value, 5 rows a page, every filled value set apart (italic on a tinted
//    background, a tag with its method — D7) with a legend, and the series chart (filled points hollow);
//  - sensitivity: every column with its unit (sn_* and el_* with 6 decimals, null as «—»), the
//    emissions by year stacked from methane and transport, and the sensitivity coefficients.
import type { CSSProperties, HTMLAttributes, ReactNode } from "react";
import { Flex, Space, Tabs, Tag, Typography, type TableColumnsType, type TableProps } from "antd";
import { Table } from "../../shared/LazyTable";
import type { FilledValue, SensitivityResultRow } from "@core/emissions-core";
import type { ResultField } from "@core/registry";
import { Chart } from "../../shared/charts/Chart";
import { Tornado } from "../../shared/uncertainty/Tornado";
import type { Calculation } from "../../api/calculations";
import { RESULTS_PAGE_SIZE } from "../../shared/calculationKindRegistry";
import { formatAmount } from "../../shared/format";
import {
  columnOf,
  emissionsFigure,
  fillingFigure,
  fillMethodLabel,
  sensitivityFigure,
  FILLED_COLOR,
  SERIES_CHART_HEIGHT,
} from "./seriesCharts";
import { elementsOf, filledCount, type FilledElement, type SensitivityElement } from "./series";
import { SourceFileLink } from "../../shared/SourceFileLink";

export const FILLED_BACKGROUND = "#fff7e6";
const FILLED_STYLE: CSSProperties = { background: FILLED_BACKGROUND, fontStyle: "italic" };
const DASH = "—";

/** A result's table of years: a page of RESULTS_PAGE_SIZE years, the count of years under it. */
function YearsTable<T extends { year: number }>(props: TableProps<T>) {
  return (
    <Table<T>
      size="small"
      rowKey="year"
      pagination={{ pageSize: RESULTS_PAGE_SIZE, showSizeChanger: false, showTotal: (total) => `Лет: ${total}` }}
      {...props}
    />
  );
}

/** One tab per element when there are several; the element alone otherwise. */
function PerElement<T extends { id: number; name: string }>({ elements, render }: { elements: T[]; render(element: T): ReactNode }) {
  if (elements.length === 0) return <Typography.Text type="secondary">Нет данных</Typography.Text>;
  if (elements.length === 1) return <>{render(elements[0])}</>;
  return <Tabs items={elements.map((e) => ({ key: String(e.id), label: e.name, children: render(e) }))} />;
}

// ---- filling_blanks ------------------------------------------------------------------------------

function FillLegend() {
  return (
    <Space size={12} wrap data-testid="fill-legend">
      <Space size={6}>
        <span style={{ display: "inline-block", width: 28, height: 18, border: "1px solid #d9d9d9" }} />
        <Typography.Text type="secondary">наблюдение (из файла)</Typography.Text>
      </Space>
      <Space size={6}>
        <span style={{ display: "inline-block", width: 28, height: 18, border: `1px solid ${FILLED_COLOR}`, ...FILLED_STYLE }} />
        <Typography.Text type="secondary">
          <i>заполнено</i> — способ указан меткой; на графике незакрашенные точки
        </Typography.Text>
      </Space>
    </Space>
  );
}

function FilledTable({ element, valueLabel }: { element: FilledElement; valueLabel: string }) {
  const cell = (row: FilledValue) => (row.method !== null ? { style: FILLED_STYLE } : {});
  const columns: TableColumnsType<FilledValue> = [
    { title: "Год", dataIndex: "year", width: 80, onCell: cell },
    {
      title: valueLabel,
      dataIndex: "value",
      align: "right",
      onCell: cell,
      render: (value: number | null) => (value === null ? DASH : formatAmount(value, 2)),
    },
    {
      title: "Способ заполнения",
      dataIndex: "method",
      onCell: cell,
      render: (method: string | null) =>
        method === null ? (
          <Typography.Text type="secondary">наблюдение</Typography.Text>
        ) : (
          <Tag color={method === "empty" ? "default" : method === "clipped" ? "red" : "orange"} style={{ fontStyle: "normal" }}>
            {fillMethodLabel(method) ?? method}
          </Tag>
        ),
    },
  ];
  return (
    <YearsTable<FilledValue>
      columns={columns}
      dataSource={element.rows}
      onRow={(row) => ({ "data-method": row.method ?? "observed" }) as HTMLAttributes<HTMLElement>}
    />
  );
}

export function FillingBlanksResults({ calculation }: { calculation: Calculation }) {
  const elements = elementsOf<FilledElement>(calculation);
  const valueLabel =
    typeof calculation.name_value === "string" && calculation.name_value ? `Значение (${calculation.name_value})` : "Значение";
  return (
    <Flex vertical gap={12} data-testid="filling-results">
      <Typography.Text>
        Рядов: {elements.length}; заполнено значений: <b>{filledCount(elements)}</b>
      </Typography.Text>
      <SourceFileLink calculation={calculation} />
      <FillLegend />
      <PerElement
        elements={elements}
        render={(element) => (
          <Flex gap={16} wrap align="flex-start" data-testid={`element-${element.id}`}>
            <div style={{ flex: "1 1 320px", minWidth: 0 }}>
              <FilledTable element={element} valueLabel={valueLabel} />
            </div>
            <div style={{ flex: "2 1 420px", minWidth: 0 }}>
              <Chart figure={fillingFigure(element, valueLabel)} height={SERIES_CHART_HEIGHT} testId={`filling-chart-${element.id}`} />
            </div>
          </Flex>
        )}
      />
    </Flex>
  );
}

// ---- sensitivity ---------------------------------------------------------------------------------

const SENSITIVITY_COLUMNS = [
  "year",
  "volume",
  "methane",
  "res_co2",
  "res_co2_transport",
  "res_co2_all",
  "sn_volume",
  "sn_methan",
  "el_volume",
  "el_methan",
] as const;

/** Column widths: headers wrap between words (12 px type), and all ten columns fit the dialog. */
const WIDTHS: Record<string, number> = {
  year: 60,
  volume: 120,
  methane: 128,
  res_co2: 124,
  res_co2_transport: 128,
  res_co2_all: 112,
  sn_volume: 116,
  sn_methan: 128,
  el_volume: 112,
  el_methan: 128,
};

function header(field: ResultField) {
  return (
    <span title={field.label} style={{ display: "block", fontSize: 12, lineHeight: 1.3, overflowWrap: "normal", wordBreak: "normal" }}>
      {field.label}
      {field.unit && (
        <Typography.Text type="secondary" style={{ display: "block", fontSize: 11, fontWeight: 400 }}>
          {field.unit}
        </Typography.Text>
      )}
    </span>
  );
}

function SensitivityTable({ element }: { element: SensitivityElement }) {
  const columns: TableColumnsType<SensitivityResultRow> = SENSITIVITY_COLUMNS.map((name) => {
    const field = columnOf(name) ?? { name, label: name, unit: "", type: "number" as const };
    return {
      title: header(field),
      dataIndex: name,
      align: name === "year" ? ("left" as const) : ("right" as const),
      width: WIDTHS[name],
      render: (value: number | null) => {
        if (value === null || value === undefined) return <Typography.Text type="secondary">{DASH}</Typography.Text>;
        if (name === "year") return value;
        return <span style={{ whiteSpace: "nowrap" }}>{formatAmount(value, field.decimals ?? 2)}</span>;
      },
    };
  });
  return (
    <YearsTable<SensitivityResultRow>
      columns={columns}
      dataSource={element.data_sensitivity}
      tableLayout="fixed"
      scroll={{ x: Object.values(WIDTHS).reduce((a, b) => a + b, 0) }}
    />
  );
}

export function SensitivityResults({ calculation }: { calculation: Calculation }) {
  const elements = elementsOf<SensitivityElement>(calculation);
  return (
    <Flex vertical gap={12} data-testid="sensitivity-results">
      <SourceFileLink calculation={calculation} />
      <PerElement
        elements={elements}
        render={(element) => (
          <Flex vertical gap={12} data-testid={`element-${element.id}`}>
            <SensitivityTable element={element} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              Коэффициенты чувствительности — нормированные, при приращении фактора на δ (методика 4.11); дуговые эластичности — год к году
              (вариант B), для первого года и при неизменном факторе не определены («—»).
            </Typography.Text>
            <Flex gap={12} wrap>
              <div style={{ flex: "1 1 420px", minWidth: 0 }}>
                <Chart figure={emissionsFigure(element)} height={SERIES_CHART_HEIGHT} testId={`emissions-chart-${element.id}`} />
              </div>
              <div style={{ flex: "1 1 420px", minWidth: 0 }}>
                <Chart figure={sensitivityFigure(element)} height={SERIES_CHART_HEIGHT} testId={`sensitivity-chart-${element.id}`} />
              </div>
            </Flex>
            <Tornado element={element} height={SERIES_CHART_HEIGHT} />
          </Flex>
        )}
      />
    </Flex>
  );
}
