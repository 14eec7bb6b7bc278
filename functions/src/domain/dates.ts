// Calendar dates as the product writes them: yyyy-MM-dd (docs/user-guide.md).
import { isIsoDate } from "../contract/schemas/common";
import { Invalid } from "./errors";
import { fieldMessage } from "../contract/field-errors";

export function isoDateValue(value: unknown, field: string): string {
  if (!isIsoDate(value)) throw new Invalid(fieldMessage(field, "укажите дату в формате ГГГГ-ММ-ДД"));
  return value;
}
