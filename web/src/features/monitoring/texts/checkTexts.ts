// D94: the words of a sensor's check as «Проверки датчиков» shows them — pure, tested beside.
import { instantOfWallTime } from "@core/company-clock";
import { CHECK_KIND_LABELS, type CheckKind } from "@core/sensor-checks";
import { number } from "./offerTexts";
import { ruDate } from "@core/dates";

/** A test's outcome: «сработала», «не сработала», «не проверялась». */
export const testText = (ok: boolean | null, feminine = true) =>
  ok === null
    ? feminine
      ? "не проверялась"
      : "не проверялось"
    : ok
      ? feminine
        ? "сработала"
        : "сработало"
      : feminine
        ? "не сработала"
        : "не сработало";

/** «0,42 % против 0,40 % (ШИ-11 № 4512), разница +0,02 %», or «не сравнивалось». */
export function readingText(c: {
  reading_pct: number | null;
  reference_pct: number | null;
  deviation_pct: number | null;
  reference_instrument: string;
}) {
  if (c.reading_pct === null || c.reference_pct === null) return "не сравнивалось";
  const d = c.deviation_pct ?? 0;
  const sign = d > 0 ? "+" : d < 0 ? "−" : "";
  return `${number(c.reading_pct, 2)} % против ${number(c.reference_pct, 2)} %${c.reference_instrument ? ` (${c.reference_instrument})` : ""}, разница ${sign}${number(Math.abs(d), 2)} %`;
}

/** «ПГС 1,50 %, баллон Б-117 до 31.12.2026», or «не применялась». */
export function gasText(c: { test_gas_pct: number | null; test_gas_cylinder: { number: string; valid_to: string } | null }) {
  if (c.test_gas_pct === null && !c.test_gas_cylinder) return "не применялась";
  const cylinder = c.test_gas_cylinder ? `, баллон ${c.test_gas_cylinder.number} до ${ruDate(c.test_gas_cylinder.valid_to)}` : "";
  return `ПГС ${c.test_gas_pct === null ? "—" : `${number(c.test_gas_pct, 2)} %`}${cylinder}`;
}

export const kindText = (kind: CheckKind) => {
  const label = CHECK_KIND_LABELS[kind];
  return label.charAt(0).toUpperCase() + label.slice(1);
};

/** «ДД.ММ.ГГГГ ЧЧ:ММ» typed on the company's clock → an ISO instant, or undefined. */
export function typedDateTime(text: string, zone: string): string | undefined {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})\s+(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const [d, m, y, h, min] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCDate() !== d || date.getUTCMonth() !== m - 1 || h > 23 || min > 59) return undefined;
  return new Date(instantOfWallTime(y, m, d, h, min, zone)).toISOString();
}

/** A number typed the Russian way («0,42») → number, or null when empty, undefined when no number. */
export function typedNumber(text: string): number | null | undefined {
  const t = text.trim().replace(/\s/g, "").replace(",", ".");
  if (t === "") return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : undefined;
}
