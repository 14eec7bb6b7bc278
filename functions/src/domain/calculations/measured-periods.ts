// `underground` from measurement periods (Order 371 formula 3.1 from monitoring data, D14): the
// periods come typed (`periods` in the body), from an uploaded file (Excel template or a CSV of the
// gas-monitoring system, columns from the registry), or, on an edit that sends neither, from the
// calculation as stored. The volume is their sum and the contents their volume-weighted means (so
// the stored inputs reproduce the totals); the densities follow the measurement conditions chosen.
import { FieldError, emissionsCore } from "@core/emissions";
import {
  checkPeriods,
  measuredRelease,
  periodVolume,
  MAX_PERIODS,
  PERIODS_GIVE,
  PERIOD_MESSAGES,
  periodField,
  periodName,
  MEASUREMENT_NOTES,
  MEASUREMENT_NOTE_NAMES,
  type MeasuredPeriod,
  type MeasurementNote,
  type PeriodBounds,
} from "@core/measured-release";
import { REGISTRY, uploadColumns, type CalculationType } from "@core/registry";
import type { CoefficientRequest } from "../reference/coefficients";
import { CellInvalid, fromCore, invalidAt } from "../errors";
import { columnSpec, headerOf } from "../../files/column-specs";
import { readUpload, type ParsedTable, type RowRefusals, type TableSpec, type UploadReader, type UploadedFile } from "../../files/tabular";
import type { StoredCalculation, CoefficientUse } from "../../ports";

const TYPE = "underground";
const CONTENTS = ["ef_ch4", "ef_co2"] as const;

const invalid = (error: unknown): never => {
  throw fromCore(error);
};

export const periodsSpec = (): TableSpec => ({ maxRows: MAX_PERIODS, columns: uploadColumns(TYPE).map((column) => columnSpec(column)) });

/** The periods of a CSV or .xlsx upload, within `bounds`; an error names the sheet, the row and the column. */
export const periodsReader = (bounds?: PeriodBounds): UploadReader<MeasuredPeriod[]> => ({
  spec: periodsSpec(),
  rows: (table, refused) => periodsFromTable(table, bounds, refused),
});

/** The periods of a read table; with `refused`, a period's error is handed to it (as the save would
 *  throw it) and the period left out, so one pass finds every refused row (the preview). */
export function periodsFromTable(table: ParsedTable, bounds?: PeriodBounds, refused?: RowRefusals): MeasuredPeriod[] {
  // A period's error names the file's sheet, row and column.
  const located = (error: unknown) => {
    const at = error instanceof FieldError ? /^periods\[(\d+)\]\.(\w+)$/.exec(error.field) : null;
    if (!at || !(error instanceof FieldError)) return error;
    return new CellInvalid({ sheet: table.sheet, row: table.rows[Number(at[1])].row, header: headerOf(table, at[2]) }, error.message);
  };
  try {
    return checkPeriods(
      table.rows.map((r) => r.values),
      bounds,
      refused && ((error) => refused(located(error))),
    );
  } catch (error) {
    return invalid(located(error));
  }
}

/** The stored periods of a calculation (its result table holds every input column). */
function storedPeriods(previous: StoredCalculation | undefined): unknown[] | undefined {
  const rows = previous?.results.periods;
  return Array.isArray(rows) ? rows : undefined;
}

/**
 * The periods of an `underground` request, if it is by periods: a file, `periods`, or (an edit
 * that sends no volume) those stored. Undefined: the request gives one volume as before.
 * `bounds`: the project's dates, which every period lies within.
 */
export async function requestedPeriods(
  type: CalculationType,
  values: Record<string, unknown>,
  file: UploadedFile | undefined,
  previous: StoredCalculation | undefined,
  bounds?: PeriodBounds,
): Promise<MeasuredPeriod[] | undefined> {
  if (type !== TYPE) return undefined;
  if (file) return readUpload(file, periodsReader(bounds));
  const given = values.periods ?? (values.volume === previous?.inputs.volume ? storedPeriods(previous) : undefined);
  if (given === undefined || given === null) return undefined;
  try {
    return checkPeriods(given, bounds);
  } catch (error) {
    return invalid(error);
  }
}

/** The request the coefficients are resolved for: volume and contents from the periods. */
export function periodsRequest(request: CoefficientRequest, periods: readonly MeasuredPeriod[]): CoefficientRequest {
  const volume = periods.reduce((total, p) => total + periodVolume(p), 0);
  const mean = (content: (p: MeasuredPeriod) => number) =>
    volume > 0 ? periods.reduce((total, p) => total + periodVolume(p) * content(p), 0) / volume : 0;
  const { periods: _typed, ...values } = request.values;
  const justifications = Object.fromEntries(
    Object.entries(request.justifications ?? {}).filter(([name]) => !(CONTENTS as readonly string[]).includes(name)),
  );
  return {
    ...request,
    values: { ...values, volume, ef_ch4: mean((p) => p.w_ch4), ef_co2: mean((p) => p.w_co2) },
    dictionary_items: { ...request.dictionary_items, [PERIODS_GIVE.dictionary]: null },
    justifications,
  };
}

/** Results by period and their sums; the volume and the contents are recorded as derived from the
 *  periods (source «periods», «Рассчитано по периодам»), neither typed nor a dictionary's. */
export function periodsResults(
  periods: readonly MeasuredPeriod[],
  values: Record<string, unknown>,
  uses: Record<string, CoefficientUse>,
): Record<string, unknown> {
  let release;
  try {
    release = measuredRelease(emissionsCore(), periods, { p_co2: values.p_co2, p_ch4: values.p_ch4 }, values.gwp_ch4 as number);
  } catch (error) {
    return invalid(error);
  }
  // Values the core accepts may still multiply past a float's range: the flow is what to correct.
  if (!Number.isFinite(release.sum_co2)) {
    const index = Math.max(
      0,
      release.periods.findIndex((p) => !Number.isFinite(p.sum_co2)),
    );
    throw invalidAt(periodField(index, "flow_m3_min"), `${periodName(index, periods[index])}: ${PERIOD_MESSAGES.tooLarge}`);
  }
  const units = new Map(REGISTRY[TYPE].inputs.map((f) => [f.name as string, f.unit]));
  values.volume = release.volume;
  // The volume is the periods' sum, computed, not typed: labelled so, its uncertainty (the
  // measured flow's) kept.
  uses.volume = { ...uses.volume, value: release.volume, unit: units.get("volume") ?? "", source: "periods" };
  for (const name of CONTENTS) {
    values[name] = release[name];
    uses[name] = { value: release[name], unit: units.get(name) ?? "", source: "periods" };
  }
  return {
    res_co2: release.res_co2,
    res_ch4: release.res_ch4,
    res_ch4_to_co2: release.res_ch4_to_co2,
    sum_co2: release.sum_co2,
    periods: release.periods,
  };
}

/** Methodology 8.1: the notes of a request, trimmed; "" or none leaves a note out. Only `underground` takes them. */
export function measurementNotes(type: CalculationType, values: Record<string, unknown>): Partial<Record<MeasurementNote, string>> {
  const notes: Partial<Record<MeasurementNote, string>> = {};
  for (const name of MEASUREMENT_NOTE_NAMES) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    if (type !== TYPE) throw invalidAt(name, "периодичность и средства измерений указывают только для измеренных выбросов");
    if (typeof value !== "string") throw invalidAt(name, "ожидается строка");
    const text = value.trim();
    const { max } = MEASUREMENT_NOTES[name];
    if (text.length > max) throw invalidAt(name, `не длиннее ${max} символов`);
    if (text) notes[name] = text;
  }
  return notes;
}
