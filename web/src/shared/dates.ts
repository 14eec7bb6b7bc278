import dayjs from "dayjs";

export const DATE_FORMAT = "YYYY-MM-DD";
/** What a date field shows (ДД.ММ.ГГГГ, as Russian documents write dates) and accepts when typed:
 *  that or ISO. The API keeps ISO (DATE_FORMAT). */
export const DATE_FIELD_FORMATS = ["DD.MM.YYYY", DATE_FORMAT];
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * yyyy-MM-dd for display (docs/user-guide.md). A plain date is shown as stored (parsing it would risk a
 * time-zone shift); a timestamp such as created_at is shown as the user's local calendar date.
 */
export function displayDate(value: string | null | undefined): string {
  if (!value) return "";
  if (PLAIN_DATE.test(value)) return value;
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_FORMAT) : value;
}

/** A timestamp as the user's local date and time, yyyy-MM-dd HH:mm (docs/user-guide.md's date format). */
export function displayDateTime(value: string | null | undefined): string {
  if (!value) return "";
  const date = dayjs(value);
  return date.isValid() ? date.format(`${DATE_FORMAT} HH:mm`) : value;
}
