// The results of one calculation with their units (D8), from the registry: the dialog's live
// preview and the stored results view both render through here, so they read the same.
import { Alert, Descriptions, Table, Typography } from "antd";
import { REGISTRY, type FormulaType, type ResultField } from "@core/registry";
import { formatAmount } from "../../shared/format";
import { dateText } from "./form";

// docs/user-guide.md: results in tonnes show 2 decimals (the registry's decimals say the same).
const DEFAULT_RESULT_DECIMALS = 2;

interface Props {
  type: FormulaType;
  results: Readonly<Record<string, unknown>>;
  /** data-testid prefix of each value: `${testId}-${field}`. */
  testId: string;
  /** The live preview beside the form: a table result shows its dates and totals only. */
  compact?: boolean;
}

/** The columns of a table result the compact view keeps (underground's periods: dates, volume, CO2-eq). */
const COMPACT_COLUMNS = new Set(["from", "to", "volume", "sum_co2"]);

export function ResultValues({ type, results, testId, compact }: Props) {
  const fields: readonly ResultField[] = REGISTRY[type].results;
  const technology = fields.find((f) => f.type === "text");
  if (technology) {
    return (
      <Alert
        type="success"
        showIcon
        title={technology.label}
        description={
          <Typography.Text strong data-testid={`${testId}-${technology.name}`}>
            {String(results[technology.name] ?? "")}
          </Typography.Text>
        }
      />
    );
  }
  const tables = fields.filter((f) => f.type === "table" && Array.isArray(results[f.name]));
  return (
    <>
      <Descriptions
        bordered
        size="small"
        column={1}
        styles={{ label: { width: "55%" } }}
        items={fields
          .filter((f) => f.type === "number")
          .map((field) => ({
            key: field.name,
            label: field.label,
            children: (
              <span>
                <Typography.Text strong data-testid={`${testId}-${field.name}`}>
                  {formatAmount(results[field.name] as number | undefined, field.decimals ?? DEFAULT_RESULT_DECIMALS)}
                </Typography.Text>{" "}
                <Typography.Text type="secondary">{field.unit}</Typography.Text>
              </span>
            ),
          }))}
      />
      {tables.map((table) => (
        <ResultTable
          key={table.name}
          field={table}
          rows={results[table.name] as Record<string, unknown>[]}
          testId={`${testId}-${table.name}`}
          compact={compact}
        />
      ))}
    </>
  );
}

/** A table result (underground's measurement periods, D14): a row each, the units in the headers. */
function ResultTable({
  field,
  rows,
  testId,
  compact,
}: {
  field: ResultField;
  rows: Record<string, unknown>[];
  testId: string;
  compact?: boolean;
}) {
  const shown = (field.columns ?? []).filter((column) => !compact || COMPACT_COLUMNS.has(column.name));
  // Compact: the dates in one «Период» cell, numbers headed by their unit, to fit beside the form.
  const dates = shown.filter((column) => column.type === "text");
  const dateColumn = {
    key: "period",
    title: "Период",
    render: (_: unknown, row: Record<string, unknown>) => dates.map((column) => dateText(row[column.name])).join(" – "),
  };
  const columns = (compact ? shown.filter((column) => column.type !== "text") : shown).map((column) => ({
    key: column.name,
    title: compact ? column.unit : column.unit ? `${column.label}, ${column.unit}` : column.label,
    align: column.type === "number" ? ("right" as const) : undefined,
    render: (_: unknown, row: Record<string, unknown>) =>
      column.type === "number"
        ? formatAmount(row[column.name] as number | undefined, column.decimals ?? DEFAULT_RESULT_DECIMALS)
        : dateText(row[column.name]),
  }));
  return (
    <div style={{ marginTop: 12 }} data-testid={testId}>
      <Typography.Text strong>{field.label}</Typography.Text>
      <Table<Record<string, unknown>>
        size="small"
        rowKey={(_row, index) => String(index)}
        columns={compact ? [dateColumn, ...columns] : columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: "max-content" }}
        style={{ marginTop: 4 }}
      />
    </div>
  );
}
