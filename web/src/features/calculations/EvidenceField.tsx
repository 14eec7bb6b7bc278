// The evidence file beside a «Фактическое значение» (methodology D10): PDF, .xlsx or a picture up
// to 10 MB, kept in the form and attached once the calculation is saved; on edit the file stored
// now, by name and size, with its download link. The results dialog links it too (EvidenceLink).
import { fileSize } from "@server/contract";
import { Button, Flex, Typography, Upload } from "antd";
import { PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import type { Calculation } from "../../api/calculations";
import { downloadEvidence, evidenceProblem, EVIDENCE_ACCEPT, EVIDENCE_MAX_TEXT } from "./evidence";
import { ChosenFile, useFileChoice } from "../../shared/FileChoice";
import { useFeedback } from "../../shared/feedback";

interface Props {
  id: string;
  field: string;
  label: string;
  file: File | undefined;
  onChange(file: File | undefined): void;
  /** Edit: the calculation as stored, whose file for `field` may be kept. */
  stored?: Calculation;
}

export function EvidenceField({ id, field, label, file, onChange, stored }: Props) {
  const choice = useFileChoice(EVIDENCE_ACCEPT, evidenceProblem, onChange);
  const storedFile = stored?.coefficients[field]?.source === "custom" ? stored.coefficients[field].evidence : undefined;
  return (
    <Flex vertical gap={4} style={{ marginTop: 8 }}>
      <Flex gap={8} align="center" wrap>
        <Upload {...choice.upload}>
          <Button id={id} size="small" icon={<UploadOutlined />} aria-label={`Подтверждающий документ: ${label}`}>
            {file || storedFile ? "Заменить документ" : "Приложить документ"}
          </Button>
        </Upload>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          PDF, .xlsx, PNG или JPEG, до {EVIDENCE_MAX_TEXT}
        </Typography.Text>
      </Flex>
      <ChosenFile
        file={file}
        problem={choice.problem}
        testId={`evidence-chosen-${field}`}
        removeLabel="Убрать документ"
        onRemove={choice.remove}
      />
      {stored && storedFile && !file && (
        <Typography.Text type="secondary">
          Сейчас: <EvidenceLink calculation={stored} field={field} />
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The stored evidence file of `field`: its name as a download link, and its size. */
export function EvidenceLink({ calculation, field }: { calculation: Calculation; field: string }) {
  const { message } = useFeedback();
  const evidence = calculation.coefficients[field]?.evidence;
  if (!evidence) return null;
  return (
    <span data-testid={`evidence-${field}`}>
      <PaperClipOutlined />{" "}
      <Button
        type="link"
        size="small"
        style={{ padding: 0, height: "auto" }}
        onClick={() =>
          void downloadEvidence(calculation, field).catch((error: unknown) =>
            message.error(error instanceof Error ? error.message : String(error)),
          )
        }
      >
        {evidence.name}
      </Button>{" "}
      <Typography.Text type="secondary">({fileSize(evidence.size)})</Typography.Text>
    </span>
  );
}
