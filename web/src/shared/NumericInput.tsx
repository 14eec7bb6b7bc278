// A numeric text field with its unit beside it (SPEC 5, D8): keystrokes that would leave anything
// but digits with an optional dot and at most `decimals` decimals are ignored. The value stays
// text (so "12." can be typed); read it with parseNumericInput from ./decimals.
import { Input, Space } from "antd";
import { acceptsNumericInput } from "./decimals";

interface Props {
  id: string;
  value: string;
  onChange(text: string): void;
  /** Usually useInputDecimals(mode) from features/settings. */
  decimals: number;
  unit: string;
  placeholder?: string;
  disabled?: boolean;
}

export function NumericInput({ id, value, onChange, decimals, unit, placeholder, disabled }: Props) {
  return (
    <Space.Compact block>
      <Input
        id={id}
        value={value}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        disabled={disabled}
        onChange={(event) => {
          if (acceptsNumericInput(event.target.value, decimals)) onChange(event.target.value);
        }}
      />
      <Space.Addon>{unit}</Space.Addon>
    </Space.Compact>
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
