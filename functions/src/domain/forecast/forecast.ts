// regres_methane (docs/api.md, docs/user-guide.md): rows of the mine's АГК readings (x1 … x15) from a manual table or an
// uploaded file, and the predicted CH4 concentration in the longwall's outgoing air, %, per row
// by the active XGBoost or LightGBM model. Rows can be many (10-minute steps), so they are kept in
// the blob store (forecast-rows.ts); the calculation item holds a summary and the key.
import {
  DEFAULT_INTERVAL_LEVEL,
  DEFAULT_WARNING_PERCENT,
  HORIZONS,
  INTERVAL_METHOD_LABEL,
  INTERVAL_LEVELS,
  LAG_FEATURES,
  backtest,
  calibrationStale,
  persistenceForecast,
  bestForecast,
  SHOWN_INSTEAD,
  fromPersistence,
  withWeight,
  eventChances,
  timeOfDayForecast,
  fittedIntervalColumns,
  windowedIntervalColumns,
  unitScales,
  historyStep,
  horizonLabel,
  horizonRefusal,
  isHorizon,
  lagColumns,
  PRESSURE_FEATURES,
  pressureColumns,
  shifted,
  timesInMs,
  withLags,
  intervalColumns,
  isIntervalLevel,
  predict,
  readRowTime,
  rowTimes,
  tooEarlyNote,
  unreliableNote,
  type Backtest,
  type ShownForecast,
  type IntervalMethod,
  type ProbabilityCheck,
} from "@core/gbdt";
import { MINUTE_MS } from "@core/dates";
import {
  FORECAST_MEASURED,
  FORECAST_PRESSURE,
  METHANE_LIMIT_PERCENT,
  REGISTRY,
  uploadColumns,
  type ForecastFeature,
  type NumberField,
} from "@core/registry";
import type { Deps, ForecastFileResult } from "../context";
import { CellInvalid, type Invalid, invalidAt } from "../errors";
import { FORECAST_FEATURES, forecastModelFor, parsedModels, runnableModel } from "./models";
import type { ForecastKeptRow } from "./rows";
import {
  checkEach,
  readUpload,
  type ParsedTable,
  type RowRefusals,
  type TableSpec,
  type UploadReader,
  type UploadedFile,
} from "../../files/tabular";
import { columnSpec, headerOf } from "../../files/column-specs";
import { MAX_FORECAST_UPLOAD_BYTES, MAX_FORECAST_UPLOAD_TEXT } from "../../contract/schemas/uploads";
import type { ForecastCalibration, ForecastModelVersion, ForecastRun, ForecastSettings } from "../../ports";

export type { ForecastRun, ForecastSettings };
import type { ForecastMethod } from "@core/registry";
import { calibrationFor, calibrationSummary, modelPeriodEnd } from "./calibration";
import { columnRows, readForecastCsv } from "./file";
import { namedCell, namedValues, withNamedColumns } from "./named-features";
import { modelScoring } from "./scoring";
import type { ForecastColumns } from "../../ports";
import { LIMITS } from "../../contract/schemas/limits";

export const MAX_FORECAST_ROWS = LIMITS.forecast.rows;

type Feature = ForecastFeature;

/** The data columns with their bounds (the registry's manual table). */
const DATA_COLUMNS = new Map(
  ((REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[]).map((c) => [c.name, c]),
);

/** The refusal of a row's field: at the request's field (`data[3].x7`) or at the file's cell. */
export type RefuseAt = (field: string, message: string) => Invalid;

/** A row's measured y (%, 0 … 100), barometric pressure p_atm (кПа, 0 … 200) and time t
 *  (readRowTime), each only when given. */
function history(y: unknown, pressure: unknown, t: unknown, where: RefuseAt): Pick<ForecastKeptRow, "y" | "p_atm" | "t"> {
  const out: Pick<ForecastKeptRow, "y" | "p_atm" | "t"> = {};
  if (y !== undefined && y !== null && y !== "") {
    if (typeof y !== "number" || !Number.isFinite(y)) throw where("y", "ожидается число");
    if (y < 0) throw where("y", "значение должно быть неотрицательным");
    if (y > FORECAST_MEASURED.max) throw where("y", `концентрация не больше ${FORECAST_MEASURED.max} %`);
    out.y = y;
  }
  if (pressure !== undefined && pressure !== null && pressure !== "") {
    const field = FORECAST_PRESSURE.name;
    if (typeof pressure !== "number" || !Number.isFinite(pressure)) throw where(field, "ожидается число");
    if (pressure < 0) throw where(field, "значение должно быть неотрицательным");
    if (pressure > FORECAST_PRESSURE.max) throw where(field, `давление не больше ${FORECAST_PRESSURE.max} кПа`);
    out.p_atm = pressure;
  }
  if (t !== undefined && t !== null && t !== "") {
    const time = readRowTime(t);
    if (time === undefined) {
      throw where("t", `ожидается дата и время (01.01.2025 08:10) или номер шага, найдено «${String(t).slice(0, 40)}»`);
    }
    out.t = time;
  }
  return out;
}

/** Every value is a finite number ≥ 0 or missing; a concentration (%, max 100 in the registry) is at
 *  most 100. `where` refuses at the row's field or cell, only for an error (a file holds up to 1.5
 *  million cells: one function per row, not one per cell, is made to name them). */
export function checkValue(value: unknown, where: RefuseAt, feature: Feature): number | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value !== "number" || !Number.isFinite(value)) throw where(feature, "ожидается число");
  if (value < 0) throw where(feature, "значение должно быть неотрицательным");
  const column = DATA_COLUMNS.get(feature);
  if (column?.max !== undefined && value > column.max) throw where(feature, `${boundText(column)}`);
  return value;
}

/** «концентрация не больше 100 %», «расход не больше 100 000 м³/мин»: a column's bound in its own words. */
function boundText(column: NumberField): string {
  const what = column.unit === "%" ? "концентрация" : "расход";
  return `${what} не больше ${column.max!.toLocaleString("ru-RU").replace(/\s/g, "\u00a0")} ${column.unit}`;
}

/** A row's features, each checked by checkValue. */
function checkedFeatures(row: Record<string, unknown>, where: RefuseAt): Record<Feature, number | null> {
  const values = {} as Record<Feature, number | null>;
  for (const feature of FORECAST_FEATURES) values[feature] = checkValue(row[feature], where, feature);
  return values;
}

function numberRows(rows: Array<Omit<ForecastKeptRow, "id"> & { id?: unknown }>): ForecastKeptRow[] {
  const used = new Set<number>();
  const withIds = rows.map((row) => {
    const id = typeof row.id === "number" && Number.isInteger(row.id) && row.id > 0 && !used.has(row.id) ? row.id : undefined;
    if (id !== undefined) used.add(id);
    return { ...row, id };
  });
  let next = Math.max(0, ...used) + 1;
  return withIds.map((row) => ({ ...row, id: row.id ?? next++ }) as ForecastKeptRow);
}

/** One row of features as sent (what-if, the air needed): each a number ≥ 0 or null, named `where.f`. */
export function featureRow(raw: unknown, where: string): Record<Feature, number | null> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw invalidAt(where, "ожидается строка данных");
  return checkedFeatures(raw as Record<string, unknown>, (field, message) => invalidAt(`${where}.${field}`, message));
}

/** Manual rows as the dialog sends them: [{id?, x1, …, x15}], empty or null = missing; the model's
 *  named `features` each by its name, refused where a row lacks one. */
export function forecastRowsFromJson(data: unknown, features: readonly string[] = []): ForecastKeptRow[] {
  if (!Array.isArray(data) || data.length === 0) throw invalidAt("data", "добавьте хотя бы одну строку данных или загрузите файл");
  if (data.length > MAX_FORECAST_ROWS) throw invalidAt("data", `не более ${MAX_FORECAST_ROWS} строк`);
  return numberRows(
    data.map((raw, index) => {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw invalidAt(`data[${index}]`, "ожидается строка данных");
      const row = raw as Record<string, unknown>;
      const where: RefuseAt = (field, message) => invalidAt(`data[${index}].${field}`, message);
      const named = namedValues(row, features, (_, message) => invalidAt(`data[${index}]`, message));
      return {
        id: row.id,
        ...checkedFeatures(row, where),
        ...history(row.y, row[FORECAST_PRESSURE.name], row.t, where),
        ...(named ? { features: named } : {}),
      };
    }),
  );
}

/** The columns a model reads: its features among x1 … x15 (`feature_names`) and its named ones. Without a model
 *  (undefined) every data column is read. */
export type ModelColumns = Pick<ForecastModelVersion, "feature_names" | "features">;

/** The history's columns: the forecast's own and, for a model that reads them, its named features. an earlier round,
 *  item 6: with the model known, a data column it does not read is not demanded (a model trained without x2
 *  forecasts from a file without it); those it reads stay required, a file without them refused naming each. */
export function forecastSpec(features: readonly string[] = [], model?: ModelColumns): TableSpec {
  const reads = model ? new Set(model.feature_names) : undefined;
  return withNamedColumns(
    {
      maxRows: MAX_FORECAST_ROWS,
      // A history sent straight to storage may be larger than a request (a year of 10-minute rows).
      maxBytes: { bytes: MAX_FORECAST_UPLOAD_BYTES, text: MAX_FORECAST_UPLOAD_TEXT },
      columns: uploadColumns("regres_methane").map((column) => {
        const spec = columnSpec(column);
        return reads && spec.required && (FORECAST_FEATURES as readonly string[]).includes(spec.name) && !reads.has(spec.name)
          ? { ...spec, required: false }
          : spec;
      }),
    },
    features,
  );
}

/** A history's upload read by the general reader: its rows, numbered. */
export const forecastReader = (features: readonly string[] = [], model?: ModelColumns): UploadReader<ForecastKeptRow[]> => ({
  spec: forecastSpec(features, model),
  rows: (table, refused) => forecastRowsFromTable(table, refused, features),
});

/** A history's rows: a plain CSV read in one pass into columns (forecast-file.ts), any other file by
 *  the general reader; the same rows and the same errors either way. The columns' reader knows x1 …
 *  x15 alone: a model's named features are read by the general one. `model`: the columns demanded are
 *  those it reads (forecastSpec). */
export async function forecastRowsFromFile(
  file: UploadedFile,
  features: readonly string[] = [],
  model?: ModelColumns,
): Promise<ForecastKeptRow[]> {
  const reader = forecastReader(features, model);
  const read = features.length === 0 ? readForecastCsv(file, reader.spec) : undefined;
  if (read) return numberRows(columnRows(read.columns));
  return readUpload(file, reader);
}

/** With `refused`, a row's error is handed to it and the row left out (the preview, files/tabular.ts). */
export function forecastRowsFromTable(table: ParsedTable, refused?: RowRefusals, features: readonly string[] = []): ForecastKeptRow[] {
  return numberRows(
    checkEach(
      table.rows,
      (r) => {
        const where: RefuseAt = (field, message) =>
          new CellInvalid({ sheet: table.sheet, row: r.row, header: headerOf(table, field) }, message);
        return {
          id: r.values.id ?? undefined,
          ...checkedFeatures(r.values, where),
          ...history(r.values.y, r.values[FORECAST_PRESSURE.name], r.values.t, where),
          ...(features.length > 0 ? { features: namedValues(r.values, features, where) } : {}),
        };
      },
      refused,
    ),
  );
}

/** What a forecast is computed with: the model version, the calibration serving the company
 *  (none: no interval), and the forecast's own level, limit and warning level. Plain data, so a
 *  worker thread gets it as it is. */
export const DEFAULT_FORECAST_SETTINGS: ForecastSettings = {
  level: DEFAULT_INTERVAL_LEVEL,
  limit: METHANE_LIMIT_PERCENT,
  warning: DEFAULT_WARNING_PERCENT,
  horizon: 0,
};

/** The forecast's level, limit and warning as sent (absent: the defaults 90 %, 1,0 %, 0,8 %), checked. */
export function forecastSettings(values: Record<string, unknown>): ForecastSettings {
  const number = (name: string, fallback: number) => {
    const value = values[name];
    if (value === undefined || value === null || value === "") return fallback;
    if (typeof value !== "number" || !Number.isFinite(value)) throw invalidAt(name, "ожидается число");
    return value;
  };
  const level = number("level", DEFAULT_INTERVAL_LEVEL);
  if (!isIntervalLevel(level)) throw invalidAt("level", `уровень интервала ${INTERVAL_LEVELS.join(", ")} %`);
  const limit = number("limit", METHANE_LIMIT_PERCENT);
  if (!(limit > 0 && limit <= 100)) throw invalidAt("limit", "предел концентрации больше 0 и не больше 100 %");
  const warning = number("warning", DEFAULT_WARNING_PERCENT);
  if (!(warning > 0 && warning <= limit)) throw invalidAt("warning", "уровень предупреждения больше 0 и не больше предела");
  const horizon = number("horizon", 0);
  if (!isHorizon(horizon)) {
    throw invalidAt(
      "horizon",
      `горизонт прогноза ${HORIZONS.map((h) => (h === 0 ? "0" : horizonLabel(h))).join(", ")} (в минутах: ${HORIZONS.join(", ")})`,
    );
  }
  return { level, limit, warning, horizon };
}

/** The model version a forecast names (`model_id`), if any. */
export function forecastModelId(values: Record<string, unknown>): string | undefined {
  const value = values.model_id;
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || value.length > LIMITS.id) throw invalidAt("model_id", "ожидается идентификатор версии модели");
  return value;
}

export async function forecastRun(
  deps: Pick<Deps, "repos" | "runtime">,
  company: string,
  method: ForecastMethod,
  settings: ForecastSettings,
  modelId?: string,
): Promise<ForecastRun> {
  const version = await forecastModelFor(deps, method, company, settings.horizon, modelId);
  return { version, calibration: (await calibrationFor(deps, company, version)) ?? null, settings };
}

/** `decided`: what the forecast shows where a longer back-test decided it (D96 d: the tile's day is too short for the
 *  day-block test, so it shows what its working's 7-day back-test decided); absent, its own rows decide. */
export async function runForecast(
  deps: Pick<Deps, "blobs" | "modelScoring">,
  run: ForecastRun,
  rows: ForecastKeptRow[],
  decided?: ShownForecast,
) {
  return finishForecast(run, await predictRows(deps, run.version, rows, runWeighting(run)), decided);
}

/**
 * How a model ahead turns its change into the forecast: a fixed weight (D96 a: the one its calibration fitted,
 * the same for every request), the weight refitted on the request's own rows (`online`: a calibration stored
 * before the weight was kept, or none), or the change itself (`changes`: what the calibration fits it on).
 */
export type Weighting = number | "online" | "changes";

/** The weighting a forecast runs with: its calibration's weight where it keeps one. */
export const runWeighting = (run: Pick<ForecastRun, "calibration">): Weighting =>
  typeof run.calibration?.change_weight === "number" ? run.calibration.change_weight : "online";

export async function predictRows(
  deps: Pick<Deps, "blobs" | "modelScoring">,
  version: ForecastModelVersion,
  rows: ForecastKeptRow[],
  weighting: Weighting = "online",
): Promise<ForecastKeptRow[]> {
  // x1 … x15, then the model's named features (a row without one is refused, naming it).
  const named = version.features ?? [];
  const width = FORECAST_FEATURES.length + named.length;
  const matrix = new Float64Array(rows.length * width);
  rows.forEach((row, r) => {
    FORECAST_FEATURES.forEach((feature, c) => {
      matrix[r * width + c] = row[feature] ?? Number.NaN;
    });
    named.forEach((name, k) => {
      matrix[r * width + FORECAST_FEATURES.length + k] = namedCell(row, name);
    });
  });
  const measured = Float64Array.from(rows, (row) => (typeof row.y === "number" ? row.y : Number.NaN));
  const pressure = Float64Array.from(rows, (row) => (typeof row.p_atm === "number" ? row.p_atm : Number.NaN));
  const input = modelInput(version, matrix, measured, historyTimes(rows), pressure, weighting);
  const predictions = input.forecast(await modelScoring(deps).score(version, { op: "predict", args: [input.matrix, input.order] }));
  // A stored row computed before carries its old interval: the new one replaces it, or none.
  return rows.map(({ lo: _lo, hi: _hi, p_exceed: _p, model_result: _m, ...row }, i) => ({ ...row, result: predictions[i] }));
}

type Times = { time: Float64Array; timeKind: "datetime" | "step" } | undefined;

/**
 * What the model reads for each row and how its output becomes the forecast: the readings alone for
 * the nowcast; for a model `horizon` minutes ahead, the readings and the lags of the measured y
 * (wasm-core/src/gbdt/horizon.ts), the model's change added to y(t) (none where y(t) is missing).
 */
function modelInput(
  version: ForecastModelVersion,
  readings: Float64Array,
  measured: Float64Array,
  times: Times,
  pressure: Float64Array,
  weighting: Weighting = "online",
) {
  const horizon = version.horizon ?? 0;
  // The readings' columns: x1 … x15 and the model's named features, as predictRows lays them.
  const columns = [...FORECAST_FEATURES, ...(version.features ?? [])];
  // A company's own model, trained on its mine, keeps its change until the history shows it too
  // large; a platform model, another mine's, starts from the last reading (fromPersistence).
  const own = version.company !== undefined;
  if (horizon === 0) return { matrix: readings, order: columns, forecast: (p: Float64Array) => p };
  const ms = times ? timesInMs(times.time, times.timeKind) : undefined;
  const step = ms ? historyStep(ms) : undefined;
  const refusal = horizonRefusal(horizon, step);
  if (refusal || !ms || !step) throw invalidAt("horizon", refusal ?? horizonRefusal(horizon, undefined) ?? "");
  // the lags are a step apart — a model trained on rows of another step would read them wrongly.
  const trained = version.training?.step;
  if (trained !== undefined && trained * MINUTE_MS !== step) throw invalidAt("t", stepMismatch(trained, step / MINUTE_MS));
  return {
    // The pressure's columns are always there (NaN without a pressure): a model that does not read them ignores them.
    matrix: withLags(readings, columns.length, lagColumns(measured, ms, step), pressureColumns(pressure, ms)),
    order: [...columns, ...LAG_FEATURES, ...PRESSURE_FEATURES],
    forecast: (p: Float64Array) =>
      weighting === "changes"
        ? p
        : typeof weighting === "number"
          ? withWeight(p, measured, weighting)
          : fromPersistence(p, measured, ms, horizon * MINUTE_MS, step, own ? 1 : 0).forecast,
  };
}

/** «модель обучена на строках с шагом 1 мин, а строки идут с шагом 10 мин: …». */
export const stepMismatch = (trained: number, given: number) =>
  `модель обучена на строках с шагом ${trained} мин, а строки идут с шагом ${given} мин: ее лаги прочитались бы неверно — ` +
  `подайте строки с шагом ${trained} мин или обучите модель на строках с шагом ${given} мин`;

/** What each row's forecast is scored against: its own y for the nowcast, y(t + h) ahead. */
export function forecastTargets(horizon: number, measured: Float64Array, times: Times): Float64Array {
  if (horizon === 0 || !times) return measured;
  return shifted(measured, timesInMs(times.time, times.timeKind), horizon * 60_000);
}

/** The rows' times for the back-test; a column mixing date-times and step numbers is refused. */
export function historyTimes(rows: readonly ForecastKeptRow[]) {
  const times = rows.map((r) => r.t ?? null);
  if (!times.some((t) => t !== null)) return undefined;
  const read = rowTimes(times);
  if (!read) throw invalidAt("t", "время должно быть везде датой и временем или везде номером шага");
  return read;
}

/**
 * The rows' intervals where the model is calibrated: the calibration's, each from the bin of the
 * forecast's level, updated on the history's own facts as they come in time order (a row's interval
 * uses only the facts measured before it was issued: wasm-core/src/gbdt/conformal.ts); and the
 * calibration's as stored, whose coverage on the same rows says whether it is stale.
 */
function forecastIntervals(
  run: ForecastRun,
  results: Float64Array,
  measured: Float64Array,
  times: Times,
  which: ShownForecast = "model",
  model: Float64Array = results,
) {
  const { settings } = run;
  const calibration = shownCalibration(run.calibration, which);
  if (!calibration) return undefined;
  const horizon = run.version.horizon ?? 0;
  const stored = intervalColumns(results, calibration, settings.level, settings.limit);
  const targets = forecastTargets(horizon, measured, times);
  // D96 (a): the band starts from the scales fitted on the calibration's rows (a calibration stored before them:
  // its bins as they are) and is updated on the facts of the day before each row alone: one band for one row,
  // whatever rows come with it (the tile's day, a week).
  const fitted = calibration.scales?.limit === settings.limit ? calibration.scales : unitScales(calibration, settings.limit);
  if (!times || !targets.some(Number.isFinite)) {
    const shown = withEventChance(fittedIntervalColumns(results, calibration, settings.level, settings.limit, fitted), model, run);
    const method: IntervalMethod = calibration.scales ? "calibrated" : calibration.bins?.length ? "level" : "split";
    return { shown, stored: undefined, method };
  }
  const time = timesInMs(times.time, times.timeKind);
  const shown = withEventChance(
    windowedIntervalColumns(results, calibration, settings.level, settings.limit, { targets, time, ahead: horizon * 60_000 }, fitted),
    model,
    run,
  );
  return { shown, stored, method: "daily" as IntervalMethod };
}

/** D108 (d): the calibration of what is shown — a baseline's own band where the version keeps one (its residuals, bins
 *  and scales in the model's place), else the model's (a calibration stored before). */
function shownCalibration(calibration: ForecastCalibration | null, shown: ShownForecast): ForecastCalibration | null {
  if (!calibration || shown === "model") return calibration;
  const band = calibration.baselines?.[shown];
  if (!band) return calibration;
  const { rows, quantiles, residuals, bins, level_floor, scales } = band;
  return { ...calibration, rows, quantiles, residuals, bins, level_floor, scales };
}

/** D108 (a): the chance shown is of the calibration's event (any minute at or above the limit within the horizon),
 *  fitted once on its rows: the same for a row on every request. A calibration stored before keeps its chance of the
 *  value at the target minute (judged, all the same, against the window's maximum). The event's residuals are the
 *  window maxima about the model's own forecasts, so the chance reads the model's forecast (`model`) even where a
 *  baseline is shown in its place (D108 e): read off a baseline's figure it is the chance of another forecast. */
function withEventChance<T extends { pExceed: Float64Array }>(columns: T, model: Float64Array, run: ForecastRun): T {
  const event = run.calibration?.event;
  if (!event) return columns;
  return { ...columns, pExceed: eventChances(model, { ...event, ranges: {} }, run.settings.limit) };
}

/** The back-test of a forecast's rows that carry the measured y, with its intervals. */
function forecastBacktest(
  run: ForecastRun,
  measured: ArrayLike<number | null>,
  results: Float64Array,
  intervals: ReturnType<typeof forecastIntervals>,
  times: Times,
): Backtest {
  return backtest({
    measured,
    predicted: results,
    lo: intervals?.shown.lo,
    hi: intervals?.shown.hi,
    intervalMethod: intervals?.method,
    level: run.settings.level,
    storedLo: intervals?.stored?.lo,
    storedHi: intervals?.stored?.hi,
    pExceed: intervals?.shown.pExceed,
    baseRate: calibrationBaseRate(run.calibration, run.settings.limit),
    time: times?.time,
    timeKind: times?.timeKind,
    limit: run.settings.limit,
    warning: run.settings.warning,
    horizon: run.version.horizon ?? 0,
    trainingMean: run.version.training?.y_mean,
    timeOfDay: run.calibration?.time_of_day,
    seenUntil: seenUntil(run, times),
  });
}

/** D96 (b): the rows of a forecast's history inside the model's own period (training, calibration) judge nothing:
 *  the period's end in the rows' time units, undefined where the rows or the model have no such time. */
function seenUntil(run: ForecastRun, times: Times): number | undefined {
  return (times && modelPeriodEnd(run, times.timeKind)) ?? undefined;
}

/** The calibration's share of rows at or above `limit`, where it kept one at that limit. */
const calibrationBaseRate = (calibration: ForecastCalibration | null, limit: number) =>
  calibration?.probability?.limit === limit ? calibration.probability.base_rate : undefined;

/** a chance is shown only where judged better than the base rate; «too early» (too few
 *  rows or facts at the limit) and «not better» both keep it off the screen, each with its reason. */
export type ChanceJudgement = "better" | "not_better" | "too_early";

/**
 * Whether a forecast's chance of reaching the limit is shown as a risk:
 * judged on the history's own facts where its back-test has enough rows, else by the calibration's check at
 * the same limit; where neither judges, too early — not shown. `reliable` is true only for «better»; `note`
 * says why it is not shown.
 */
export function judgedProbability(
  history: ProbabilityCheck | null | undefined,
  calibration: ForecastCalibration | null | undefined,
  limit: number,
) {
  const stored = calibration?.probability?.limit === limit ? calibration.probability : undefined;
  const judged =
    history && history.reliable !== null
      ? { ...history, judged_on: "history" as const }
      : stored && stored.reliable !== null
        ? { ...stored, judged_on: "calibration" as const }
        : null;
  if (judged) {
    const better = judged.reliable === true;
    return {
      ...judged,
      reliable: better,
      judgement: (better ? "better" : "not_better") as ChanceJudgement,
      note: better ? null : unreliableNote(judged),
    };
  }
  // Too early: the figures of the check that came closest (the history's, else the calibration's), not shown.
  const early = history ?? stored ?? null;
  return {
    ...(early ?? {}),
    judged_on: early ? (history ? ("history" as const) : ("calibration" as const)) : null,
    reliable: false,
    judgement: "too_early" as ChanceJudgement,
    note: tooEarlyNote(early),
  };
}

/**
 * What the forecast shows: the best of the model, persistence — the last
 * reading, which an engineer has for free — and the training period's mean on the history's own back-test
 * (the smallest RMSE on the same rows), with the model's figures kept to show beside another's. `trial` is
 * that back-test, without intervals; null when no row carries a fact to score.
 */
export function shownForecast(run: ForecastRun, model: Float64Array, measured: Float64Array, times: Times, decided?: ShownForecast) {
  const horizon = run.version.horizon ?? 0;
  if (!measured.some(Number.isFinite)) return { results: model, model: undefined, trial: null, shown: "model" as ShownForecast };
  const trainingMean = run.version.training?.y_mean;
  const trial = backtest({
    measured,
    predicted: model,
    time: times?.time,
    timeKind: times?.timeKind,
    limit: run.settings.limit,
    warning: run.settings.warning,
    horizon,
    trainingMean,
    timeOfDay: run.calibration?.time_of_day,
    seenUntil: seenUntil(run, times),
  });
  const shown = decided ?? bestForecast(trial);
  if (shown === "model") return { results: model, model: undefined, trial, shown };
  // The mean is the forecast of the rows the model forecasts (ahead, those with the reading at t).
  const tod = run.calibration?.time_of_day;
  const results =
    shown === "persistence"
      ? persistenceForecast(measured, times?.time, horizon)
      : shown === "time_of_day" && times && tod
        ? // D108 (e): the version's mean at the hour of the time forecast.
          timeOfDayForecast(tod, timesInMs(times.time, times.timeKind), horizon * MINUTE_MS).map((v, k) =>
            Number.isFinite(model[k]) ? v : Number.NaN,
          )
        : model.map((v) => (Number.isFinite(v) ? (trainingMean as number) : Number.NaN));
  return { results, model, trial, shown: shown as Exclude<ShownForecast, "model"> };
}

/** The back-test of the forecast shown: the shown one's scores with the intervals shown in its place, beside
 *  the model's own from the trial, and the sentence saying which is shown. */
function shownBacktest(check: Backtest | null, shown: ReturnType<typeof shownForecast>): Backtest | null {
  if (!check || !shown.model || !shown.trial) return check && { ...check, shown: "model" };
  const which = shown.shown;
  return {
    ...check,
    model: shown.trial.model,
    persistence: which === "persistence" ? check.model : shown.trial.persistence,
    mean: which === "mean" ? check.model : shown.trial.mean,
    time_of_day: which === "time_of_day" ? check.model : shown.trial.time_of_day,
    // The model's own rule beside the current reading's (the rule of what is shown is the current reading's).
    events: check.events && shown.trial.events ? { ...check.events, model: shown.trial.events.model } : check.events,
    verdict: `${shown.trial.verdict}. ${SHOWN_INSTEAD[which]}`,
    // D108, item f: the model's test against the best baseline, not the shown baseline's against itself
    // («+0,0000…+0,0000 %»).
    model_gain: shown.trial.model_gain,
    gain_note: shown.trial.gain_note,
    lead_note: shown.trial.lead_note,
    shown: which,
  };
}

/** Predicted rows completed: each with its interval and chance of reaching the limit where the
 *  model is calibrated, and the back-test where rows carry the measured y. */
export function finishForecast(run: ForecastRun, predicted: ForecastKeptRow[], decided?: ShownForecast) {
  const measuredY = Float64Array.from(predicted, (r) => (typeof r.y === "number" ? r.y : Number.NaN));
  const times = historyTimes(predicted);
  const shown = shownForecast(
    run,
    Float64Array.from(predicted, (r) => r.result ?? Number.NaN),
    measuredY,
    times,
    decided,
  );
  const results = shown.results;
  const intervals = forecastIntervals(run, results, measuredY, times, shown.shown, shown.model ?? results);
  const nullable = (v: number) => (Number.isFinite(v) ? v : null);
  let rows = shown.model
    ? predicted.map((row, i) => ({ ...row, result: results[i], model_result: nullable(row.result ?? Number.NaN) }))
    : predicted.map(({ model_result: _m, ...row }) => row);
  if (intervals) {
    const columns = intervals.shown;
    rows = rows.map((row, i) => ({
      ...row,
      lo: nullable(columns.lo[i]),
      hi: nullable(columns.hi[i]),
      p_exceed: nullable(columns.pExceed[i]),
    }));
  }
  const measured = predicted.some((r) => typeof r.y === "number");
  const check = measured
    ? shownBacktest(
        forecastBacktest(
          run,
          predicted.map((r) => r.y ?? null),
          results,
          intervals,
          times,
        ),
        shown,
      )
    : null;
  return { version: run.version, rows, backtest: check, summary: forecastSummary(rows, run, check, intervals?.method) };
}

/** An uploaded history file read, predicted and written as the stored JSON: the CPU work of a
 *  forecast upload (about a second for 100 000 rows), which the local host runs in a worker thread
 *  (local/spreadsheet-threads.ts) so other users' requests keep their latency. */
export async function forecastFromFile(deps: Pick<Deps, "blobs">, file: UploadedFile, run: ForecastRun): Promise<ForecastFileResult> {
  const named = run.version.features ?? [];
  const read = named.length === 0 ? readForecastCsv(file, forecastSpec([], run.version)) : undefined;
  if (read) return forecastFromColumns(deps, read.columns, run);
  const rows = await forecastRowsFromFile(file, named, run.version);
  const done = finishForecast(run, await predictRows(deps, run.version, rows, runWeighting(run)));
  return { summary: done.summary, json: new TextEncoder().encode(JSON.stringify(done.rows)) };
}

/** The ids numberRows gives rows with these `id` cells (NaN: none): a positive whole id not seen
 *  before is kept, the others numbered on from the largest kept. */
function columnIds(cells: Float64Array): Float64Array {
  const ids = new Float64Array(cells.length);
  const used = new Set<number>();
  let largest = 0;
  for (let r = 0; r < cells.length; r++) {
    const id = cells[r];
    if (Number.isInteger(id) && id > 0 && !used.has(id)) {
      used.add(id);
      ids[r] = id;
      if (id > largest) largest = id;
    } else ids[r] = Number.NaN;
  }
  let next = largest + 1;
  for (let r = 0; r < ids.length; r++) if (Number.isNaN(ids[r])) ids[r] = next++;
  return ids;
}

/** finishForecast of the predicted rows, and their JSON as stored, from a history's columns
 *  (forecast-file.ts): the same summary and the same JSON text as forecastFromFile's rows, without
 *  an object per row. */
export async function forecastFromColumns(
  deps: Pick<Deps, "blobs"> & Partial<Pick<Deps, "runtime">>,
  columns: ForecastColumns,
  run: ForecastRun,
): Promise<ForecastFileResult> {
  // The columns hold x1 … x15 alone: a model that reads named features forecasts from rows.
  if (run.version.features?.length) throw new Error("forecastFromColumns: the model reads named features the columns lack");
  const model = await runnableModel(deps, run.version, deps.runtime?.kept(parsedModels));
  const n = columns.count;
  let kind = 0;
  let measured = false;
  for (let r = 0; r < n; r++) {
    const k = columns.timeKind[r];
    if (k !== 0) {
      if (kind === 0) kind = k;
      else if (k !== kind) throw invalidAt("t", "время должно быть везде датой и временем или везде номером шага");
    }
    if (!Number.isNaN(columns.y[r])) measured = true;
  }
  const times: Times = kind === 0 ? undefined : { time: columns.time, timeKind: kind === 1 ? "datetime" : "step" };
  const input = modelInput(run.version, columns.features, columns.y, times, columns.pressure, runWeighting(run));
  const shown = shownForecast(run, input.forecast(predict(model, input.matrix, input.order)), columns.y, times);
  const results = shown.results;
  const intervalSet = forecastIntervals(run, results, columns.y, times, shown.shown, shown.model ?? results);
  const intervals = intervalSet?.shown;
  const check = measured ? shownBacktest(forecastBacktest(run, columns.y, results, intervalSet, times), shown) : null;
  const ids = columnIds(columns.id);
  const features = FORECAST_FEATURES.length;
  const nullable = (v: number) => (Number.isFinite(v) ? v : null);
  // One object per row in its final shape, written by JSON.stringify: faster than writing the
  // numbers as text here (docs/performance.md).
  const rows = new Array<Record<string, unknown>>(n);
  for (let r = 0; r < n; r++) {
    const row: Record<string, unknown> = { id: ids[r] };
    const base = r * features;
    for (let f = 0; f < features; f++) row[FORECAST_FEATURES[f]] = nullable(columns.features[base + f]);
    if (!Number.isNaN(columns.y[r])) row.y = columns.y[r];
    if (!Number.isNaN(columns.pressure[r])) row.p_atm = columns.pressure[r];
    const k = columns.timeKind[r];
    if (k === 1) row.t = new Date(columns.time[r]).toISOString().slice(0, 19);
    else if (k === 2) row.t = columns.time[r];
    row.result = nullable(results[r]);
    if (shown.model) row.model_result = nullable(shown.model[r]);
    if (intervals) {
      row.lo = nullable(intervals.lo[r]);
      row.hi = nullable(intervals.hi[r]);
      row.p_exceed = nullable(intervals.pExceed[r]);
    }
    rows[r] = row;
  }
  return { summary: summaryOf(results, run, check, intervalSet?.method), json: new TextEncoder().encode(JSON.stringify(rows)) };
}

export function forecastSummary(rows: ForecastKeptRow[], run: ForecastRun, check: Backtest | null = null, method?: IntervalMethod) {
  return summaryOf(
    rows.map((row) => row.result ?? Number.NaN),
    run,
    check,
    method,
  );
}

function summaryOf(results: ArrayLike<number>, run: ForecastRun, check: Backtest | null, method?: IntervalMethod) {
  const { version, settings } = run;
  let above = 0;
  let max = -Infinity;
  let sum = 0;
  let forecast = 0;
  for (let i = 0; i < results.length; i++) {
    const value = results[i];
    // A row ahead without y(t) has no forecast.
    if (!Number.isFinite(value)) continue;
    forecast += 1;
    if (value > settings.limit) above += 1;
    if (value > max) max = value;
    sum += value;
  }
  return {
    rows: results.length,
    above_limit: above,
    max_result: forecast ? max : null,
    mean_result: forecast ? sum / forecast : null,
    horizon: version.horizon ?? 0,
    horizon_label: horizonLabel(version.horizon ?? 0),
    level: settings.level,
    limit: settings.limit,
    warning: settings.warning,
    calibration: calibrationSummary(run.calibration ?? undefined),
    // How the rows' intervals were made (null: no calibration, no interval).
    interval_method: method ?? null,
    interval_method_label: method ? INTERVAL_METHOD_LABEL[method] : null,
    // Checked on the history's latest rows with a fact: a calibration that no longer holds is said so.
    calibration_stale: check !== null && run.calibration !== null && calibrationStale(check, settings.level),
    // The chance of reaching the limit against the base rate: not shown as a risk where no better.
    probability: run.calibration ? judgedProbability(check?.probability, run.calibration, settings.limit) : null,
    backtest: check,
    model: {
      method: version.method,
      id: version.id,
      version: version.version,
      library: version.library,
      library_version: version.library_version,
      objective: version.objective,
      horizon: version.horizon ?? 0,
      description: version.description,
      // the model's own named channels, by their names (what the rows carry under `features`).
      ...(version.features && version.features.length > 0 ? { features: [...version.features] } : {}),
    },
  };
}
