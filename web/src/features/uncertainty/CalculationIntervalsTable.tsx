// Each calculation's Approach 1 interval on /projects/{projectId}/uncertainty. A chunk of its own
// (antd's Table), loaded with import() once the page has painted.
import { Table, type TableColumnsType } from "antd";
import { percent, tonnes, UNIT } from "../../shared/uncertainty/texts";

export interface CalculationRow {
  key: string;
  name: string;
  type: string;
  co2e: number;
  u_pct: number;
  lower: number;
  upper: number;
}

const calculationColumns: TableColumnsType<CalculationRow> = [
  { title: "Расчет", dataIndex: "name" },
  { title: "Тип расчета", dataIndex: "type" },
  { title: `Выбросы, ${UNIT}`, dataIndex: "co2e", width: 150, align: "right", render: (v: number) => tonnes(v) },
  { title: "± % (подход 1)", dataIndex: "u_pct", width: 120, align: "right", render: (v: number) => percent(v) },
  { title: "95 % интервал", key: "range", width: 260, render: (_: unknown, r) => `от ${tonnes(r.lower)} до ${tonnes(r.upper)}` },
];

export function CalculationIntervalsTable({ rows }: { rows: CalculationRow[] }) {
  return (
    <Table<CalculationRow>
      size="small"
      rowKey="key"
      columns={calculationColumns}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 900 }}
    />
  );
}
