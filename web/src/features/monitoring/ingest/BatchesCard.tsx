// «Загрузки АГК»: the facility's latest batches of readings, pushed by its gateway or
// uploaded as a dispatch file, newest first, each with its state and counts (lines, accepted, repeated,
// corrected, refused). A batch the server set aside
// after its retries says «не применена» with its reason, and its readings stored before are counted.
import { Tag, Typography, type TableColumnsType } from "antd";
import { useReadingsBatches, type ListedBatch } from "../../../api/monitoring";
import { displayDateTime } from "../../../shared/dates";
import { ListCard, QueryTable } from "../../../shared/QueryTable";

const count = (n: number) => n.toLocaleString("ru-RU");

/** The batch's state in words: «не применена: <причина>» for one set aside. */
export function batchStateText(batch: Pick<ListedBatch, "state" | "failure">): string {
  if (batch.state === "queued") return "в очереди";
  if (batch.state === "done") return "применена";
  return `не применена: ${batch.failure ?? "причина не указана"}`;
}

/** Where a batch came from: a dispatch file by its name; a push by a gateway's key or by a user's token
 *  (a user's push read «передача шлюза»); a push stored before senders were kept, «передача». */
export function batchSourceText(batch: Pick<ListedBatch, "file_name" | "sent_by">): string {
  if (batch.file_name) return `выгрузка «${batch.file_name}»`;
  if (!batch.sent_by) return "передача";
  return batch.sent_by.startsWith("ключ шлюза") ? "передача шлюза" : "передача пользователя";
}

function BatchState({ batch }: { batch: ListedBatch }) {
  if (batch.state === "failed") return <Typography.Text type="danger">{batchStateText(batch)}</Typography.Text>;
  return <Tag color={batch.state === "done" ? "green" : undefined}>{batchStateText(batch)}</Tag>;
}

const columns: TableColumnsType<ListedBatch> = [
  { title: "Получена", dataIndex: "received_at", render: (at: string) => displayDateTime(at) },
  {
    title: "Источник",
    key: "source",
    render: (_: unknown, b) => batchSourceText(b),
  },
  // D89: every batch names who sent it — a user, or the gateway key by its label.
  { title: "Отправил", key: "sent_by", render: (_: unknown, b) => b.sent_by ?? "—" },
  { title: "Состояние", key: "state", render: (_: unknown, b) => <BatchState batch={b} /> },
  { title: "Строк", dataIndex: "lines", align: "right", render: count },
  { title: "Принято", dataIndex: "accepted", align: "right", render: count },
  { title: "Повторы", dataIndex: "duplicate", align: "right", render: count },
  // a batch of corrections read «Строк 3, Принято 0, Повторы 0, Отклонено 0».
  { title: "Исправлено", dataIndex: "corrected", align: "right", render: count },
  { title: "Отклонено строк", dataIndex: "refused_count", align: "right", render: count },
];

export default function BatchesCard({ facility }: { facility: string }) {
  const batches = useReadingsBatches(facility);
  return (
    <ListCard
      title="Загрузки АГК"
      testId="readings-batches"
      intro="Последние пакеты показаний площадки: переданные шлюзом и загруженные выгрузки, новые сверху. Принятые показания пакета, который не удалось применить, сохранены и учтены."
    >
      <QueryTable<ListedBatch>
        query={batches}
        what="загрузки"
        empty="Показаний пока не поступало"
        width={900}
        rowKey="batch"
        columns={columns}
      />
    </ListCard>
  );
}
