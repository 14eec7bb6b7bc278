// D14: the measurement periods of underground's dialog (Order 371 formula 3.1 from monitoring
// data): a row per period with its dates, flow, hours of operation and contents, each with its unit;
// the volume and the contents are then computed from them (form.ts).
import { memo } from "react";
import { Button, Card, Col, Form, Input, Row } from "antd";
import { MEASURED_PERIOD, type MeasuredPeriodField } from "@core/registry";
import { periodField } from "@core/measured-release";
import { NumericInput } from "../../shared/NumericInput";
import type { PeriodTexts } from "./form";
import { fieldStatus, type FieldMessages } from "./FormRows";

interface Props {
  periods: readonly PeriodTexts[];
  decimals: number;
  onText(index: number, field: MeasuredPeriodField, text: string): void;
  onAdd(): void;
  onRemove(index: number): void;
  /** What is said under a cell, by its target «periods[i].field» (form.ts messageTarget). */
  messagesOf(target: string): FieldMessages;
}

/** A period's cells in their order: its dates, then its numbers. */
const PERIOD_FIELDS = [...MEASURED_PERIOD.dates, ...MEASURED_PERIOD.numbers];

export const periodInputId = (index: number, field: MeasuredPeriodField) => `calc-period-${index}-${field}`;

/** One cell of a period: half a row on a wide screen, its label and message; a number with its unit
 *  when the field has decimals (at least the form's `decimals`), a date typed as ДД.ММ.ГГГГ otherwise.
 *  Memoized: a key typed redraws its cell only. */
const PeriodCell = memo(function PeriodCell({
  index,
  field,
  value,
  decimals,
  onText,
  ...messages
}: FieldMessages & {
  index: number;
  field: { name: MeasuredPeriodField; label: string; decimals?: number; unit?: string };
  value: string;
  decimals: number;
  onText: Props["onText"];
}) {
  const id = periodInputId(index, field.name);
  return (
    <Col xs={24} sm={12}>
      <Form.Item label={field.label} htmlFor={id} {...fieldStatus(messages)}>
        {field.decimals !== undefined ? (
          <NumericInput
            id={id}
            value={value}
            decimals={Math.max(decimals, field.decimals)}
            unit={field.unit}
            onChange={(text) => onText(index, field.name, text)}
          />
        ) : (
          <Input
            id={id}
            value={value}
            placeholder="ДД.ММ.ГГГГ"
            inputMode="numeric"
            autoComplete="off"
            onChange={(e) => onText(index, field.name, e.target.value)}
          />
        )}
      </Form.Item>
    </Col>
  );
});

export function PeriodsEditor({ periods, decimals, onText, onAdd, onRemove, messagesOf }: Props) {
  return (
    <div data-testid="periods">
      {periods.map((period, index) => (
        <Card
          key={index}
          size="small"
          title={`Период ${index + 1}`}
          style={{ marginBottom: 12 }}
          extra={
            periods.length > 1 && (
              <Button type="link" danger size="small" onClick={() => onRemove(index)}>
                Удалить период
              </Button>
            )
          }
        >
          <Row gutter={12}>
            {PERIOD_FIELDS.map((field) => (
              <PeriodCell
                key={field.name}
                index={index}
                field={field}
                value={period[field.name]}
                decimals={decimals}
                onText={onText}
                {...messagesOf(periodField(index, field.name))}
              />
            ))}
          </Row>
        </Card>
      ))}
      <Button onClick={onAdd} style={{ marginBottom: 16 }}>
        Добавить период
      </Button>
    </div>
  );
}
