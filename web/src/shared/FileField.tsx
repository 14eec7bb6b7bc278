// The file of a file-based calculation: an antd Upload that keeps the file in the form (it is sent
// with the form, never on its own), .xlsx or .csv up to the upload cap, the «Скачать шаблон» links, and on
// edit the file stored now with its download link.
import { useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Typography, Upload } from "antd";
import { PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import type { CalculationType } from "@core/registry";
import { downloadSourceFile, downloadTemplate, type Calculation } from "../api/calculations";
import { useFeedback } from "./feedback";
import { previewUpload } from "./UploadPreview";
import { TemplateLinks, UploadReadView, useUploadRead } from "./UploadRead";
import { FILE_ACCEPT, fileCap, fileProblem } from "./fileChecks";
import { ChosenFile, useFileChoice } from "./FileChoice";

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

export function FileField({ id, type, file, onChange, stored, keepHint, preview }: Props) {
  const { message } = useFeedback();
  const choice = useFileChoice(FILE_ACCEPT, (chosen) => fileProblem(chosen, fileCap(type)), onChange);
  // Read again when the project or the fields it depends on change (by value: a new object each render).
  const fields = JSON.stringify(preview?.fields ?? {});
  const read = useUploadRead(file, preview?.projectId ? `${preview.projectId}${fields}` : undefined, (chosen) =>
    previewUpload(type, preview!.projectId, chosen, JSON.parse(fields) as Record<string, string>),
  );
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
        <TemplateLinks download={template} />
      </Flex>
      <ChosenFile file={file} problem={choice.problem} testId="chosen-file" removeLabel="Убрать файл" onRemove={choice.remove} />
      <UploadReadView read={read} />
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
