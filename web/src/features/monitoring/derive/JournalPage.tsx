// «Журнал оператора АГК» of a mine: per methane sensor of a company day its code, place and
// set-point, the mean of the valid minute means of each hour of the chosen shift, the shift's and the
// day's mean and the day's completeness; the day's gassings with the dispatcher's registration; the
// journal as xlsx or PDF (a shift a sheet or page, signature lines) and the month's gassing book as
// xlsx. Advisory: protective cut-off stays with the mine's own АГК.
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Alert, Button, Card, Flex, Space, Typography, type TableColumnsType } from "antd";
import { useParams } from "react-router-dom";
import { zoneOf } from "@core/company-clock";
import { shiftAt, shiftsOfDay } from "@core/shift-calendar";
import { limitSources } from "@core/methane-limits";
import { ResponsiveTable } from "../../../shared/ResponsiveTable";
import { DayShiftFields, useTypedDay } from "./DayShiftFields";
import { LoadError } from "../../../shared/LoadError";
import { useMe } from "../../../api/profile";
import { useFacilities } from "../../../api/inventory";
import { displayDate } from "../../../shared/dates";
import { downloadJournal, useJournal, type JournalSensor } from "../../../api/journal";
import { downloadGassingBook } from "../../../api/gassing-book";
import { number, percent } from "../texts/offerTexts";
import { displayDateTime } from "../../../shared/dates";
import { MonitoringHead } from "../MonitoringHead";

// The day's gassings with the book's entries load after the journal's table: the page's
// first load stays within the initial-JS budget (tests/web/bundle.test.ts).
const GassingsCard = lazy(() => import("./GassingsCard").then((m) => ({ default: m.GassingsCard })));
// D95: the АГК operator's signature of the shift's journal, after the handover into it.
const JournalSignature = lazy(() => import("../handover/JournalSignature"));

const two = (n: number) => String(n).padStart(2, "0");
const figure = (v: number | null) => (v === null ? "—" : number(v, 2));
const capitalFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** The month of a date: its first and last days (ГГГГ-ММ-ДД). */
function monthOf(date: string): [string, string] {
  const [y, m] = date.split("-").map(Number);
  return [`${date.slice(0, 8)}01`, new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)];
}

export default function JournalPage() {
  const { facilityId = "" } = useParams();
  const zone = zoneOf(useMe().data?.company);
  const day = useTypedDay(zone);
  const { dateText, date } = day;
  const [chosen, setShift] = useState(() => shiftAt(undefined, Date.now(), zone).number);
  const [fileError, setFileError] = useState<string>();
  // D99: the journal's day is the shift day — at 03:00 with a first shift at 08:00 the shift now is the
  // night shift of yesterday's shift day: the page opens on it once the facility's calendar is known.
  const facilities = useFacilities().data;
  const opened = useRef(false);
  const firstText = useRef(dateText);
  useEffect(() => {
    if (opened.current || !facilities) return;
    opened.current = true;
    // A date the user typed meanwhile stays.
    if (day.dateText !== firstText.current) return;
    const now = shiftAt(facilities.find((f) => f.id === facilityId)?.shift_calendar, Date.now(), zone);
    day.setDateText(displayDate(now.date));
    setShift(now.number);
  }, [facilities, facilityId, zone, day]);
  const journal = useJournal(facilityId, date);
  // D90: the day's shifts by the facility's calendar, as the journal gives them.
  const shifts =
    journal.data?.shift_list ?? shiftsOfDay(undefined, date ?? "2000-01-01", zone).map((s) => ({ ...s, hours: [] as number[] }));
  const shift = Math.min(chosen, shifts.length);
  const current = shifts[shift - 1];
  const hours = current?.hours ?? [];
  const shiftOptions = shifts.map((s) => ({
    value: s.number,
    label: s.name,
    from: typeof s.from === "number" ? s.from : Date.parse(s.from),
  }));

  async function save(work: () => Promise<void>) {
    setFileError(undefined);
    try {
      await work();
    } catch (error) {
      setFileError(error instanceof Error ? error.message : String(error));
    }
  }

  const columns: TableColumnsType<JournalSensor> = [
    { title: "Датчик", dataIndex: "code", width: 64 },
    {
      title: "Место установки, выработка",
      key: "place",
      width: 170,
      render: (_: unknown, s) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{s.place || "—"}</Typography.Text>
          <Typography.Text type="secondary">{s.working || "без выработки"}</Typography.Text>
          {/* a failed or overdue check of the sensor, beside its means. */}
          {s.checks.map((c) => (
            <Typography.Text key={c} type="danger">
              {c}
            </Typography.Text>
          ))}
          {s.doubt && <Typography.Text type="warning">{capitalFirst(s.doubt)}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: "Предел",
      key: "limit",
      align: "right",
      width: 92,
      onCell: () => ({ style: { whiteSpace: "nowrap" } }),
      render: (_: unknown, s) => (s.limit === null ? "не задан" : `${number(s.limit, 2)} ${s.unit}`),
    },
    ...hours.map((h) => ({
      title: `${two(h)}–${two(h + 1)}`,
      key: `h${h}`,
      align: "right" as const,
      width: 58,
      render: (_: unknown, s: JournalSensor) => figure(s.hourly[h]),
    })),
    { title: "За смену", key: "shift", align: "right", width: 70, render: (_: unknown, s) => figure(s.shifts[shift - 1]) },
    { title: "За сутки", dataIndex: "day", align: "right", width: 70, render: (v: number | null) => figure(v) },
    { title: "Полнота за сутки", dataIndex: "completeness", align: "right", width: 90, render: (v: number) => percent(v) },
  ];

  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Журнал оператора АГК" facilityId={facilityId} current="journal" limits demo={journal.data?.demo} />
      <Flex wrap gap={12} align="end">
        <DayShiftFields day={day} zone={zone} shift={shift} onShift={setShift} shifts={shiftOptions} />
        <Button disabled={!date} onClick={() => save(() => downloadJournal(facilityId, date as string, "xlsx"))}>
          Журнал (xlsx)
        </Button>
        <Button disabled={!date} onClick={() => save(() => downloadJournal(facilityId, date as string, "pdf"))}>
          Журнал (PDF)
        </Button>
      </Flex>
      {date && (
        <Suspense>
          <JournalSignature facility={facilityId} shift={`${date}#${shift}`} date={date} />
        </Suspense>
      )}
      {!date && <Alert type="warning" showIcon title="Дата в виде ДД.ММ.ГГГГ" />}
      {fileError && <Alert type="error" showIcon role="alert" title={fileError} />}
      {journal.isError && <LoadError what="журнал" message={journal.error.message} retry={() => journal.refetch()} />}
      {journal.data?.processing && (
        <Alert
          type="info"
          showIcon
          role="status"
          title={`Журнал может быть неполным: ${journal.data.processing.text}`}
          data-testid="processing"
        />
      )}
      <Card title={`Средние значения газов по часам: ${current?.name ?? ""}, ${dateText}`}>
        {journal.data?.running && <Typography.Paragraph type="secondary">Сутки идут: значения на текущий момент.</Typography.Paragraph>}
        <Typography.Paragraph type="secondary">
          Среднее валидных минутных значений за час, смену и сутки по часам компании, в единицах датчика (CH4, O2, CO2 — % об., CO — ppm);
          замещенные минуты в среднее не входят. Предел каждого дня — по редакции, действовавшей в этот день.
        </Typography.Paragraph>
        <ResponsiveTable<JournalSensor>
          rowKey="sensor"
          size="small"
          pagination={false}
          loading={journal.isPending && Boolean(date)}
          scroll={{ x: 1026 }}
          columns={columns}
          dataSource={date ? (journal.data?.sensors ?? []) : []}
          locale={{ emptyText: "Датчиков газа нет" }}
        />
        {date && journal.data && journal.data.sensors.length > 0 && (
          <Flex vertical style={{ marginTop: 8 }} data-testid="journal-limit-sources">
            <Typography.Text strong>Основание предела (акт, пункт, редакция этого дня)</Typography.Text>
            {limitSources(journal.data.sensors).map((line) => (
              <Typography.Text key={line} type="secondary">
                {line}
              </Typography.Text>
            ))}
          </Flex>
        )}
      </Card>
      {/* Item 7 (D102–D105): the day's readings questioned, each with what was done or «ответа нет». */}
      {date && journal.data && (
        <Card title={`Показания под сомнением за ${dateText}`} data-testid="journal-questions">
          {(journal.data.questions ?? []).length === 0 ? (
            <Typography.Text type="secondary">нет</Typography.Text>
          ) : (
            <Flex vertical gap={6}>
              {(journal.data.questions ?? []).map((q) => (
                <Typography.Text key={`${q.sensor}-${q.start}-${q.reason}`}>
                  <Typography.Text strong>{q.code}</Typography.Text>
                  {q.working ? ` (${q.working})` : ""}: {q.text}, с {displayDateTime(q.start)}
                  {q.end ? ` до ${displayDateTime(q.end)}` : ", продолжается"} —{" "}
                  {q.answer ? (
                    `ответ: ${q.answer.text} (${q.answer.by}, ${displayDateTime(q.answer.at)})`
                  ) : (
                    <Typography.Text type="warning">ответа нет: квитируйте событие на «События» с тем, что сделано</Typography.Text>
                  )}
                </Typography.Text>
              ))}
            </Flex>
          )}
        </Card>
      )}
      <Suspense>
        <GassingsCard
          facility={facilityId}
          title={`Загазирования за ${dateText}`}
          gassings={date ? (journal.data?.gassings ?? []) : []}
          loading={journal.isPending && Boolean(date)}
          processing={journal.data?.processing?.text}
          extra={
            <Button
              size="small"
              disabled={!date}
              onClick={() => save(() => downloadGassingBook(facilityId, ...monthOf(date as string), "xlsx"))}
            >
              Книга загазирований за месяц (xlsx)
            </Button>
          }
        />
      </Suspense>
    </Flex>
  );
}
