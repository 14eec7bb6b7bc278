// «Проверить расчет» on a climate project's screen (DESIGN: the browser preview of
// section 13): the chosen day's stored minutes of the project's meters, folded into hours and
// evaluated here by the core's code (dayCheck.ts, loaded with the first check), shown as a period
// shows its hours — the same figures POST …/evaluate/ and a period over the day give. Nothing is stored.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Card, DatePicker, Flex, Form, Typography, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import type { Dayjs } from "dayjs";
import type { ClimateEvaluation } from "@core/climate-project";
import { LIMITS } from "@server/contract/schemas/limits";
import { DATE_FIELD_FORMATS, DATE_FORMAT, DATE_TYPED, displayDate } from "../../shared/dates";
import { fieldErrors } from "../../shared/fieldErrors";
import { climateDayMinutes } from "./api";
import { DeviationsTable, hourBlockColumns, hoursText, n, nowrap, T } from "./PeriodTables";

/** The day's readings fetched and the core's code loaded side by side, then the day evaluated. */
async function checked(project: string, date: string): Promise<{ date: string; result: ClimateEvaluation }> {
  const [day, { checkDay }] = await Promise.all([climateDayMinutes(project, date), import("./dayCheck")]);
  return { date, result: checkDay(day) };
}

/** Each device's hours of the day, the earliest first, a device's blocks in the plan's order. */
function hourRows(result: ClimateEvaluation) {
  return result.devices
    .flatMap((device, d) =>
      device.blocks.map((b, i) => ({
        key: `${d}-${i}`,
        order: d,
        device: device.id,
        label: b.label,
        repeat: b.repeat,
        valid: b.valid,
        m_ch4_t: b.m_ch4_t,
        eta: b.eta,
        eta_basis: b.eta_basis,
        destroyed: b.m_ch4_t * (b.eta ?? 0),
        er: b.er_ch4_t_co2e,
      })),
    )
    .sort((a, b) => a.label.slice(0, 13).localeCompare(b.label.slice(0, 13)) || a.order - b.order);
}

type Row = ReturnType<typeof hourRows>[number];

const COLUMNS: TableColumnsType<Row> = [
  { title: "Часы", dataIndex: "label", onCell: nowrap, render: (label: string) => hoursText(label) },
  { title: "Устройство", dataIndex: "device" },
  ...hourBlockColumns<Row>(),
  { title: "Метан уничтожен, т/ч", dataIndex: "destroyed", align: "right", onCell: nowrap, render: (v: number) => n(v, 6) },
  { title: `ER, ${T}/ч`, dataIndex: "er", align: "right", onCell: nowrap, render: (v: number) => n(v, 6) },
];

function DayResult({ date, result }: { date: string; result: ClimateEvaluation }) {
  const rows = hourRows(result);
  const destroyed = result.devices.reduce((sum, d) => sum + d.summary.m_ch4_destroyed_t, 0);
  // The methane's reduction alone: a day's electricity is credited against a grid factor the period states.
  const er = result.devices.reduce((sum, d) => sum + d.summary.er_ch4, 0);
  return (
    <Flex vertical gap={12} data-testid="climate-day-check-result">
      <Typography.Paragraph style={{ margin: 0 }}>
        {displayDate(date)}: метан, направленный на устройства, {n(result.totals.m_ch4_t, 6)} т, уничтожен {n(destroyed, 6)} т; ER метана{" "}
        {n(er, 6)} {T}
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="key"
        columns={COLUMNS}
        dataSource={rows}
        pagination={rows.length > LIMITS.page.climateHours ? { pageSize: LIMITS.page.climateHours, showSizeChanger: false } : false}
        scroll={{ x: 860 }}
      />
      <Typography.Title level={5} style={{ margin: 0 }}>
        Отклонения
      </Typography.Title>
      <DeviationsTable deviations={result.deviations} />
    </Flex>
  );
}

export function ClimateDayCheck({ project }: { project: string }) {
  const [form] = Form.useForm<{ date?: Dayjs }>();
  const check = useMutation({ mutationFn: (date: string) => checked(project, date) });
  const [refusal, setRefusal] = useState<string>();
  const submit = ({ date }: { date?: Dayjs }) => {
    setRefusal(undefined);
    check.mutate((date as Dayjs).format(DATE_FORMAT), {
      onError: (error) => {
        const problems = fieldErrors(error, ["date"] as const);
        if (problems) form.setFields(problems);
        else setRefusal(error.message);
      },
    });
  };
  return (
    <Card size="small" title="Проверка расчета за день" data-testid="climate-day-check">
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        Часы выбранного дня по сохраненным показаниям датчиков проекта, рассчитанные в браузере так же, как сервер рассчитывает отчетный
        период. Ничего не сохраняется.
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Flex wrap gap={12} align="end">
          <Form.Item label="День" name="date" rules={[{ required: true, message: `Укажите дату: ${DATE_TYPED}` }]}>
            <DatePicker format={DATE_FIELD_FORMATS} placeholder={DATE_TYPED} />
          </Form.Item>
          <Form.Item>
            <Button htmlType="submit" loading={check.isPending}>
              Проверить расчет
            </Button>
          </Form.Item>
        </Flex>
      </Form>
      {refusal && <Alert type="error" showIcon message={refusal} />}
      {check.data && !check.isPending && <DayResult date={check.data.date} result={check.data.result} />}
    </Card>
  );
}
