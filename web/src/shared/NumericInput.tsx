// A numeric text field with its unit beside it (docs/user-guide.md, D8): a decimal comma or dot, a
// minus only where `negative` allows it, at most `decimals` decimals. What is typed is kept as typed
// — never silently rewritten — and anything that is not such a number gets its message right under
// the field. Read the value with parseNumericInput and refuse to send while numericInputProblem
// has something to say (forms do not repeat the message: it is already here).
import type { CSSProperties, ReactNode } from "react";
import { Input, Space, Typography } from "antd";
import { numericInputProblem } from "./decimals";

interface Props {
  /** Given by the form, or injected by an antd Form.Item with a `name`. */
  id?: string;
  value?: string;
  onChange?(text: string): void;
  /** Usually useInputDecimals(mode) from shared/useInputDecimals.ts. */
  decimals: number;
  /** Whether a minus sign is allowed (no registry field allows one today). */
  negative?: boolean;
  unit?: string;
  /** A unit selector in place of the unit text (D13: activity inputs in the user's unit). */
  unitChoice?: ReactNode;
  placeholder?: string;
  disabled?: boolean;
  style?: CSSProperties;
}

export function NumericInput({ id, value = "", onChange, decimals, negative, unit, unitChoice, placeholder, disabled, style }: Props) {
  const problem = numericInputProblem(value, { decimals, negative });
  const problemId = id ? `${id}-problem` : undefined;
  const input = (
    <Input
      id={id}
      value={value}
      inputMode="decimal"
      autoComplete="off"
      placeholder={placeholder}
      disabled={disabled}
      status={problem ? "error" : undefined}
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem ? problemId : undefined}
      style={unit || unitChoice ? undefined : style}
      onChange={(event) => onChange?.(event.target.value)}
    />
  );
  return (
    <>
      {unitChoice ? (
        <Space.Compact block style={style}>
          {input}
          {unitChoice}
        </Space.Compact>
      ) : unit ? (
        <Space.Compact block style={style}>
          {input}
          <Space.Addon>{unit}</Space.Addon>
        </Space.Compact>
      ) : (
        input
      )}
      {problem && (
        <div id={problemId} role="alert" className="numeric-input-problem">
          <Typography.Text type="danger">{problem}</Typography.Text>
        </div>
      )}
    </>
  );
}

/** The read-only result beside a NumericInput: already formatted text and its unit. */
export function ResultOutput({ id, value, unit }: { id: string; value: string; unit: string }) {
  return (
    <Space.Compact block>
      <Input id={id} value={value} readOnly aria-readonly="true" placeholder="—" />
      <Space.Addon>{unit}</Space.Addon>
    </Space.Compact>
  );
}
