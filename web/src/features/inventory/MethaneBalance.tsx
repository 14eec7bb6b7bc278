// D17: the methane balance of each underground mine of the year, t CH4: released (gross and net
// figures), sent to flares and use, destroyed, and emitted, which is what the mining line
// (1.B.1.a.i.1) carries; with a Sankey diagram per facility (plotly's strict bundle, lazily).
import { useMemo } from "react";
import { Card, Flex, Typography, type TableColumnsType } from "antd";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { formatResult } from "../../shared/decimals";
import { Chart } from "../../shared/charts/Chart";
import type { Inventory } from "../../api/inventory";
import { methaneSankeyFigure } from "../../shared/charts/methane-sankey";
import { SankeyLegend } from "../../shared/charts/SankeyLegend";
import { usePhone } from "../../shared/useMediaQuery";

type BalanceRow = Inventory["balance"][number];
const tonnes = (value: number) => formatResult(value, 2);
const number = (title: string, key: keyof BalanceRow) => ({
  title,
  dataIndex: key,
  align: "right" as const,
  width: 140,
  render: (v: number | undefined) => (v === undefined ? "—" : tonnes(v)),
});

const columns = (byStream: boolean): TableColumnsType<BalanceRow> => [
  { title: "Площадка", dataIndex: "facility_name" },
  number("Выделилось, т CH4", "released_t"),
  // D25: by stream, where the calculations name emission points.
  ...(byStream ? [number("Вентиляция (в атмосферу), т CH4", "ventilation_t"), number("Дегазация (каптировано), т CH4", "drained_t")] : []),
  number("На факелы, т CH4", "flared_t"),
  number("На утилизацию, т CH4", "used_t"),
  number("Уничтожено, т CH4", "destroyed_t"),
  ...(byStream ? [number("Дегазация без сжигания, т CH4", "drained_vented_t")] : []),
  number("Выброшено, т CH4", "emitted_t"),
];

export function MethaneBalance({ balance }: { balance: Inventory["balance"] }) {
  // A phone numbers the nodes and names them under the chart.
  const phone = usePhone();
  const figures = useMemo(() => balance.map((row) => ({ row, figure: methaneSankeyFigure(row, phone) })), [balance, phone]);
  if (balance.length === 0) return null;
  return (
    <Card title="Баланс метана шахт" size="small" data-testid="methane-balance">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          Выброшено = выброшено без сжигания (вентиляция, дегазация) + несгоревший на факелах метан + выбросы после добычи: валовый выброс
          при добыче уменьшен на метан, направленный на факелы и утилизацию. Несгоревший на факеле метан учитывается в строке сжигания в
          факелах.
        </Typography.Text>
        <ResponsiveTable<BalanceRow>
          rowKey={(r) => r.facility ?? "none"}
          size="small"
          pagination={false}
          scroll={{ x: 800 }}
          columns={columns(balance.some((row) => row.streams !== undefined))}
          dataSource={balance}
        />
        {figures.map(({ row, figure: { legend, ...figure } }) => (
          <Flex vertical gap={8} key={row.facility ?? "none"}>
            <Chart
              figure={{ title: `Потоки метана: ${row.facility_name}, т CH4`, fileName: `Баланс метана ${row.facility_name}`, ...figure }}
              height={300}
              strict
              testId="methane-sankey"
            />
            <SankeyLegend items={legend} />
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
