// A chosen file read by the server the moment it is chosen (a dry run), for every upload that shows its
// preview before anything is saved (docs/user-guide.md › «Загрузка файла: предпросмотр»): a
// calculation's file (FileField) and a mine's sensor list («Датчики»). The reading, its spinner, the
// refusal of a file that cannot be read and the preview (UploadPreview), and the «Скачать шаблон» links.
import { useEffect, useRef, useState } from "react";
import { Button, Flex, Spin, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { isApiError } from "../api/client";
import { withoutFieldNames } from "./fieldErrors";
import { UploadPreview, type UploadPreviewView } from "./UploadPreview";

export type UploadRead = { file: File; key: string } & (
  | { status: "loading" }
  | { status: "done"; data: UploadPreviewView }
  | { status: "failed"; message: string }
);

/** A refusal as a form shows it: the server's words without the field names. */
export const refusalText = (error: unknown) =>
  isApiError(error) ? withoutFieldNames(error) : error instanceof Error ? error.message : String(error);

/** The dry run of `file`, again when `key` (what the reading depends on) changes; none without a key. */
export function useUploadRead(
  file: File | undefined,
  key: string | undefined,
  read: (file: File) => Promise<UploadPreviewView>,
): UploadRead | undefined {
  const [state, setState] = useState<UploadRead>();
  // The reader as of the last render: a new function each render must not read the file again.
  const reader = useRef(read);
  reader.current = read;
  useEffect(() => {
    if (!file || key === undefined) return setState(undefined);
    let current = true;
    setState({ file, key, status: "loading" });
    reader.current(file).then(
      (data) => current && setState({ file, key, status: "done", data }),
      (error: unknown) => current && setState({ file, key, status: "failed", message: refusalText(error) }),
    );
    return () => {
      current = false;
    };
  }, [file, key]);
  return state?.file === file ? state : undefined;
}

/** What the reading shows: «Читаем файл…», the refusal in red, or the preview. */
export function UploadReadView({ read }: { read: UploadRead | undefined }) {
  return (
    <>
      {read?.status === "loading" && (
        <Flex gap={8} align="center">
          <Spin size="small" /> <Typography.Text type="secondary">Читаем файл…</Typography.Text>
        </Flex>
      )}
      {read?.status === "failed" && (
        <Typography.Text type="danger" role="alert" data-testid="upload-preview-failed">
          {read.message}
        </Typography.Text>
      )}
      {read?.status === "done" && <UploadPreview preview={read.data} />}
    </>
  );
}

/** «Скачать шаблон» (.xlsx) and «CSV». */
export function TemplateLinks({ download }: { download(format: "xlsx" | "csv"): void }) {
  return (
    <Flex gap={4} align="center">
      <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => download("xlsx")}>
        Скачать шаблон
      </Button>
      <Button type="link" size="small" onClick={() => download("csv")}>
        CSV
      </Button>
    </Flex>
  );
}
