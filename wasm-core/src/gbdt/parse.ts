// Format detection: an XGBoost JSON model is a JSON object, a LightGBM text model starts with "tree".
import { readLightGBMText } from "./lightgbm";
import type { ParsedModel } from "./model";
import { readXGBoostJson } from "./xgboost";

export function parseModel(text: string): ParsedModel {
  const start = text.trimStart();
  // "[" is XGBoost's dump_model output, which the XGBoost reader turns away with its own message.
  if (start.startsWith("{") || start.startsWith("[")) return readXGBoostJson(start);
  if (/^tree\r?\n/.test(start)) return readLightGBMText(start);
  throw new Error("unrecognised model file: expected an XGBoost JSON model (save_model(...json)) or a LightGBM text model");
}
