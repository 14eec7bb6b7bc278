// `npm run bench -- forecast`: a year of 10-minute readings (52 560 rows) of a generated drifting
// longwall (tests/support/drifting-longwall.ts), per horizon: the lag features built, a model
// trained in the core on the first 80 % with the default parameters (300 trees of depth 6, early
// stopping on the latest fifth), the year forecast, and the back-test at that horizon on the last
// 20 % — each step's time, and the model's RMSE beside persistence's.
import {
  backtest,
  DEFAULT_TRAIN_PARAMS,
  forecastAhead,
  horizonLabel,
  horizonTrainingData,
  LAG_FEATURES,
  lagColumns,
  loadModel,
  predict,
  trainModel,
  withLags,
} from "@core/gbdt";
import { DRIFT_FEATURES, DRIFT_STEP_MS, driftingLongwall } from "../support/drifting-longwall";

const ROWS = 52_560;
const HORIZONS = [10, 30, 60, 120, 360];

export async function run(): Promise<void> {
  const history = driftingLongwall(ROWS);
  const split = Math.round(ROWS * 0.8);
  const width = DRIFT_FEATURES.length;
  const ms = (start: number) => `${Math.round(performance.now() - start)} ms`;
  let start = performance.now();
  const lagged = withLags(history.rows, width, lagColumns(history.y, history.time, DRIFT_STEP_MS));
  console.log(`${ROWS} rows × ${width} readings; lag features of the year: ${ms(start)}`);
  const tail = (a: Float64Array) => a.subarray(split);
  for (const horizon of HORIZONS) {
    start = performance.now();
    const { data, skipped } = horizonTrainingData(
      {
        featureNames: [...DRIFT_FEATURES],
        rows: history.rows.subarray(0, split * width),
        y: history.y.subarray(0, split),
        t: history.time.subarray(0, split),
      },
      horizon,
    );
    const built = ms(start);
    start = performance.now();
    const trained = await trainModel(data, DEFAULT_TRAIN_PARAMS);
    const training = (performance.now() - start) / 1000;
    start = performance.now();
    const model = await loadModel(trained.json);
    const forecast = forecastAhead(predict(model, lagged, [...DRIFT_FEATURES, ...LAG_FEATURES]), history.y);
    const predicted = ms(start);
    start = performance.now();
    const check = backtest({
      measured: tail(history.y),
      predicted: tail(forecast),
      time: tail(history.time),
      timeKind: "datetime",
      horizon,
    });
    const tested = ms(start);
    console.log(
      `${horizonLabel(horizon).padEnd(6)}: training ${training.toFixed(1)} s (${data.y.length} rows, ${skipped} skipped, ` +
        `${trained.num_trees} trees of ${trained.rounds.length} rounds); rows built ${built}, year forecast ${predicted}, back-test ${tested}; ` +
        `RMSE model ${check.model.rmse?.toFixed(4)} %, persistence ${check.persistence.rmse?.toFixed(4)} %, mean ${check.mean.rmse?.toFixed(4)} %`,
    );
  }
}
