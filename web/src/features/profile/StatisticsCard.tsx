import { Alert, Card, Descriptions, Spin, Typography } from "antd";
import { Link } from "react-router-dom";
import { useStatistics } from "../../api/profile";
import { calcTypeLabel } from "./calcTypeLabels";
import { displayDateTime } from "../../shared/dates";
import { usePhone } from "../../shared/useMediaQuery";

// docs/user-guide.md: results in tonnes show 2 decimals.
const tonnes = new Intl.NumberFormat("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function StatisticsCard() {
  const statistics = useStatistics();
  const data = statistics.data;
  // On a phone the 260 px label column squeezed the values to a character per line: labels go above.
  const phone = usePhone();

  const calculations = Object.entries(data?.calculations ?? {}).filter(([, count]) => count > 0);

  return (
    <Card title="Статистика">
      {statistics.isPending && <Spin />}
      {statistics.isError && <Alert type="error" showIcon title={statistics.error.message} />}
      {data && (
        <Descriptions
          column={1}
          bordered
          {...(phone ? ({ layout: "vertical" } as const) : { styles: { label: { width: 260 } } })}
          items={[
            { key: "active", label: "Активные проекты", children: data.projects?.active ?? 0 },
            { key: "archived", label: "Проекты в архиве", children: data.projects?.archived ?? 0 },
            {
              key: "calculations",
              label: "Расчеты",
              children:
                calculations.length === 0 ? (
                  "Расчетов пока нет"
                ) : (
                  <ul style={{ margin: 0, paddingLeft: 18 }}>
                    {calculations.map(([type, count]) => (
                      <li key={type}>
                        {calcTypeLabel(type)}: {count}
                      </li>
                    ))}
                  </ul>
                ),
            },
            {
              key: "co2e",
              label: "Выбросы по отчетным годам, т CO₂-экв.",
              // Per reporting year, primary calculations only, netted, at the year's GWP (the
              // inventory's own code, D26): a sum across years or methods would mean nothing.
              children:
                data.years.length === 0 ? (
                  "Расчетов, входящих в инвентаризацию, пока нет"
                ) : (
                  <ul style={{ margin: 0, paddingLeft: 18 }} data-testid="totals-by-year">
                    {[...data.years].reverse().map((y) => (
                      <li key={y.year}>
                        <Link to={`/inventory?year=${y.year}`}>{y.year}</Link>: {tonnes.format(y.total_t_co2e)}
                        {/* D32: an approved year's figure is its approved version's. */}
                        {y.approved_version !== undefined && (
                          <Typography.Text type="secondary"> (утвержденная версия {y.approved_version})</Typography.Text>
                        )}
                        {y.live_if_reopened_t_co2e !== undefined &&
                          tonnes.format(y.live_if_reopened_t_co2e) !== tonnes.format(y.total_t_co2e) && (
                            <Typography.Text type="warning"> если переоткрыть: {tonnes.format(y.live_if_reopened_t_co2e)}</Typography.Text>
                          )}
                        {/* D18: what the year's total left out. */}
                        {y.not_counted && <Typography.Text type="secondary"> ({y.not_counted})</Typography.Text>}
                      </li>
                    ))}
                  </ul>
                ),
            },
            {
              key: "left-out",
              label: "Не входят в итоги",
              // D18: the statistics count as the inventory does and say what they left out (the
              // totals themselves stay per reporting year above).
              children: (
                <span data-testid="statistics-left-out">
                  {data.not_counted ? data.not_counted.replace(/^не учтены?: /, "") : "все расчеты входят в итоги"}
                </span>
              ),
            },
            { key: "computed", label: "Данные на", children: displayDateTime(data.computed_at) },
          ]}
        />
      )}
    </Card>
  );
}
