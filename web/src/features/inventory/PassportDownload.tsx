// «Скачать паспорт отчета (xlsx / PDF)»: the year's 296-FZ report passport of the company, or of
// the chosen facility (GET v1/inventory/{year}/report/?format=), saved under the server's name.
import { useState } from "react";
import { Button, Space } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { api } from "../../api/client";
import { saveBlob } from "../../shared/saveBlob";
import { useFeedback } from "../../shared/feedback";

type PassportFormat = "xlsx" | "pdf";

export function passportPath(year: number, format: PassportFormat, facility: string | undefined): string {
  const query = new URLSearchParams({ format, ...(facility ? { facility } : {}) });
  return `v1/inventory/${year}/report/?${query}`;
}

export function PassportDownload({ year, facility }: { year: number; facility: string | undefined }) {
  const { message } = useFeedback();
  const [pending, setPending] = useState<PassportFormat>();

  async function download(format: PassportFormat) {
    setPending(format);
    try {
      const file = await api.download(passportPath(year, format, facility));
      // A large file is handed out as a short-lived storage address.
      if (file.redirectUrl) window.location.assign(file.redirectUrl);
      else saveBlob(file.blob, file.fileName ?? `Паспорт отчета ${year}.${format}`);
    } catch (error) {
      void message.error(`Не удалось скачать паспорт отчета: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setPending(undefined);
    }
  }

  return (
    <Space wrap>
      {(["xlsx", "pdf"] as const).map((format) => (
        <Button
          key={format}
          icon={<DownloadOutlined />}
          loading={pending === format}
          disabled={pending !== undefined}
          onClick={() => void download(format)}
        >
          {`Скачать паспорт отчета (${format === "pdf" ? "PDF" : "xlsx"})`}
        </Button>
      ))}
    </Space>
  );
}
