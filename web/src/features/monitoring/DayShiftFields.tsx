// The day and the shift a monitoring list shows («События», «Журнал оператора АГК»): the day typed as
// ДД.ММ.ГГГГ (marked while it is no date) and the shift chosen from the page's own list.
import { Input, Space, Typography } from "antd";
import { Select } from "../../shared/LazySelect";
import { DATE_TYPED } from "../../shared/dates";

export function DayShiftFields(props: {
  dateText: string;
  onDateText: (text: string) => void;
  /** Whether the text is a date (typedDate). */
  valid: boolean;
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
          status={props.valid ? undefined : "error"}
          onChange={(e) => props.onDateText(e.target.value)}
        />
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
