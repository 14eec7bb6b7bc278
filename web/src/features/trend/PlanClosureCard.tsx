// «Динамика» › what the company's latest abatement plan («Снижение выбросов», methodology section 11)
// would close of each target: its yearly reduction against what the latest year still has to reduce.
import { Card, Typography } from "antd";
import { Link } from "react-router-dom";
import { useLatestAssessment } from "../../api/abatement";
import { targetClosures, type TargetProgress } from "../../shared/abatementTargets";
import { formatAmount } from "../../shared/format";
import { TargetClosuresTable } from "../../shared/TargetClosuresTable";

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
      <TargetClosuresTable closures={closures} />
    </Card>
  );
}
