// «Исходный файл»: the upload a calculation was computed from (GET {type}/{id}/file/).
import { fileSize } from "@server/contract";
import { Button, Typography } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import { downloadSourceFile, type Calculation } from "../api/calculations";
import { displayDateTime } from "./dates";
import { useFeedback } from "./feedback";

interface StoredFileView {
  name: string;
  size: number;
  uploaded_at?: string;
}

export function SourceFileLink({ calculation }: { calculation: Calculation }) {
  const { message } = useFeedback();
  const file = calculation.file_data as StoredFileView | undefined;
  if (!file) return null;
  return (
    <Typography.Text>
      <PaperClipOutlined /> Исходный файл:{" "}
      <Button
        type="link"
        style={{ padding: 0, height: "auto" }}
        data-testid="source-file"
        onClick={() =>
          void downloadSourceFile(calculation).catch((error: unknown) =>
            message.error(error instanceof Error ? error.message : String(error)),
          )
        }
      >
        {file.name}
      </Button>{" "}
      <Typography.Text type="secondary">
        ({fileSize(file.size)}
        {file.uploaded_at ? `, загружен ${displayDateTime(file.uploaded_at)}` : ""})
      </Typography.Text>
    </Typography.Text>
  );
}
