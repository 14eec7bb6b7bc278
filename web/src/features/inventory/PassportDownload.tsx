// «Скачать паспорт отчета (xlsx / PDF)»: the year's 296-FZ report passport of the company, or of
// the chosen facility (GET v1/inventory/{year}/report/?format=), saved under the server's name. A
// large company's passport is made as a job (docs/user-guide.md): the page shows its state and
// progress, saves the file when it is ready and offers it again. The versions list offers each
// approved version's passport (`version`): it prints that version's figures and requisites (D32).
import { useState } from "react";
import { Alert, Button, Flex, Space } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { api, type Download, type FileJob } from "../../api/client";
import { saveBlob } from "../../shared/saveBlob";
import { FileProgress } from "../../shared/FileProgress";

type PassportFormat = "xlsx" | "pdf";

export function passportPath(year: number, format: PassportFormat, facility: string | undefined, version?: number): string {
  const query = new URLSearchParams({ format, ...(facility ? { facility } : {}), ...(version ? { version: String(version) } : {}) });
  return `v1/inventory/${year}/report/?${query}`;
}

/** Saves the file, or goes to the storage address a large one is handed out as. */
function save(file: Download, name: string) {
  if (file.redirectUrl) window.location.assign(file.redirectUrl);
  else saveBlob(file.blob, name);
}

export function PassportDownload({ year, facility, version }: { year: number; facility: string | undefined; version?: number }) {
  const [pending, setPending] = useState<PassportFormat>();
  const [job, setJob] = useState<FileJob>();
  const [received, setReceived] = useState(0);
  const [saved, setSaved] = useState<{ file: Download; name: string }>();
  const [failure, setFailure] = useState<string>();

  async function download(format: PassportFormat) {
    setPending(format);
    setJob(undefined);
    setReceived(0);
    setSaved(undefined);
    setFailure(undefined);
    try {
      const file = await api.download(passportPath(year, format, facility, version), setReceived, setJob);
      const name = file.fileName ?? `Паспорт отчета ${year}${version ? ` версия ${version}` : ""}.${format}`;
      save(file, name);
      setSaved({ file, name });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(undefined);
    }
  }

  return (
    <Flex vertical gap={8}>
      <Space wrap>
        {(["xlsx", "pdf"] as const).map((format) => (
          <Button
            key={format}
            size={version ? "small" : undefined}
            icon={<DownloadOutlined />}
            loading={pending === format}
            disabled={pending !== undefined}
            onClick={() => void download(format)}
          >
            {version
              ? `Паспорт версии ${version} (${format === "pdf" ? "PDF" : "xlsx"})`
              : `Скачать паспорт отчета (${format === "pdf" ? "PDF" : "xlsx"})`}
          </Button>
        ))}
      </Space>
      {pending && <FileProgress job={job} received={received} />}
      {failure && <Alert type="error" showIcon title={`Не удалось скачать паспорт отчета: ${failure}`} />}
      {/* Only after a wait for a job: a file made at once needs no second offer. */}
      {saved && job && (
        <Alert
          type="success"
          showIcon
          title={`Паспорт отчета готов: «${saved.name}»`}
          action={
            <Button size="small" onClick={() => save(saved.file, saved.name)}>
              Скачать еще раз
            </Button>
          }
        />
      )}
    </Flex>
  );
}
