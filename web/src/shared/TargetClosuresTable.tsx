// The table of what an abatement plan would close of each of the company's targets (targetClosures):
// the same four columns under «Снижение выбросов» and under «Динамика».
import { ListTable } from "./LazyTable";
import type { TargetClosure } from "./abatementTargets";
import { formatAmount } from "./format";

const amount = (v: number | null) => (v === null ? "—" : formatAmount(v, 1));

export function TargetClosuresTable({ closures }: { closures: readonly TargetClosure[] }) {
  return (
    <ListTable<TargetClosure>
      rowKey="id"
      dataSource={closures}
      scroll={{ x: "max-content" }}
      columns={[
        { title: "Цель", dataIndex: "name" },
        { title: "Осталось сократить", dataIndex: "remaining", align: "right", render: amount },
        { title: "План в год", dataIndex: "plan", align: "right", render: amount },
        {
          title: "Закрывает",
          dataIndex: "share_pct",
          align: "right",
          render: (v: number | null, row) =>
            v === null ? (row.note ?? "—") : `${amount(Math.min(v, 100))} %${v > 100 ? " (с запасом)" : ""}`,
        },
      ]}
    />
  );
}
