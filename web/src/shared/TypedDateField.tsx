// A labelled date typed as «01.01.2025», marked while it does not read as one: the day bounds of the
// monitoring records' pages (the gassing book, the sensor checks, the handovers).
import { Input, Space, Typography } from "antd";
import { DATE_TYPED, typedDate } from "./dates";

export function TypedDateField({ label, value, onChange }: { label: string; value: string; onChange: (text: string) => void }) {
  return (
    <Space direction="vertical" size={2}>
      <Typography.Text>{label}</Typography.Text>
      <Input
        aria-label={label}
        style={{ width: 130 }}
        value={value}
        maxLength={DATE_TYPED.length}
        placeholder={DATE_TYPED}
        status={typedDate(value) ? undefined : "error"}
        onChange={(e) => onChange(e.target.value)}
      />
    </Space>
  );
}
