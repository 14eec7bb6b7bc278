// The gassings of a day or a period as «Журнал оператора АГК», «События» and «Книга учета
// загазирований» list them: when and how long, where, which sensors, «общее» or «местное» in
// words beside its colour, the maximum, the book's entry (the type, the cause, the measures, the losses,
// who cleared the gas and who investigated), the dispatcher's registration and closing with its dialog,
// and the confirmations of the section's head, the head of the АБ section and the chief engineer — the
// user whose duty it is confirms a closed entry here. People by surname and initials.
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Alert, Button, Card, Space, Tag, Typography, type TableColumnsType } from "antd";
import { NOTIFICATIONS, NOTIFICATION_LABELS } from "@core/monitoring-events";
import {
  CORRECTED_MARK,
  correctionText,
  splitEntryText,
  DUTIES,
  DUTY_LABELS,
  GASSING_TYPE_LABELS,
  ONSET_LABELS,
  SUDDEN_MARK,
  gassingDurationText,
  gassingMaxText,
  noticeText,
} from "@core/gassing-book";
import { ResponsiveTable } from "../../../shared/ResponsiveTable";
import { displayDateTime } from "../../../shared/dates";
import { isApiError } from "../../../api/client";
import { useMe } from "../../../api/profile";
import type { Gassing } from "../../../api/journal";
import { useConfirmGassing } from "../../../api/gassing-book";
import { number } from "../texts/offerTexts";
import { surnameInitials } from "@core/person-name";

// The registration's dialog loads when opened.
const RegisterGassingDialog = lazy(() => import("./RegisterGassingDialog"));

const KIND_COLOURS: Record<Gassing["kind"], string> = { общее: "red", местное: "orange" };
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function registrationText(g: Gassing) {
  if (!g.registered_by)
    return (
      <Typography.Text strong type="danger">
        Не зарегистрировано
      </Typography.Text>
    );
  const ticked = NOTIFICATIONS.filter((n) => g.notified[n]).length;
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text>
        Зарегистрировал {g.registered_by}, {displayDateTime(g.registered_at)}
      </Typography.Text>
      {g.closed ? (
        <Typography.Text>
          Закрыл {g.closed_by}, {displayDateTime(g.closed_at)}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">
          оповещены {ticked} из {NOTIFICATIONS.length}; не закрыто
        </Typography.Text>
      )}
      {/* whom they informed, when and by whom. */}
      {NOTIFICATIONS.map((n) => {
        const notice = g.notified[n];
        return (
          notice && (
            <Typography.Text key={n} type="secondary">
              {capital(noticeText(NOTIFICATION_LABELS[n], notice, displayDateTime))}
            </Typography.Text>
          )
        );
      })}
      {g.comment && <Typography.Text type="secondary">«{g.comment}»</Typography.Text>}
    </Space>
  );
}

/** The book's entry: type, cause, measures, losses, who cleared the gas and who investigated. */
/** D89, D97: each correction of the readings after the gassing was found, as the record keeps
 *  it (one written after closing marked «после закрытия»), and an entry opened before D97 for the rest of
 *  the same gassing, shown in this row. */
function Corrections({ g }: { g: Gassing }) {
  if (g.corrections.length === 0 && g.split_entries.length === 0) return null;
  return (
    <Space direction="vertical" size={0} data-testid="gassing-corrections">
      <Tag color="orange" style={{ whiteSpace: "normal" }}>
        {CORRECTED_MARK}
      </Tag>
      {g.corrections.map((c, i) => (
        <Typography.Text key={`${c.at}-${i}`} type="secondary" style={{ fontSize: 12 }}>
          {correctionText(c, displayDateTime, number).slice(CORRECTED_MARK.length + 2)}
        </Typography.Text>
      ))}
      {g.split_entries.map((e) => (
        <Typography.Text key={e.id} type="secondary" style={{ fontSize: 12 }} data-testid="gassing-split-entry">
          {splitEntryText(e, displayDateTime, number)}
        </Typography.Text>
      ))}
      {g.correction_reason && <Typography.Text style={{ fontSize: 12 }}>Причина исправления: {g.correction_reason}</Typography.Text>}
    </Space>
  );
}

function entryText(g: Gassing) {
  if (!g.registered_by)
    return g.corrections.length + g.split_entries.length > 0 ? (
      <Corrections g={g} />
    ) : (
      <Typography.Text type="secondary">—</Typography.Text>
    );
  const line = (label: string, value: string) => (
    <Typography.Text>
      <Typography.Text type="secondary">{label}:</Typography.Text> {value || "не указано"}
    </Typography.Text>
  );
  return (
    <Space direction="vertical" size={0}>
      {line("Вид", g.type ? GASSING_TYPE_LABELS[g.type] : "")}
      {line("Причина", g.cause)}
      {line("Меры", g.measures)}
      {line(
        "Потери",
        // losses never entered are «—», never «0,0».
        `проходка ${g.losses.development_m === null ? "—" : `${number(g.losses.development_m, 1)} м`}, добыча ${
          g.losses.coal_t === null ? "—" : `${number(g.losses.coal_t, 1)} т`
        }`,
      )}
      {line("Разгазирование провел", g.cleared_by)}
      {line("Расследовал", g.investigated_by)}
      <Corrections g={g} />
    </Space>
  );
}

function Confirmations({ g, facility }: { g: Gassing; facility: string }) {
  // A check's signer confirms nothing in the book.
  const me = useMe().data;
  const held = me?.duty ?? null;
  const duty = held !== null && (DUTIES as readonly string[]).includes(held) ? (held as (typeof DUTIES)[number]) : null;
  const confirm = useConfirmGassing(facility);
  // D89, four eyes: the one who closed the entry is refused its confirmation (403), so is offered none;
  // the entry names its closer by surname and initials, as the signed-in user's own are made.
  const closedByMe = me !== undefined && g.closed_by !== null && surnameInitials(me) !== "" && g.closed_by === surnameInitials(me);
  const canConfirm = g.closed && duty !== null && !g.confirmations[duty] && !closedByMe;
  return (
    <Space direction="vertical" size={2}>
      {DUTIES.map((d) => {
        const given = g.confirmations[d];
        return (
          <Typography.Text key={d}>
            <Typography.Text type="secondary">{capital(DUTY_LABELS[d])}:</Typography.Text>{" "}
            {given ? `${given.by}, ${displayDateTime(given.at)}` : "не подтверждено"}
          </Typography.Text>
        );
      })}
      {g.closed && duty !== null && !g.confirmations[duty] && closedByMe && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="four-eyes">
          Запись закрыли вы: ее подтверждает другой человек (правило «четырех глаз»)
        </Typography.Text>
      )}
      {canConfirm && (
        <Button size="small" loading={confirm.isPending} onClick={() => confirm.mutate({ gassing: g.id, duty })}>
          Подтвердить как {DUTY_LABELS[duty]}
        </Button>
      )}
      {confirm.isError && (
        <Alert type="error" showIcon role="alert" title={isApiError(confirm.error) ? confirm.error.detail : String(confirm.error)} />
      )}
    </Space>
  );
}

export function GassingsCard({
  facility,
  title,
  gassings,
  loading,
  extra,
  processing,
}: {
  facility: string;
  title: string;
  gassings: readonly Gassing[];
  loading: boolean;
  extra?: ReactNode;
  /** «данные обрабатываются: N мин» while the facility's batches are not yet read into the book. */
  processing?: string | null;
}) {
  const [registering, setRegistering] = useState<Gassing | null>(null);
  const columns: TableColumnsType<Gassing> = [
    {
      title: "Начало, конец",
      key: "when",
      width: 130,
      render: (_: unknown, g) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{displayDateTime(g.start)}</Typography.Text>
          {/* one begun before the day listed is in force in it, carried over. */}
          {g.carried_over && <Tag>перешло с прошлых суток</Tag>}
          {g.end ? <Typography.Text>{displayDateTime(g.end)}</Typography.Text> : <Typography.Text strong>продолжается</Typography.Text>}
          {g.end && <Typography.Text type="secondary">{gassingDurationText(g.duration_min)}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: "Участок, выработка, датчики",
      key: "where",
      width: 130,
      render: (_: unknown, g) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>
            {[g.section !== g.working ? g.section : "", g.working].filter(Boolean).join(": ") || "без выработки"}
          </Typography.Text>
          <Typography.Text type="secondary">{g.sensors.join(", ")}</Typography.Text>
          {/* D94: a sensor's minutes after a failed check or out of verification, kept and used, said. */}
          {g.doubt && <Typography.Text type="warning">{g.doubt}</Typography.Text>}
        </Space>
      ),
    },
    { title: "Вид", dataIndex: "kind", width: 80, render: (v: Gassing["kind"]) => <Tag color={KIND_COLOURS[v]}>{v}</Tag> },
    {
      title: "Макс. / норма, % об.",
      key: "max",
      align: "right",
      width: 95,
      // the norm by the meters' place (D87); past the span «более 4 % (за пределом шкалы)», and
      // a jump or an over-span minute marked with what closing said it was (D88).
      render: (_: unknown, g) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>
            {g.over_span === null ? number(g.max, 2) : gassingMaxText(g.max, g.over_span, number)} /{" "}
            {[...new Set(g.limits)].map((l) => number(l, 2)).join("; ")}
          </Typography.Text>
          {g.sudden && (
            <Tag color="volcano" style={{ whiteSpace: "normal" }}>
              {g.onset ? `резкий рост / за пределом шкалы: ${ONSET_LABELS[g.onset]}` : SUDDEN_MARK}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: "Запись в книге", key: "entry", width: 240, render: (_: unknown, g) => entryText(g) },
    {
      title: "Регистрация",
      key: "registration",
      width: 195,
      render: (_: unknown, g) => (
        <Space direction="vertical" size={4}>
          {registrationText(g)}
          {!g.closed && (
            <Button size="small" onClick={() => setRegistering(g)}>
              {g.registered_by ? "Заполнить, закрыть" : "Зарегистрировать"}
            </Button>
          )}
        </Space>
      ),
    },
    { title: "Подтверждения", key: "confirmations", width: 220, render: (_: unknown, g) => <Confirmations g={g} facility={facility} /> },
  ];
  return (
    <Card title={title}>
      {extra && <div style={{ marginBottom: 12 }}>{extra}</div>}
      {processing && (
        <Alert
          type="info"
          showIcon
          role="status"
          style={{ marginBottom: 12 }}
          title={`Книга может быть неполной: ${processing}`}
          data-testid="processing"
        />
      )}
      <ResponsiveTable<Gassing>
        rowKey="id"
        size="small"
        pagination={false}
        loading={loading}
        scroll={{ x: 1080 }}
        columns={columns}
        dataSource={gassings as Gassing[]}
        // Never «Загазирований нет» while what was taken is not yet read into the book.
        locale={{ emptyText: processing ? `${processing.charAt(0).toUpperCase()}${processing.slice(1)}` : "Загазирований нет" }}
      />
      {registering && (
        <Suspense>
          <RegisterGassingDialog facility={facility} gassing={registering} onClose={() => setRegistering(null)} />
        </Suspense>
      )}
    </Card>
  );
}
