// Calendar dates as the product writes them: yyyy-MM-dd (docs/user-guide.md).
import { isIsoDate } from "../contract/schemas/common";
import { invalidAt } from "./errors";

export function isoDateValue(value: unknown, field: string): string {
  if (!isIsoDate(value)) throw invalidAt(field, "укажите дату в формате ГГГГ-ММ-ДД");
  return value;
}
