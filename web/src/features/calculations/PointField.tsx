// D25: the emission point of the project's facility a measured or destruction calculation belongs
// to (a ventilation shaft, a drainage station, a flare, a boiler), picked in the dialog from the
// facility's points; the archived ones are offered only when the calculation already names one.
import { memo } from "react";
import { Form, Select, Typography } from "antd";
import { emissionPointKindInText } from "@core/inventory";
import { usePoints } from "../../api/inventory";

interface Props {
  facility: string;
  value: string | undefined;
  /** The point the stored calculation names (kept on offer even when archived). */
  stored: string | undefined;
  onChange(point: string | undefined): void;
}

export const PointField = memo(function PointField({ facility, value, stored, onChange }: Props) {
  const points = usePoints(facility);
  const options = (points.data ?? [])
    .filter((p) => p.is_active || p.id === stored)
    .map((p) => ({ value: p.id, label: `${p.name} — ${emissionPointKindInText(p.kind)}${p.is_active ? "" : " (в архиве)"}` }));
  return (
    <Form.Item
      label="Источник выбросов"
      htmlFor="calc-point"
      extra={
        <Typography.Text type="secondary">
          Вентиляционный ствол и дегазационная установка — разные источники; их добавляют на странице «Профиль» → «Площадки» → «Источники
          выбросов». Без источника расчет относится ко всей площадке.
        </Typography.Text>
      }
    >
      <Select<string>
        id="calc-point"
        aria-label="Источник выбросов"
        allowClear
        placeholder="Вся площадка"
        loading={points.isPending}
        value={value}
        options={options}
        onChange={(point) => onChange(point ?? undefined)}
        notFoundContent="У площадки нет источников выбросов"
      />
    </Form.Item>
  );
});
