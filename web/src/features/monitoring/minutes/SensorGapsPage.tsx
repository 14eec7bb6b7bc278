// «Пропуски и замещения» of a sensor in a month (methodology D58, D60, D62): the month's minutes in
// service, valid, substituted and without data, and each gap with its start and end on the company's
// clock, its minutes, whether it was substituted or left «нет данных», by which rule of D60 (40 CFR
// 98.325(b)) and with which value, and why its minutes were not valid (no reading, out of range, stuck,
// a jump); each gap opens the sensor's day. The month is in the address (?month=ГГГГ-ММ).
import { Button, Card, Descriptions, Flex, Space, Tag, Typography, type TableColumnsType } from "antd";
import { Link, useParams } from "react-router-dom";
import { LIMITS } from "@server/contract";
import { ResponsiveTable } from "../../../shared/ResponsiveTable";
import { LoadError } from "../../../shared/LoadError";
import { displayDateTime } from "../../../shared/dates";
import { useUrlPage, useUrlQuery } from "../../../shared/urlState";
import { useSensorGaps, type SensorGaps } from "../../../api/monitoring";
import { sensorWhereText } from "../texts/sensorTexts";
import { SUBSTITUTION_RULE, causesText, complete, completenessText, minutesText, monthText, ruleText } from "./sensorDataTexts";
import { MonitoringHead } from "../MonitoringHead";

type Gap = SensorGaps["gaps"][number];
const two = (n: number) => String(n).padStart(2, "0");
/** This month on the user's clock, yyyy-MM. */
export const thisMonth = () => `${new Date().getFullYear()}-${two(new Date().getMonth() + 1)}`;
/** The month `step` months from `month`. */
export function shiftMonth(month: string, step: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + step;
  return `${Math.floor(index / 12)}-${two((index % 12) + 1)}`;
}
/** The company's date (yyyy-MM-dd) of an instant, as «Сутки» takes it. */
const dayOf = (iso: string) => displayDateTime(iso).slice(0, 10).split(".").reverse().join("-");

export default function SensorGapsPage() {
  const { facilityId = "", sensorId = "" } = useParams();
  const { params, update } = useUrlQuery();
  const asked = params.get("month") ?? "";
  const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(asked) ? asked : thisMonth();
  const { page, setPage } = useUrlPage();
  const size = LIMITS.monitoring.gapsPage;
  const data = useSensorGaps(facilityId, sensorId, month, page, size);
  const sensor = data.data?.sensor;
  const columns: TableColumnsType<Gap> = [
    { title: "Начало", dataIndex: "start", render: (t: string) => displayDateTime(t), width: 150 },
    { title: "Конец", dataIndex: "end", render: (t: string) => displayDateTime(t), width: 150 },
    { title: "Минут", dataIndex: "minutes", align: "right", render: minutesText, width: 90 },
    {
      title: "Итог",
      dataIndex: "state",
      width: 130,
      render: (state: Gap["state"]) => (state === "substituted" ? <Tag color="blue">Замещено</Tag> : <Tag color="red">Нет данных</Tag>),
    },
    { title: "Правило замещения", key: "rule", render: (_: unknown, g) => ruleText(g) },
    { title: "Причина", dataIndex: "flags", render: (flags: Gap["flags"]) => causesText(flags) },
    {
      title: "",
      key: "day",
      width: 80,
      render: (_: unknown, g) => <Link to={`/facilities/${facilityId}/sensors/${sensorId}/day?date=${dayOf(g.start)}`}>Сутки</Link>,
    },
  ];
  const go = (next: string) => update({ month: next, page: undefined });
  return (
    <Flex vertical gap={16}>
      <MonitoringHead title={`Пропуски и замещения${sensor ? `: ${sensor.code}` : ""}`} facilityId={facilityId} demo={data.data?.demo} />
      <Space wrap>
        <Button onClick={() => go(shiftMonth(month, -1))}>‹ Предыдущий месяц</Button>
        <Typography.Text strong data-testid="gaps-month">
          {monthText(month)}
        </Typography.Text>
        {/* A month not yet begun is not offered. */}
        <Button disabled={shiftMonth(month, 1) > thisMonth()} onClick={() => go(shiftMonth(month, 1))}>
          Следующий месяц ›
        </Button>
      </Space>
      {data.isError && <LoadError what="пропуски датчика" message={data.error.message} retry={() => data.refetch()} />}
      {data.data && (
        <Card title={sensor!.code}>
          <Typography.Paragraph type="secondary">{sensorWhereText(sensor!)}</Typography.Paragraph>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, lg: 3 }}
            items={[
              { key: "expected", label: "Минут в эксплуатации", children: minutesText(data.data.minutes.expected) },
              { key: "valid", label: "Достоверных", children: minutesText(data.data.minutes.valid) },
              { key: "substituted", label: "Замещенных", children: minutesText(data.data.minutes.substituted) },
              { key: "missing", label: "Нет данных", children: minutesText(data.data.minutes.missing) },
              {
                key: "completeness",
                label: "Полнота",
                children: `${completenessText(data.data.completeness)} (${complete(data.data.completeness) ? "не ниже 95 %" : "ниже 95 %"})`,
              },
              { key: "gap", label: "Наибольший пропуск", children: `${minutesText(data.data.longest_gap_min)} мин` },
            ]}
          />
        </Card>
      )}
      <Typography.Paragraph style={{ margin: 0 }}>{SUBSTITUTION_RULE}</Typography.Paragraph>
      <Card title={data.data ? `Пропуски: ${minutesText(data.data.count)}` : "Пропуски"}>
        {/* On a phone each gap is a block of «label: value» lines: its rule and reason were off-screen. */}
        <ResponsiveTable<Gap>
          size="small"
          rowKey="start"
          loading={data.isPending}
          scroll={{ x: 1000 }}
          columns={columns}
          dataSource={data.data?.gaps ?? []}
          locale={{ emptyText: "Пропусков нет: все минуты месяца достоверны" }}
          pagination={
            (data.data?.count ?? 0) > size
              ? { current: page, pageSize: size, total: data.data?.count, showSizeChanger: false, onChange: (next) => setPage(next) }
              : false
          }
        />
      </Card>
    </Flex>
  );
}
