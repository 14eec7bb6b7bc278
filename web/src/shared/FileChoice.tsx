// A file chosen in a form and kept there until the form is sent: the picker checks it first (its
// type and size) and says why it refused one; the chosen file shows with its size and the button
// that takes it back.
import { fileSize } from "@server/contract";
import { useState } from "react";
import { Button, Flex, Tooltip, Typography, Upload, type UploadProps } from "antd";
import { CloseOutlined, PaperClipOutlined } from "@ant-design/icons";

/** One file at a time: `upload` goes to the antd Upload, `problem` is why the last file was refused
 *  (`problemOf`, undefined when it may be sent), `remove` takes the chosen file back. */
export function useFileChoice(accept: string, problemOf: (file: File) => string | undefined, onChange: (file: File | undefined) => void) {
  const [problem, setProblem] = useState<string>();
  const upload: UploadProps = {
    accept,
    maxCount: 1,
    showUploadList: false,
    beforeUpload: (chosen) => {
      const reason = problemOf(chosen);
      setProblem(reason);
      onChange(reason ? undefined : chosen);
      return Upload.LIST_IGNORE;
    },
  };
  const remove = () => {
    setProblem(undefined);
    onChange(undefined);
  };
  return { upload, problem, remove };
}

interface ChosenProps {
  file: File | undefined;
  problem: string | undefined;
  testId: string;
  removeLabel: string;
  onRemove(): void;
}

/** The file chosen in a dialog, its size and the button that takes it back; then why a file was refused. */
export function ChosenFile({ file, problem, testId, removeLabel, onRemove }: ChosenProps) {
  return (
    <>
      {file && (
        <Flex gap={6} align="center" data-testid={testId}>
          <PaperClipOutlined />
          <Typography.Text>{file.name}</Typography.Text>
          <Typography.Text type="secondary">({fileSize(file.size)})</Typography.Text>
          <Tooltip title={removeLabel}>
            <Button type="text" size="small" aria-label={removeLabel} icon={<CloseOutlined />} onClick={onRemove} />
          </Tooltip>
        </Flex>
      )}
      {problem && (
        <Typography.Text type="danger" role="alert">
          {problem}
        </Typography.Text>
      )}
    </>
  );
}
