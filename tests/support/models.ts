// The GBDT models and golden predictions the tests and the bench check against: the one place that
// knows where they are. The models are the product's default ones, byte for byte what XGBoost 1.7.4
// and LightGBM 4.5.0 wrote; the golden predictions are in tests/fixtures/models (see its README.md).
import { fileURLToPath } from "node:url";

export type ModelFixture = "methane-xgboost.json" | "methane-lightgbm.txt" | "golden-default.csv";

const DEFAULT_MODELS = new URL("../../functions/src/forecast/default-models/", import.meta.url);
export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/models/", import.meta.url));

/** Absolute path of a model file or of golden-default.csv. */
export function modelFixture(name: ModelFixture): string {
  return name === "golden-default.csv" ? `${FIXTURES_DIR}${name}` : fileURLToPath(new URL(name, DEFAULT_MODELS));
}

/** The default lagged models' horizons, in minutes, and their files (tools/forecast-models/). */
export const LAGGED_HORIZONS = [10, 30, 60, 120, 360] as const;
export const laggedModelFile = (horizon: number): string => fileURLToPath(new URL(`methane-xgboost-h${horizon}.json`, DEFAULT_MODELS));
/** The institute's training rows the lagged models were trained on (the test rows are golden-default.csv's). */
export const TRAINING_SERIES = fileURLToPath(new URL("../../tools/forecast-models/methane-train.csv", import.meta.url));
