// A company trains its own methane forecast model (docs/api.md, «Forecast models»): a history of
// the forecast's data columns (Russian headers, as every upload) with the measured concentration y
// and optionally the time t, trained by the core (wasm-core/src/gbdt/train.ts) into an XGBoost
// model stored as a new version of the company's own, with the training's summary. The CPU work
// (reading the file and training) runs off the request thread where the host has threads
// (Deps.uploadFiles, the local host's worker threads), else in this process.
import {
  MAX_TRAINING_ROWS,
  trainModel,
  trainParams,
  TrainingInputError,
  type TrainingData,
  type TrainParams,
  type TrainResult,
} from "@core/gbdt";
import { timeValue } from "@core/gbdt/train-csv";
import { REGISTRY, headerKey, type ForecastFeature, type NumberField } from "@core/registry";
import { parseTable, type ColumnSpec, type UploadedFile } from "../files/tabular";
import type { Actor, Deps, TrainedModelFile } from "./context";
import { Invalid } from "./errors";
import { heavyWork } from "./heavy-work";
import { calibrateOnRows, MIN_CALIBRATION_ROWS } from "./forecast-calibrating";
import type { ForecastRow } from "./forecast-rows";
import { forecastSpec } from "./forecast";
import { FORECAST_FEATURES, storeModelVersion } from "./forecast-models";
import type { ForecastModelVersion, ForecastModelTraining } from "../ports";

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

/** The file's columns: every data column of the forecast (each optional here), y and t. */
function trainingSpec() {
  const forecast = forecastSpec();
  return {
    maxRows: MAX_TRAINING_ROWS,
    columns: [...forecast.columns.map((c) => ({ ...c, required: false })), TARGET_COLUMN, TIME_COLUMN],
  };
}

const FORECAST_DATA_COLUMNS = (REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[];
const LABELS = new Map<string, string>(FORECAST_DATA_COLUMNS.map((c) => [c.name, c.label]));
export const featureLabel = (feature: string) => LABELS.get(feature) ?? feature;

/** What a model is trained on: the file's rows, with the features it has and the summary the version keeps. */
export interface TrainingTable {
  data: TrainingData;
  /** The file's own header of each column used. */
  headers: Record<string, string>;
}

export async function trainingTableFromFile(file: UploadedFile): Promise<TrainingTable> {
  const table = await parseTable(file, trainingSpec());
  const features = FORECAST_FEATURES.filter((f) => table.headers[f] !== undefined);
  if (features.length === 0) {
    throw new Invalid(`file: в файле нет ни одного столбца данных прогноза (${FORECAST_DATA_COLUMNS.map((c) => c.label).join("; ")})`);
  }
  const rows = new Float64Array(table.rows.length * features.length);
  const y = new Float64Array(table.rows.length);
  const hasTime = table.headers.t !== undefined;
  const t = hasTime ? new Float64Array(table.rows.length) : null;
  table.rows.forEach((row, r) => {
    const where = (column: string) => `Лист «${table.sheet}», строка ${row.row}, столбец «${table.headers[column]}»`;
    features.forEach((feature, f) => {
      const value = row.values[feature];
      rows[r * features.length + f] = typeof value === "number" ? value : Number.NaN;
    });
    const target = row.values.y;
    if (typeof target !== "number") throw new Invalid(`${where("y")}: нужно измеренное значение концентрации`);
    y[r] = target;
    if (t) {
      const cell = row.values.t;
      const value = typeof cell === "number" ? cell : timeValue(String(cell ?? ""));
      if (!Number.isFinite(value)) throw new Invalid(`${where("t")}: нужна дата и время («01.01.2025 10:20») или номер шага`);
      t[r] = value;
    }
  });
  return { data: { featureNames: features, rows, y, t }, headers: table.headers };
}

/** The summary a trained version keeps: rows, period, ranges of the data; errors and importance. */
export function trainingSummary(table: TrainingTable, result: TrainResult, timeIsDate: boolean): ForecastModelTraining {
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
  for (const v of data.y) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
  }
  let period: ForecastModelTraining["period"] = null;
  if (data.t) {
    const from = Math.min(...data.t);
    const to = Math.max(...data.t);
    period = timeIsDate ? { from: new Date(from).toISOString(), to: new Date(to).toISOString() } : { from, to };
  }
  // At most 300 points of the curve: every round up to 300, else evenly spaced ones and the last.
  const step = Math.max(1, Math.ceil(result.rounds.length / 300));
  const rounds = result.rounds.filter((_, i) => i % step === 0 || i === result.rounds.length - 1);
  return {
    rows: data.y.length,
    train_rows: result.train_rows,
    valid_rows: result.validation_rows.length,
    validation: data.t ? "time" : "random",
    period,
    ranges,
    target: { min, max, mean: sum / data.y.length },
    params: { ...result.params },
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

const FEATURE_NULLS = Object.fromEntries(FORECAST_FEATURES.map((f) => [f, null])) as Record<ForecastFeature, null>;

export async function trainFromFile(file: UploadedFile, params: TrainParams): Promise<TrainedModelFile> {
  const table = await trainingTableFromFile(file);
  const timeIsDate = table.data.t?.some((v) => v > 1e11) ?? false;
  let result: TrainResult;
  try {
    result = await trainModel(table.data, params, { attributes: { trained_by: "fugitive-emissions-platform" } });
  } catch (error) {
    if (error instanceof TrainingInputError) throw new Invalid(`file: ${error.message}`);
    throw error;
  }
  const { data } = table;
  const width = data.featureNames.length;
  const validation = result.validation_rows.map((r, k) => {
    const row: ForecastRow = { id: k + 1, ...FEATURE_NULLS, y: data.y[r] };
    data.featureNames.forEach((feature, f) => {
      const value = data.rows[r * width + f];
      row[feature as ForecastFeature] = Number.isNaN(value) ? null : value;
    });
    if (data.t) row.t = timeIsDate ? new Date(data.t[r]).toISOString() : data.t[r];
    return row;
  });
  return { json: result.json, training: trainingSummary(table, result, timeIsDate), validation };
}

/** Parameters from the form's `params` (a JSON object by XGBoost's names), checked. */
export function trainingParams(raw: unknown): TrainParams {
  let input: unknown = {};
  if (typeof raw === "string" && raw.trim() !== "") {
    try {
      input = JSON.parse(raw);
    } catch {
      throw new Invalid("params: ожидается объект JSON с параметрами обучения");
    }
  }
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new Invalid("params: ожидается объект JSON с параметрами обучения");
  try {
    return trainParams(input as Record<string, unknown>);
  } catch (error) {
    if (error instanceof TrainingInputError) throw new Invalid(`params.${error.message}`);
    throw error;
  }
}

/**
 * Trains a model on the uploaded history and stores it as a new version of the actor's company
 * (used by the company's forecasts when `activate`). Nothing is stored when the file or the
 * parameters are refused.
 */
export async function trainForecastModel(
  deps: Deps,
  actor: Actor,
  file: UploadedFile,
  params: TrainParams,
  description: string,
  activate: boolean,
): Promise<ForecastModelVersion> {
  if (file.bytes.byteLength === 0) throw new Invalid("file: файл пуст");
  // Training is heavy work: it takes a slot of the user's and the company's budget.
  const trained = await heavyWork(deps, actor, () =>
    deps.uploadFiles?.trainFromFile ? deps.uploadFiles.trainFromFile(file, params) : trainFromFile(file, params),
  );
  const name = `${file.name.replace(/\.[^.]*$/, "").slice(0, 200) || "history"}.model.json`;
  const model = await storeModelVersion(deps, actor, "xgboost", {
    bytes: new TextEncoder().encode(trained.json),
    fileName: name,
    description:
      description.trim().slice(0, 500) || `Обучена на ${trained.training.rows.toLocaleString("ru-RU").replace(/\s/g, " ")} строках`,
    activate,
    company: actor.company,
    training: trained.training,
  });
  // The validation rows, unseen by the trees, calibrate the model's intervals for the company.
  if (trained.validation.length >= MIN_CALIBRATION_ROWS) {
    await calibrateOnRows(deps, actor, model, trained.validation, "company", file.name);
  }
  return model;
}

export type { ForecastFeature };
