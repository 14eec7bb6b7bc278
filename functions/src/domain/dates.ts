// Calendar dates as the product writes them: yyyy-MM-dd (SPEC 9).
import { Invalid } from "./errors";

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function isoDateValue(value: unknown, field: string): string {
  if (!isIsoDate(value)) throw new Invalid(`${field}: укажите дату в формате ГГГГ-ММ-ДД`);
  return value;
}
