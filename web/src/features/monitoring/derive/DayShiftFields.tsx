// The day and the shift a monitoring list shows («События», «Журнал оператора АГК»): the day typed as
// ДД.ММ.ГГГГ (marked while it is no date, or a day not yet begun on the company's clock) and the shift
// chosen from the page's own list, a shift of today not yet begun not offered.
import { useState } from "react";
import { Input, Space, Typography } from "antd";
import { isoDateIn } from "@core/company-clock";
import { Select } from "../../../shared/LazySelect";
import { DATE_TYPED, displayDate, typedDate } from "../../../shared/dates";
import { begunDate, begunShifts } from "./begunDay";

export const NOT_BEGUN = "Эти сутки еще не начались";

/** The day a page shows as typed (today on the company's clock at first), and `date`, the typed day
 *  once it is a date that has begun (begunDate). */
export function useTypedDay(zone: string) {
  const [dateText, setDateText] = useState(() => displayDate(isoDateIn(new Date(), zone)));
  return { dateText, setDateText, date: begunDate(dateText, zone) };
}

export function DayShiftFields(props: {
  day: ReturnType<typeof useTypedDay>;
  zone: string;
  shift: number;
  onShift: (shift: number) => void;
  /** The page's shifts (begunShifts disables those not yet begun). */
  shifts: { value: number; label: string; from?: number }[];
}) {
  const { dateText, setDateText, date } = props.day;
  const valid = typedDate(dateText) !== undefined;
  const notBegun = valid && !date;
  return (
    <>
      <Space direction="vertical" size={2}>
        <Typography.Text>Дата</Typography.Text>
        <Input
          aria-label="Дата"
          style={{ width: 130 }}
          value={dateText}
          maxLength={DATE_TYPED.length}
          placeholder={DATE_TYPED}
          status={valid && !notBegun ? undefined : "error"}
          onChange={(e) => setDateText(e.target.value)}
        />
        {notBegun && <Typography.Text type="danger">{NOT_BEGUN}</Typography.Text>}
      </Space>
      <Space direction="vertical" size={2}>
        <Typography.Text>Смена</Typography.Text>
        <Select
          aria-label="Смена"
          style={{ width: 210 }}
          options={begunShifts(props.shifts, date, props.zone)}
          value={props.shift}
          onChange={(v) => props.onShift(v as number)}
        />
      </Space>
    </>
  );
}
