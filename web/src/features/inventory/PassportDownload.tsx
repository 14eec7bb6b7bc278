// «Скачать паспорт отчета (xlsx / PDF)»: the year's 296-FZ report passport of the company, or of
// the chosen facility (GET inventory/{year}/report/?format=), saved under the server's name. A
// large company's passport is made as a job (docs/user-guide.md): the page shows its state and
// progress, saves the file when it is ready and offers it again. The versions list offers each
// approved version's passport (`version`): it prints that version's figures and requisites (D32);
// and its verification pack (D34: GET inventory/{year}/versions/{n}/pack/), a zip a verifier
// checks offline with the script inside, made and saved the same way. Beside the passport, «Скачать
// расчеты года (xlsx)»: every counted calculation of the year with its facility, point, IPCC line
// and netted figure (?format=calculations).
import { lazy, Suspense, useState } from "react";
import { Alert, Button, Flex, Space, Spin } from "antd";
import { DownloadOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import { api, routePath, type Download, type FileJob } from "../../api/client";
import { saveBlob } from "../../shared/saveBlob";

// The progress of a file being made (antd's Progress, about 6 KB gzip) loads when a download begins,
// not with the inventory's page: the page's initial JS stays within its budget (tests/web/bundle.test.ts).
const FileProgress = lazy(() => import("../../shared/FileProgress").then((module) => ({ default: module.FileProgress })));

type PassportFormat = "xlsx" | "pdf" | "calculations";
/** What a button downloads: the passport in a format, or a version's verification pack. */
type FileKind = PassportFormat | "pack";

/** What a message calls each file. */
const WHAT: Record<FileKind, string> = {
  xlsx: "паспорт отчета",
  pdf: "паспорт отчета",
  calculations: "расчеты года",
  pack: "пакет для верификатора",
};
const READY: Record<FileKind, string> = {
  xlsx: "Паспорт отчета готов",
  pdf: "Паспорт отчета готов",
  calculations: "Расчеты года готовы",
  pack: "Пакет для верификатора готов",
};

export const packPath = (year: number, version: number) =>
  routePath("inventoryReport", (c) =>
    c[":year"].versions[":version"].pack.$path({ param: { year: String(year), version: String(version) } }),
  );

export function passportPath(year: number, format: PassportFormat, facility: string | undefined, version?: number): Promise<string> {
  const query = { format, facility, version: version ? String(version) : undefined };
  return routePath("inventoryReport", (c) => c[":year"].report.$path({ param: { year: String(year) }, query }));
}

/** Saves the file, or goes to the storage address a large one is handed out as. */
function save(file: Download, name: string) {
  if (file.redirectUrl) window.location.assign(file.redirectUrl);
  else saveBlob(file.blob, name);
}

export function PassportDownload({ year, facility, version }: { year: number; facility: string | undefined; version?: number }) {
  const [pending, setPending] = useState<FileKind>();
  const [job, setJob] = useState<FileJob>();
  const [received, setReceived] = useState(0);
  const [saved, setSaved] = useState<{ file: Download; name: string }>();
  const [failure, setFailure] = useState<string>();
  const [lastKind, setLastKind] = useState<FileKind>();

  async function download(format: FileKind) {
    setPending(format);
    setLastKind(format);
    setJob(undefined);
    setReceived(0);
    setSaved(undefined);
    setFailure(undefined);
    try {
      // The pack's button is offered with a version only.
      const path = await (format === "pack" ? packPath(year, Number(version)) : passportPath(year, format, facility, version));
      const file = await api.download(path, setReceived, setJob);
      const name =
        file.fileName ??
        (format === "pack"
          ? `Пакет верификации ${year} версия ${version}.zip`
          : format === "calculations"
            ? `Расчеты ${year}.xlsx`
            : `Паспорт отчета ${year}${version ? ` версия ${version}` : ""}.${format}`);
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
        {version === undefined && (
          <Button
            icon={<DownloadOutlined />}
            loading={pending === "calculations"}
            disabled={pending !== undefined}
            onClick={() => void download("calculations")}
            title="Каждый учтенный расчет года: площадка, источник, строка МГЭИК и выброс за вычетом уничтоженного"
          >
            Скачать расчеты года (xlsx)
          </Button>
        )}
        {version !== undefined && (
          <Button
            size="small"
            icon={<SafetyCertificateOutlined />}
            loading={pending === "pack"}
            disabled={pending !== undefined}
            onClick={() => void download("pack")}
            title="Снимок версии, расчеты, коэффициенты, документы, паспорт и программа проверки verify.py (Python 3)"
          >
            Пакет для верификатора
          </Button>
        )}
      </Space>
      {pending && (
        <Suspense fallback={<Spin />}>
          <FileProgress job={job} received={received} />
        </Suspense>
      )}
      {failure && <Alert type="error" showIcon title={`Не удалось скачать ${WHAT[lastKind ?? "xlsx"]}: ${failure}`} />}
      {/* Only after a wait for a job: a file made at once needs no second offer. */}
      {saved && job && (
        <Alert
          type="success"
          showIcon
          title={`${READY[lastKind ?? "xlsx"]}: «${saved.name}»`}
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
