// «Загрузить выгрузку АГК» (D57): the dispatch system's export (CSV in Windows-1251 or UTF-8, «;»)
// sent straight to storage with upload progress (directUpload.ts), stored as one batch, then followed
// while the readings' consumer applies it: its state read again until «done», then the counts and
// every refused line with its number and reason, a page at a time; a file set aside after its
// retries says «не применена» with the reason, its stored readings counted. Loaded when opened.
import { type ReactNode, useState } from "react";
import { Alert, Button, Descriptions, Flex, Modal, Progress, Spin, Typography, Upload } from "antd";
import { DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import { DISPATCH_TIME_FORMATS, DISPATCH_VALUE_FORMATS, fileSize, LIMITS } from "@server/contract";
import { dispatchFileUpload, downloadDispatchTemplate, useReadingsBatch, type ReadingsBatch } from "../../../api/monitoring";
import { phaseText, uploadDirect, type DirectUpload, type UploadPhase } from "../../../api/directUpload";
import { ChosenFile, useFileChoice } from "../../../shared/FileChoice";
import { ListTable } from "../../../shared/LazyTable";
import { refusalText } from "../../../shared/UploadRead";

const FILE_BYTES = LIMITS.monitoring.fileBytes;
const count = (n: number) => n.toLocaleString("ru-RU");

/** Why a chosen file cannot be sent, before anything is uploaded. */
export function dispatchFileProblem(file: File): string | undefined {
  if (!/\.(csv|txt)$/i.test(file.name)) return "Загрузите выгрузку АГК в формате CSV (.csv)";
  if (file.size === 0) return "Файл пуст";
  if (file.size > FILE_BYTES) return `Файл больше ${fileSize(FILE_BYTES)}`;
  return undefined;
}

type Refused = ReadingsBatch["refused"][number];

/** a file's refusals counted apart — values refused (the rest of their lines read), lines
 *  refused whole, lines cut short (the cells they have read) — where the batch counts them; else its
 *  refused lines as listed. */
function refusalCounts(batch: ReadingsBatch): { key: string; label: string; n: number }[] {
  if (batch.refused_values === undefined && batch.refused_lines === undefined && batch.incomplete_lines === undefined) {
    return [{ key: "refused", label: "Отклонено строк", n: batch.refused.length }];
  }
  return [
    { key: "refused_values", label: "Отклонено значений (остальные значения строки приняты)", n: batch.refused_values ?? 0 },
    { key: "refused_lines", label: "Отклонено строк целиком", n: batch.refused_lines ?? 0 },
    { key: "incomplete_lines", label: "Неполных строк (прочитано то, что в них есть)", n: batch.incomplete_lines ?? 0 },
  ];
}

/** An export chosen, then sent: «Выбрать файл» and the file with its problem until the upload starts,
 *  then its name; the upload's phase and progress. */
export function ExportChooser({
  started,
  file,
  choice,
  phase,
  testId,
}: {
  started: boolean;
  file: File | undefined;
  choice: ReturnType<typeof useFileChoice>;
  phase: UploadPhase | null;
  testId: string;
}) {
  return (
    <>
      {!started && (
        <Upload {...choice.upload}>
          <Button icon={<UploadOutlined />}>{file ? "Заменить файл" : "Выбрать файл"}</Button>
        </Upload>
      )}
      {started ? (
        <Typography.Text strong>{file?.name}</Typography.Text>
      ) : (
        <ChosenFile file={file} problem={choice.problem} testId={testId} removeLabel="Убрать файл" onRemove={choice.remove} />
      )}
      {phase && (
        <Flex vertical gap={4} role="status">
          <span>{phaseText(phase)}</span>
          {phase.phase === "sending" && <Progress percent={phase.percent} size="small" />}
        </Flex>
      )}
    </>
  );
}

/** A file's refused lines by number and reason, ten a page (a line may be named more than once: two
 *  values refused, a value and the cells it lacks). */
export function RefusedLines({ refused, label }: { refused: Refused[]; label: string }) {
  return (
    <ListTable<Refused>
      rowKey={(r) => `${r.line}|${r.reason}`}
      aria-label={label}
      columns={[
        { title: "Строка", dataIndex: "line", width: 90, render: (line: number) => count(line) },
        { title: "Причина", dataIndex: "reason" },
      ]}
      dataSource={refused}
      pagination={refused.length > LIMITS.page.batchRefused ? { pageSize: LIMITS.page.batchRefused, showSizeChanger: false } : false}
    />
  );
}

function BatchView({ batch }: { batch: ReadingsBatch }) {
  const refusals = refusalCounts(batch);
  const said = refusals.filter((r) => r.n > 0).map((r) => `${r.label.replace(/ \(.*\)$/, "").toLowerCase()}: ${count(r.n)}`);
  if (batch.state === "queued")
    return (
      <Flex gap={12} align="center" role="status">
        <Spin />
        <span>Файл принят, показания обрабатываются…</span>
      </Flex>
    );
  return (
    <Flex vertical gap={8}>
      {batch.state === "failed" ? (
        // Set aside after its retries (the server's consumer): what it could store is counted below.
        <Alert type="error" showIcon role="alert" title={`Выгрузка не применена: ${batch.failure ?? "причина не указана"}`} />
      ) : (
        <Alert
          type={said.length ? "warning" : "success"}
          showIcon
          role="status"
          title={said.length ? `Обработано; ${said.join(", ")}` : "Обработано без ошибок"}
        />
      )}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        items={[
          { key: "lines", label: "Строк данных в файле", children: count(batch.lines) },
          { key: "accepted", label: "Принято", children: count(batch.accepted) },
          { key: "duplicate", label: "Повторы (уже были)", children: count(batch.duplicate) },
          { key: "corrected", label: "Исправлено", children: count(batch.corrected) },
          ...refusals.map((r) => ({ key: r.key, label: r.label, children: count(r.n) })),
        ]}
      />
      {batch.refused.length > 0 && <RefusedLines refused={batch.refused} label="Отклонённые строки" />}
    </Flex>
  );
}

/** An export chosen and sent straight to storage, then named by `target` (a batch, a reconciliation):
 *  the file, its choice, the upload's phase, the send and whether it started. */
export function useExportSend<T>(target: (name: string) => DirectUpload<T>) {
  const [file, setFile] = useState<File>();
  const choice = useFileChoice(".csv,.txt", dispatchFileProblem, setFile);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const send = useMutation({
    mutationFn: (chosen: File) => uploadDirect(target(chosen.name), chosen, "text/csv", setPhase),
    onSettled: () => setPhase(null),
  });
  return { file, choice, phase, send, started: send.isPending || send.isSuccess };
}

/** «Скачать шаблон» — an example of the export for the facility's register, and why it
 *  could not be downloaded. */
function DispatchTemplate({ facility }: { facility: string }) {
  const download = useMutation({ mutationFn: () => downloadDispatchTemplate(facility) });
  return (
    <Flex vertical gap={4} align="flex-start">
      <Button
        type="link"
        size="small"
        icon={<DownloadOutlined />}
        loading={download.isPending}
        onClick={() => download.mutate()}
        style={{ padding: 0 }}
      >
        Скачать шаблон
      </Button>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Пример файла в этом формате со столбцами датчиков площадки: замените его строки показаниями из выгрузки.
      </Typography.Text>
      {download.isError && <Alert type="error" showIcon role="alert" title={refusalText(download.error)} />}
    </Flex>
  );
}

/** The dialog of an export sent (useExportSend): what the file is (`intro`) with its template, its choice,
 *  OK sending it (hidden once sent; «Закрыть» once started), the send's refusal, then `children`: what
 *  became of it. */
export function ExportSendModal<T>(props: {
  sending: ReturnType<typeof useExportSend<T>>;
  /** The facility whose register the template's columns are. */
  facility: string;
  title: string;
  okText: string;
  width: number;
  testId: string;
  intro: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const { file, choice, phase, send, started } = props.sending;
  return (
    <Modal
      open
      width={props.width}
      title={props.title}
      okText={props.okText}
      cancelText={started ? "Закрыть" : "Отмена"}
      okButtonProps={{ disabled: !file || started, loading: send.isPending, style: send.isSuccess ? { display: "none" } : undefined }}
      onCancel={props.onClose}
      onOk={() => file && send.mutate(file)}
    >
      <Flex vertical gap={8}>
        <Typography.Paragraph style={{ margin: 0 }}>{props.intro}</Typography.Paragraph>
        <DispatchTemplate facility={props.facility} />
        <ExportChooser started={started} file={file} choice={choice} phase={phase} testId={props.testId} />
        {send.isError && <Alert type="error" showIcon role="alert" title={refusalText(send.error)} />}
        {props.children}
      </Flex>
    </Modal>
  );
}

/** What a dispatch file is, as the dialog says it. */
const DISPATCH_FILE_INTRO = [
  `Файл выгрузки диспетчерской системы: CSV в кодировке Windows-1251 или UTF-8, разделитель «;», время ${DISPATCH_TIME_FORMATS};`,
  `значения: ${DISPATCH_VALUE_FORMATS}; столбец на код датчика после времени или строка на показание «Датчик;Время;Значение».`,
  `Не больше ${fileSize(FILE_BYTES)}. Ошибочные строки отклоняются с номером и причиной, остальные принимаются.`,
].join(" ");

export default function DispatchFileDialog({ facility, onClose }: { facility: string; onClose: () => void }) {
  const sending = useExportSend((name) => dispatchFileUpload(facility, name));
  const { send } = sending;
  const batch = useReadingsBatch(send.data?.batch);

  return (
    <ExportSendModal
      sending={sending}
      facility={facility}
      width={760}
      title="Загрузить выгрузку АГК"
      okText="Загрузить"
      testId="chosen-dispatch-file"
      onClose={onClose}
      intro={DISPATCH_FILE_INTRO}
    >
      {batch.isError && <Alert type="error" showIcon role="alert" title={refusalText(batch.error)} />}
      {send.isSuccess && !batch.data && !batch.isError && <Spin />}
      {batch.data && <BatchView batch={batch.data} />}
    </ExportSendModal>
  );
}
