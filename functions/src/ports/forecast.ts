// Forecast models, their calibrations, and what one forecast runs with.
import type { ForecastFeature, ForecastMethod } from "@core/registry";
import type { IntervalLevel } from "@core/gbdt";
import type * as z from "zod";
import type { forecastCalibrationSchema } from "../contract/schemas/answers";

/** One uploaded forecast model file (platform-wide, like dictionaries); versions are never removed. */
export interface ForecastModelVersion {
  method: ForecastMethod;
  id: string;
  /** 1, 2, … per method. */
  version: number;
  library: string;
  library_version: string;
  objective: string;
  feature_names: string[];
  num_trees: number;
  /** The inference engine the model runs on (absent on versions stored before there were two). */
  engine?: "quickscorer" | "walk";
  /** Why that engine, in Russian, for the models screen. */
  engine_reason?: string;
  blob_key: string;
  file_name: string;
  description: string;
  is_active: boolean;
  uploaded_at: string;
  uploaded_by: string;
  /** The company whose own model this is (trained by its staff): only it sees and uses it. Absent:
   *  a platform model, the same for every company. */
  company?: string;
  /** A company's own version put aside by its people: listed, never used by its forecasts. */
  archived?: boolean;
  /** What a model trained in the product was trained on, and how it went. */
  training?: ForecastModelTraining;
}

/** The summary a trained version keeps (domain/forecast-training.ts). */
export interface ForecastModelTraining {
  rows: number;
  train_rows: number;
  valid_rows: number;
  /** How the validation rows were chosen: the latest by time, or a seeded draw. */
  validation: "time" | "random";
  /** The rows' time span: ISO date-times, or step numbers; null without a time column. */
  period: { from: string; to: string } | { from: number; to: number } | null;
  ranges: Array<{ feature: string; label: string; min: number | null; max: number | null; missing: number }>;
  target: { min: number; max: number; mean: number };
  params: Record<string, number | string>;
  /** The errors per round (at most 300 points of the curve). */
  rounds: Array<{ round: number; train_rmse: number; valid_rmse: number | null }>;
  rounds_trained: number;
  num_trees: number;
  train_rmse: number;
  valid_rmse: number | null;
  importance: Array<{ feature: string; label: string; share: number; gain: number; splits: number }>;
  seconds: number;
}

export interface ForecastModelRepository {
  list(method: ForecastMethod): Promise<ForecastModelVersion[]>;
  get(method: ForecastMethod, id: string): Promise<ForecastModelVersion | undefined>;
  /** Conflict when the version number is taken (two uploads at once). */
  create(model: ForecastModelVersion): Promise<void>;
  /** Marks `id` active and every other version of the method with the same owner (the same
   *  company, or the platform) inactive. */
  activate(method: ForecastMethod, id: string): Promise<void>;
  /** Changes a version's description, archived mark or active mark alone (no other version's);
   *  NotFound when there is no such version. */
  update(
    method: ForecastMethod,
    id: string,
    change: Partial<Pick<ForecastModelVersion, "description" | "archived" | "is_active">>,
  ): Promise<void>;
}

/** A model version's calibration (domain/forecast-calibration.ts): the split-conformal quantiles
 *  of its residuals on a longwall's history, for one company or (by an admin) for every company
 *  without one of its own. Replaced by the next calibration of the same version and scope. */
export type ForecastCalibration = Omit<z.output<typeof forecastCalibrationSchema>, "scope" | "residuals" | "ranges"> & {
  /** The company it serves, or "all" (an admin's, for companies without their own). */
  scope: string;
  /** Signed residuals y − forecast, ascending (at most 2 001: wasm-core/src/gbdt/conformal.ts). */
  residuals: number[];
  /** Each feature's observed [min, max] on the rows. */
  ranges: Record<string, [number, number]>;
};

/** A forecast row: the features; where the history gives them, the measured y (%) and the time t
 *  (ISO date-time of the rows' clock, or a step number); the forecast `result` and, where the model
 *  is calibrated, its interval `lo`–`hi` and the chance `p_exceed` (0 … 1) of reaching the limit. */

export type ForecastRow = {
  id: number;
  y?: number | null;
  t?: string | number | null;
  result?: number;
  lo?: number | null;
  hi?: number | null;
  p_exceed?: number | null;
} & Record<ForecastFeature, number | null>;

/** What one forecast runs with: the model version, its calibration (if any) and the forecast's own settings. */
export interface ForecastRun {
  version: ForecastModelVersion;
  calibration: ForecastCalibration | null;
  settings: ForecastSettings;
}

export interface ForecastSettings {
  /** The interval's level, %. */
  level: IntervalLevel;
  /** The limit of CH4 in the longwall's outgoing air, %. */
  limit: number;
  /** The warning level, %: a forecast at or above it warns of the limit. */
  warning: number;
}

export interface ForecastCalibrationRepository {
  get(modelId: string, scope: string): Promise<ForecastCalibration | undefined>;
  put(calibration: ForecastCalibration): Promise<void>;
}
