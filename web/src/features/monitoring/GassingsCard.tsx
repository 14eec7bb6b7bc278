// The gassings of a day (issue 99) as «Журнал оператора АГК» and «События» list them: when, where,
// which sensors, «общее» or «местное» in words beside its colour, the maximum, and the dispatcher's
// registration (whom they informed, who and when, closed or not) with its dialog.
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Card, Space, Tag, Typography, Button, type TableColumnsType } from "antd";
import { NOTIFICATIONS } from "@core/monitoring-events";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { displayDateTime } from "../../shared/dates";
import type { Gassing } from "../../api/journal";
import { number } from "./offerTexts";

// The registration's dialog loads when opened.
const RegisterGassingDialog = lazy(() => import("./RegisterGassingDialog"));

const KIND_COLOURS: Record<Gassing["kind"], string> = { общее: "red", местное: "orange" };

function registrationText(g: Gassing) {
  const ticked = NOTIFICATIONS.filter((n) => g.notified[n]).length;
  if (g.closed)
    return (
      <Space direction="vertical" size={0}>
        <Typography.Text>
          Закрыто: {g.closed_by}, {displayDateTime(g.closed_at)}
        </Typography.Text>
        {g.comment && <Typography.Text type="secondary">«{g.comment}»</Typography.Text>}
      </Space>
    );
  if (!g.registered_by)
    return (
      <Typography.Text strong type="danger">
        Не зарегистрировано
      </Typography.Text>
    );
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text>
        Зарегистрировал {g.registered_by}, {displayDateTime(g.registered_at)}
      </Typography.Text>
      <Typography.Text type="secondary">
        оповещены {ticked} из {NOTIFICATIONS.length}
        {g.comment ? `; «${g.comment}»` : ""}
      </Typography.Text>
    </Space>
  );
}

export function GassingsCard({
  facility,
  title,
  gassings,
  loading,
  extra,
}: {
  facility: string;
  title: string;
  gassings: readonly Gassing[];
  loading: boolean;
  extra?: ReactNode;
}) {
  const [registering, setRegistering] = useState<Gassing | null>(null);
  const columns: TableColumnsType<Gassing> = [
    {
      title: "Начало",
      dataIndex: "start",
      width: 130,
      // Issue 105: one begun before the day listed is in force in it, carried over.
      render: (v: string, g) => (
        <Space direction="vertical" size={0}>
          {displayDateTime(v)}
          {g.carried_over && <Tag>перешло с прошлых суток</Tag>}
        </Space>
      ),
    },
    {
      title: "Конец",
      dataIndex: "end",
      width: 130,
      render: (v: string | null) => (v ? displayDateTime(v) : <Typography.Text strong>продолжается</Typography.Text>),
    },
    {
      title: "Участок, выработка",
      key: "where",
      render: (_: unknown, g) => [g.section !== g.working ? g.section : "", g.working].filter(Boolean).join(": ") || "без выработки",
    },
    { title: "Датчики", dataIndex: "sensors", render: (v: string[]) => v.join(", ") },
    { title: "Вид", dataIndex: "kind", width: 100, render: (v: Gassing["kind"]) => <Tag color={KIND_COLOURS[v]}>{v}</Tag> },
    { title: "Макс., % об.", dataIndex: "max", align: "right", width: 80, render: (v: number) => number(v, 2) },
    {
      title: "Допустимо, % об.",
      dataIndex: "limits",
      align: "right",
      width: 100,
      render: (v: number[]) => [...new Set(v)].map((l) => number(l, 2)).join("; "),
    },
    {
      title: "Регистрация",
      key: "registration",
      width: 280,
      render: (_: unknown, g) => (
        <Space direction="vertical" size={4}>
          {registrationText(g)}
          {!g.closed && (
            <Button size="small" onClick={() => setRegistering(g)}>
              {g.registered_by ? "Оповещения, закрыть" : "Зарегистрировать"}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Card title={title}>
      {extra && <div style={{ marginBottom: 12 }}>{extra}</div>}
      <ResponsiveTable<Gassing>
        rowKey="id"
        size="small"
        pagination={false}
        loading={loading}
        scroll={{ x: 1000 }}
        columns={columns}
        dataSource={gassings as Gassing[]}
        locale={{ emptyText: "Загазирований нет" }}
      />
      {registering && (
        <Suspense>
          <RegisterGassingDialog facility={facility} gassing={registering} onClose={() => setRegistering(null)} />
        </Suspense>
      )}
    </Card>
  );
}
