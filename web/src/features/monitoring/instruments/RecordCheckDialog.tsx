// D94: a sensor's check as the «Метан» maintenance journal writes it — when and which kind,
// the reading against a reference instrument, the «Контроль» button, the alarm and the power cut-off by a
// control mixture within its cylinder's validity, the result, the fault, the measures and planned works.
// Saved signed by the user in their duty; it is never edited after — a correction is a new check that
// follows it (`follows`). The server's refusals show under their fields.
import { useState, type ReactNode } from "react";
import { Alert, Button, Flex, Input, Modal, Radio, Select, Typography } from "antd";
import { ADVISORY_NOTE } from "@core/monitoring";
import { CHECK_KINDS, CHECK_RESULT_LABELS, type CheckKind, type CheckResult } from "@core/sensor-checks";
import { LIMITS } from "@server/contract";
import { companyZoneNow, displayDateTime, typedDate } from "../../../shared/dates";
import { isApiError } from "../../../api/client";
import { useRecordCheck, type SensorCheck } from "../../../api/instruments";
import { kindText, typedDateTime, typedNumber } from "../texts/checkTexts";
import { ruDate } from "@core/dates";

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
type Tested = "yes" | "no" | "none";
const TESTED = [
  { value: "yes", label: "сработала" },
  { value: "no", label: "не сработала" },
  { value: "none", label: "не проверялась" },
];
const tested = (v: Tested) => (v === "none" ? null : v === "yes");

function Field({ label, error, children }: { label: string; error?: string; children: ReactNode }) {
  return (
    <Flex vertical gap={4} style={{ minWidth: 160, flex: 1 }}>
      <Typography.Text strong>{label}</Typography.Text>
      {children}
      {error && <Typography.Text type="danger">{capital(error)}</Typography.Text>}
    </Flex>
  );
}

/** Now on the company's clock as typed: «ДД.ММ.ГГГГ ЧЧ:ММ». */
function nowTyped(): string {
  const text = displayDateTime(new Date().toISOString());
  return /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/.test(text) ? text : "";
}

export default function RecordCheckDialog({
  facility,
  sensors,
  sensor: fixed,
  follows,
  onClose,
}: {
  facility: string;
  /** The sensors to choose from (the facility's page), by id and code. */
  sensors: readonly { id: string; code: string }[];
  /** The sensor, when the page is one sensor's or the check corrects another. */
  sensor?: string;
  /** The check this one corrects. */
  follows?: SensorCheck;
  onClose: () => void;
}) {
  const [sensor, setSensor] = useState<string | undefined>(fixed ?? follows?.sensor);
  const [at, setAt] = useState(nowTyped);
  const [kind, setKind] = useState<CheckKind>(follows ? "after_repair" : "shift_check");
  const [reading, setReading] = useState("");
  const [reference, setReference] = useState("");
  const [instrument, setInstrument] = useState(follows?.reference_instrument ?? "");
  const [button, setButton] = useState<Tested>("yes");
  const [gas, setGas] = useState("");
  const [cylinder, setCylinder] = useState(follows?.test_gas_cylinder?.number ?? "");
  const [validTo, setValidTo] = useState(follows?.test_gas_cylinder ? ruDate(follows.test_gas_cylinder.valid_to) : "");
  const [alarm, setAlarm] = useState<Tested>("none");
  const [cutoff, setCutoff] = useState<Tested>("none");
  const [result, setResult] = useState<CheckResult>("passed");
  const [fault, setFault] = useState("");
  const [measures, setMeasures] = useState("");
  const [planned, setPlanned] = useState("");
  const [typed, setTyped] = useState<Record<string, string>>({});
  const record = useRecordCheck(facility);

  function save() {
    const problems: Record<string, string> = {};
    const when = typedDateTime(at, companyZoneNow());
    if (!when) problems.at = "время в виде ДД.ММ.ГГГГ ЧЧ:ММ";
    if (!sensor) problems.sensor = "выберите датчик";
    const figures = { reading_pct: typedNumber(reading), reference_pct: typedNumber(reference), test_gas_pct: typedNumber(gas) };
    for (const [field, value] of Object.entries(figures)) if (value === undefined) problems[field] = "число, например 0,42";
    const until = validTo.trim() ? typedDate(validTo) : null;
    if (until === undefined) problems["test_gas_cylinder.valid_to"] = "дата в виде ДД.ММ.ГГГГ";
    setTyped(problems);
    if (Object.keys(problems).length > 0 || !when || !sensor) return;
    record.mutate(
      {
        sensor,
        body: {
          at: when,
          kind,
          reading_pct: figures.reading_pct ?? null,
          reference_pct: figures.reference_pct ?? null,
          reference_instrument: instrument.trim(),
          button_test_ok: tested(button),
          test_gas_pct: figures.test_gas_pct ?? null,
          test_gas_cylinder: cylinder.trim() || until ? { number: cylinder.trim(), valid_to: until ?? "" } : null,
          alarm_ok: tested(alarm),
          cutoff_ok: tested(cutoff),
          result,
          fault: fault.trim(),
          measures: measures.trim(),
          planned_work: planned.trim(),
          ...(follows ? { follows: follows.id } : {}),
        },
      },
      { onSuccess: onClose },
    );
  }

  const problems = record.isError && isApiError(record.error) ? (record.error.errors ?? []) : [];
  const errorAt = (...fields: string[]) => fields.map((f) => typed[f] ?? problems.find((p) => p.field === f)?.message).find(Boolean);
  const refusal = !record.isError
    ? undefined
    : isApiError(record.error)
      ? problems.length > 0
        ? "Проверка не записана: исправьте отмеченные поля"
        : record.error.detail
      : String(record.error);
  const sensorCode = sensors.find((s) => s.id === sensor)?.code;
  return (
    <Modal
      open
      width={720}
      title={
        follows
          ? `Исправление проверки ${follows.sensor_code} от ${displayDateTime(follows.at)}`
          : `Проверка датчика${sensorCode && fixed ? ` ${sensorCode}` : ""}`
      }
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Отмена
        </Button>,
        <Button key="save" type="primary" loading={record.isPending} onClick={save}>
          Записать и подписать
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        <Flex wrap gap={12}>
          {!fixed && !follows && (
            <Field label="Датчик" error={errorAt("sensor")}>
              <Select
                aria-label="Датчик"
                value={sensor}
                onChange={setSensor}
                options={sensors.map((s) => ({ value: s.id, label: s.code }))}
                placeholder="Выберите датчик"
              />
            </Field>
          )}
          <Field label="Дата и время" error={errorAt("at")}>
            <Input aria-label="Дата и время" placeholder="ДД.ММ.ГГГГ ЧЧ:ММ" value={at} onChange={(e) => setAt(e.target.value)} />
          </Field>
        </Flex>
        <Field label="Вид проверки" error={errorAt("kind")}>
          <Radio.Group aria-label="Вид проверки" value={kind} onChange={(e) => setKind(e.target.value)}>
            {CHECK_KINDS.map((k) => (
              <Radio key={k} value={k}>
                {kindText(k)}
              </Radio>
            ))}
          </Radio.Group>
        </Field>
        <Flex wrap gap={12}>
          <Field label="Показание датчика, % об." error={errorAt("reading_pct")}>
            <Input aria-label="Показание датчика, % об." inputMode="decimal" value={reading} onChange={(e) => setReading(e.target.value)} />
          </Field>
          <Field label="Показание контрольного прибора, % об." error={errorAt("reference_pct")}>
            <Input
              aria-label="Показание контрольного прибора, % об."
              inputMode="decimal"
              value={reference}
              onChange={(e) => setReference(e.target.value)}
            />
          </Field>
          <Field label="Контрольный прибор" error={errorAt("reference_instrument")}>
            <Input
              aria-label="Контрольный прибор"
              placeholder="ШИ-11 № 4512"
              value={instrument}
              onChange={(e) => setInstrument(e.target.value)}
              maxLength={LIMITS.sensorChecks.referenceInstrument}
            />
          </Field>
        </Flex>
        <Flex wrap gap={12}>
          <Field label="Кнопка «Контроль»">
            <Select aria-label="Кнопка «Контроль»" value={button} onChange={setButton} options={TESTED} />
          </Field>
          <Field label="Сигнализация от ПГС">
            <Select aria-label="Сигнализация от ПГС" value={alarm} onChange={setAlarm} options={TESTED} />
          </Field>
          <Field label="Отключение от ПГС">
            <Select aria-label="Отключение от ПГС" value={cutoff} onChange={setCutoff} options={TESTED} />
          </Field>
        </Flex>
        <Flex wrap gap={12}>
          <Field label="ПГС, % об." error={errorAt("test_gas_pct")}>
            <Input aria-label="ПГС, % об." inputMode="decimal" value={gas} onChange={(e) => setGas(e.target.value)} />
          </Field>
          <Field label="Баллон ПГС №" error={errorAt("test_gas_cylinder", "test_gas_cylinder.number")}>
            <Input
              aria-label="Баллон ПГС №"
              value={cylinder}
              onChange={(e) => setCylinder(e.target.value)}
              maxLength={LIMITS.sensorChecks.cylinderNumber}
            />
          </Field>
          <Field label="Годен до" error={errorAt("test_gas_cylinder.valid_to")}>
            <Input aria-label="Годен до" placeholder="ДД.ММ.ГГГГ" value={validTo} onChange={(e) => setValidTo(e.target.value)} />
          </Field>
        </Flex>
        <Field label="Результат" error={errorAt("result")}>
          <Radio.Group aria-label="Результат" value={result} onChange={(e) => setResult(e.target.value)}>
            {(["passed", "failed"] as const).map((r) => (
              <Radio key={r} value={r}>
                {capital(CHECK_RESULT_LABELS[r])}
              </Radio>
            ))}
          </Radio.Group>
        </Field>
        <Field label="Обнаруженная неисправность" error={errorAt("fault")}>
          <Input.TextArea
            aria-label="Обнаруженная неисправность"
            rows={2}
            value={fault}
            onChange={(e) => setFault(e.target.value)}
            maxLength={LIMITS.sensorChecks.text}
          />
        </Field>
        <Field label="Принятые меры" error={errorAt("measures")}>
          <Input.TextArea
            aria-label="Принятые меры"
            rows={2}
            value={measures}
            onChange={(e) => setMeasures(e.target.value)}
            maxLength={LIMITS.sensorChecks.text}
          />
        </Field>
        <Field label="Планируемые работы" error={errorAt("planned_work")}>
          <Input.TextArea
            aria-label="Планируемые работы"
            rows={2}
            value={planned}
            onChange={(e) => setPlanned(e.target.value)}
            maxLength={LIMITS.sensorChecks.text}
          />
        </Field>
        <Typography.Text type="secondary">
          Запись подписывается вами по вашей обязанности и больше не изменяется: остальные графы подписывают другие люди, ошибку исправляет
          новая проверка, которая следует за этой. {ADVISORY_NOTE}
        </Typography.Text>
        {refusal && <Alert type="error" showIcon role="alert" title={capital(refusal)} />}
      </Flex>
    </Modal>
  );
}
