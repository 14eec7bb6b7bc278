// «Год» and the year a page shows (2000–2100), typed or stepped; a cleared field keeps the year.
import { InputNumber, Space } from "antd";

export function YearField({ year, onChange }: { year: number; onChange: (year: number) => void }) {
  return (
    <Space>
      Год
      <InputNumber aria-label="Год" value={year} min={2000} max={2100} onChange={(v) => v && onChange(v)} />
    </Space>
  );
}
