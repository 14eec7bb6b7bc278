// D90: a mine's shift calendar on its facility — shifts a day (3 по 8 ч, 4 по 6 ч or
// 2 по 12 ч) and the first shift's start, dated: each change holds from its day, a day is read with the
// change in force on it. The journal, «Загазирования смены», the shift report and the events' shifts
// follow it. Saved whole (PATCH of the facility); a server refusal shows in the dialog.
import { Fragment, useState } from "react";
import { Alert, Button, Flex, Input, Modal, Select, Typography } from "antd";
import { SHIFTS_PER_DAY, calendarOn, calendarText, shiftsOfDay, type ShiftCalendarEntry, type ShiftsPerDay } from "@core/shift-calendar";
import { DATE_TYPED, companyZoneNow, displayDate, typedDate } from "../../shared/dates";
import { useSaveFacility, type Facility } from "../../api/inventory";

interface Row {
  from: string;
  shifts: ShiftsPerDay;
  start: string;
}

const TIME_TYPED = "ЧЧ:ММ";
const SHIFT_OPTIONS = SHIFTS_PER_DAY.map((n) => ({ value: n, label: `${n} смены по ${24 / n} ч` }));
const today = () => new Date().toISOString().slice(0, 10);

/** What the rows say is wrong, in Russian; undefined when they can be saved. */
function rowsProblem(rows: readonly Row[]): string | undefined {
  for (const [i, row] of rows.entries()) {
    if (!typedDate(row.from)) return `Изменение ${i + 1}: дата в виде ${DATE_TYPED}`;
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(row.start)) return `Изменение ${i + 1}: начало первой смены в виде ЧЧ:ММ`;
  }
  return undefined;
}

export function ShiftCalendarDialog({ facility, onClose }: { facility: Facility; onClose: () => void }) {
  const save = useSaveFacility();
  const [rows, setRows] = useState<Row[]>(() =>
    (facility.shift_calendar ?? []).map((e) => ({ from: displayDate(e.valid_from), shifts: e.shifts, start: e.first_start })),
  );
  const problem = rowsProblem(rows);
  const entries: ShiftCalendarEntry[] = problem
    ? []
    : rows.map((r) => ({ valid_from: typedDate(r.from)!, shifts: r.shifts, first_start: r.start }));
  const set = (i: number, change: Partial<Row>) => setRows(rows.map((r, k) => (k === i ? { ...r, ...change } : r)));
  // Today's shifts as the calendar typed gives them: what the journal and the reports will read.
  const shiftsToday = problem ? [] : shiftsOfDay(entries, today(), companyZoneNow());
  return (
    <Modal open title={`Календарь смен: ${facility.name}`} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          Смены суток и начало первой смены, с даты изменения. Сутки читаются по календарю, действующему в этот день; минуты до начала
          первой смены относятся к последней смене предыдущих суток. Без календаря — три смены по 8 ч с 00:00.
        </Typography.Text>
        {rows.length === 0 && <Typography.Text>Календарь не задан: три смены по 8 ч с 00:00.</Typography.Text>}
        {rows.map((row, i) => (
          <Flex key={i} gap={8} wrap align="center" data-testid="shift-calendar-row">
            <Typography.Text>С</Typography.Text>
            <Input
              aria-label={`Изменение ${i + 1}: действует с`}
              placeholder={DATE_TYPED}
              maxLength={DATE_TYPED.length}
              value={row.from}
              onChange={(e) => set(i, { from: e.target.value })}
              style={{ width: 130 }}
            />
            <Select
              aria-label={`Изменение ${i + 1}: смен в сутках`}
              options={SHIFT_OPTIONS}
              value={row.shifts}
              onChange={(shifts) => set(i, { shifts })}
              style={{ width: 170 }}
            />
            <Typography.Text>первая с</Typography.Text>
            <Input
              aria-label={`Изменение ${i + 1}: начало первой смены`}
              placeholder={TIME_TYPED}
              maxLength={TIME_TYPED.length}
              value={row.start}
              onChange={(e) => set(i, { start: e.target.value })}
              style={{ width: 80 }}
            />
            <Button size="small" onClick={() => setRows(rows.filter((_, k) => k !== i))}>
              Удалить
            </Button>
          </Flex>
        ))}
        <div>
          <Button onClick={() => setRows([...rows, { from: displayDate(today()), shifts: 3, start: "00:00" }])}>Добавить изменение</Button>
        </div>
        {problem ? (
          <Typography.Text type="danger">{problem}</Typography.Text>
        ) : (
          shiftsToday.length > 0 && (
            <Typography.Text data-testid="shift-calendar-today">
              Сегодня: {calendarText(calendarOn(entries, today()))} —{" "}
              {/* Each shift on one line, the list wrapping between them (the comma's space outside the
                  unbroken span: inside it, a phone's dialog cut the list at its edge). */}
              {shiftsToday.map((s, i) => (
                <Fragment key={s.key}>
                  <span style={{ whiteSpace: "nowrap" }}>
                    {s.name}
                    {i + 1 < shiftsToday.length ? "," : ""}
                  </span>
                  {i + 1 < shiftsToday.length ? " " : ""}
                </Fragment>
              ))}
            </Typography.Text>
          )
        )}
        {save.isError && <Alert type="error" showIcon role="alert" title={save.error.message} />}
        <Flex gap={8}>
          <Button
            type="primary"
            disabled={Boolean(problem)}
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                { facility, fields: { name: facility.name, kind: facility.kind, shift_calendar: entries } },
                { onSuccess: onClose },
              )
            }
          >
            Сохранить
          </Button>
          <Button onClick={onClose}>Отмена</Button>
        </Flex>
      </Flex>
    </Modal>
  );
}
