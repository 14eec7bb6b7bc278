// «Передача смены» of a mine (D95), under «Мониторинг»: the one handing over the shift now
// ending adds what only people know — protections bypassed, with the sensor, and remarks — and «Передать
// смену» fills, at that moment, what is open: gassings, silent sensors, meters near their levels, checks
// failed or overdue, sensors out of verification, shown forecasts with P ≥ 0,5; signed by them as it is
// written. Another person «Принять смену» signs it; after both it never changes, «Исправить» writes a new
// handover that refers to it. People by surname and initials. Advisory: protective cut-off stays with the
// mine's own АГК. The shift handed over is the one now or the one that has just ended (a handover written
// after its shift's end), named as the facility's calendar names them; the ended one is offered first
// while its handover is not written and the shift now is in its first half (@core/shift-calendar).
import { useEffect, useState } from "react";
import { Alert, Button, Card, Flex, Input, Radio, Select, Tag, Typography } from "antd";
import { useParams } from "react-router-dom";
import { LIMITS } from "@server/contract";
import { isoDateIn, zoneOf } from "@core/company-clock";
import { handoverShiftFirst, handoverShifts, shiftTitle } from "@core/shift-calendar";
import { LoadError } from "../../../shared/LoadError";
import { DayPeriodHeader, daysBefore, useDayPeriod } from "../../../shared/DayPeriod";
import { displayDateTime } from "../../../shared/dates";
import { isApiError } from "../../../api/client";
import { useMe } from "../../../api/profile";
import { downloadHandovers } from "../../../api/instrumentFiles";
import { useSensors } from "../../../api/monitoring";
import { useFacilities } from "../../../api/inventory";
import { useHandOver, useHandovers, useTakeOver, type Handover } from "../../../api/instruments";

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const LISTS: readonly [keyof Handover["open"], string][] = [
  ["gassings", "Загазирования открыты"],
  ["silent", "Датчики молчат"],
  ["levels", "Показания у уставок"],
  ["checks", "Проверки не пройдены или просрочены"],
  ["verification", "Датчики вне поверки"],
  ["forecasts", "Прогноз: вероятность минуты от предела за горизонт ≥ 0,5"],
  // D102–D105: the day's readings questioned, not answered yet.
  ["questioned", "Показания под сомнением без ответа"],
  ["cutoffs", "Отключение не подтверждено"],
];

function HandoverCard({ h, facility, canSign, onCorrect }: { h: Handover; facility: string; canSign: boolean; onCorrect: () => void }) {
  const take = useTakeOver(facility);
  return (
    <Card data-testid="handover">
      <Flex vertical gap={8}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {h.shift_from_name} → {h.shift_to_name}
        </Typography.Title>
        <Flex>{h.signed ? <Tag color="green">подписана обоими</Tag> : <Tag color="orange">ждет подписи принимающего</Tag>}</Flex>
        <Typography.Text type="secondary">Списки на {displayDateTime(h.at)}</Typography.Text>
        {LISTS.map(([key, label]) => (
          <Flex key={key} vertical gap={2}>
            <Typography.Text strong>{label}</Typography.Text>
            {(h.open[key] ?? []).length === 0 ? (
              <Typography.Text type="secondary">нет</Typography.Text>
            ) : (
              (h.open[key] ?? []).map((item) => (
                <Typography.Text key={`${item.code}-${item.text}`}>
                  {item.code}
                  {item.working ? ` (${item.working})` : ""}: {item.text}
                </Typography.Text>
              ))
            )}
          </Flex>
        ))}
        {/* D106: the sections' scheme as it stood at handover, printed with it. */}
        {(h.open.scheme ?? []).length > 0 && (
          <Flex vertical gap={2} data-testid="handover-scheme">
            <Typography.Text strong>Схема участков по ходу воздуха</Typography.Text>
            {(h.open.scheme ?? []).map((s) => (
              <Typography.Text key={s.code}>
                {s.code}: {s.text}
              </Typography.Text>
            ))}
          </Flex>
        )}
        <Flex vertical gap={2}>
          <Typography.Text strong>Защиты выведены</Typography.Text>
          {h.bypassed.length === 0 ? (
            <Typography.Text type="secondary">нет</Typography.Text>
          ) : (
            h.bypassed.map((b) => (
              <Typography.Text key={b.sensor}>
                {b.code}: {b.note || "без пояснения"}
              </Typography.Text>
            ))
          )}
        </Flex>
        <Typography.Text>
          <Typography.Text strong>Замечания:</Typography.Text> {h.remarks || "нет"}
        </Typography.Text>
        <Typography.Text>
          <Typography.Text type="secondary">Смену сдал:</Typography.Text> {h.handed_by}, {displayDateTime(h.handed_at)}
        </Typography.Text>
        <Typography.Text>
          <Typography.Text type="secondary">Смену принял:</Typography.Text>{" "}
          {h.taken_by ? `${h.taken_by}, ${displayDateTime(h.taken_at)}` : "не подписано"}
        </Typography.Text>
        {h.corrects && <Typography.Text type="secondary">Исправляет передачу смены, записанную ранее</Typography.Text>}
        {h.corrected_by && <Typography.Text type="secondary">Исправлена более поздней передачей</Typography.Text>}
        <Flex wrap gap={8}>
          {canSign && !h.signed && (
            <Button size="small" type="primary" loading={take.isPending} onClick={() => take.mutate(h.id)}>
              Принять смену
            </Button>
          )}
          {canSign && h.signed && !h.corrected_by && (
            <Button size="small" onClick={onCorrect}>
              Исправить
            </Button>
          )}
        </Flex>
        {take.isError && (
          <Alert type="error" showIcon role="alert" title={isApiError(take.error) ? take.error.detail : String(take.error)} />
        )}
      </Flex>
    </Card>
  );
}

/** The instant now, moved on every half minute: the shifts offered follow the clock past a shift's end. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The shifts a handover may be of now (the API takes no other) and the one offered first. */
function useHandoverShifts(facility: string) {
  const me = useMe();
  const zone = zoneOf(me.data?.company);
  const calendar = useFacilities().data?.find((f) => f.id === facility)?.shift_calendar;
  const now = useNow();
  const { now: current, ended } = handoverShifts(calendar, now, zone);
  // The handovers written since the ended shift's day: whether the ended one is handed over already.
  const written = useHandovers(facility, ended.date, isoDateIn(new Date(now), zone));
  const first = written.data
    ? handoverShiftFirst(
        calendar,
        now,
        zone,
        written.data.results.map((h) => h.shift_from),
      )
    : current;
  return {
    options: [
      { value: ended.key, label: `${shiftTitle(ended)} — закончилась` },
      { value: current.key, label: `${shiftTitle(current)} — идет` },
    ],
    first: first.key,
  };
}

export default function HandoverContent() {
  const { facilityId = "" } = useParams();
  const me = useMe();
  const period = useDayPeriod(daysBefore(7));
  const { from, to } = period;
  const sensors = useSensors(facilityId);
  const list = useHandovers(facilityId, from, to);
  const handOver = useHandOver(facilityId);
  const [bypassed, setBypassed] = useState<{ sensor?: string; note: string }[]>([]);
  const [remarks, setRemarks] = useState("");
  const [corrects, setCorrects] = useState<Handover | null>(null);
  const shifts = useHandoverShifts(facilityId);
  // The dispatcher's choice while it is still one the API takes; the one offered first otherwise.
  const [picked, setPicked] = useState<string>();
  const shiftFrom = shifts.options.some((o) => o.value === picked) ? (picked as string) : shifts.first;
  const canSign = me.data !== undefined && me.data.role !== "reviewer";
  const options = (sensors.data ?? []).filter((s) => s.is_active).map((s) => ({ value: s.id, label: s.code }));
  const submit = () =>
    handOver.mutate(
      {
        bypassed: bypassed.filter((b) => b.sensor).map((b) => ({ sensor: b.sensor as string, note: b.note.trim() })),
        remarks: remarks.trim(),
        ...(corrects ? { corrects: corrects.id } : { shift_from: shiftFrom }),
      },
      {
        onSuccess: () => {
          setBypassed([]);
          setRemarks("");
          setCorrects(null);
          setPicked(undefined);
        },
      },
    );
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        При передаче смены платформа записывает, что открыто в эту минуту: загазирования, молчащие датчики, показания у уставок,
        непройденные и просроченные проверки, датчики вне поверки, прогнозы с вероятностью хотя бы одной минуты от предела за горизонт от
        0,5 (где она показывается). Сдающий добавляет выведенные защиты с датчиком и замечания и подписывает передачу, принимающий — другой
        человек — подписывает ее второй подписью; после обеих подписей передача не меняется, исправление — новая запись.
      </Typography.Paragraph>
      {canSign && (
        <Card title={corrects ? `Исправление передачи: ${corrects.shift_from_name}` : "Передать смену"}>
          <Flex vertical gap={12}>
            {!corrects && (
              <Flex vertical gap={4}>
                <Typography.Text strong id="handover-shift">
                  Передаваемая смена
                </Typography.Text>
                <Radio.Group
                  aria-labelledby="handover-shift"
                  value={shiftFrom}
                  onChange={(e) => setPicked(e.target.value)}
                  style={{ display: "flex", flexDirection: "column", gap: 4 }}
                  options={shifts.options}
                />
              </Flex>
            )}
            <Typography.Text strong>Выведенные защиты</Typography.Text>
            {bypassed.map((b, i) => (
              <Flex key={i} wrap gap={8}>
                <Select
                  aria-label={`Датчик защиты ${i + 1}`}
                  style={{ minWidth: 140 }}
                  placeholder="Датчик"
                  value={b.sensor}
                  options={options}
                  onChange={(sensor) => setBypassed(bypassed.map((x, k) => (k === i ? { ...x, sensor } : x)))}
                />
                <Input
                  aria-label={`Пояснение ${i + 1}`}
                  style={{ flex: 1, minWidth: 200 }}
                  placeholder="Что выведено, до какого времени"
                  value={b.note}
                  maxLength={LIMITS.sensorChecks.bypassNote}
                  onChange={(e) => setBypassed(bypassed.map((x, k) => (k === i ? { ...x, note: e.target.value } : x)))}
                />
                <Button onClick={() => setBypassed(bypassed.filter((_, k) => k !== i))}>Убрать</Button>
              </Flex>
            ))}
            <Flex>
              <Button onClick={() => setBypassed([...bypassed, { note: "" }])}>Добавить защиту</Button>
            </Flex>
            <Typography.Text strong>Замечания</Typography.Text>
            <Input.TextArea
              aria-label="Замечания"
              rows={2}
              value={remarks}
              maxLength={LIMITS.sensorChecks.text}
              onChange={(e) => setRemarks(e.target.value)}
            />
            <Flex wrap gap={8}>
              <Button type="primary" loading={handOver.isPending} onClick={submit}>
                {corrects ? "Записать исправление" : "Передать смену"}
              </Button>
              {corrects && <Button onClick={() => setCorrects(null)}>Отмена</Button>}
            </Flex>
            {handOver.isError && (
              <Alert
                type="error"
                showIcon
                role="alert"
                title={capital(isApiError(handOver.error) ? handOver.error.detail : String(handOver.error))}
              />
            )}
          </Flex>
        </Card>
      )}
      <DayPeriodHeader
        period={period}
        files={[
          { label: "Передачи смены (xlsx)", save: (f, t) => downloadHandovers(facilityId, f, t, "xlsx") },
          { label: "Передачи смены (PDF)", save: (f, t) => downloadHandovers(facilityId, f, t, "pdf") },
        ]}
      />
      {list.isError && <LoadError what="передачи смены" message={list.error.message} retry={() => list.refetch()} />}
      {list.data && list.data.results.length === 0 && <Typography.Text>Передач смены за период нет.</Typography.Text>}
      {(list.data?.results ?? []).map((h) => (
        <HandoverCard key={h.id} h={h} facility={facilityId} canSign={canSign} onCorrect={() => setCorrects(h)} />
      ))}
    </Flex>
  );
}
