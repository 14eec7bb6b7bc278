// The dispatcher's entry of a gassing in the gassing book (an earlier round: «Книга учета
// загазирований»): whom they informed, when and by whom (the chief engineer, the head of the АБ section, the head of the
// affected section, the territorial Rostekhnadzor body), the cause, the type, the losses, who cleared
// the gas and who investigated, the measures, a comment, and the closing, which the server refuses
// naming each addressee not yet notified and each of cause, type and measures still empty. Who and
// when are kept; a closed entry does not change. D88: an entry holding a jump or a reading past
// the meter's span is marked, and closing it asks what it was (an outburst, the sensor's fault, other).
import { useState } from "react";
import { Alert, Button, Flex, Input, InputNumber, Modal, Radio, Typography } from "antd";
import { LIMITS } from "@server/contract";
import {
  GASSING_TYPES,
  GASSING_TYPE_LABELS,
  CORRECTED_MARK,
  ONSETS,
  ONSET_LABELS,
  SUDDEN_MARK,
  correctionText,
  gassingMaxText,
  type GassingType,
  type Onset,
} from "@core/gassing-book";
import { NOTIFICATIONS, NOTIFICATION_LABELS } from "@core/monitoring-events";
import { ADVISORY_NOTE } from "@core/monitoring";
import { companyZoneNow, displayDateTime, typedDate } from "../../../shared/dates";
import { instantOfWallTime } from "@core/company-clock";
import { withoutFieldNames } from "../../../shared/fieldErrors";
import { isApiError } from "../../../api/client";
import { useRegisterGassing, type Gassing } from "../../../api/journal";
import { number } from "../texts/offerTexts";

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const INSTANT_TYPED = "ДД.ММ.ГГГГ ЧЧ:ММ";
/** «ДД.ММ.ГГГГ ЧЧ:ММ» on the company's clock → an ISO instant; undefined when it is none. */
function typedInstant(text: string): string | undefined {
  const [day, time] = text.trim().split(/\s+/);
  const date = day ? typedDate(day) : undefined;
  const match = time ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time) : null;
  if (!date || !match) return undefined;
  const [y, m, d] = date.split("-").map(Number);
  return new Date(instantOfWallTime(y, m, d, Number(match[1]), Number(match[2]), companyZoneNow())).toISOString();
}

/** The fields whose refusal shows under them; the others' (notifications, a gassing that lasts) in the alert. */
const OWN_FIELDS = ["cause", "type", "measures", "onset", "correction_reason"] as const;
type OwnField = (typeof OWN_FIELDS)[number];

function Field({ label, error, children }: { label: string; error?: string; children: React.ReactNode }) {
  return (
    <Flex vertical gap={4}>
      <Typography.Text strong>{label}</Typography.Text>
      {children}
      {error && <Typography.Text type="danger">{capital(error)}</Typography.Text>}
    </Flex>
  );
}

type Addressee = (typeof NOTIFICATIONS)[number];
/** An addressee's notification as typed: when («ДД.ММ.ГГГГ ЧЧ:ММ», empty: not notified) and by whom. */
type TypedNotice = { at: string; by: string };

/** when each addressee was notified, and by whom: a row of the two fields and «Сейчас». */
function NoticeRow({
  addressee,
  value,
  error,
  onChange,
}: {
  addressee: Addressee;
  value: TypedNotice;
  error?: string;
  onChange: (next: TypedNotice) => void;
}) {
  const label = capital(NOTIFICATION_LABELS[addressee]);
  const typed = value.at && !typedInstant(value.at) ? `дата и время в виде ${INSTANT_TYPED}` : undefined;
  return (
    <Flex vertical gap={2}>
      <Typography.Text>{label}</Typography.Text>
      <Flex gap={8} wrap>
        <Input
          aria-label={`${label}: когда оповещен`}
          placeholder={INSTANT_TYPED}
          value={value.at}
          onChange={(e) => onChange({ ...value, at: e.target.value })}
          style={{ width: 170 }}
        />
        <Input
          aria-label={`${label}: кем оповещен`}
          placeholder="Кем: Фамилия И. О."
          value={value.by}
          onChange={(e) => onChange({ ...value, by: e.target.value })}
          maxLength={LIMITS.text.companyText}
          style={{ width: 210 }}
        />
        <Button
          aria-label={`${label}: оповещен сейчас`}
          onClick={() => onChange({ ...value, at: displayDateTime(new Date().toISOString()) })}
        >
          Сейчас
        </Button>
      </Flex>
      {(typed ?? error) && <Typography.Text type="danger">{capital((typed ?? error) as string)}</Typography.Text>}
    </Flex>
  );
}

export default function RegisterGassingDialog({ facility, gassing, onClose }: { facility: string; gassing: Gassing; onClose: () => void }) {
  const [notices, setNotices] = useState<Record<Addressee, TypedNotice>>(
    () =>
      Object.fromEntries(
        NOTIFICATIONS.map((n) => {
          const notice = gassing.notified[n];
          return [n, { at: notice ? displayDateTime(notice.at) : "", by: notice?.by ?? "" }];
        }),
      ) as Record<Addressee, TypedNotice>,
  );
  const [cause, setCause] = useState(gassing.cause);
  const [type, setType] = useState<GassingType | null>(gassing.type);
  const [onset, setOnset] = useState<Onset | null>(gassing.onset);
  const [development, setDevelopment] = useState<number | null>(gassing.losses.development_m);
  const [coal, setCoal] = useState<number | null>(gassing.losses.coal_t);
  const [clearedBy, setClearedBy] = useState(gassing.cleared_by);
  const [investigatedBy, setInvestigatedBy] = useState(gassing.investigated_by);
  const [clearedAt, setClearedAt] = useState(gassing.cleared_at ? displayDateTime(gassing.cleared_at) : "");
  const [resumedAt, setResumedAt] = useState(gassing.resumed_at ? displayDateTime(gassing.resumed_at) : "");
  const [measures, setMeasures] = useState(gassing.measures);
  const [comment, setComment] = useState(gassing.comment);
  const [correctionReason, setCorrectionReason] = useState(gassing.correction_reason);
  const register = useRegisterGassing(facility);
  const save = (close: boolean) =>
    register.mutate(
      {
        gassing: gassing.id,
        body: {
          // each addressee's time and who notified them; cleared: not notified; mistyped: kept.
          notified: Object.fromEntries(
            NOTIFICATIONS.flatMap((n): [Addressee, { at: string; by?: string } | null][] => {
              const { at, by } = notices[n];
              if (!at.trim()) return [[n, null]];
              const instant = typedInstant(at);
              return instant ? [[n, { at: instant, ...(by.trim() ? { by: by.trim() } : {}) }]] : [];
            }),
          ),
          cause: cause.trim(),
          ...(type ? { type } : {}),
          ...(onset ? { onset } : {}),
          // a loss left empty stays never entered («—»), not 0.
          losses: { ...(development !== null ? { development_m: development } : {}), ...(coal !== null ? { coal_t: coal } : {}) },
          cleared_by: clearedBy.trim(),
          ...(typedInstant(clearedAt) ? { cleared_at: typedInstant(clearedAt) } : {}),
          ...(typedInstant(resumedAt) ? { resumed_at: typedInstant(resumedAt) } : {}),
          investigated_by: investigatedBy.trim(),
          measures: measures.trim(),
          comment: comment.trim(),
          ...(gassing.corrections.length > 0 ? { correction_reason: correctionReason.trim() } : {}),
          close,
        },
      },
      { onSuccess: onClose },
    );
  // The server names what it refuses at its field: the book's fields show theirs under them, the rest
  // (`notified`, `close`) in the alert, its text without the field's name.
  const problems = register.isError && isApiError(register.error) ? (register.error.errors ?? []) : [];
  const errorAt = (field: OwnField) => problems.find((p) => p.field === field)?.message;
  const noticeError = (n: Addressee) => problems.find((p) => p.field === `notified.${n}`)?.message;
  const others = problems.filter((p) => !(OWN_FIELDS as readonly string[]).includes(p.field) && !p.field.startsWith("notified."));
  const refusal = !register.isError
    ? undefined
    : !isApiError(register.error)
      ? String(register.error)
      : problems.length === 0
        ? register.error.detail
        : others.length > 0
          ? withoutFieldNames({ detail: register.error.detail, errors: others })
          : problems.some((p) => p.message.startsWith("нельзя закрыть"))
            ? "Нельзя закрыть: заполните отмеченные поля"
            : "Исправьте отмеченные поля";
  const long = LIMITS.text.comment;
  const short = LIMITS.text.companyText;
  return (
    <Modal
      open
      width={640}
      title={`Загазирование ${gassing.kind}: ${gassing.sensors.join(", ")}, ${displayDateTime(gassing.start)}`}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Отмена
        </Button>,
        <Button key="save" loading={register.isPending} onClick={() => save(false)}>
          {gassing.registered_by ? "Сохранить" : "Зарегистрировать"}
        </Button>,
        <Button key="close" type="primary" danger loading={register.isPending} onClick={() => save(true)}>
          Закрыть загазирование
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        <Typography.Text>
          {gassing.working || "без выработки"}, максимум {gassingMaxText(gassing.max, gassing.over_span, number)}, норма{" "}
          {[...new Set(gassing.limits)].map((l) => number(l, 2)).join("; ")} %,{" "}
          {gassing.end ? `до ${displayDateTime(gassing.end)}` : "продолжается"}
        </Typography.Text>
        {gassing.sudden && (
          <Field label={capital(SUDDEN_MARK)} error={errorAt("onset")}>
            <Radio.Group value={onset} onChange={(e) => setOnset(e.target.value)} aria-label="Что это было">
              {ONSETS.map((o) => (
                <Radio key={o} value={o}>
                  {capital(ONSET_LABELS[o])}
                </Radio>
              ))}
            </Radio.Group>
          </Field>
        )}
        <Field label="Оповещены: когда и кем">
          {NOTIFICATIONS.map((n) => (
            <NoticeRow
              key={n}
              addressee={n}
              value={notices[n]}
              error={noticeError(n)}
              onChange={(next) => setNotices({ ...notices, [n]: next })}
            />
          ))}
        </Field>
        {gassing.corrections.length > 0 && (
          <Field label={`${capital(CORRECTED_MARK)}: причина`} error={errorAt("correction_reason")}>
            {gassing.corrections.map((c) => (
              <Typography.Text key={c.at} type="secondary">
                {correctionText(c, displayDateTime, number).slice(CORRECTED_MARK.length + 2)}
              </Typography.Text>
            ))}
            <Input
              aria-label="Причина исправления"
              placeholder="Например: ложное срабатывание: помеха в линии связи"
              value={correctionReason}
              onChange={(e) => setCorrectionReason(e.target.value)}
              maxLength={long}
            />
          </Field>
        )}
        <Field label="Вид загазирования" error={errorAt("type")}>
          <Radio.Group value={type} onChange={(e) => setType(e.target.value)} aria-label="Вид загазирования">
            {GASSING_TYPES.map((t) => (
              <Radio key={t} value={t}>
                {capital(GASSING_TYPE_LABELS[t])}
              </Radio>
            ))}
          </Radio.Group>
        </Field>
        <Field label="Причина" error={errorAt("cause")}>
          <Input.TextArea aria-label="Причина" rows={2} value={cause} onChange={(e) => setCause(e.target.value)} maxLength={long} />
        </Field>
        <Flex gap={12} wrap>
          <Field label="Потери проходки, м">
            <InputNumber aria-label="Потери проходки, м" min={0} value={development} onChange={setDevelopment} decimalSeparator="," />
          </Field>
          <Field label="Потери добычи, т">
            <InputNumber aria-label="Потери добычи, т" min={0} value={coal} onChange={setCoal} decimalSeparator="," />
          </Field>
        </Flex>
        <Field label="Разгазирование провел">
          <Input
            aria-label="Разгазирование провел"
            placeholder="Должность, фамилия и инициалы"
            value={clearedBy}
            onChange={(e) => setClearedBy(e.target.value)}
            maxLength={short}
          />
        </Field>
        {/* when the gas was cleared and work resumed, on the company's clock. */}
        <Flex gap={12} wrap>
          <Field label="Разгазировано" error={clearedAt && !typedInstant(clearedAt) ? `дата и время в виде ${INSTANT_TYPED}` : undefined}>
            <Input
              aria-label="Разгазировано"
              placeholder={INSTANT_TYPED}
              value={clearedAt}
              onChange={(e) => setClearedAt(e.target.value)}
            />
          </Field>
          <Field
            label="Работы возобновлены"
            error={resumedAt && !typedInstant(resumedAt) ? `дата и время в виде ${INSTANT_TYPED}` : undefined}
          >
            <Input
              aria-label="Работы возобновлены"
              placeholder={INSTANT_TYPED}
              value={resumedAt}
              onChange={(e) => setResumedAt(e.target.value)}
            />
          </Field>
        </Flex>
        <Field label="Расследовал">
          <Input
            aria-label="Расследовал"
            placeholder="Кто расследовал причину"
            value={investigatedBy}
            onChange={(e) => setInvestigatedBy(e.target.value)}
            maxLength={short}
          />
        </Field>
        <Field label="Принятые меры" error={errorAt("measures")}>
          <Input.TextArea
            aria-label="Принятые меры"
            rows={2}
            value={measures}
            onChange={(e) => setMeasures(e.target.value)}
            maxLength={long}
          />
        </Field>
        <Field label="Комментарий">
          <Input.TextArea aria-label="Комментарий" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={long} />
        </Field>
        <Typography.Text type="secondary">
          Закрыть можно, когда оповещены все, загазирование кончилось и указаны причина, вид и принятые меры
          {gassing.sudden ? " (и что это было)" : ""}. Закрытая запись не меняется. {ADVISORY_NOTE}
        </Typography.Text>
        {refusal && <Alert type="error" showIcon role="alert" title={capital(refusal)} />}
      </Flex>
    </Modal>
  );
}
