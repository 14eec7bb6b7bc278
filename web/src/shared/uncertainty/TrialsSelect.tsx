// How many Monte Carlo trials to run, for a calculation's interval and a project's total alike.
import { Select } from "antd";
import { TRIAL_OPTIONS } from "./monteCarlo";
import { tonnes } from "./texts";

export function TrialsSelect({ value, onChange }: { value: number; onChange(trials: number): void }) {
  return (
    <Select<number>
      aria-label="Число испытаний"
      size="small"
      value={value}
      onChange={onChange}
      options={TRIAL_OPTIONS.map((n) => ({ value: n, label: `${tonnes(n, 0)} испытаний` }))}
      style={{ width: 190 }}
    />
  );
}
