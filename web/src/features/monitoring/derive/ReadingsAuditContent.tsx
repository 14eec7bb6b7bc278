// D104–D105 on a mine's page: the cut-offs not confirmed by the run channel of the meter's working (each
// answered with a cause, then confirmed by another person who holds a gassing book's duty: four eyes),
// the hand measurement's form as the ВТБ section fills it on the route (a phone's width), and the
// measurements' journal with what the fixed meter read beside each. Nothing is edited: a correction is
// a new measurement naming the one it corrects. The server's refusals show under their fields.
import { useState, type ReactNode } from "react";
import { Alert, Button, Card, Flex, Input, List, Select, Tag, Typography } from "antd";
import { DUTIES, DUTY_LABELS, type Duty } from "@core/gassing-book";
import {
  LIMITS,
  CUTOFF_CAUSES,
  CUTOFF_CAUSE_LABELS,
  HAND_INSTRUMENTS,
  HAND_INSTRUMENT_NAMES,
  type CutoffCause,
  type HandInstrument,
} from "@server/contract";
import { isApiError } from "../../../api/client";
import { useMe } from "../../../api/profile";
import { useSensors } from "../../../api/monitoring";
import {
  downloadCutoffs,
  downloadHandMeasurements,
  useAnswerCutoff,
  useConfirmCutoff,
  useCutoffs,
  useHandMeasurements,
  useRecordHandMeasurement,
  type CutoffView,
  type HandMeasurement,
} from "../../../api/readingsAudit";
import { companyZoneNow, displayDateTime } from "../../../shared/dates";
import { typedDateTime, typedNumber } from "../texts/checkTexts";

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const pct = (v: number) => `${v.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`;
const STATE: Record<CutoffView["state"], { color: string; text: string }> = {
  open: { color: "red", text: "причина не указана" },
  answered: { color: "orange", text: "ждет подтверждения" },
  confirmed: { color: "green", text: "подтверждено" },
};

function Field({ label, error, children, wide }: { label: string; error?: string; children: ReactNode; wide?: boolean }) {
  return (
    <Flex vertical gap={4} style={{ minWidth: wide ? 240 : 200, flex: 1 }}>
      <Typography.Text strong>{label}</Typography.Text>
      {children}
      {error && <Typography.Text type="danger">{capital(error)}</Typography.Text>}
    </Flex>
  );
}

const refusalOf = (error: unknown) => (isApiError(error) ? error.detail : String(error));

function Files({ download }: { download: (format: "xlsx" | "pdf") => Promise<void> }) {
  const [failed, setFailed] = useState<string>();
  return (
    <Flex gap={8} wrap align="center">
      {(["xlsx", "pdf"] as const).map((format) => (
        <Button key={format} size="small" onClick={() => download(format).catch((e) => setFailed(refusalOf(e)))}>
          {format === "xlsx" ? "Скачать xlsx" : "Скачать PDF"}
        </Button>
      ))}
      {failed && <Typography.Text type="danger">{failed}</Typography.Text>}
    </Flex>
  );
}

/** One record: what the minutes gave, and its answer and confirmation (or the forms to give them). */
function CutoffItem({ facility, c, duty }: { facility: string; c: CutoffView; duty: Duty | undefined }) {
  const [cause, setCause] = useState<CutoffCause>();
  const [comment, setComment] = useState("");
  const answer = useAnswerCutoff(facility);
  const confirm = useConfirmCutoff(facility);
  const problems = answer.isError && isApiError(answer.error) ? (answer.error.errors ?? []) : [];
  return (
    <List.Item>
      <Flex vertical gap={6} style={{ width: "100%" }} data-testid="cutoff">
        <Flex gap={8} wrap align="center">
          <Tag color={STATE[c.state].color}>{STATE[c.state].text}</Tag>
          <Typography.Text strong>
            {displayDateTime(c.start)}
            {c.end ? `–${displayDateTime(c.end)}` : ", продолжается"}
          </Typography.Text>
        </Flex>
        <Typography.Text>{capital(c.text)}</Typography.Text>
        <Typography.Text type="secondary">
          {[c.place, c.working].filter(Boolean).join(", ")}; {c.minutes} мин не ниже уставки
        </Typography.Text>
        {c.answer && (
          <Typography.Text>
            Причина: {c.answer.cause_text}
            {c.answer.comment ? ` (${c.answer.comment})` : ""} — {c.answer.by}, {displayDateTime(c.answer.at)}
          </Typography.Text>
        )}
        {c.confirmation && (
          <Typography.Text>
            Подтвердил {c.confirmation.duty_text} {c.confirmation.by}, {displayDateTime(c.confirmation.at)}
          </Typography.Text>
        )}
        {c.state === "open" && (
          <Flex gap={8} wrap align="flex-end">
            <Field label="Причина" error={problems.find((p) => p.field === "cause")?.message} wide>
              <Select
                aria-label="Причина"
                placeholder="Выберите причину"
                value={cause}
                onChange={setCause}
                options={CUTOFF_CAUSES.map((v) => ({ value: v, label: capital(CUTOFF_CAUSE_LABELS[v]) }))}
              />
            </Field>
            <Field label="Пояснение" error={problems.find((p) => p.field === "comment")?.message} wide>
              <Input
                aria-label="Пояснение"
                value={comment}
                onChange={(e) => setComment(e.target.value)}
                maxLength={LIMITS.sensorChecks.text}
              />
            </Field>
            <Button
              type="primary"
              disabled={!cause}
              loading={answer.isPending}
              onClick={() => cause && answer.mutate({ id: c.id, cause, comment: comment.trim() })}
            >
              Указать причину
            </Button>
          </Flex>
        )}
        {answer.isError && problems.length === 0 && <Typography.Text type="danger">{refusalOf(answer.error)}</Typography.Text>}
        {c.state === "answered" && duty && (
          <Flex gap={8} wrap align="center">
            <Button loading={confirm.isPending} onClick={() => confirm.mutate({ id: c.id, duty })}>
              Подтвердить как {DUTY_LABELS[duty]}
            </Button>
          </Flex>
        )}
        {confirm.isError && <Typography.Text type="danger">{refusalOf(confirm.error)}</Typography.Text>}
      </Flex>
    </List.Item>
  );
}

function CutoffsCard({ facility }: { facility: string }) {
  const cutoffs = useCutoffs(facility);
  const me = useMe();
  const duty = DUTIES.find((d) => d === me.data?.duty);
  const results = cutoffs.data?.results ?? [];
  return (
    <Card title="Отключение не подтверждено">
      <Flex vertical gap={8}>
        <Files download={(f) => downloadCutoffs(facility, f)} />
        <Typography.Text type="secondary">
          Метан на датчике не ниже уставки отключения, а канал работы оборудования той же выработки показывает работу 2 мин и более после
          нее (за 30 дней). Причину указывает один человек, подтверждает другой — {DUTIES.map((d) => DUTY_LABELS[d]).join(", ")}.
        </Typography.Text>
        {cutoffs.isError && <Alert type="error" showIcon title={refusalOf(cutoffs.error)} />}
        <List
          loading={cutoffs.isLoading}
          dataSource={results}
          locale={{ emptyText: "Отключений, не подтвержденных каналом работы, нет" }}
          renderItem={(c) => <CutoffItem key={c.id} facility={facility} c={c} duty={duty} />}
        />
      </Flex>
    </Card>
  );
}

/** Now on the company's clock as typed: «ДД.ММ.ГГГГ ЧЧ:ММ». */
function nowTyped(): string {
  const text = displayDateTime(new Date().toISOString());
  return /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/.test(text) ? text : "";
}

function HandForm({ facility, corrects, onDone }: { facility: string; corrects?: HandMeasurement; onDone: () => void }) {
  const sensors = useSensors(facility);
  const meters = (sensors.data ?? []).filter((s) => s.is_active && (s.kind === "methane" || s.kind === "methane_high"));
  const [instrument, setInstrument] = useState<HandInstrument>((corrects?.instrument as HandInstrument) ?? "ШИ-11");
  const [number, setNumber] = useState(corrects?.instrument_number ?? "");
  const [sensor, setSensor] = useState<string | undefined>(corrects?.sensor);
  const [place, setPlace] = useState(corrects?.place ?? "");
  const [value, setValue] = useState("");
  const [at, setAt] = useState(corrects ? displayDateTime(corrects.measured_at) : nowTyped());
  const [comment, setComment] = useState("");
  const [typed, setTyped] = useState<Record<string, string>>({});
  const record = useRecordHandMeasurement(facility);

  function save() {
    const problems: Record<string, string> = {};
    const figure = typedNumber(value);
    if (figure === undefined || figure === null) problems.value_pct = "число, например 0,62";
    if (!sensor) problems.sensor = "выберите ближайший стационарный датчик";
    const when = typedDateTime(at, companyZoneNow());
    if (!when) problems.measured_at = "время в виде ДД.ММ.ГГГГ ЧЧ:ММ";
    setTyped(problems);
    if (Object.keys(problems).length > 0 || !sensor || !when || figure === undefined || figure === null) return;
    record.mutate(
      {
        instrument,
        instrument_number: number.trim(),
        place: place.trim(),
        sensor,
        value_pct: figure,
        measured_at: when,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
        ...(corrects ? { corrects: corrects.id } : {}),
      },
      {
        onSuccess: () => {
          setValue("");
          setComment("");
          onDone();
        },
      },
    );
  }

  const problems = record.isError && isApiError(record.error) ? (record.error.errors ?? []) : [];
  const errorAt = (field: string) => typed[field] ?? problems.find((p) => p.field === field)?.message;
  const written = record.isSuccess ? (record.data as HandMeasurement) : undefined;
  return (
    <Flex vertical gap={12} data-testid="hand-form">
      {corrects && (
        <Alert
          type="info"
          showIcon
          title={`Исправление замера ${corrects.sensor_code} от ${displayDateTime(corrects.measured_at)}: прежняя запись останется в журнале`}
        />
      )}
      <Flex wrap gap={12}>
        <Field label="Прибор" error={errorAt("instrument")}>
          <Select
            aria-label="Прибор"
            value={instrument}
            onChange={setInstrument}
            options={HAND_INSTRUMENT_NAMES.map((n) => ({ value: n, label: `${n} (0–${HAND_INSTRUMENTS[n].max_pct} %)` }))}
          />
        </Field>
        <Field label="Заводской номер" error={errorAt("instrument_number")}>
          <Input
            aria-label="Заводской номер"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            maxLength={LIMITS.sensorChecks.serial}
          />
        </Field>
      </Flex>
      <Flex wrap gap={12}>
        <Field label="Ближайший датчик" error={errorAt("sensor")}>
          <Select
            aria-label="Ближайший датчик"
            placeholder="Выберите датчик"
            value={sensor}
            onChange={setSensor}
            showSearch
            optionFilterProp="label"
            options={meters.map((s) => ({ value: s.id, label: s.working ? `${s.code} — ${s.working}` : s.code }))}
          />
        </Field>
        <Field label="Метан, % об." error={errorAt("value_pct")}>
          <Input
            aria-label="Метан, % об."
            inputMode="decimal"
            placeholder="0,62"
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </Field>
      </Flex>
      <Field label="Место замера" error={errorAt("place")} wide>
        <Input
          aria-label="Место замера"
          placeholder="Вентиляционный штрек 24-15, у датчика"
          value={place}
          onChange={(e) => setPlace(e.target.value)}
          maxLength={LIMITS.sensorChecks.referenceInstrument}
        />
      </Field>
      <Flex wrap gap={12}>
        <Field label="Время замера" error={errorAt("measured_at")}>
          <Input aria-label="Время замера" placeholder="ДД.ММ.ГГГГ ЧЧ:ММ" value={at} onChange={(e) => setAt(e.target.value)} />
        </Field>
        <Field label="Примечание" error={errorAt("comment")}>
          <Input
            aria-label="Примечание"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            maxLength={LIMITS.sensorChecks.text}
          />
        </Field>
      </Flex>
      <Flex gap={8} wrap align="center">
        <Button type="primary" loading={record.isPending} onClick={save}>
          Записать замер
        </Button>
        {record.isError && (
          <Typography.Text type="danger">
            {problems.length > 0 ? "Замер не записан: исправьте отмеченные поля" : refusalOf(record.error)}
          </Typography.Text>
        )}
      </Flex>
      {written && (
        <Alert
          type={written.compared?.differs ? "warning" : "success"}
          showIcon
          title={`Записан: ${pct(written.value_pct)}, ${written.text}${written.compared?.differs ? "; показания датчика под сомнением до его проверки" : ""}`}
        />
      )}
    </Flex>
  );
}

function HandJournal({ facility, onCorrect }: { facility: string; onCorrect: (m: HandMeasurement) => void }) {
  const list = useHandMeasurements(facility);
  return (
    <Card title="Журнал ручных замеров">
      <Files download={(f) => downloadHandMeasurements(facility, f)} />
      {list.isError && <Alert type="error" showIcon title={refusalOf(list.error)} />}
      <List
        loading={list.isLoading}
        dataSource={list.data?.results ?? []}
        locale={{ emptyText: "Замеров за 30 дней нет" }}
        renderItem={(m) => (
          <List.Item key={m.id}>
            <Flex vertical gap={4} style={{ width: "100%" }} data-testid="hand-measurement">
              <Flex gap={8} wrap align="center">
                {m.compared?.differs && <Tag color="orange">расходится с датчиком</Tag>}
                {m.corrected_by && <Tag>исправлен</Tag>}
                {m.corrects && <Tag color="blue">исправление</Tag>}
                <Typography.Text strong>
                  {displayDateTime(m.measured_at)}: {pct(m.value_pct)}
                </Typography.Text>
              </Flex>
              <Typography.Text>
                {m.instrument} № {m.instrument_number}; {m.place}
                {m.working ? ` (${m.working})` : ""}
              </Typography.Text>
              <Typography.Text type="secondary">
                {capital(m.text)}. Записал {m.recorded_by}
                {m.comment ? `; ${m.comment}` : ""}
              </Typography.Text>
              {!m.corrected_by && (
                <div>
                  <Button size="small" onClick={() => onCorrect(m)}>
                    Исправить
                  </Button>
                </div>
              )}
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}

export default function ReadingsAuditContent({ facility }: { facility: string }) {
  const [corrects, setCorrects] = useState<HandMeasurement>();
  return (
    <Flex vertical gap={16}>
      <CutoffsCard facility={facility} />
      <Card title={corrects ? "Исправление ручного замера" : "Ручной замер"}>
        <Flex vertical gap={8}>
          <Typography.Text type="secondary">
            Замер участка ВТБ рядом со стационарным датчиком. Расхождение с минутой датчика (в пределах 10 мин) более ±0,20 % об. при
            показании датчика ниже 2,50 % ставит его показания под сомнение до следующей пройденной проверки. Записи не изменяются:
            исправление — новая запись.
          </Typography.Text>
          <HandForm key={corrects?.id ?? "new"} facility={facility} corrects={corrects} onDone={() => setCorrects(undefined)} />
        </Flex>
      </Card>
      <HandJournal facility={facility} onCorrect={setCorrects} />
    </Flex>
  );
}
