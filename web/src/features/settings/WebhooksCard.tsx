// «Вебхуки» of /settings: the URLs the company's monitoring events are posted to, signed with
// each webhook's secret (shown once, when it is added), each one's deliveries with their attempts, and
// removal. Advisory: protective cut-off stays with the mine's own АГК.
import { lazy, Suspense, useState } from "react";
import { Alert, Button, Flex, Popconfirm, Space, Tag, Typography, type TableColumnsType } from "antd";
import { ADVISORY_NOTE } from "@core/monitoring";
import { LIMITS } from "@server/contract";
import { AddLine } from "../../shared/AddLine";
import { ListCard, QueryTable } from "../../shared/QueryTable";
import { displayDateTime } from "../../shared/dates";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useWebhookDeliveries,
  useWebhooks,
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
} from "../../api/webhooks";

// The secret's dialog loads when a webhook is added.
const SecretDialog = lazy(() => import("./WebhookSecretDialog"));

const STATES: Record<WebhookDelivery["state"], { text: string; color: string }> = {
  delivered: { text: "Доставлено", color: "green" },
  pending: { text: "Ожидает повтора", color: "gold" },
  failed: { text: "Не доставлено", color: "red" },
};

export function WebhooksCard() {
  const hooks = useWebhooks();
  const create = useCreateWebhook();
  const remove = useDeleteWebhook();
  const [made, setMade] = useState<CreatedWebhook | null>(null);
  const [shown, setShown] = useState<Webhook | undefined>();
  const columns: TableColumnsType<Webhook> = [
    { title: "Название", dataIndex: "label", render: (v: string) => v || "—" },
    {
      title: "Адрес приемника",
      dataIndex: "url",
      render: (v: string) => <Typography.Text style={{ wordBreak: "break-all" }}>{v}</Typography.Text>,
    },
    { title: "Начало секрета", dataIndex: "secret_prefix", render: (v: string) => <Typography.Text code>{v}…</Typography.Text> },
    { title: "Добавлен", key: "created", render: (_: unknown, h) => `${displayDateTime(h.created_at)}, ${h.created_by}` },
    {
      title: "",
      key: "actions",
      width: 220,
      render: (_: unknown, h) => (
        <Space>
          <Button size="small" onClick={() => setShown(shown?.id === h.id ? undefined : h)}>
            {shown?.id === h.id ? "Скрыть журнал" : "Журнал"}
          </Button>
          <Popconfirm
            title={`Удалить вебхук «${h.label || h.url}»?`}
            description="События больше не будут отправляться на этот адрес."
            okText="Удалить"
            cancelText="Отмена"
            onConfirm={() => remove.mutate(h, { onSuccess: () => shown?.id === h.id && setShown(undefined) })}
          >
            <Button size="small" danger>
              Удалить
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <ListCard
      title="Вебхуки"
      style={{ marginTop: 24 }}
      intro={
        <>
          События мониторинга (превышения уровней, нет данных, прогноз превышения) отправляются на адрес приемника в формате JSON при
          открытии и при закрытии события, каждое один раз: заголовок «Idempotency-Key» — ключ события, «X-Signature» — подпись HMAC-SHA256
          секретом вебхука по времени и телу («t=…,v1=…»). Если приемник не ответил, отправка повторяется через 10 с, 30 с, 2 мин и дольше,
          до 12 ч. Секрет показывается один раз, когда вебхук добавлен.
        </>
      }
      note={<Alert type="info" showIcon title={ADVISORY_NOTE} />}
      failure={create.error ?? remove.error}
    >
      <QueryTable<Webhook> query={hooks} what="вебхуки" empty="Вебхуков пока нет" width={900} rowKey="id" columns={columns} />
      <AddLine
        wrap
        style={{ maxWidth: 900 }}
        fields={[
          { label: "Адрес приемника", placeholder: "https://…", maxLength: LIMITS.webhooks.url, style: { flex: "2 1 320px" } },
          { label: "Название вебхука", placeholder: "Диспетчерская", maxLength: LIMITS.webhooks.label, style: { flex: "1 1 200px" } },
        ]}
        button="Добавить вебхук"
        onAdd={([url, label]) => create.mutateAsync({ url: url.trim(), label: label.trim() }).then(setMade)}
      />
      {shown && <Deliveries hook={shown} />}
      {made && (
        <Suspense>
          <SecretDialog made={made} onClose={() => setMade(null)} />
        </Suspense>
      )}
    </ListCard>
  );
}

function Deliveries({ hook }: { hook: Webhook }) {
  const deliveries = useWebhookDeliveries(hook.id);
  const columns: TableColumnsType<WebhookDelivery> = [
    { title: "Событие с", dataIndex: "event_start", render: (v: string) => displayDateTime(v) },
    { title: "Сообщение", dataIndex: "event_state", render: (v: string) => (v === "open" ? "открыто" : "закрыто") },
    {
      title: "Состояние",
      dataIndex: "state",
      render: (v: WebhookDelivery["state"]) => <Tag color={STATES[v].color}>{STATES[v].text}</Tag>,
    },
    { title: "Попыток", dataIndex: "attempts", align: "right" },
    {
      title: "Последний ответ",
      key: "last",
      render: (_: unknown, d) => (d.attempts === 0 ? "—" : d.last_status ? `HTTP ${d.last_status}` : `нет ответа: ${d.last_error}`),
    },
    {
      title: "Когда",
      key: "when",
      render: (_: unknown, d) =>
        d.delivered_at
          ? `доставлено ${displayDateTime(d.delivered_at)}`
          : d.next_at
            ? `следующая попытка ${displayDateTime(d.next_at)}`
            : "—",
    },
  ];
  return (
    <Flex vertical gap={8}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        Журнал доставок: {hook.label || hook.url}
      </Typography.Title>
      <QueryTable<WebhookDelivery>
        query={deliveries}
        what="журнал доставок"
        empty="Отправок пока не было"
        width={800}
        rowKey="key"
        columns={columns}
      />
    </Flex>
  );
}
