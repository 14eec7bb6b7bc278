// The day and the shift a monitoring list shows («События», «Журнал оператора АГК»): the day typed as
// ДД.ММ.ГГГГ (marked while it is no date, or a day not yet begun on the company's clock) and the shift
// chosen from the page's own list, a shift of today not yet begun not offered (issue 105 item 6).
import { Input, Space, Typography } from "antd";
import { isoDateIn } from "@core/company-clock";
import { shiftSpan } from "@core/monitoring";
import { Select } from "../../shared/LazySelect";
import { DATE_TYPED, typedDate } from "../../shared/dates";

export const NOT_BEGUN = "Эти сутки еще не начались";

/** The typed day (ГГГГ-ММ-ДД) where it is a date that has begun on the company's clock; else none. */
export function begunDate(text: string, zone: string, now = Date.now()): string | undefined {
  const date = typedDate(text);
  return date && date <= isoDateIn(new Date(now), zone) ? date : undefined;
}

/** The shifts to choose from: those of `date` not yet begun disabled (0, «Все смены», never). */
export function begunShifts<T extends { value: number }>(shifts: T[], date: string | undefined, zone: string, now = Date.now()) {
  return shifts.map((s) => ({ ...s, disabled: Boolean(date && s.value > 0 && (shiftSpan(`${date}#${s.value}`, zone)?.from ?? 0) > now) }));
}

export function DayShiftFields(props: {
  dateText: string;
  onDateText: (text: string) => void;
  /** Whether the text is a date (typedDate). */
  valid: boolean;
  /** Whether it is a date not yet begun (then it is marked and said). */
  notBegun?: boolean;
  shift: number;
  onShift: (shift: number) => void;
  shifts: { value: number; label: string }[];
}) {
  return (
    <>
      <Space direction="vertical" size={2}>
        <Typography.Text>Дата</Typography.Text>
        <Input
          aria-label="Дата"
          style={{ width: 130 }}
          value={props.dateText}
          maxLength={DATE_TYPED.length}
          placeholder={DATE_TYPED}
          status={props.valid && !props.notBegun ? undefined : "error"}
          onChange={(e) => props.onDateText(e.target.value)}
        />
        {props.notBegun && <Typography.Text type="danger">{NOT_BEGUN}</Typography.Text>}
      </Space>
      <Space direction="vertical" size={2}>
        <Typography.Text>Смена</Typography.Text>
        <Select
          aria-label="Смена"
          style={{ width: 210 }}
          options={props.shifts}
          value={props.shift}
          onChange={(v) => props.onShift(v as number)}
        />
      </Space>
    </>
  );
}
