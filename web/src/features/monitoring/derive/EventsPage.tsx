// «События» of a mine (methodology D64, D65): the threshold events at 0,9·W, W and A, the stale
// channels, the sensor faults (readings set aside: out of range, jumps) and the forecast events of a day or of one shift on the company's clock, filtered by
// working, level and kind; each acknowledged with a comment (who and when are kept); the shift's
// report as xlsx or PDF. The level is written in words beside its colour. Advisory: protective
// cut-off stays with the mine's own АГК.
import { lazy, Suspense, useMemo, useState } from "react";
import { Alert, Button, Flex, Space, Typography, type TableColumnsType } from "antd";
import { useParams } from "react-router-dom";
import { zoneOf } from "@core/company-clock";
import { shiftsOfDay } from "@core/shift-calendar";
import { useFacilities } from "../../../api/inventory";
import { EVENT_KIND_LABELS, EVENT_LEVEL_LABELS, EVENT_LEVELS, type EventKind, type EventLevel } from "@core/monitoring-events";
import { ResponsiveTable } from "../../../shared/ResponsiveTable";
import { Select } from "../../../shared/LazySelect";
import { DayShiftFields, useTypedDay } from "./DayShiftFields";
import { LoadError } from "../../../shared/LoadError";
import { LazyLoading } from "../../../shared/LazyLoading";
import { displayDate, displayDateTime } from "../../../shared/dates";
import { useMe } from "../../../api/profile";
import { downloadShiftReport, useSensors, useSensorEvents, type EventFilters, type SensorEvent } from "../../../api/monitoring";
import { number } from "../texts/offerTexts";
import { MonitoringHead } from "../MonitoringHead";
import { useGassings } from "../../../api/journal";
import { pageQuery } from "../../../api/client";
import { LIMITS } from "@server/contract";

// The acknowledgement's dialog loads when opened: the page's first load stays within the initial-JS budget.
const AcknowledgeDialog = lazy(() => import("./AcknowledgeEventDialog"));
// The day's gassings show only on a day that had one: their table loads then.
const GassingsCard = lazy(() => import("./GassingsCard").then((m) => ({ default: m.GassingsCard })));
// The table's tagged cells and its card load with the table, which loads lazily itself (ResponsiveTable):
// antd's Card and its tabs stay out of the page's first load.
const EventsCard = lazy(() => import("./EventCells").then((m) => ({ default: m.EventsCard })));
const EventKindCell = lazy(() => import("./EventCells").then((m) => ({ default: m.EventKindCell })));
const StillGoingTag = lazy(() => import("./EventCells").then((m) => ({ default: m.StillGoingTag })));

/** The day after a YYYY-MM-DD date. */
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Events a page of the list shows: the server's page (LIMITS.monitoring.eventsPage). */
const EVENTS_PAGE = LIMITS.monitoring.eventsPage;

export default function EventsPage() {
  const { facilityId = "" } = useParams();
  const me = useMe();
  const zone = zoneOf(me.data?.company);
  const sensors = useSensors(facilityId);
  const day = useTypedDay(zone);
  const { dateText, date } = day;
  const [shift, setShift] = useState(0);
  // D90: the day's shifts by the facility's calendar in force on it.
  const calendar = useFacilities().data?.find((f) => f.id === facilityId)?.shift_calendar;
  const dayShifts = useMemo(() => (date ? shiftsOfDay(calendar, date, zone) : []), [calendar, date, zone]);
  const shiftOptions = [{ value: 0, label: "Все смены" }, ...dayShifts.map((s) => ({ value: s.number, label: s.name, from: s.from }))];
  const chosenShift = dayShifts[shift - 1];
  const [working, setWorking] = useState<string | undefined>();
  const [level, setLevel] = useState<EventLevel | undefined>();
  const [kind, setKind] = useState<EventKind | undefined>();
  const [acknowledging, setAcknowledging] = useState<SensorEvent[] | null>(null);
  // the events ticked to be acknowledged at once with one comment.
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [reportError, setReportError] = useState<string>();
  const filters = useMemo((): EventFilters | undefined => {
    if (!date) return undefined;
    const span = shift ? chosenShift : undefined;
    return {
      from: span ? new Date(span.from).toISOString() : date,
      to: span ? new Date(span.to).toISOString() : nextDay(date),
      ...(working !== undefined ? { working } : {}),
      ...(level ? { level } : {}),
      ...(kind ? { kind } : {}),
    };
  }, [date, shift, chosenShift, working, level, kind]);
  // The list is paged (LIMITS.monitoring.eventsPage): a new choice of period or filter starts at its first page.
  const [paging, setPaging] = useState<{ of: EventFilters | undefined; page: number }>({ of: filters, page: 1 });
  const page = paging.of === filters ? paging.page : 1;
  const pagedFilters = useMemo(
    (): EventFilters | undefined => (filters ? { ...filters, ...pageQuery(page, EVENTS_PAGE) } : undefined),
    [filters, page],
  );
  const events = useSensorEvents(facilityId, pagedFilters);
  const gassings = useGassings(facilityId, date, date);
  const open = (events.data?.results ?? []).filter((e) => !e.acknowledged_at);
  const pickedEvents = open.filter((e) => picked.has(e.id));
  const pick = (id: string, on: boolean) => setPicked((now) => (on ? new Set(now).add(id) : new Set([...now].filter((p) => p !== id))));
  const workings = useMemo(
    () => [...new Set((sensors.data ?? []).map((s) => s.working))].sort((a, b) => a.localeCompare(b, "ru")),
    [sensors.data],
  );

  async function report(format: "xlsx" | "pdf") {
    setReportError(undefined);
    try {
      await downloadShiftReport(facilityId, date as string, shift, format);
    } catch (error) {
      setReportError(error instanceof Error ? error.message : String(error));
    }
  }

  const columns: TableColumnsType<SensorEvent> = [
    { title: "Начало", dataIndex: "start", width: 130, render: (v: string) => displayDateTime(v) },
    {
      title: "Конец",
      dataIndex: "end",
      width: 130,
      render: (v: string | null) =>
        v ? (
          displayDateTime(v)
        ) : (
          <Typography.Text strong style={{ whiteSpace: "nowrap" }}>
            продолжается
          </Typography.Text>
        ),
    },
    // The shift's name as every page and file says it (shiftName) and its day (ДД.ММ): the night's third
    // shift is the day before's. Broken between its words only («Смена 1» / «(00:00–08:00),» / «02.03»).
    {
      title: "Смена",
      key: "shift",
      width: 110,
      render: (_: unknown, e) => {
        const own = shiftsOfDay(calendar, e.shift.date, zone)[e.shift.number - 1];
        const [name, hours] = (own?.name ?? `Смена ${e.shift.number} (—)`).split(" (");
        return (
          <>
            <span style={{ whiteSpace: "nowrap" }}>{name}</span> <span style={{ whiteSpace: "nowrap" }}>({hours},</span>{" "}
            {displayDate(e.shift.date).slice(0, 5)}
          </>
        );
      },
    },
    { title: "Выработка", dataIndex: "working", render: (v: string) => v || "—" },
    { title: "Датчик", dataIndex: "sensor_code", width: 80 },
    {
      title: "Событие",
      key: "event",
      render: (_: unknown, e) => (
        <Suspense>
          <EventKindCell event={e} />
        </Suspense>
      ),
    },
    { title: "Пик, % об.", dataIndex: "peak", align: "right", width: 80, render: (v: number | null) => (v === null ? "—" : number(v, 2)) },
    {
      title: "Минут",
      key: "minutes",
      align: "right",
      width: 100,
      render: (_: unknown, e) =>
        e.kind === "stale"
          ? `нет данных ${e.minutes_above.toLocaleString("ru-RU")}`
          : e.kind === "fault"
            ? `отбраковано ${e.minutes_above.toLocaleString("ru-RU")}`
            : e.kind === "suspect"
              ? `под сомнением ${e.minutes_above.toLocaleString("ru-RU")}`
              : e.minutes_above.toLocaleString("ru-RU"),
    },
    {
      title: "Квитирование",
      key: "ack",
      width: 200,
      render: (_: unknown, e) =>
        e.acknowledged_at ? (
          <Space direction="vertical" size={0}>
            {e.end === null && (
              <Suspense>
                <StillGoingTag />
              </Suspense>
            )}
            <Typography.Text>
              {e.acknowledged_by}, {displayDateTime(e.acknowledged_at)}
            </Typography.Text>
            {e.comment && <Typography.Text type="secondary">«{e.comment}»</Typography.Text>}
          </Space>
        ) : (
          <Space size={8} wrap>
            {/* A native box: antd's Checkbox would put the page over its initial-JS budget. */}
            <label style={{ whiteSpace: "nowrap", cursor: "pointer" }}>
              <input
                type="checkbox"
                aria-label={`Выбрать: ${e.sensor_code}, ${displayDateTime(e.start)}`}
                checked={picked.has(e.id)}
                onChange={(c) => pick(e.id, c.target.checked)}
                style={{ marginRight: 4, verticalAlign: "middle" }}
              />
              выбрать
            </label>
            <Button size="small" onClick={() => setAcknowledging([e])}>
              Квитировать
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="События" facilityId={facilityId} current="events" limits demo={events.data?.demo} />
      <Flex wrap gap={12} align="end">
        <DayShiftFields day={day} zone={zone} shift={shift} onShift={setShift} shifts={shiftOptions} />
        <Space direction="vertical" size={2}>
          <Typography.Text>Выработка</Typography.Text>
          <Select
            aria-label="Выработка"
            style={{ width: 200 }}
            allowClear
            placeholder="Все выработки"
            options={workings.map((w) => ({ value: w, label: w || "без выработки" }))}
            value={working}
            onChange={setWorking}
          />
        </Space>
        <Space direction="vertical" size={2}>
          <Typography.Text>Уровень</Typography.Text>
          <Select
            aria-label="Уровень"
            style={{ width: 220 }}
            allowClear
            placeholder="Все уровни"
            options={EVENT_LEVELS.map((l) => ({ value: l, label: EVENT_LEVEL_LABELS[l] }))}
            value={level}
            onChange={setLevel}
          />
        </Space>
        <Space direction="vertical" size={2}>
          <Typography.Text>Вид</Typography.Text>
          <Select
            aria-label="Вид"
            style={{ width: 190 }}
            allowClear
            placeholder="Все события"
            options={(Object.keys(EVENT_KIND_LABELS) as EventKind[]).map((k) => ({ value: k, label: EVENT_KIND_LABELS[k] }))}
            value={kind}
            onChange={setKind}
          />
        </Space>
      </Flex>
      {!date && <Alert type="warning" showIcon title="Дата в виде ДД.ММ.ГГГГ" />}
      {events.isError && <LoadError what="события" message={events.error.message} retry={() => events.refetch()} />}
      <Suspense fallback={<LazyLoading />}>
        <EventsCard title={shift && chosenShift ? `События: ${chosenShift.name}, ${dateText}` : `События за ${dateText}`}>
          <Space wrap style={{ marginBottom: 12 }}>
            <Button disabled={!date || !shift} onClick={() => report("xlsx")}>
              Отчет смены (xlsx)
            </Button>
            <Button disabled={!date || !shift} onClick={() => report("pdf")}>
              Отчет смены (PDF)
            </Button>
          </Space>
          {!shift && (
            <Typography.Paragraph type="secondary">Отчет смены выгружается по выбранной смене: выберите смену.</Typography.Paragraph>
          )}
          {reportError && <Alert type="error" showIcon role="alert" title={reportError} style={{ marginBottom: 12 }} />}
          {open.length > 1 && (
            <Space wrap style={{ marginBottom: 12 }}>
              <Button type="primary" disabled={pickedEvents.length === 0} onClick={() => setAcknowledging(pickedEvents)}>
                Квитировать выбранные ({pickedEvents.length})
              </Button>
              <Button onClick={() => setPicked(new Set(open.map((e) => e.id)))}>Выбрать все неквитированные ({open.length})</Button>
            </Space>
          )}
          <ResponsiveTable<SensorEvent>
            rowKey="id"
            size="small"
            pagination={{
              current: page,
              pageSize: EVENTS_PAGE,
              total: filters ? (events.data?.count ?? 0) : 0,
              onChange: (next) => setPaging({ of: filters, page: next }),
              showSizeChanger: false,
              hideOnSinglePage: true,
              showTotal: (total) => `Событий: ${total.toLocaleString("ru-RU")}`,
            }}
            loading={events.isPending && Boolean(filters)}
            scroll={{ x: 1100 }}
            columns={columns}
            dataSource={filters ? (events.data?.results ?? []) : []}
            locale={{ emptyText: "Событий нет" }}
          />
        </EventsCard>
      </Suspense>
      {date && gassings.data && gassings.data.results.length > 0 && (
        <Suspense>
          <GassingsCard
            facility={facilityId}
            title={`Загазирования за ${dateText}`}
            gassings={gassings.data.results}
            loading={false}
            processing={gassings.data.processing?.text}
          />
        </Suspense>
      )}
      {acknowledging && (
        <Suspense>
          <AcknowledgeDialog
            facility={facilityId}
            events={acknowledging}
            onClose={() => {
              setAcknowledging(null);
              setPicked(new Set());
            }}
          />
        </Suspense>
      )}
    </Flex>
  );
}
