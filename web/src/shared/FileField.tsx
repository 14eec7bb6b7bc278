// The file of a file-based calculation: an antd Upload that keeps the file in the form (it is sent
// with the form, never on its own), .xlsx or .csv up to the upload cap, the «Скачать шаблон» links, and on
// edit the file stored now with its download link.
import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Spin, Typography, Upload } from "antd";
import { DownloadOutlined, PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import type { CalculationType } from "@core/registry";
import { downloadSourceFile, downloadTemplate, type Calculation } from "../api/calculations";
import { useFeedback } from "./feedback";
import { previewUpload, UploadPreview, type UploadPreviewView } from "./UploadPreview";
import { FILE_ACCEPT, fileCap, fileProblem } from "./fileChecks";
import { ChosenFile, useFileChoice } from "./FileChoice";
import { withoutFieldNames } from "./fieldErrors";
import { isApiError } from "../api/client";

interface Props {
  id: string;
  type: CalculationType;
  file: File | undefined;
  onChange(file: File | undefined): void;
  /** Edit: the calculation whose stored file may be kept. */
  stored?: Calculation;
  /** Edit: what happens when no new file is chosen. */
  keepHint?: string;
  /** The chosen file is read by the server at once (a dry run) and shown before anything is saved:
   *  the project, and the fields the reading depends on. */
  preview?: { projectId: string; fields?: Record<string, string> };
}

type PreviewState = { file: File; key: string } & (
  | { status: "loading" }
  | { status: "done"; data: UploadPreviewView }
  | { status: "failed"; message: string }
);

/** The dry run of the chosen file, again when the fields it depends on change. */
function useUploadPreview(type: CalculationType, file: File | undefined, preview: Props["preview"]) {
  const [state, setState] = useState<PreviewState>();
  const projectId = preview?.projectId;
  // The fields by value: a new object each render must not read the file again.
  const fields = JSON.stringify(preview?.fields ?? {});
  useEffect(() => {
    if (!file || !projectId) return setState(undefined);
    let current = true;
    const key = `${projectId}${fields}`;
    setState({ file, key, status: "loading" });
    previewUpload(type, projectId, file, JSON.parse(fields) as Record<string, string>).then(
      (data) => current && setState({ file, key, status: "done", data }),
      (error: unknown) =>
        current &&
        setState({
          file,
          key,
          status: "failed",
          message: isApiError(error) ? withoutFieldNames(error) : error instanceof Error ? error.message : String(error),
        }),
    );
    return () => {
      current = false;
    };
  }, [type, file, projectId, fields]);
  return state?.file === file ? state : undefined;
}

export function FileField({ id, type, file, onChange, stored, keepHint, preview }: Props) {
  const { message } = useFeedback();
  const choice = useFileChoice(FILE_ACCEPT, (chosen) => fileProblem(chosen, fileCap(type)), onChange);
  const read = useUploadPreview(type, file, preview);
  const storedFile = stored?.file_data as { name: string; size: number } | undefined;

  const fail = (error: unknown) => message.error(error instanceof Error ? error.message : String(error));
  // The example's dates in the project's reporting year (the project the dialog has loaded).
  const queryClient = useQueryClient();
  const template = (format: "xlsx" | "csv") => {
    const project = preview && queryClient.getQueryData<{ reporting_year?: number }>(["projects", "detail", preview.projectId]);
    downloadTemplate(type, format, project?.reporting_year).catch(fail);
  };

  return (
    <Flex vertical gap={6}>
      <Flex gap={12} align="center" wrap>
        <Upload {...choice.upload}>
          <Button id={id} icon={<UploadOutlined />}>
            {file || stored ? "Заменить файл" : "Выбрать файл"}
          </Button>
        </Upload>
        <Typography.Text type="secondary">.xlsx или .csv, до {fileCap(type).text}</Typography.Text>
        <Flex gap={4} align="center">
          <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => template("xlsx")}>
            Скачать шаблон
          </Button>
          <Button type="link" size="small" onClick={() => template("csv")}>
            CSV
          </Button>
        </Flex>
      </Flex>
      <ChosenFile file={file} problem={choice.problem} testId="chosen-file" removeLabel="Убрать файл" onRemove={choice.remove} />
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
      {stored && storedFile && !file && (
        <Typography.Text type="secondary">
          <PaperClipOutlined /> Сейчас: {storedFile.name}{" "}
          <Button type="link" size="small" onClick={() => void downloadSourceFile(stored).catch(fail)}>
            скачать
          </Button>
          {keepHint}
        </Typography.Text>
      )}
    </Flex>
  );
}
