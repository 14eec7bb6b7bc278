// «Сверка с выгрузкой АГК»: the mine's dispatch export (the file «Загрузить выгрузку АГК»
// takes) sent straight to storage and compared with the stored readings, nothing of it stored; followed
// until the server's job is done, then its counts, a row per sensor and day on the company's clock (the
// first readings that differ under each row), the differences as an xlsx and «Догрузить недостающие»:
// one batch of the missing readings from the file, applied as a push is. A file not read, or read in part,
// says so with its first refusals and what to change, never a match. Loaded when opened.
import { useState } from "react";
import { Alert, Button, Descriptions, Flex, Space, Spin, Typography, type TableColumnsType } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { DISPATCH_TIME_FORMATS, DISPATCH_VALUE_FORMATS, fileSize, LIMITS } from "@server/contract";
import {
  downloadReconciliationXlsx,
  reconciliationUpload,
  useFillReconciliation,
  useReconciliation,
  useReadingsBatch,
  type Reconciliation,
} from "../../../api/monitoring";
import { ListTable } from "../../../shared/LazyTable";
import { ResponsiveTable } from "../../../shared/ResponsiveTable";
import { refusalText } from "../../../shared/UploadRead";
import { displayDate, displayDateTime } from "../../../shared/dates";
import { ExportSendModal, RefusedLines, useExportSend } from "./DispatchFileDialog";
import { number } from "../texts/sensorTexts";

const count = (n: number) => n.toLocaleString("ru-RU");
type Day = Reconciliation["days"][number];
type Example = Day["examples"][number];

/** The counts' words, as the table's columns and the summary say them. */
const COUNTS = [
  { key: "in_file", label: "В выгрузке" },
  { key: "stored", label: "В хранилище" },
  { key: "missing", label: "Нет в хранилище" },
  { key: "extra", label: "Нет в выгрузке" },
  { key: "different", label: "Другое значение" },
] as const;

/** A reading's time with its seconds, on the company's clock. */
function readingTime(t: string): string {
  const seconds = t.slice(17, 19);
  return `${displayDateTime(t)}${seconds && seconds !== "00" ? `:${seconds}` : ""}`;
}

const dayColumns: TableColumnsType<Day> = [
  { title: "Датчик", dataIndex: "sensor_code", render: (code: string) => <Typography.Text strong>{code}</Typography.Text> },
  { title: "Дата", dataIndex: "day", render: (day: string) => displayDate(day) },
  ...COUNTS.map(({ key, label }) => ({
    title: label,
    dataIndex: key,
    align: "right" as const,
    render: (n: number) =>
      n > 0 && key !== "in_file" && key !== "stored" ? <Typography.Text type="danger">{count(n)}</Typography.Text> : count(n),
  })),
];

function Examples({ day }: { day: Day }) {
  const shown = day.missing + day.extra + day.different;
  return (
    <Flex vertical gap={4}>
      <ListTable<Example>
        rowKey="t"
        aria-label={`Расхождения ${day.sensor_code} за ${displayDate(day.day)}`}
        columns={[
          { title: "Время", dataIndex: "t", render: readingTime },
          { title: "В выгрузке", dataIndex: "file", align: "right", render: (v: number | null) => (v === null ? "нет" : number(v)) },
          { title: "В хранилище", dataIndex: "stored", align: "right", render: (v: number | null) => (v === null ? "нет" : number(v)) },
        ]}
        dataSource={day.examples}
      />
      {shown > day.examples.length && (
        <Typography.Text type="secondary">
          Показаны первые {count(day.examples.length)} из {count(shown)}: все расхождения — в файле xlsx.
        </Typography.Text>
      )}
    </Flex>
  );
}

function FillResult({ batch }: { batch: string }) {
  const status = useReadingsBatch(batch);
  if (status.isError) return <Alert type="error" showIcon role="alert" title={refusalText(status.error)} />;
  if (!status.data || status.data.state === "queued")
    return (
      <Flex gap={12} align="center" role="status">
        <Spin />
        <span>Недостающие показания загружаются…</span>
      </Flex>
    );
  if (status.data.state === "failed")
    return <Alert type="error" showIcon role="alert" title={`Догрузка не применена: ${status.data.failure ?? "причина не указана"}`} />;
  return (
    <Alert
      type="success"
      showIcon
      role="status"
      title={`Догружено: принято ${count(status.data.accepted)} из ${count(status.data.lines)} показаний. Сверьте выгрузку еще раз, чтобы убедиться.`}
    />
  );
}

/** How many of a file's refusals the verdict names; the table below lists them all. */
const REASONS_SHOWN = 3;

/** The tail of a time the reader does not take: its formats, said once under the reasons. */
const TIME_FORMATS_TAIL = ` не в формате: ${DISPATCH_TIME_FORMATS}`;

/** A refusal as the summary lists it: a time's formats left for the line under the list. */
export const shortReason = (reason: string) =>
  reason.endsWith(TIME_FORMATS_TAIL) ? `${reason.slice(0, -TIME_FORMATS_TAIL.length)} не в формате` : reason;

/** what the file's refusals say to do, with the first of them; the formats each once. */
function Unread({ result }: { result: Reconciliation }) {
  const shown = result.refused.slice(0, REASONS_SHOWN);
  const times = shown.some((r) => r.reason.endsWith(TIME_FORMATS_TAIL));
  return (
    <Flex vertical gap={4}>
      <ul style={{ margin: 0, paddingInlineStart: 20 }}>
        {shown.map((r) => (
          <li key={`${r.line}|${r.reason}`}>
            Строка {count(r.line)}: {shortReason(r.reason)}
          </li>
        ))}
      </ul>
      <span>
        {`Что изменить: исправьте в выгрузке строки с этими причинами, как сказано в них (${times ? `время — ${DISPATCH_TIME_FORMATS}; ` : ""}значения — ${DISPATCH_VALUE_FORMATS}; коды датчиков — как в реестре датчиков площадки), и сверьте ее заново.`}
        {result.refused_count > REASONS_SHOWN && " Все не прочитанные строки — в таблице ниже."}
      </span>
    </Flex>
  );
}

/** The verdict: a file not read, or read in part, is said so and never shown as a match. */
function VerdictAlert({ result }: { result: Reconciliation }) {
  const { totals } = result;
  const said = COUNTS.filter((c) => c.key !== "in_file" && c.key !== "stored" && totals[c.key] > 0).map(
    (c) => `${c.label.toLowerCase()}: ${count(totals[c.key])}`,
  );
  const found = said.length > 0 ? `найдены расхождения; ${said.join(", ")}` : "расхождений в нем нет";
  if (result.verdict === "unread")
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title="Выгрузка не прочитана: ни одно показание не сверено"
        description={<Unread result={result} />}
      />
    );
  if (result.verdict === "partly_read")
    return (
      <Alert
        type="warning"
        showIcon
        role="status"
        title={`Выгрузка прочитана не вся: не прочитано строк и значений — ${count(result.refused_count)}; сверено только прочитанное, ${found}`}
        description={<Unread result={result} />}
      />
    );
  return said.length > 0 ? (
    <Alert type="warning" showIcon role="status" title={`Найдены расхождения; ${said.join(", ")}`} />
  ) : (
    <Alert type="success" showIcon role="status" title="Расхождений нет: все показания выгрузки есть в хранилище" />
  );
}

/** Rows of sensor and day a page of the table shows, each page read from the server. */
const DAYS_PAGE = LIMITS.page.batchRefused;

function ResultView({ result, page, onPage }: { result: Reconciliation; page: number; onPage: (page: number) => void }) {
  const fill = useFillReconciliation(result.id);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string>();
  const { totals } = result;
  const differences = totals.missing + totals.extra + totals.different;
  const batch = result.fill?.batch ?? fill.data?.batch;
  return (
    <Flex vertical gap={8}>
      <VerdictAlert result={result} />
      {result.detail && <Alert type="warning" showIcon title={result.detail} />}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        items={[
          {
            key: "period",
            label: "Период выгрузки",
            children: result.from && result.to ? `${readingTime(result.from)} – ${readingTime(result.to)}` : "нет показаний",
          },
          ...COUNTS.map(({ key, label }) => ({ key, label, children: count(totals[key]) })),
          ...(result.refused_count > 0
            ? [{ key: "refused", label: "Не прочитано строк и значений", children: count(result.refused_count) }]
            : []),
          // the stored readings at those lines' instants: not compared, not «нет в выгрузке».
          ...(totals.unread
            ? [{ key: "unread", label: "Не сверено показаний хранилища (строки выгрузки не прочитаны)", children: count(totals.unread) }]
            : []),
        ]}
      />
      <Space wrap>
        <Button
          icon={<DownloadOutlined />}
          disabled={!differences}
          loading={downloading}
          onClick={async () => {
            setDownloading(true);
            setDownloadError(undefined);
            try {
              await downloadReconciliationXlsx(result.id);
            } catch (error) {
              setDownloadError(refusalText(error));
            } finally {
              setDownloading(false);
            }
          }}
        >
          Расхождения (xlsx)
        </Button>
        {totals.missing > 0 && (
          <Button type="primary" disabled={Boolean(batch)} loading={fill.isPending} onClick={() => fill.mutate()}>
            Догрузить недостающие ({count(totals.missing)})
          </Button>
        )}
      </Space>
      {downloadError && <Alert type="error" showIcon role="alert" title={downloadError} />}
      {fill.isError && <Alert type="error" showIcon role="alert" title={refusalText(fill.error)} />}
      {batch && <FillResult batch={batch} />}
      <ResponsiveTable<Day>
        size="small"
        rowKey={(d) => `${d.sensor}|${d.day}`}
        aria-label="Сверка по датчикам и дням"
        columns={dayColumns}
        dataSource={result.days}
        expandable={{
          rowExpandable: (d) => d.examples.length > 0,
          expandedRowRender: (d) => <Examples day={d} />,
        }}
        pagination={
          result.days_count > DAYS_PAGE
            ? { current: page, pageSize: DAYS_PAGE, total: result.days_count, onChange: onPage, showSizeChanger: false }
            : false
        }
      />
      {result.refused.length > 0 && <RefusedLines refused={result.refused} label="Не прочитанные строки" />}
    </Flex>
  );
}

export default function ReconciliationDialog({ facility, onClose }: { facility: string; onClose: () => void }) {
  const sending = useExportSend((name) => reconciliationUpload(facility, name));
  const { send } = sending;
  const [page, setPage] = useState(1);
  const result = useReconciliation(send.data?.id, (page - 1) * DAYS_PAGE, DAYS_PAGE);
  const state = result.data?.state;
  return (
    <ExportSendModal
      sending={sending}
      facility={facility}
      width={1000}
      title="Сверка с выгрузкой АГК"
      okText="Сверить"
      testId="chosen-reconciliation-file"
      onClose={onClose}
      intro={
        <>
          Выгрузка диспетчерской системы в том же формате, что и для «Загрузить выгрузку АГК» (CSV, не больше{" "}
          {fileSize(LIMITS.monitoring.fileBytes)}
          ), сравнивается с показаниями в хранилище по каждому датчику от первого до последнего его показания в файле. Выгрузка при этом не
          загружается.
        </>
      }
    >
      {result.isError && <Alert type="error" showIcon role="alert" title={refusalText(result.error)} />}
      {send.isSuccess && !result.isError && (state === undefined || state === "queued" || state === "running") && (
        <Flex gap={12} align="center" role="status">
          <Spin />
          <span>{state === "running" ? "Показания сверяются…" : "Сверка в очереди…"}</span>
        </Flex>
      )}
      {state === "failed" && (
        <Alert type="error" showIcon role="alert" title={`Сверка не выполнена: ${result.data?.detail ?? "причина не указана"}`} />
      )}
      {state === "done" && result.data && <ResultView result={result.data} page={page} onPage={setPage} />}
    </ExportSendModal>
  );
}
