// Measured release from monitoring data (Order 371 formula 3.1, methodology D14): the `underground`
// type computed from measurement periods instead of one volume. Each period's volume is
// flow (m³/min) × hours × 60 / 1000 thousand m³; its CH4 and CO2 come from its own contents with the
// densities of the chosen measurement conditions. The server stores by this and the dialog previews
// by it. Browser-safe: no Node imports.
import { FieldError, MESSAGES, type EmissionsCore } from "./emissions-core";
import { MEASURED_PERIOD, type MeasuredPeriodField } from "./registry";
import { DAY_MS, ruDate } from "./dates";

export interface MeasuredPeriod {
  /** ISO dates (YYYY-MM-DD). */
  readonly from: string;
  readonly to: string;
  readonly flow_m3_min: number;
  readonly hours: number;
  readonly w_ch4: number;
  readonly w_co2: number;
}

export interface PeriodContribution extends MeasuredPeriod {
  readonly volume: number;
  readonly res_co2: number;
  readonly res_ch4: number;
  readonly sum_co2: number;
}

export interface MeasuredRelease {
  /** Σ of the periods' volumes, thousand m³. */
  readonly volume: number;
  /** Volume-weighted contents, % vol: volume × these × densities gives the same totals. */
  readonly ef_ch4: number;
  readonly ef_co2: number;
  readonly res_co2: number;
  readonly res_ch4: number;
  readonly res_ch4_to_co2: number;
  readonly sum_co2: number;
  readonly periods: PeriodContribution[];
}

/** What the periods give instead of what is typed: the volume and the contents (their
 *  volume-weighted means), so the contents' dictionary does not apply. */
export const PERIODS_GIVE = { fields: ["volume", "ef_ch4", "ef_co2"], dictionary: "get_underground_content" } as const;

/** A file of a year of hourly readings stays well below this; the cap keeps one stored item small. */
export const MAX_PERIODS = 1000;

export const PERIOD_MESSAGES = {
  none: "Добавьте хотя бы один период измерений",
  tooMany: `Слишком много периодов: допускается не более ${MAX_PERIODS}`,
  notList: "Ожидается список периодов измерений",
  date: "Укажите дату в виде ДД.ММ.ГГГГ",
  /** A date of the right form that the calendar has not («31.02.2025»). */
  noSuchDate: (typed: string) => `Такой даты нет в календаре: ${typed}`,
  order: "Начало периода позже его конца",
  hours: (max: number) => `Время работы больше продолжительности периода (${max} ч)`,
  overlap: (index: number, dates: { readonly from: string; readonly to: string }) =>
    `пересекается с периодом ${index + 1} (${ruDate(dates.from)}–${ruDate(dates.to)}): один день не учитывается дважды`,
  outside: (start: string, end: string) => `выходит за даты проекта (${ruDate(start)}–${ruDate(end)})`,
  tooLarge: "объем газовой смеси за период слишком велик: проверьте расход и время работы",
} as const;

/** How a message names a period: «Период 2 (01.02.2025–28.02.2025)», by its number and dates. */
export function periodName(index: number, dates?: { readonly from: string; readonly to: string }): string {
  return dates ? `Период ${index + 1} (${ruDate(dates.from)}–${ruDate(dates.to)})` : `Период ${index + 1}`;
}

/** The contents that share one mixture: together at most 100 % vol. */
const SHARES = ["w_ch4", "w_co2"] as const;

const HOURS_PER_DAY = 24;
// Excel stores dates as days since 1899-12-30; a date cell read as a number lands in this range.
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const EXCEL_SERIALS = { min: 20_000, max: 80_000 };

/** Thousand m³ of gas mixture in a period: flow (m³/min) × hours × 60 min / 1000. */
export function periodVolume(period: Pick<MeasuredPeriod, "flow_m3_min" | "hours">): number {
  return (period.flow_m3_min * period.hours * 60) / 1000;
}

/** The API's name of a period's field: «periods[1].hours». */
export function periodField(index: number, field: MeasuredPeriodField): string {
  return `periods[${index}].${field}`;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A date as typed (ДД.ММ.ГГГГ), in ISO form, or as an Excel serial number → ISO; undefined if not a real date. */
export function periodDate(value: unknown): string | undefined {
  if (typeof value === "number" || (typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim()))) {
    const serial = Number(value);
    if (serial < EXCEL_SERIALS.min || serial > EXCEL_SERIALS.max) return undefined;
    return iso(EXCEL_EPOCH_MS + Math.floor(serial) * DAY_MS);
  }
  return typeof value === "string" ? typedDate(value) : undefined;
}

/** A date typed as ДД.ММ.ГГГГ (or ISO) → ISO; undefined if it is not a real date. */
export function typedDate(value: string): string | undefined {
  const text = value.trim();
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) ?? /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (!parts) return undefined;
  const [y, m, d] = parts[1].length === 4 ? [parts[1], parts[2], parts[3]] : [parts[3], parts[2], parts[1]];
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
  const date = iso(ms);
  // 31.02.2025 rolls over to March: not a real date.
  return date === `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}` ? date : undefined;
}

/** The project's dates (ISO): every period lies within them. */
export interface PeriodBounds {
  readonly start: string;
  readonly end: string;
}

/**
 * The periods as sent (API, file rows, the dialog), checked: FieldError's field is «periods[i].field»
 * (the cell to mark), its message names the period by number and dates and the field by its label.
 * With `bounds`, each period lies within the project's dates; no two periods share a day. With
 * `refused`, a period's error is handed to it and the period left out instead of thrown, so that one
 * pass finds every refused period (the upload's preview).
 */
export function checkPeriods(raw: unknown, bounds?: PeriodBounds, refused?: (error: FieldError) => void): MeasuredPeriod[] {
  if (!Array.isArray(raw)) throw new FieldError("periods", PERIOD_MESSAGES.notList);
  if (raw.length === 0) throw new FieldError("periods", PERIOD_MESSAGES.none);
  if (raw.length > MAX_PERIODS) throw new FieldError("periods", PERIOD_MESSAGES.tooMany);
  const labels = new Map<string, string>([...MEASURED_PERIOD.dates, ...MEASURED_PERIOD.numbers].map((f) => [f.name, f.label]));
  const refusal = (index: number, field: MeasuredPeriodField, message: string, dates?: { from: string; to: string }) =>
    new FieldError(periodField(index, field), `${periodName(index, dates)}, «${labels.get(field)}»: ${message}`);
  const refuse = (index: number, field: MeasuredPeriodField, message: string, dates?: { from: string; to: string }): never => {
    throw refusal(index, field, message, dates);
  };
  const report = (error: unknown) => {
    if (!refused || !(error instanceof FieldError)) throw error;
    refused(error);
  };
  let total = 0;
  // By the period's index in `raw`; a refused one is left undefined.
  const periods: Array<MeasuredPeriod | undefined> = raw.map((row: unknown, index): MeasuredPeriod | undefined => {
    try {
      const given = (row && typeof row === "object" ? row : {}) as Record<string, unknown>;
      // Each cell is checked on its own: with `refused`, every refused cell of the period is named
      // (the preview), not only the first; the checks across cells need them all.
      const problems: FieldError[] = [];
      const cell = <T>(check: () => T): T | undefined => {
        try {
          return check();
        } catch (error) {
          if (!refused || !(error instanceof FieldError)) throw error;
          problems.push(error);
          return undefined;
        }
      };
      const dates = MEASURED_PERIOD.dates.map((column) =>
        cell(() => {
          const value = given[column.name];
          if (value === undefined || value === null || value === "") return refuse(index, column.name, MESSAGES.required);
          const typed = typeof value === "string" ? value.trim() : "";
          const wellFormed = /^\d{1,2}\.\d{1,2}\.\d{4}$|^\d{4}-\d{2}-\d{2}$/.test(typed);
          return periodDate(value) ?? refuse(index, column.name, wellFormed ? PERIOD_MESSAGES.noSuchDate(typed) : PERIOD_MESSAGES.date);
        }),
      );
      const typedSpan = dates[0] !== undefined && dates[1] !== undefined ? { from: dates[0], to: dates[1] } : undefined;
      for (const field of MEASURED_PERIOD.numbers) {
        cell(() => {
          const value = given[field.name];
          if (value === undefined || value === null || value === "") refuse(index, field.name, MESSAGES.required, typedSpan);
          if (typeof value !== "number" || !Number.isFinite(value) || value < field.min)
            refuse(index, field.name, MESSAGES.nonNegative, typedSpan);
          if ("max" in field && (value as number) > field.max) refuse(index, field.name, MESSAGES.atMost(field.max, field.unit), typedSpan);
        });
      }
      if (problems.length > 0) {
        for (const problem of problems) report(problem);
        return undefined;
      }
      const span = typedSpan!;
      if (span.from > span.to) refuse(index, "to", PERIOD_MESSAGES.order, span);
      if (bounds && (span.from < bounds.start || span.to > bounds.end)) {
        refuse(index, span.from < bounds.start ? "from" : "to", PERIOD_MESSAGES.outside(bounds.start, bounds.end), span);
      }
      const numbers = Object.fromEntries(MEASURED_PERIOD.numbers.map((field) => [field.name, given[field.name] as number]));
      // Both ends count as whole days: a period of one day may hold 24 hours of operation.
      const maxHours = ((Date.parse(span.to) - Date.parse(span.from)) / DAY_MS) * HOURS_PER_DAY + HOURS_PER_DAY;
      if (numbers.hours > maxHours) refuse(index, "hours", PERIOD_MESSAGES.hours(maxHours), span);
      // CH4 and CO2 are shares of one mixture.
      const shares = SHARES.reduce((a, name) => a + numbers[name], 0);
      if (shares > 100 * (1 + 1e-12)) {
        const names = SHARES.map((name) => labels.get(name) ?? name);
        const unit = MEASURED_PERIOD.numbers.find((f) => f.name === "w_ch4")?.unit ?? "";
        throw new FieldError(
          periodField(index, SHARES[SHARES.length - 1]),
          `${periodName(index, span)}: ${MESSAGES.sumAtMost("Сумма содержаний", names, 100, unit, shares)}`,
        );
      }
      // The flow (not the volume derived from it) is what was typed: an overflow is the flow's.
      const sum = total + periodVolume({ flow_m3_min: numbers.flow_m3_min, hours: numbers.hours });
      if (!Number.isFinite(sum)) refuse(index, "flow_m3_min", PERIOD_MESSAGES.tooLarge, span);
      total = sum;
      return { ...span, flow_m3_min: numbers.flow_m3_min, hours: numbers.hours, w_ch4: numbers.w_ch4, w_co2: numbers.w_co2 };
    } catch (error) {
      report(error);
      return undefined;
    }
  });
  // Periods in date order: each starts after the previous one kept ends (a day is counted once);
  // of two that overlap, the later in the list is refused.
  const order = periods
    .flatMap((p, i) => (p ? [i] : []))
    .sort((a, b) => (periods[a]!.from < periods[b]!.from ? -1 : periods[a]!.from > periods[b]!.from ? 1 : a - b));
  let previous = order[0];
  for (const current of order.slice(1)) {
    const [before, after] = [periods[previous]!, periods[current]!];
    if (after.from > before.to) {
      previous = current;
      continue;
    }
    const later = Math.max(previous, current);
    const first = Math.min(previous, current);
    report(refusal(later, "from", PERIOD_MESSAGES.overlap(first, periods[first]!), periods[later]));
    periods[later] = undefined;
    if (later === previous) previous = current;
  }
  return periods.filter((p): p is MeasuredPeriod => p !== undefined);
}

const sum = (values: ArrayLike<number>) => Array.from(values).reduce((a, b) => a + b, 0);

/**
 * Formula 3.1 per period through the core (one batch: a row per period), and the totals as the
 * sums of the periods. `densities` are the chosen conditions' (p_co2, p_ch4, kg/m³).
 */
export function measuredRelease(
  core: Pick<EmissionsCore, "calculateBatch">,
  periods: readonly MeasuredPeriod[],
  densities: { readonly p_co2: unknown; readonly p_ch4: unknown },
  gwp_ch4: number | undefined,
): MeasuredRelease {
  const volumes = Float64Array.from(periods, periodVolume);
  const rows = core.calculateBatch(
    "underground",
    {
      volume: volumes,
      ef_ch4: Float64Array.from(periods, (p) => p.w_ch4),
      ef_co2: Float64Array.from(periods, (p) => p.w_co2),
      p_co2: densities.p_co2 as number,
      p_ch4: densities.p_ch4 as number,
    },
    gwp_ch4 === undefined ? undefined : { gwp_ch4 },
  );
  const volume = sum(volumes);
  const weighted = (content: (p: MeasuredPeriod) => number) =>
    volume > 0 ? periods.reduce((total, p, i) => total + volumes[i] * content(p), 0) / volume : 0;
  return {
    volume,
    ef_ch4: weighted((p) => p.w_ch4),
    ef_co2: weighted((p) => p.w_co2),
    res_co2: sum(rows.res_co2),
    res_ch4: sum(rows.res_ch4),
    res_ch4_to_co2: sum(rows.res_ch4_to_co2),
    sum_co2: sum(rows.sum_co2),
    periods: periods.map((p, i) => ({
      ...p,
      volume: volumes[i],
      res_co2: rows.res_co2[i],
      res_ch4: rows.res_ch4[i],
      sum_co2: rows.sum_co2[i],
    })),
  };
}

/** Methodology 8.1: how a measured release was measured — the frequency of the measurements and
 *  the instruments (gas-monitoring system, flow meters) — kept as inputs of `underground` and
 *  printed on the report passport with its periods. */
export const MEASUREMENT_NOTES = {
  measurement_frequency: { label: "Периодичность измерений", max: 200, placeholder: "например, непрерывно (АГК), ежесуточно" },
  measurement_instruments: { label: "Средства измерений", max: 500, placeholder: "система, датчики, расходомеры" },
} as const;
export type MeasurementNote = keyof typeof MEASUREMENT_NOTES;
export const MEASUREMENT_NOTE_NAMES = Object.keys(MEASUREMENT_NOTES) as MeasurementNote[];
