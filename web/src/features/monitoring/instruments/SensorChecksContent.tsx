// «Проверки датчиков» of a mine or of one sensor (D94): what is due of each sensor now — the
// mine's interval, the last check, the next due, «проверка просрочена на N дн.», a failed latest check
// («датчик не прошел проверку») — the mine's own intervals with the document that sets them, and the
// «Метан» maintenance journal of a period: each check in the journal's columns with its three signatures
// (the АГК operator, the АГК electrician, the deputy head of ВТБ for АГК), given here by the user with
// that duty; a check is never edited, a correction follows it. Advisory: protective cut-off stays with
// the mine's own АГК.
import { lazy, Suspense, useState } from "react";
import { Alert, Button, Card, Descriptions, Flex, Space, Tag, Typography, type TableColumnsType } from "antd";
import { Link, useParams } from "react-router-dom";
import { CHECK_DUTIES, CHECK_DUTY_LABELS, CHECK_RESULT_LABELS, isCheckDuty } from "@core/sensor-checks";
import { ResponsiveTable } from "../../../shared/ResponsiveTable";
import { LoadError } from "../../../shared/LoadError";
import { DayPeriodHeader, daysBefore, useDayPeriod } from "../../../shared/DayPeriod";
import { displayDateTime } from "../../../shared/dates";
import { isApiError } from "../../../api/client";
import { useMe } from "../../../api/profile";
import { downloadChecksJournal } from "../../../api/instrumentFiles";
import { useSensors } from "../../../api/monitoring";
import {
  useCheckIntervals,
  useCheckStates,
  useSensorChecks,
  useSignCheck,
  useVerifications,
  type SensorCheck,
  type SensorCheckState,
} from "../../../api/instruments";
import { gasText, kindText, readingText, testText } from "../texts/checkTexts";
import { VerificationRecords } from "./VerificationRecords";
import { kindText as sensorKindText, ROLES } from "../texts/sensorTexts";
import type { SensorKind } from "@core/monitoring";

const RecordCheckDialog = lazy(() => import("./RecordCheckDialog"));
const CheckIntervalsDialog = lazy(() => import("./CheckIntervalsDialog"));
const VerificationDialog = lazy(() => import("./VerificationDialog"));
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const kindLabel = (kind: string) => sensorKindText(kind as SensorKind);
const roleLabel = (role: string) => ROLES[role as keyof typeof ROLES] ?? role;

function StateTags({ state }: { state: SensorCheckState }) {
  if (state.problems.length === 0) return <Tag color="green">в порядке</Tag>;
  return (
    <Space direction="vertical" size={2}>
      {state.problems.map((p) => (
        <Tag key={p} color="red" style={{ whiteSpace: "normal" }}>
          {p}
        </Tag>
      ))}
    </Space>
  );
}

function Signatures({ check, facility }: { check: SensorCheck; facility: string }) {
  const duty = useMe().data?.duty ?? null;
  const sign = useSignCheck(facility);
  const mine = isCheckDuty(duty) ? duty : null;
  return (
    <Space direction="vertical" size={2}>
      {CHECK_DUTIES.map((d) => {
        const given = check.signatures[d];
        return (
          <Typography.Text key={d}>
            <Typography.Text type="secondary">{capital(CHECK_DUTY_LABELS[d])}:</Typography.Text>{" "}
            {given ? `${given.by}, ${displayDateTime(given.at)}` : "не подписано"}
          </Typography.Text>
        );
      })}
      {mine && !check.signatures[mine] && (
        <Button size="small" loading={sign.isPending} onClick={() => sign.mutate({ sensor: check.sensor, check: check.id, duty: mine })}>
          Подписать как {CHECK_DUTY_LABELS[mine]}
        </Button>
      )}
      {sign.isError && <Alert type="error" showIcon role="alert" title={isApiError(sign.error) ? sign.error.detail : String(sign.error)} />}
    </Space>
  );
}

export default function SensorChecksContent() {
  const { facilityId = "", sensorId } = useParams();
  const me = useMe();
  const period = useDayPeriod(daysBefore(30));
  const { from, to } = period;
  const [recording, setRecording] = useState<{ follows?: SensorCheck } | null>(null);
  const [editing, setEditing] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const verifications = useVerifications(facilityId, sensorId);
  const sensors = useSensors(facilityId);
  const states = useCheckStates(facilityId);
  const intervals = useCheckIntervals(facilityId);
  const checks = useSensorChecks(facilityId, sensorId, from, to);
  const duty = me.data?.duty ?? null;
  const canRecord = isCheckDuty(duty) && me.data?.role !== "reviewer";
  const sensor = sensorId ? sensors.data?.find((s) => s.id === sensorId) : undefined;
  const shownStates = (states.data?.sensors ?? []).filter((s) => !sensorId || s.sensor === sensorId);
  const active = (sensors.data ?? []).filter((s) => s.is_active).map((s) => ({ id: s.id, code: s.code }));

  const stateColumns: TableColumnsType<SensorCheckState> = [
    {
      title: "Датчик",
      key: "code",
      width: 120,
      render: (_: unknown, s) => <Link to={`/facilities/${facilityId}/sensors/${s.sensor}/checks`}>{s.code}</Link>,
    },
    { title: "Выработка", dataIndex: "working", width: 150, render: (w: string) => w || "без выработки" },
    { title: "Интервал", dataIndex: "rule", width: 120, render: (r: string | null) => r ?? "не задан" },
    {
      title: "Последняя проверка",
      key: "last",
      width: 190,
      render: (_: unknown, s) =>
        s.last_check ? `${displayDateTime(s.last_check.at)}, ${CHECK_RESULT_LABELS[s.last_check.result]}` : "не записана",
    },
    { title: "Следующая до", dataIndex: "next_due", width: 140, render: (d: string | null) => (d ? displayDateTime(d) : "—") },
    { title: "Поверка", dataIndex: "verification", width: 150 },
    { title: "Состояние", key: "state", width: 240, render: (_: unknown, s) => <StateTags state={s} /> },
  ];

  const checkColumns: TableColumnsType<SensorCheck> = [
    {
      title: "Дата, время, смена",
      key: "when",
      width: 175,
      render: (_: unknown, c) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{displayDateTime(c.at)}</Typography.Text>
          <Typography.Text type="secondary" style={{ whiteSpace: "nowrap" }}>
            {c.shift_name.replace(/, \d\d\.\d\d\.\d{4}$/, "")}
          </Typography.Text>
        </Space>
      ),
    },
    ...(sensorId
      ? []
      : [
          {
            title: "Датчик",
            key: "sensor",
            width: 90,
            render: (_: unknown, c: SensorCheck) => (
              <Link to={`/facilities/${facilityId}/sensors/${c.sensor}/checks`}>{c.sensor_code}</Link>
            ),
          },
        ]),
    { title: "Вид", dataIndex: "kind", width: 120, render: (k: SensorCheck["kind"]) => kindText(k) },
    { title: "Показание и контроль", key: "reading", width: 190, render: (_: unknown, c) => readingText(c) },
    {
      title: "Кнопка «Контроль», ПГС",
      key: "tests",
      width: 210,
      render: (_: unknown, c) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>Кнопка «Контроль»: {testText(c.button_test_ok)}</Typography.Text>
          <Typography.Text>{gasText(c)}</Typography.Text>
          <Typography.Text>Сигнализация: {testText(c.alarm_ok)}</Typography.Text>
          <Typography.Text>Отключение: {testText(c.cutoff_ok, false)}</Typography.Text>
        </Space>
      ),
    },
    {
      title: "Результат",
      key: "result",
      width: 220,
      render: (_: unknown, c) => (
        <Space direction="vertical" size={2}>
          <Tag color={c.result === "failed" ? "red" : "green"} style={{ whiteSpace: "normal" }}>
            {c.result_text}
          </Tag>
          {c.fault && <Typography.Text>Неисправность: {c.fault}</Typography.Text>}
          {c.measures && <Typography.Text>Меры: {c.measures}</Typography.Text>}
          {c.planned_work && <Typography.Text>Планируемые работы: {c.planned_work}</Typography.Text>}
        </Space>
      ),
    },
    { title: "Подписи", key: "signatures", width: 250, render: (_: unknown, c) => <Signatures check={c} facility={facilityId} /> },
    {
      title: "Исправления",
      key: "follows",
      width: 160,
      render: (_: unknown, c) => {
        const list = checks.data?.results ?? [];
        const at = (id: string | null) => list.find((x) => x.id === id)?.at;
        return (
          <Space direction="vertical" size={2}>
            {c.follows && (
              <Typography.Text>Исправляет проверку{at(c.follows) ? ` от ${displayDateTime(at(c.follows))}` : ""}</Typography.Text>
            )}
            {c.followed_by ? (
              <Typography.Text type="secondary">
                Исправлена{at(c.followed_by) ? ` ${displayDateTime(at(c.followed_by))}` : ""}
              </Typography.Text>
            ) : (
              canRecord && (
                <Button size="small" onClick={() => setRecording({ follows: c })}>
                  Исправить
                </Button>
              )
            )}
          </Space>
        );
      },
    },
  ];

  const ownState = shownStates[0];
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Журнал эксплуатации и обслуживания датчиков метана («Метан»): показание против контрольного прибора, кнопка «Контроль», сигнализация
        и отключение от контрольной смеси (ПГС) в срок ее годности, неисправность и меры. Записывают и подписывают оператор АГК,
        электрослесарь АГК и заместитель начальника участка ВТБ по АГК — три разных человека, которым администратор назначил эту
        обязанность. Подписанная запись не меняется: ошибку исправляет новая проверка.
        {isCheckDuty(duty) ? ` Вы подписываете как ${CHECK_DUTY_LABELS[duty]}.` : ""}
      </Typography.Paragraph>
      {canRecord && (
        <Flex>
          <Button type="primary" onClick={() => setRecording({})}>
            Записать проверку
          </Button>
        </Flex>
      )}
      {states.isError && <LoadError what="состояние проверок" message={states.error.message} retry={() => states.refetch()} />}
      {sensorId && ownState ? (
        <Card title="Сейчас">
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: "working", label: "Выработка", children: ownState.working || "без выработки" },
              { key: "rule", label: "Интервал", children: ownState.rule ?? "не задан" },
              {
                key: "last",
                label: "Последняя проверка",
                children: ownState.last_check
                  ? `${displayDateTime(ownState.last_check.at)}, ${CHECK_RESULT_LABELS[ownState.last_check.result]}`
                  : "не записана",
              },
              { key: "next", label: "Следующая до", children: ownState.next_due ? displayDateTime(ownState.next_due) : "—" },
              { key: "verification", label: "Поверка", children: ownState.verification },
              { key: "state", label: "Состояние", children: <StateTags state={ownState} /> },
            ]}
          />
        </Card>
      ) : (
        !sensorId && (
          <Card title="Что требуется сейчас">
            <ResponsiveTable<SensorCheckState>
              rowKey="sensor"
              size="small"
              pagination={false}
              loading={states.isPending}
              scroll={{ x: 960 }}
              columns={stateColumns}
              dataSource={shownStates}
              locale={{ emptyText: "Датчиков в работе нет" }}
            />
          </Card>
        )
      )}
      {sensorId && (
        <Card
          title="Поверка средства измерений"
          extra={
            me.data?.role !== "reviewer" && (
              <Button size="small" onClick={() => setVerifying(true)}>
                Записать поверку
              </Button>
            )
          }
        >
          {verifications.isError && (
            <LoadError what="поверки" message={verifications.error.message} retry={() => verifications.refetch()} />
          )}
          <Space direction="vertical" size={4}>
            {verifications.data && (
              <Tag color={verifications.data.state === "valid" ? "green" : verifications.data.state === "expired" ? "red" : "default"}>
                {verifications.data.state_text}
              </Tag>
            )}
            <VerificationRecords
              facility={facilityId}
              sensor={sensorId}
              code={sensor?.code ?? ""}
              verifications={verifications.data?.results ?? []}
              canRecord={me.data !== undefined && me.data.role !== "reviewer"}
            />
          </Space>
        </Card>
      )}
      {!sensorId && (
        <Card
          title="Интервалы проверок"
          extra={
            intervals.data &&
            me.data?.role !== "reviewer" && (
              <Button size="small" onClick={() => setEditing(true)}>
                Изменить
              </Button>
            )
          }
        >
          <Space direction="vertical" size={4}>
            <Typography.Text>
              <Typography.Text type="secondary">Документ шахты:</Typography.Text> {intervals.data?.source ?? "…"}
            </Typography.Text>
            {(intervals.data?.rules ?? []).map((r, i) => (
              <Typography.Text key={i}>
                {r.kind ? kindLabel(r.kind) : "Любой вид"}, {r.role ? roleLabel(r.role) : "любая роль"}:{" "}
                {r.per === "shift" ? "каждую смену" : `раз в ${r.days} дн.`}
              </Typography.Text>
            ))}
            {intervals.data?.updated_by && (
              <Typography.Text type="secondary">
                Изменил {intervals.data.updated_by}, {displayDateTime(intervals.data.updated_at)}
              </Typography.Text>
            )}
          </Space>
        </Card>
      )}
      <Card title="Журнал проверок">
        <div style={{ marginBottom: 12 }}>
          <DayPeriodHeader
            period={period}
            files={
              sensorId
                ? []
                : [
                    { label: "Журнал «Метан» (xlsx)", save: (f, t) => downloadChecksJournal(facilityId, f, t, "xlsx") },
                    { label: "Журнал «Метан» (PDF)", save: (f, t) => downloadChecksJournal(facilityId, f, t, "pdf") },
                  ]
            }
          />
        </div>
        {checks.isError && <LoadError what="проверки" message={checks.error.message} retry={() => checks.refetch()} />}
        <ResponsiveTable<SensorCheck>
          rowKey="id"
          size="small"
          pagination={false}
          loading={checks.isPending && Boolean(from && to)}
          scroll={{ x: 1400 }}
          columns={checkColumns}
          dataSource={from && to ? (checks.data?.results ?? []) : []}
          locale={{ emptyText: "Проверок за период нет" }}
        />
      </Card>
      <Suspense>
        {recording && (
          <RecordCheckDialog
            facility={facilityId}
            sensors={active}
            sensor={sensorId}
            follows={recording.follows}
            onClose={() => setRecording(null)}
          />
        )}
        {verifying && sensorId && (
          <VerificationDialog facility={facilityId} sensor={sensorId} code={sensor?.code ?? ""} onClose={() => setVerifying(false)} />
        )}
        {editing && intervals.data && (
          <CheckIntervalsDialog facility={facilityId} intervals={intervals.data} onClose={() => setEditing(false)} />
        )}
      </Suspense>
    </Flex>
  );
}
