// A company trains its own methane forecast model (docs/api.md, «Forecast models»): a history of
// the forecast's data columns (Russian headers, as every upload) with the measured concentration y
// and optionally the time t, trained by the core (wasm-core/src/gbdt/train.ts) into an XGBoost
// model stored as a new version of the company's own, with the training's summary. The CPU work
// (reading the file and training) is a job where the host runs training jobs (AWS: the job
// function; the local host: a worker thread), as the heavy exports are (domain/export-jobs.ts), and
// the client follows its state; elsewhere it runs inside the call.
import {
  HORIZONS,
  MAX_TRAINING_ROWS,
  historyStep,
  horizonLabel,
  horizonTrainingData,
  isHorizon,
  timesInMs,
  trainModel,
  trainParams,
  TrainingCancelled,
  TrainingInputError,
  type TrainingData,
  type RoundInfo,
  type TrainParams,
  type TrainResult,
} from "@core/gbdt";
import { createHash } from "node:crypto";
import { timeValue } from "@core/gbdt/train-csv";
import { FORECAST_PRESSURE, REGISTRY, headerKey, type ForecastFeature, type NumberField } from "@core/registry";
import { parseTable, type ColumnSpec, type TableSpec, type UploadedFile } from "../../files/tabular";
import { namedFeatures, namedValue, withNamedColumns } from "./named-features";
import type { Actor, Deps, TrainedModelFile } from "../context";
import { CellInvalid, Invalid, invalidAt, TooLarge } from "../errors";
import { heavyWork, ru, type HeavySlot } from "../heavy-work";
import { exportJob } from "../export-jobs";
import type { ExportJobState, TrainJobRequest } from "../../export/formats";
import { calibrateOnRows, MIN_CALIBRATION_ROWS } from "./calibrating";
import type { ForecastKeptRow } from "./rows";
import { checkValue, forecastSpec, type RefuseAt } from "./forecast";
import { fileSize } from "../../contract/schemas/uploads";
import { FORECAST_FEATURES, MAX_MODEL_BYTES, checkCompanyModelRoom, storeModelVersion } from "./models";
import type { ForecastModelVersion, ForecastModelTraining } from "../../ports";
import { LIMITS } from "../../contract/schemas/limits";

export { MAX_TRAINING_ROWS };

/** The measured concentration the model learns, and the rows' time (validation takes the latest rows). */
export const TARGET_LABEL = "Концентрация CH4 в исходящей струе лавы, факт";
const TARGET_COLUMN: ColumnSpec = {
  name: "y",
  label: `${TARGET_LABEL}, %`,
  required: true,
  kind: "number",
  headers: ["y", TARGET_LABEL, `${TARGET_LABEL}, %`, "Факт", "Концентрация метана, факт", "CH4 факт"].map(headerKey),
  unit: "%",
};
const TIME_COLUMN: ColumnSpec = {
  name: "t",
  label: "Время",
  required: false,
  kind: "text",
  headers: ["t", "Время", "Дата и время", "Дата", "Шаг"].map(headerKey),
};

/** The file's columns: every data column of the forecast (each optional here), y and t; the named
 *  features' after them, each required. */
export function trainingSpec(features: readonly string[] = []): TableSpec {
  const forecast = forecastSpec();
  return withNamedColumns(
    {
      maxRows: MAX_TRAINING_ROWS,
      // A history sent straight to storage, as a forecast's may be (a year of 10-minute readings).
      maxBytes: forecast.maxBytes,
      uniqueHeaders: true,
      columns: [...forecast.columns.map((c) => ({ ...c, required: false })), TARGET_COLUMN, TIME_COLUMN],
    },
    features,
  );
}

const FORECAST_DATA_COLUMNS = (REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[];
const LABELS = new Map<string, string>(FORECAST_DATA_COLUMNS.map((c) => [c.name, c.label]));
export const featureLabel = (feature: string) => LABELS.get(feature) ?? feature;

/** What a model is trained on: the file's rows, with the features it has and the summary the version keeps. */
export interface TrainingTable {
  data: TrainingData;
  /** The file's own header of each column used. */
  headers: Record<string, string>;
  /** The barometric pressure, кПа, per row (NaN: none), where the file has the column. */
  pressure?: Float64Array;
  /** The named features: the last of data.featureNames. */
  named: readonly string[];
}

export async function trainingTableFromFile(file: UploadedFile, named: readonly string[] = []): Promise<TrainingTable> {
  const table = await parseTable(file, trainingSpec(named));
  // The x columns the file has, then its own named ones (the model keeps them by these names).
  const features = [...FORECAST_FEATURES.filter((f) => table.headers[f] !== undefined), ...named];
  if (features.length === 0) {
    throw invalidAt("file", `в файле нет ни одного столбца данных прогноза (${FORECAST_DATA_COLUMNS.map((c) => c.label).join("; ")})`);
  }
  const rows = new Float64Array(table.rows.length * features.length);
  const y = new Float64Array(table.rows.length);
  const hasTime = table.headers.t !== undefined;
  const t = hasTime ? new Float64Array(table.rows.length) : null;
  const pressure = table.headers[FORECAST_PRESSURE.name] !== undefined ? new Float64Array(table.rows.length) : undefined;
  table.rows.forEach((row, r) => {
    const where: RefuseAt = (column, message) =>
      new CellInvalid({ sheet: table.sheet, row: row.row, header: table.headers[column] ?? column }, message);
    features.forEach((feature, f) => {
      // The same bounds as a forecast's rows: never negative, a concentration at most 100 %; a named
      // feature any number.
      const value =
        f < features.length - named.length
          ? checkValue(row.values[feature], where, feature as ForecastFeature)
          : namedValue(row.values[feature], (message) => where(feature, message));
      rows[r * features.length + f] = value ?? Number.NaN;
    });
    // A row without the measured y is left out of the targets (and counted), as calibration leaves it.
    const target = row.values.y;
    y[r] = typeof target === "number" ? target : Number.NaN;
    if (pressure) {
      const value = row.values[FORECAST_PRESSURE.name];
      if (typeof value === "number" && (value < 0 || value > FORECAST_PRESSURE.max)) {
        throw where(FORECAST_PRESSURE.name, `давление от 0 до ${FORECAST_PRESSURE.max} кПа`);
      }
      pressure[r] = typeof value === "number" ? value : Number.NaN;
    }
    if (t) {
      const cell = row.values.t;
      const value = typeof cell === "number" ? cell : timeValue(String(cell ?? ""));
      if (!Number.isFinite(value)) throw where("t", "нужна дата и время («01.01.2025 10:20») или номер шага");
      t[r] = value;
    }
  });
  // A column with a header and no value (x7 trained without a word): the trees would learn
  // nothing from it while the model's file lists it, so it is refused by its header.
  const empty = features.filter((_, f) => {
    for (let r = 0; r < table.rows.length; r++) if (!Number.isNaN(rows[r * features.length + f])) return false;
    return true;
  });
  if (empty.length > 0 && table.rows.length > 0) {
    throw invalidAt(
      "file",
      `${empty.length === 1 ? "столбец" : "столбцы"} ${empty.map((f) => `«${table.headers[f]}»`).join(", ")} без единого значения: заполните ${empty.length === 1 ? "его" : "их"} или удалите из файла`,
    );
  }
  return { data: { featureNames: features, rows, y, t }, headers: table.headers, named, ...(pressure ? { pressure } : {}) };
}

/** The summary a trained version keeps: rows, period, ranges of the data; errors and importance. */
export function trainingSummary(
  table: TrainingTable,
  result: TrainResult,
  timeIsDate: boolean,
  horizon: number,
  skipped: number,
): ForecastModelTraining {
  const { data } = table;
  const width = data.featureNames.length;
  const ranges = data.featureNames.map((feature, f) => {
    let min = Infinity;
    let max = -Infinity;
    let missing = 0;
    for (let r = 0; r < data.y.length; r++) {
      const v = data.rows[r * width + f];
      if (Number.isNaN(v)) missing += 1;
      else {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    return {
      feature,
      label: featureLabel(feature),
      min: missing === data.y.length ? null : min,
      max: missing === data.y.length ? null : max,
      missing,
    };
  });
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let measured = 0;
  for (const v of data.y) {
    if (Number.isNaN(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
    measured += 1;
  }
  // The measured y's mean over the file's rows (the target is the change ahead): the back-test's
  // «mean» baseline, the level known when the model was trained.
  let ySum = 0;
  let yCount = 0;
  for (const v of table.data.y) {
    if (Number.isNaN(v)) continue;
    ySum += v;
    yCount += 1;
  }
  let period: ForecastModelTraining["period"] = null;
  if (data.t) {
    // A loop, not Math.min(...t): 200 000 arguments overflow the stack.
    const from = data.t.reduce((a, b) => Math.min(a, b), Infinity);
    const to = data.t.reduce((a, b) => Math.max(a, b), -Infinity);
    period = timeIsDate ? { from: new Date(from).toISOString(), to: new Date(to).toISOString() } : { from, to };
  }
  // At most 300 points of the curve: every round up to 300, else evenly spaced ones and the last.
  const step = Math.max(1, Math.ceil(result.rounds.length / 300));
  const rounds = result.rounds.filter((_, i) => i % step === 0 || i === result.rounds.length - 1);
  return {
    rows: data.y.length,
    train_rows: result.train_rows,
    valid_rows: result.validation_rows.length,
    // of the held-out rows, those that chose the number of trees and those calibrated on.
    stopping_rows: result.stopping_rows.length,
    calibration_rows: result.calibration_rows.length,
    validation: data.t ? "time" : "random",
    period,
    ranges,
    target: { min, max, mean: sum / measured },
    ...(yCount > 0 ? { y_mean: ySum / yCount } : {}),
    horizon,
    skipped_rows: skipped,
    params: storedParams(result.params),
    rounds: rounds.map((r) => ({ round: r.round, train_rmse: r.train_rmse, valid_rmse: r.valid_rmse })),
    rounds_trained: result.rounds.length,
    num_trees: result.num_trees,
    train_rmse: result.train_rmse,
    valid_rmse: result.valid_rmse,
    importance: result.importance.map((i) => ({
      feature: i.feature,
      label: featureLabel(i.feature),
      share: i.share,
      gain: i.gain,
      splits: i.splits,
    })),
    seconds: result.seconds,
  };
}

/** the step of the rows a model was trained on, whole minutes (the median gap of their times),
 *  kept as `training.step`: a model whose lags are a minute apart is not fed rows 10 minutes apart. */
export function trainingStep(timeMs: ArrayLike<number> | null): { step?: number } {
  const step = timeMs ? historyStep(timeMs) : undefined;
  return step === undefined ? {} : { step: Math.max(1, Math.round(step / 60_000)) };
}

/** The parameters as a model's training keeps them: numbers and names, the monotone constraints as their JSON text. */
function storedParams({ monotone_constraints, ...rest }: TrainParams): Record<string, string | number> {
  return monotone_constraints ? { ...rest, monotone_constraints: JSON.stringify(monotone_constraints) } : { ...rest };
}

const FEATURE_NULLS = Object.fromEntries(FORECAST_FEATURES.map((f) => [f, null])) as Record<ForecastFeature, null>;

export async function trainFromFile(
  file: UploadedFile,
  params: TrainParams,
  options: { onRound?: (info: RoundInfo) => void; signal?: AbortSignal; horizon?: number; features?: readonly string[] } = {},
): Promise<TrainedModelFile> {
  const table = await trainingTableFromFile(file, options.features);
  const horizon = options.horizon ?? 0;
  const timeIsDate = table.data.t?.some((v) => v > 1e11) ?? false;
  // The lags and the target ahead are found by time: step numbers are 10-minute steps.
  const timeMs = table.data.t ? (timeIsDate ? table.data.t : timesInMs(table.data.t, "step")) : null;
  let ahead: ReturnType<typeof horizonTrainingData>;
  try {
    ahead = horizonTrainingData({ ...table.data, t: timeMs }, horizon, table.pressure);
  } catch (error) {
    if (error instanceof RangeError) throw invalidAt("horizon", error.message);
    throw error;
  }
  let result: TrainResult;
  try {
    result = await trainModel(ahead.data, params, {
      attributes: { trained_by: "fugitive-emissions-platform", ...(horizon > 0 ? { horizon_minutes: String(horizon) } : {}) },
      onRound: options.onRound,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof TrainingInputError) throw invalidAt("file", trainingMessage(error.message, ahead.skipped, horizon));
    if (error instanceof TrainingCancelled) throw new TooLarge(TRAINING_TOO_LONG);
    throw error;
  }
  return {
    json: result.json,
    training: { ...trainingSummary(table, result, timeIsDate, horizon, ahead.skipped), ...trainingStep(timeMs) },
    validation: validationRows(table, ahead.data, result, timeIsDate, timeMs),
  };
}

/** The trainer's refusal, with the rows left out for want of a measured target said (a file of
 *  empty facts is refused for too few rows, and the user should know why). */
function trainingMessage(message: string, skipped: number, horizon: number): string {
  if (skipped === 0) return message;
  const why =
    horizon > 0 ? `без измеренной концентрации через ${horizonLabel(horizon)} или в момент прогноза` : "без измеренной концентрации (y)";
  return `${message} (пропущено строк ${why}: ${ru(skipped)})`;
}

/**
 * The history's rows the trees did not learn from and early stopping did not choose on, to
 * calibrate the version on: those rows themselves for the nowcast; ahead, the history's rows from the first one's time
 * on (the lags and the targets are read from those rows alone, so no training target is scored).
 */
function validationRows(
  table: TrainingTable,
  trained: TrainingData,
  result: TrainResult,
  timeIsDate: boolean,
  timeMs: Float64Array | null,
): ForecastKeptRow[] {
  const { data } = table;
  const width = data.featureNames.length;
  const rowOf = (r: number, k: number): ForecastKeptRow => {
    const row: ForecastKeptRow = { id: k + 1, ...FEATURE_NULLS };
    if (!Number.isNaN(data.y[r])) row.y = data.y[r];
    if (table.pressure && !Number.isNaN(table.pressure[r])) row.p_atm = table.pressure[r];
    const xs = width - table.named.length;
    data.featureNames.forEach((feature, f) => {
      const value = data.rows[r * width + f];
      if (f < xs) row[feature as ForecastFeature] = Number.isNaN(value) ? null : value;
      else (row.features ??= {})[feature] = Number.isNaN(value) ? null : value;
    });
    if (data.t) row.t = timeIsDate ? new Date(data.t[r]).toISOString() : data.t[r];
    return row;
  };
  if (trained.featureNames.length === width) {
    // The nowcast trains on the history's rows that carry y, in order: calibration_rows index those.
    const measured: number[] = [];
    for (let r = 0; r < data.y.length; r++) if (!Number.isNaN(data.y[r])) measured.push(r);
    return result.calibration_rows.map((k, j) => rowOf(measured[k], j));
  }
  if (!timeMs || !trained.t || result.calibration_rows.length === 0) return [];
  const from = result.calibration_rows.reduce((a, k) => Math.min(a, (trained.t as Float64Array)[k]), Infinity);
  const rows: ForecastKeptRow[] = [];
  for (let r = 0; r < data.y.length; r++) if (timeMs[r] >= from) rows.push(rowOf(r, rows.length));
  return rows;
}

/** The form's `features`: the history's own columns the model is to read beyond x1 … x15, checked. */
export const trainingFeatures = (raw: unknown): string[] => namedFeatures(raw, trainingSpec());

/** The form's `horizon` (minutes; absent: 0, the nowcast), checked. */
export function trainingHorizon(raw: unknown): number {
  if (raw === undefined || raw === "") return 0;
  const value = Number(String(raw).trim());
  if (!isHorizon(value)) throw invalidAt("horizon", `горизонт прогноза в минутах: ${HORIZONS.join(", ")}`);
  return value;
}

/** What a training is asked for besides the history. */
export interface TrainingRequest {
  params: TrainParams;
  horizon: number;
  /** The history's own columns beyond x1 … x15 the model reads, by their headers. */
  features: string[];
  description: string;
  activate: boolean;
}

/** Parameters from the form's `params` (a JSON object by XGBoost's names), checked: numbers as JSON
 *  numbers (the core also reads the command line's text, «1e3» or «0,05»; the API takes none). */
export function trainingParams(raw: unknown): TrainParams {
  let input: unknown = {};
  if (typeof raw === "string" && raw.trim() !== "") {
    try {
      input = JSON.parse(raw);
    } catch {
      throw invalidAt("params", "ожидается объект JSON с параметрами обучения");
    }
  }
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw invalidAt("params", "ожидается объект JSON с параметрами обучения");
  for (const [name, value] of Object.entries(input)) {
    if (name !== "objective" && name !== "monotone_constraints" && typeof value !== "number") {
      throw invalidAt(`params.${name}`, `ожидается число без кавычек, например {"n_estimators": 300}`);
    }
  }
  try {
    return trainParams(input as Record<string, unknown>);
  } catch (error) {
    if (error instanceof TrainingInputError) throw new Invalid(`params.${error.message}`);
    throw error;
  }
}

const TRAINING_TOO_LONG = "Обучение не уложилось в отведенное время: уменьшите число деревьев (n_estimators) или строк в файле истории";

/** Where a training job's history waits for the job (the exports bucket in AWS, expired by its
 *  lifecycle rule with the job's state if the job never ran; the job deletes it when it ends). */
export const trainingFileKey = (company: string, job: string) => `training/${company}/${job}`;

/** A trained model stored as the next version of the actor's company, with its training summary,
 *  and calibrated for the company on its validation rows. */
async function storeTrained(
  deps: TrainingDeps,
  actor: Actor,
  fileName: string,
  trained: TrainedModelFile,
  description: string,
  activate: boolean,
  features: readonly string[],
): Promise<ForecastModelVersion> {
  const name = `${fileName.replace(/\.[^.]*$/, "").slice(0, LIMITS.name.file) || "history"}.model.json`;
  const bytes = new TextEncoder().encode(trained.json);
  // The trees' node bound keeps a model well under it (wasm-core/src/gbdt/train.ts, MAX_MODEL_NODES).
  if (bytes.byteLength > MAX_MODEL_BYTES) {
    throw new Invalid(
      `Обученная модель заняла бы ${fileSize(bytes.byteLength)}, больше предела ${fileSize(MAX_MODEL_BYTES)}: уменьшите число деревьев (n_estimators) или их глубину (max_depth)`,
    );
  }
  const model = await storeModelVersion(deps, actor, "xgboost", {
    bytes,
    fileName: name,
    description: description.trim().slice(0, LIMITS.text.modelDescription) || `Обучена на ${ru(trained.training.rows)} строках`,
    activate,
    company: actor.company,
    training: trained.training,
    features,
  });
  // The validation rows, unseen by the trees, calibrate the model's intervals for the company.
  if (trained.validation.length >= MIN_CALIBRATION_ROWS) {
    await calibrateOnRows(deps, actor, model, trained.validation, "company", fileName);
  }
  return model;
}

/** What a training job reaches: the table and the blob store (no configuration, no other worker). */
export type TrainingDeps = Pick<Deps, "repos" | "blobs" | "clock">;

/**
 * Trains a model on the uploaded history and stores it as a new version of the actor's company
 * (used by the company's forecasts when `activate`), inside the call: the host runs no training
 * jobs. Nothing is stored when the file or the parameters are refused.
 */
export async function trainForecastModel(
  deps: Deps,
  actor: Actor,
  file: UploadedFile,
  request: TrainingRequest,
): Promise<ForecastModelVersion> {
  if (file.bytes.byteLength === 0) throw invalidAt("file", "файл пуст");
  checkActivation(request);
  await checkCompanyModelRoom(deps, actor.company);
  // Training is heavy work: it takes a slot of the user's and the company's budget.
  const trained = await heavyWork(deps, actor, () =>
    trainFromFile(file, request.params, { horizon: request.horizon, features: request.features }),
  );
  return storeTrained(deps, actor, file.name, trained, request.description, request.activate, request.features);
}

/** A model ahead is picked in the forecast, never made the company's active (nowcast) model. */
function checkActivation(request: TrainingRequest) {
  if (request.activate && request.horizon > 0) {
    throw invalidAt("activate", "модель прогноза вперед не делается активной: ее выбирают в форме прогноза вместе с горизонтом");
  }
}

/** Whether the host trains as a job (AWS: the job function; the local host: a worker thread). */
export const trainsAsJob = (deps: Pick<Deps, "spreadsheets">) =>
  deps.spreadsheets.jobsOf?.includes("train") === true && deps.spreadsheets.trainModel !== undefined;

/**
 * Starts the training as a job, as the exports near their bounds run (domain/export-jobs.ts): the
 * job holds a heavy-work slot of the user's and the company's budget until it ends (429 when none
 * is left), the history waits under training/ for the job, and the same history with the same
 * parameters sent again while its job is queued or running is that job. The answer is the queued
 * job; its state (v1/export_jobs/{id}/) names the stored model once done.
 */
export async function startTrainingJob(
  deps: Pick<Deps, "repos" | "blobs" | "spreadsheets" | "clock">,
  actor: Actor,
  file: UploadedFile,
  { params, horizon, description, activate, features }: TrainingRequest,
  /** The slot the request took before its body was read: the job's. */
  slot?: HeavySlot,
): Promise<ExportJobState> {
  if (file.bytes.byteLength === 0) throw invalidAt("file", "файл пуст");
  checkActivation({ params, horizon, description, activate, features });
  await checkCompanyModelRoom(deps, actor.company);
  const trainModel = deps.spreadsheets.trainModel;
  if (!trainModel) throw new Error("training job: the host runs no training jobs");
  const sha256 = createHash("sha256").update(file.bytes).digest("base64url");
  const fileName = file.name.slice(0, LIMITS.name.file);
  const wanted = storedParams(params);
  return exportJob(
    deps,
    actor,
    {
      op: "train",
      sha256,
      file_name: fileName,
      params: wanted,
      horizon,
      description: description.slice(0, LIMITS.text.modelDescription),
      activate,
      ...(features.length > 0 ? { features } : {}),
    },
    async (ticket) => {
      const key = trainingFileKey(actor.company, ticket.id);
      await deps.blobs.put(key, file.bytes, "application/octet-stream");
      try {
        return await trainModel(
          {
            op: "train",
            actor: { id: actor.id, company: actor.company, email: actor.email, role: actor.role },
            key,
            file_name: fileName,
            params: wanted,
            horizon,
            description: description.slice(0, LIMITS.text.modelDescription),
            activate,
            ...(features.length > 0 ? { features } : {}),
          },
          ticket,
        );
      } catch (error) {
        await deps.blobs.delete(key).catch(() => {});
        throw error;
      }
    },
    slot,
  );
}

/**
 * The training job itself (adapters/spreadsheets/jobs.ts, in the job function or a local thread):
 * reads the history the API stored, trains (telling `progress` the share of rounds done), stores
 * the model as the company's own version and deletes the history, whatever the outcome. A refused
 * file fails the job with its Russian message; nothing is stored then.
 */
export async function runTrainingJob(
  deps: TrainingDeps,
  request: TrainJobRequest,
  progress: (done: number) => void,
  /** The training is stopped after this long (the job's time less what storing the model takes). */
  budgetMs: number,
): Promise<ForecastModelVersion> {
  const actor: Actor = request.actor;
  // A key of another company's area is a fault between the functions, never a file to read.
  if (!request.key.startsWith(trainingFileKey(actor.company, ""))) throw new Error("training job: the history is not the company's");
  try {
    const stored = await deps.blobs.get(request.key);
    if (!stored) throw invalidAt("file", "файл истории не найден: загрузите его снова");
    const bytes = stored.body;
    const params = trainingParamsOf(request.params);
    // Checked between rounds, the signal also lets the job's progress be written as it trains.
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), budgetMs);
    let trained: TrainedModelFile;
    try {
      trained = await trainFromFile({ name: request.file_name, bytes }, params, {
        onRound: (info) => progress(info.round / info.rounds),
        signal: budget.signal,
        horizon: request.horizon ?? 0,
        features: request.features,
      });
    } finally {
      clearTimeout(timer);
    }
    return await storeTrained(deps, actor, request.file_name, trained, request.description, request.activate, request.features ?? []);
  } finally {
    await deps.blobs.delete(request.key).catch(() => {});
  }
}

function trainingParamsOf(raw: Record<string, number | string>): TrainParams {
  try {
    return trainParams(raw);
  } catch (error) {
    if (error instanceof TrainingInputError) throw new Invalid(`params.${error.message}`);
    throw error;
  }
}

export type { ForecastFeature };
