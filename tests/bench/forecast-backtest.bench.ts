// `npm run bench -- forecast-backtest`: a year of 10-minute readings (52 560 rows) of a generated
// longwall through the core as the results dialog takes it: forecast by the default XGBoost model,
// calibration on the first half, lo / hi / p_exceed of every row, the back-test of the model and of
// the persistence baseline, and the rows as the dialog receives them. Prints each step's time and
// the CSV's size against the upload cap (the file's trip through the API and the browser's drawing
// are not timed here).
import { readFileSync } from "node:fs";
import { backtest, calibrate, intervalColumns, loadModel } from "@core/gbdt";
import { HISTORY_FEATURES, longwallHistory } from "@core/gbdt/longwall-history";
import { MAX_TABULAR_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { modelFixture } from "../support/models";

const ROWS = 52_560;

export async function run(): Promise<void> {
  const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  let start = performance.now();
  const history = longwallHistory(model, ROWS, 0.06);
  const generated = performance.now() - start;
  const half = ROWS / 2;
  start = performance.now();
  const calibration = calibrate(history.forecast.subarray(0, half), history.measured.subarray(0, half), history.columns);
  const calibrated = performance.now() - start;
  start = performance.now();
  const { lo, hi, pExceed } = intervalColumns(history.forecast, calibration, 90, 1);
  const intervals = performance.now() - start;
  start = performance.now();
  const result = backtest({ measured: history.measured, predicted: history.forecast, lo, hi, time: history.time, timeKind: "datetime" });
  const tested = performance.now() - start;
  start = performance.now();
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    id: i + 1,
    t: new Date(history.time[i]).toISOString().slice(0, 19),
    y: history.measured[i],
    result: history.forecast[i],
    lo: lo[i],
    hi: hi[i],
    p_exceed: pExceed[i],
  }));
  const drawn = performance.now() - start;
  const csvBytes = Buffer.byteLength(
    rows.map((r, i) => [r.t, ...HISTORY_FEATURES.map((f) => history.columns[f][i]), r.y].join(";")).join("\n"),
  );
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(`rows ${ROWS}: forecast + generation ${ms(generated)}, calibration ${ms(calibrated)}, intervals ${ms(intervals)}`);
  console.log(
    `back-test ${ms(tested)} (MAE ${result.model.mae?.toFixed(4)} % vs persistence ${result.persistence.mae?.toFixed(4)} %, ${result.model.units} shifts)`,
  );
  console.log(`rows as stored ${ms(drawn)}`);
  console.log(
    `core total ${ms(calibrated + intervals + tested + drawn)}; CSV ${(csvBytes / 1048576).toFixed(1)} MB against the ${MAX_TABULAR_UPLOAD_BYTES / 1048576} MB request cap`,
  );
}
