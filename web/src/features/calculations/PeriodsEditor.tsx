// D14: the measurement periods of underground's dialog (Order 371 formula 3.1 from monitoring
// data): a row per period with its dates, flow, hours of operation and contents, each with its unit;
// the volume and the contents are then computed from them (form.ts).
import type { ReactNode } from "react";
import { Button, Card, Col, Form, Input, Row } from "antd";
import { MEASURED_PERIOD, type MeasuredPeriodField } from "@core/registry";
import { periodField } from "@core/measured-release";
import { NumericInput } from "../../shared/NumericInput";
import type { PeriodTexts } from "./form";

interface Props {
  periods: readonly PeriodTexts[];
  decimals: number;
  onText(index: number, field: MeasuredPeriodField, text: string): void;
  onAdd(): void;
  onRemove(index: number): void;
  /** The message under a cell, by its target «periods[i].field» (form.ts messageTarget). */
  status(target: string): { validateStatus?: "error" | "warning"; help?: ReactNode };
}

export const periodInputId = (index: number, field: MeasuredPeriodField) => `calc-period-${index}-${field}`;

export function PeriodsEditor({ periods, decimals, onText, onAdd, onRemove, status }: Props) {
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
            {MEASURED_PERIOD.dates.map((column) => (
              <Col xs={24} sm={12} key={column.name}>
                <Form.Item label={column.label} htmlFor={periodInputId(index, column.name)} {...status(periodField(index, column.name))}>
                  <Input
                    id={periodInputId(index, column.name)}
                    value={period[column.name]}
                    placeholder="ДД.ММ.ГГГГ"
                    inputMode="numeric"
                    autoComplete="off"
                    onChange={(e) => onText(index, column.name, e.target.value)}
                  />
                </Form.Item>
              </Col>
            ))}
            {MEASURED_PERIOD.numbers.map((field) => (
              <Col xs={24} sm={12} key={field.name}>
                <Form.Item label={field.label} htmlFor={periodInputId(index, field.name)} {...status(periodField(index, field.name))}>
                  <NumericInput
                    id={periodInputId(index, field.name)}
                    value={period[field.name]}
                    decimals={Math.max(decimals, field.decimals)}
                    unit={field.unit}
                    onChange={(text) => onText(index, field.name, text)}
                  />
                </Form.Item>
              </Col>
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
