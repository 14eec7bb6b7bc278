// D35: the drainage stations whose gas a flare, boiler or gas engine burns, picked in the dialog from
// the project's facility's stations. With one station the dialog names it and asks nothing (the
// inventory takes the gas off it by itself); with several, none picked shares the gas by each one's
// drained methane.
import { memo } from "react";
import { Form, Select, Typography } from "antd";
import { usePoints } from "../../api/inventory";

interface Props {
  facility: string;
  value: readonly string[] | undefined;
  /** The stations the stored calculation names (kept on offer even when archived). */
  stored: readonly string[] | undefined;
  onChange(points: string[]): void;
}

export const DrainageField = memo(function DrainageField({ facility, value, stored, onChange }: Props) {
  const points = usePoints(facility);
  const stations = (points.data ?? []).filter((p) => p.kind === "drainage_station" && (p.is_active || stored?.includes(p.id)));
  if (stations.length === 0) return null;
  if (stations.length === 1 && !stored?.length) {
    return (
      <Form.Item label="Газ с дегазационной установки">
        <Typography.Text data-testid="drainage-single">
          «{stations[0].name}» — единственная дегазационная установка площадки: сожженный метан вычитается из ее выброса
        </Typography.Text>
      </Form.Item>
    );
  }
  return (
    <Form.Item
      label="Газ с дегазационных установок"
      htmlFor="calc-drainage"
      extra={
        <Typography.Text type="secondary">
          Из выброса этих установок инвентаризация вычитает сожженный метан (из вентиляционных стволов — никогда). Если не указать, он
          делится между установками площадки пропорционально каптированному метану.
        </Typography.Text>
      }
    >
      <Select<string[]>
        id="calc-drainage"
        aria-label="Газ с дегазационных установок"
        mode="multiple"
        allowClear
        placeholder="Все установки площадки"
        loading={points.isPending}
        value={[...(value ?? [])]}
        options={stations.map((p) => ({ value: p.id, label: `${p.name}${p.is_active ? "" : " (в архиве)"}` }))}
        onChange={(chosen) => onChange(chosen)}
      />
    </Form.Item>
  );
});
