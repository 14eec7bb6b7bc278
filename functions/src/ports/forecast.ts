// Forecast models, their calibrations, and what one forecast runs with.
import type { ForecastFeature, ForecastMethod } from "@core/registry";
import type { IntervalLevel, LevelBin } from "@core/gbdt";
import type * as z from "zod";
import type { forecastCalibrationSchema, forecastKeptRowSchema, forecastModelSchema } from "../contract/schemas/answers";

/** One uploaded forecast model file (platform-wide, like dictionaries); versions are never removed.
 *  Stored as the contract's model version (its company when a company trained it, archived, the
 *  training's summary) without the calibration that serves a caller, and with its file's key. */
export type ForecastModelVersion = Omit<z.output<typeof forecastModelSchema>, "calibration"> & { blob_key: string };

/** The summary a trained version keeps (domain/forecast/training.ts). */
export type ForecastModelTraining = NonNullable<ForecastModelVersion["training"]>;

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

/** A model version's calibration (domain/forecast/calibration.ts): the split-conformal quantiles
 *  of its residuals on a longwall's history, for one company or (by an admin) for every company
 *  without one of its own. Replaced by the next calibration of the same version and scope. */
export type ForecastCalibration = Omit<z.output<typeof forecastCalibrationSchema>, "scope" | "residuals" | "ranges" | "bins"> & {
  /** The company it serves, or "all" (an admin's, for companies without their own). */
  scope: string;
  /** Signed residuals y − forecast, ascending (at most 2 001: wasm-core/src/gbdt/conformal.ts). */
  residuals: number[];
  /** Each feature's observed [min, max] on the rows. */
  ranges: Record<string, [number, number]>;
  /** Bins of the forecast's level (wasm-core/src/gbdt/conformal.ts); absent on a calibration stored before them. */
  bins?: LevelBin[];
};

/** A forecast row: the features; where the history gives them, the measured y (%) and the time t
 *  (ISO date-time of the rows' clock, or a step number); the forecast `result` (for t plus the
 *  forecast's horizon; null ahead where y(t) is missing) and, where the model is calibrated, its
 *  interval `lo`–`hi` and the chance `p_exceed` (0 … 1) of reaching the limit. */

export type ForecastKeptRow = Omit<z.output<typeof forecastKeptRowSchema>, "result"> & {
  /** Absent until the forecast has run on the row. */
  result?: number;
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
  /** Minutes ahead (wasm-core/src/gbdt/horizon.ts); 0: the nowcast. */
  horizon: number;
}

export interface ForecastCalibrationRepository {
  get(modelId: string, scope: string): Promise<ForecastCalibration | undefined>;
  /** Only the named top-level fields: a list shows a calibration's summary without reading its residuals
   *  (D108's event and baselines made an item of thousands of numbers, unmarshalled on the request thread). */
  getFields(modelId: string, scope: string, fields: readonly string[]): Promise<Partial<ForecastCalibration> | undefined>;
  put(calibration: ForecastCalibration): Promise<void>;
}

/** A forecast history's rows as columns: what the preview keeps for the save that follows it. */
export interface ForecastColumns {
  count: number;
  /** The row's `id` cell (NaN: none); numbered as the general reader's rows are (domain/forecast/forecast.ts). */
  id: Float64Array;
  /** count × FORECAST_FEATURES, row after row, NaN for a missing value: the model's matrix as it is. */
  features: Float64Array;
  /** The measured y, NaN where none. */
  y: Float64Array;
  /** The barometric pressure, кПа, NaN where none. */
  pressure: Float64Array;
  /** The time: milliseconds of a date-time or a step number; its kind in `timeKind`. */
  time: Float64Array;
  /** 0: no time, 1: a date-time, 2: a step number. */
  timeKind: Uint8Array;
}
