// «Датчики» of a facility (methodology D56): the sensors of the mine's gas monitoring (АГК) — code, kind,
// section and working, place, the emission point it measures, role, levels W/A, cross-section, flow conditions, dates in service — added, changed
// and retired; a dispatch export loaded (DispatchFileDialog.tsx) or reconciled with what is stored
// (ReconciliationDialog.tsx); the facility's batches (BatchesCard.tsx) and gateway keys (GatewayKeysCard.tsx) below,
// each in a chunk of its own. Everything shown from a mine's readings is advisory (ADVISORY_NOTE).
// On a wide screen the register is a table whose rows keep the frequent action in sight («Пропуски»)
// and the rare ones behind «…»; on a phone each sensor is a block of «label: value» lines
// (ResponsiveTable), as the calculations list shows its rows.
import { lazy, Suspense, useState } from "react";
import { Alert, Button, Card, Flex, Space, Tag, Typography, type TableColumnsType } from "antd";
import { Link, useParams } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import { SENSOR_PLACES, type SensorPlace } from "@core/sensor-places";
import { airPaths } from "@core/air-path";
import { QueryTable } from "../../../shared/QueryTable";
import { keepSignsWithNumbers } from "../../../shared/text";
import { displayDate } from "../../../shared/dates";
import { kindText, number, ROLES } from "../texts/sensorTexts";
import { usePoints } from "../../../api/inventory";
import { readingsBatchesKey, useRetireSensor, useSensors, type Sensor } from "../../../api/monitoring";
import { MonitoringHead } from "../MonitoringHead";
import { useMethaneLimits } from "../../../api/journal";
import { actsNotReadOf, limitText } from "../texts/limitTexts";
import CheckProblems from "../instruments/CheckProblems";

// The dialogs load when opened: the page's first load stays within the initial-JS budget (tests/web/bundle.test.ts).
const SensorDialog = lazy(() => import("./SensorDialog"));
const SensorImportDialog = lazy(() => import("./SensorImportDialog"));
const DispatchFileDialog = lazy(() => import("./DispatchFileDialog"));
const ReconciliationDialog = lazy(() => import("./ReconciliationDialog"));
// Their own chunks: the page stood at the 300 KB initial-JS budget (bundle.test.ts).
const BatchesCard = lazy(() => import("./BatchesCard"));
const GatewayKeysCard = lazy(() => import("./GatewayKeysCard"));
const SensorMoreMenu = lazy(() => import("./SensorMoreMenu"));

const levels = (s: Sensor) =>
  s.warning === null && s.alarm === null ? "—" : `${number(s.warning) || "—"} / ${number(s.alarm) || "—"} ${SENSOR_KINDS[s.kind].unit}`;
const inService = (s: Sensor) =>
  s.in_service_from || s.in_service_to ? `${displayDate(s.in_service_from) || "…"} – ${displayDate(s.in_service_to) || "н.\u00a0в."}` : "—";
/** A cell kept on one line (a code, levels, dates): never broken inside a word or a date. */
const oneLine = { style: { whiteSpace: "nowrap" } } as const;

/** A sensor's rarer actions behind «…»: its menu (SensorMoreMenu.tsx, a popover and a confirmation)
 *  loads on the first press, the page's first load kept within its initial-JS budget (tests/web/bundle.test.ts);
 *  until it is in, the same button stands where it opens. */
function SensorMore({ sensor, onEdit, onRetire }: { sensor: Sensor; onEdit: () => void; onRetire: () => void }) {
  const [pressed, setPressed] = useState(false);
  const button = (
    <Button
      size="small"
      aria-label={`Другие действия с датчиком ${sensor.code}`}
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => setPressed(true)}
    >
      …
    </Button>
  );
  if (!pressed) return button;
  return (
    <Suspense fallback={button}>
      <SensorMoreMenu sensor={sensor} onEdit={onEdit} onRetire={onRetire} />
    </Suspense>
  );
}

export default function SensorsPage() {
  const { facilityId = "" } = useParams();
  const sensors = useSensors(facilityId);
  const limits = useMethaneLimits().data;
  const points = usePoints(facilityId);
  const retire = useRetireSensor(facilityId);
  const [editing, setEditing] = useState<Sensor | "new" | null>(null);
  const [importing, setImporting] = useState(false);
  const [sendingFile, setSendingFile] = useState(false);
  const [reconciling, setReconciling] = useState(false);
  const [fileError, setFileError] = useState<string>();
  async function saveRegister() {
    setFileError(undefined);
    try {
      // Loaded on the press: the register's page stays within its initial JS budget (tests/web/bundle.test.ts).
      const { downloadSensorRegister } = await import("../../../api/instrumentFiles");
      await downloadSensorRegister(facilityId);
    } catch (error) {
      setFileError(error instanceof Error ? error.message : String(error));
    }
  }
  const queries = useQueryClient();
  const pointName = new Map((points.data ?? []).map((p) => [p.id, p.name]));
  // D103: each meter's place on its section's air path, «2 из 4», by the register's order.
  const onPath = new Map<string, string>();
  for (const path of airPaths((sensors.data ?? []).filter((s) => s.is_active)))
    path.meters.forEach((m, i) => onPath.set(m.id, `${i + 1} из ${path.meters.length}`));
  const columns: TableColumnsType<Sensor> = [
    {
      title: "Код",
      dataIndex: "code",
      onCell: () => oneLine,
      render: (code: string, s) => (
        <Space size={4}>
          <Typography.Text strong>{code}</Typography.Text>
          {s.is_active ? null : <Tag>Выведен</Tag>}
          {/* a sensor whose check failed or is overdue says so in its row. */}
          {s.is_active && <CheckProblems facility={facilityId} sensor={s.id} />}
        </Space>
      ),
    },
    { title: "Вид", dataIndex: "kind", render: (kind: SensorKind) => kindText(kind) },
    {
      title: "Участок, выработка",
      key: "where",
      render: (_: unknown, s) => [s.section, s.working].filter(Boolean).join(", ") || "—",
    },
    // D103: the meter's place on its section's air path is said under its place («по струе 2 из 3»), not in
    // a column of its own: the eleventh column cut the row's last cells at 1440 px (web-sensors-offers.test.ts).
    {
      title: "Место",
      dataIndex: "place",
      render: (place: SensorPlace, s) => (
        <Space direction="vertical" size={0}>
          <span>{SENSOR_PLACES[place]}</span>
          {onPath.has(s.id) && (
            <Typography.Text type="secondary" style={{ whiteSpace: "nowrap" }}>
              по струе {onPath.get(s.id)}
            </Typography.Text>
          )}
          {s.fresh_air_joins && <Tag color="cyan">свежий воздух перед</Tag>}
        </Space>
      ),
    },
    {
      title: "Измеряет источник",
      dataIndex: "point",
      render: (point: string | null) => (point ? keepSignsWithNumbers(pointName.get(point) ?? "") : "—"),
    },
    { title: "Роль", dataIndex: "role", render: (role: keyof typeof ROLES) => ROLES[role] },
    {
      title: "W / A",
      key: "levels",
      render: (_: unknown, s) => (
        <Space direction="vertical" size={0}>
          <span style={oneLine.style}>{levels(s)}</span>
          {limitText(limits, s.kind, s.place, s.norm_place) && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {limitText(limits, s.kind, s.place, s.norm_place)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: "В эксплуатации", key: "service", onCell: () => oneLine, render: (_: unknown, s) => inService(s) },
    {
      title: "",
      key: "actions",
      onCell: () => oneLine,
      render: (_: unknown, s) => (
        <Space size={8}>
          <Link to={`/facilities/${facilityId}/sensors/${s.id}/gaps`}>Пропуски</Link>
          <Link to={`/facilities/${facilityId}/sensors/${s.id}/checks`}>Проверки</Link>
          <SensorMore sensor={s} onEdit={() => setEditing(s)} onRetire={() => retire.mutate(s)} />
        </Space>
      ),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Датчики" facilityId={facilityId} current="sensors" before={<Link to="/profile">Профиль › Площадки</Link>} />
      <Card title="Датчики АГК">
        {/* The buttons above the register, not in the card's head: on a phone they left the title no room. */}
        <Space wrap style={{ marginBottom: 16 }}>
          <Button type="primary" onClick={() => setEditing("new")} disabled={!points.data}>
            Добавить датчик
          </Button>
          <Button onClick={() => setImporting(true)} disabled={!points.data}>
            Загрузить список
          </Button>
          <Button onClick={() => setSendingFile(true)} disabled={!sensors.data?.length}>
            Загрузить выгрузку АГК
          </Button>
          <Button onClick={() => setReconciling(true)} disabled={!sensors.data?.length}>
            Сверить с выгрузкой АГК
          </Button>
          <Button onClick={() => saveRegister()} disabled={!sensors.data?.length}>
            Реестр и поверка (xlsx)
          </Button>
        </Space>
        {fileError && <Alert type="error" showIcon role="alert" title={fileError} style={{ marginBottom: 12 }} />}
        {retire.isError && <Alert type="error" showIcon role="alert" title={retire.error.message} />}
        {points.data && points.data.length === 0 && (
          <Alert
            type="warning"
            showIcon
            title="У площадки нет источников выбросов: датчики выработок добавляются и без них, а каналы ствола и дегазационного трубопровода измеряют источник — добавьте его на странице «Профиль»."
          />
        )}
        {/* Between a phone and a wide screen the table scrolls inside its card; its columns size to their
            words (no fixed layout), so none is broken inside a word. */}
        <QueryTable<Sensor>
          query={sensors}
          what="датчики"
          empty="Датчиков пока нет: добавьте метанометры, анемометры и датчики дегазационной установки"
          width={980}
          rowKey="id"
          columns={columns}
        />
        {/* An act whose text was not read is said once here, beside the act, not on each norm's line. */}
        {actsNotReadOf(limits, sensors.data ?? []).map((line) => (
          <Typography.Text key={line} type="secondary" style={{ fontSize: 12 }} data-testid="acts-not-read">
            {line}
          </Typography.Text>
        ))}
      </Card>
      <Suspense>
        <BatchesCard facility={facilityId} />
      </Suspense>
      <Suspense>
        <GatewayKeysCard facility={facilityId} />
      </Suspense>
      {sendingFile && (
        <Suspense>
          <DispatchFileDialog
            facility={facilityId}
            onClose={() => {
              setSendingFile(false);
              // The file's batch is in «Загрузки АГК» now, in whatever state the dialog left it.
              void queries.invalidateQueries({ queryKey: readingsBatchesKey(facilityId) });
            }}
          />
        </Suspense>
      )}
      {reconciling && (
        <Suspense>
          <ReconciliationDialog
            facility={facilityId}
            onClose={() => {
              setReconciling(false);
              // A batch «Догрузить недостающие» made is in «Загрузки АГК».
              void queries.invalidateQueries({ queryKey: readingsBatchesKey(facilityId) });
            }}
          />
        </Suspense>
      )}
      {importing && (
        <Suspense>
          <SensorImportDialog facility={facilityId} onClose={() => setImporting(false)} />
        </Suspense>
      )}
      {editing && (
        <Suspense>
          <SensorDialog
            facility={facilityId}
            sensor={editing === "new" ? undefined : editing}
            points={(points.data ?? []).filter((p) => p.is_active || (editing !== "new" && p.id === editing.point))}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      )}
    </Flex>
  );
}
