// «Динамика» › what the company's latest abatement plan («Снижение выбросов», methodology section 11)
// would close of each target: its yearly reduction against what the latest year still has to reduce.
import { Card, Table, Typography } from "antd";
import { Link } from "react-router-dom";
import { useLatestAssessment } from "../../api/abatement";
import { targetClosures, type TargetProgress } from "../../shared/abatementTargets";
import { formatAmount } from "../../shared/format";

export function PlanClosureCard({ targets }: { targets: readonly TargetProgress[] }) {
  const latest = useLatestAssessment();
  if (!latest.data || targets.length === 0) return null;
  const plan = latest.data;
  const closures = targetClosures(targets, plan.result);
  return (
    <Card size="small" title="Что закроет план снижения выбросов" data-testid="plan-closure">
      <Typography.Paragraph style={{ marginTop: 0 }}>
        План <Link to={`/abatement?id=${plan.id}`}>«{plan.name}»</Link>: сокращение {formatAmount(plan.result.totals.er_t_co2e, 1)} т
        CO2-экв. в год.
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: "max-content" }}
        dataSource={closures}
        columns={[
          { title: "Цель", dataIndex: "name" },
          {
            title: "Осталось сократить",
            dataIndex: "remaining",
            align: "right",
            render: (v: number | null) => (v === null ? "—" : formatAmount(v, 1)),
          },
          { title: "План в год", dataIndex: "plan", align: "right", render: (v: number | null) => (v === null ? "—" : formatAmount(v, 1)) },
          {
            title: "Закрывает",
            dataIndex: "share_pct",
            align: "right",
            render: (v: number | null, row) =>
              v === null ? (row.note ?? "—") : `${formatAmount(Math.min(v, 100), 1)} %${v > 100 ? " (с запасом)" : ""}`,
          },
        ]}
      />
    </Card>
  );
}
