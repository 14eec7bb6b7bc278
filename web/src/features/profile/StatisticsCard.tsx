import { Alert, Card, Descriptions, Spin } from "antd";
import { useStatistics } from "./api";
import { calcTypeLabel } from "./calcTypeLabels";
import { displayDateTime } from "../../shared/dates";

// SPEC 9: results in tonnes show 2 decimals.
const tonnes = new Intl.NumberFormat("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function StatisticsCard() {
  const statistics = useStatistics();
  const data = statistics.data;

  const calculations = Object.entries(data?.calculations ?? {}).filter(([, count]) => count > 0);

  return (
    <Card title="Статистика">
      {statistics.isPending && <Spin />}
      {statistics.isError && <Alert type="error" showIcon title={statistics.error.message} />}
      {data && (
        <Descriptions
          column={1}
          bordered
          styles={{ label: { width: 260 } }}
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
              label: "Суммарные выбросы, т CO₂-экв.",
              children: tonnes.format(Number(data.total_co2e) || 0),
            },
            { key: "computed", label: "Данные на", children: displayDateTime(data.computed_at) },
          ]}
        />
      )}
    </Card>
  );
}
