// D94: a verification's certificate scan on the sensor's record — its name as a
// download link, its size, who attached it and when; where none is attached, the button that attaches one
// (PDF, PNG or JPEG up to LIMITS.sensorChecks.certificateFileBytes; the server tells the format by its
// first bytes). It is attached once: an addition to the record, never a change of its fields.
import { fileSize, LIMITS } from "@server/contract";
import { useState } from "react";
import { Alert, Button, Flex, Typography, Upload } from "antd";
import { PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import { downloadCertificate } from "../../../api/instrumentFiles";
import { useAttachCertificate, type Verification } from "../../../api/instruments";
import { isApiError } from "../../../api/client";
import { displayDateTime } from "../../../shared/dates";
import { useFeedback } from "../../../shared/feedback";

export const CERTIFICATE_ACCEPT = ".pdf,.png,.jpg,.jpeg";
const LIMIT_TEXT = fileSize(LIMITS.sensorChecks.certificateFileBytes);

/** Why a chosen scan cannot be attached, or undefined. */
export function certificateProblem(file: { name: string; size: number }): string | undefined {
  if (!/\.(pdf|png|jpe?g)$/i.test(file.name)) return "Приложите скан свидетельства в PDF или изображение PNG или JPEG";
  if (file.size > LIMITS.sensorChecks.certificateFileBytes) return `Файл больше ${LIMIT_TEXT}`;
  if (file.size === 0) return "Файл пуст";
  return undefined;
}

interface Props {
  facility: string;
  sensor: string;
  verification: Verification;
  /** A reviewer sees the file and attaches none. */
  canAttach: boolean;
}

export function CertificateFile({ facility, sensor, verification, canAttach }: Props) {
  const { message } = useFeedback();
  const attach = useAttachCertificate(facility, sensor);
  const [problem, setProblem] = useState<string>();
  const file = verification.certificate_file;
  if (file) {
    return (
      <span data-testid={`certificate-${verification.id}`}>
        <PaperClipOutlined /> Скан свидетельства:{" "}
        <Button
          type="link"
          size="small"
          style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "left" }}
          onClick={() =>
            void downloadCertificate(facility, sensor, verification.id, file.name).catch((error: unknown) =>
              message.error(error instanceof Error ? error.message : String(error)),
            )
          }
        >
          {file.name}
        </Button>{" "}
        <Typography.Text type="secondary">
          ({fileSize(file.size)}; приложил {file.uploaded_by}, {displayDateTime(file.uploaded_at)})
        </Typography.Text>
      </span>
    );
  }
  if (!canAttach) return null;
  const refusal = attach.isError ? (isApiError(attach.error) ? attach.error.detail : String(attach.error)) : undefined;
  return (
    <Flex vertical gap={4}>
      <Flex gap={8} align="center" wrap>
        <Upload
          accept={CERTIFICATE_ACCEPT}
          maxCount={1}
          showUploadList={false}
          beforeUpload={(chosen) => {
            const reason = certificateProblem(chosen);
            setProblem(reason);
            if (!reason) attach.mutate({ verification: verification.id, file: chosen });
            return Upload.LIST_IGNORE;
          }}
        >
          <Button size="small" icon={<UploadOutlined />} loading={attach.isPending}>
            Приложить скан свидетельства
          </Button>
        </Upload>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          PDF, PNG или JPEG, до {LIMIT_TEXT}
        </Typography.Text>
      </Flex>
      {(problem ?? refusal) && <Alert type="error" showIcon role="alert" title={problem ?? refusal} />}
    </Flex>
  );
}
