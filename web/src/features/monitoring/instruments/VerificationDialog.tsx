// D94: a sensor's state verification (поверка) as a measuring instrument — its type,
// the type's number in the state register, the serial, the day verified, valid to and the certificate's
// number. Recorded once; a correction is a newer record. The server's refusals show under their fields.
// The certificate's scan may be chosen here: it is attached to the verification once recorded (an addition
// marked with who and when); a scan refused then leaves the verification recorded and says why. A
// correction (`corrects`) opens filled with the verification it corrects and records a newer one naming it.
import { useState } from "react";
import { Alert, Button, Flex, Input, Modal, Typography, Upload } from "antd";
import { UploadOutlined } from "@ant-design/icons";
import { fileSize, LIMITS } from "@server/contract";
import { displayDate, typedDate } from "../../../shared/dates";
import { isApiError } from "../../../api/client";
import { useAttachCertificate, useRecordVerification, type Verification } from "../../../api/instruments";
import { ChosenFile, useFileChoice } from "../../../shared/FileChoice";
import { CERTIFICATE_ACCEPT, certificateProblem } from "./CertificateFile";

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const FIELDS = [
  ["instrument_type", "Тип средства измерений", "ДМС 03"],
  ["register_number", "Номер в Госреестре СИ", "12345-06"],
  ["serial", "Заводской номер", ""],
  ["verified_on", "Дата поверки", "ДД.ММ.ГГГГ"],
  ["valid_to", "Действительна до", "ДД.ММ.ГГГГ"],
  ["certificate", "Номер свидетельства (записи) о поверке", ""],
] as const;
type Field = (typeof FIELDS)[number][0];
/** The server's caps of the texts (LIMITS.sensorChecks); a date is typed as ДД.ММ.ГГГГ. */
const MAX_LENGTH: Record<Field, number | undefined> = {
  instrument_type: LIMITS.sensorChecks.instrumentType,
  register_number: LIMITS.sensorChecks.registerNumber,
  serial: LIMITS.sensorChecks.serial,
  verified_on: undefined,
  valid_to: undefined,
  certificate: LIMITS.sensorChecks.certificate,
};

export default function VerificationDialog({
  facility,
  sensor,
  code,
  corrects,
  onClose,
}: {
  facility: string;
  sensor: string;
  code: string;
  /** The verification this one corrects: the form opens filled with it. */
  corrects?: Verification;
  onClose: () => void;
}) {
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    instrument_type: corrects?.instrument_type ?? "",
    register_number: corrects?.register_number ?? "",
    serial: corrects?.serial ?? "",
    verified_on: corrects ? displayDate(corrects.verified_on) : "",
    valid_to: corrects ? displayDate(corrects.valid_to) : "",
    certificate: corrects?.certificate ?? "",
  }));
  const [typed, setTyped] = useState<Partial<Record<Field, string>>>({});
  const record = useRecordVerification(facility, sensor);
  const attach = useAttachCertificate(facility, sensor);
  const [scan, setScan] = useState<File>();
  const choice = useFileChoice(CERTIFICATE_ACCEPT, certificateProblem, setScan);
  /** The verification recorded, when its scan was then refused: the dialog stays to say so. */
  const [recorded, setRecorded] = useState(false);
  function save() {
    const verified = typedDate(values.verified_on);
    const validTo = typedDate(values.valid_to);
    const problems: Partial<Record<Field, string>> = {};
    if (!verified) problems.verified_on = "дата в виде ДД.ММ.ГГГГ";
    if (!validTo) problems.valid_to = "дата в виде ДД.ММ.ГГГГ";
    setTyped(problems);
    if (!verified || !validTo) return;
    record.mutate(
      {
        instrument_type: values.instrument_type.trim(),
        register_number: values.register_number.trim(),
        serial: values.serial.trim(),
        verified_on: verified,
        valid_to: validTo,
        certificate: values.certificate.trim(),
        ...(corrects ? { corrects: corrects.id } : {}),
      },
      {
        onSuccess: (made) => {
          if (!scan) return onClose();
          attach.mutate(
            { verification: (made as { id: string }).id, file: scan },
            { onSuccess: onClose, onError: () => setRecorded(true) },
          );
        },
      },
    );
  }
  const problems = record.isError && isApiError(record.error) ? (record.error.errors ?? []) : [];
  const errorAt = (field: Field) => typed[field] ?? problems.find((p) => p.field === field)?.message;
  const refusal = !record.isError
    ? undefined
    : isApiError(record.error)
      ? problems.length > 0
        ? "Поверка не записана: исправьте отмеченные поля"
        : record.error.detail
      : String(record.error);
  return (
    <Modal
      open
      width={560}
      title={corrects ? `Исправление поверки датчика ${code} от ${displayDate(corrects.verified_on)}` : `Поверка датчика ${code}`}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Отмена
        </Button>,
        <Button key="save" type="primary" loading={record.isPending || attach.isPending} disabled={recorded} onClick={save}>
          {corrects ? "Записать исправление" : "Записать поверку"}
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        {FIELDS.map(([field, label, placeholder]) => (
          <Flex key={field} vertical gap={4}>
            <Typography.Text strong>{label}</Typography.Text>
            <Input
              aria-label={label}
              placeholder={placeholder}
              value={values[field]}
              onChange={(e) => setValues({ ...values, [field]: e.target.value })}
              maxLength={MAX_LENGTH[field]}
            />
            {errorAt(field) && <Typography.Text type="danger">{capital(errorAt(field) as string)}</Typography.Text>}
          </Flex>
        ))}
        <Flex vertical gap={4}>
          <Typography.Text strong>Скан свидетельства (необязательно)</Typography.Text>
          <Flex gap={8} align="center" wrap>
            <Upload {...choice.upload}>
              <Button size="small" icon={<UploadOutlined />} disabled={recorded}>
                {scan ? "Заменить файл" : "Выбрать файл"}
              </Button>
            </Upload>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              PDF, PNG или JPEG, до {fileSize(LIMITS.sensorChecks.certificateFileBytes)}
            </Typography.Text>
          </Flex>
          <ChosenFile file={scan} problem={choice.problem} testId="certificate-chosen" removeLabel="Убрать файл" onRemove={choice.remove} />
        </Flex>
        <Typography.Text type="secondary">
          {corrects
            ? "Исправляемая запись остается в списке с пометкой «исправлена» и больше не учитывается; исправить ее можно один раз. "
            : ""}
          Запись о поверке не изменяется: исправление — новая запись. Со дня после «Действительна до» и до следующей поверки датчик
          показывается «вне поверки».
        </Typography.Text>
        {refusal && <Alert type="error" showIcon role="alert" title={capital(refusal)} />}
        {recorded && attach.isError && (
          <Alert
            type="warning"
            showIcon
            role="alert"
            title={`Поверка записана, скан не приложен: ${isApiError(attach.error) ? attach.error.detail : String(attach.error)}. Приложите его в карточке датчика.`}
          />
        )}
      </Flex>
    </Modal>
  );
}
