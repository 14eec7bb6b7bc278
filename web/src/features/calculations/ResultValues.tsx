// The results of one calculation with their units (D8), from the registry: the dialog's live
// preview and the stored results view both render through here, so they read the same.
import { Alert, Descriptions, Typography } from "antd";
import { REGISTRY, type FormulaType, type ResultField } from "../../../../wasm-core/src/registry";
import { formatAmount } from "./format";

// SPEC 9: results in tonnes show 2 decimals (the registry's decimals say the same).
const DEFAULT_RESULT_DECIMALS = 2;

interface Props {
  type: FormulaType;
  results: Readonly<Record<string, unknown>>;
  /** data-testid prefix of each value: `${testId}-${field}`. */
  testId: string;
}

export function ResultValues({ type, results, testId }: Props) {
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
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      styles={{ label: { width: "55%" } }}
      items={fields.map((field) => ({
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
  );
}
