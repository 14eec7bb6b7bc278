// Training of a forecast model off the page's thread (the page never freezes): the history read and
// the model trained by the same core as on the server (gbdt-train.wasm); each round's errors posted
// for the progress bar and the curve. Cancelling terminates the worker.
import { horizonTrainingData, readForecastHistoryCsv, timesInMs, trainModel, trainParams, type RoundInfo } from "@core/gbdt/browser";

export interface TrainRequest {
  text: string;
  params: Record<string, number | string>;
  /** Minutes ahead (0: the nowcast), as the server trains it (domain/forecast/training.ts). */
  horizon: number;
}

export interface TrainSummary {
  features: string[];
  rows: number;
  /** Rows left out for want of the measured concentration (y), as the server leaves them out. */
  skipped: number;
  train_rows: number;
  valid_rows: number;
  num_trees: number;
  train_rmse: number;
  valid_rmse: number | null;
  importance: { feature: string; share: number }[];
  seconds: number;
}

export type TrainMessage =
  | { type: "round"; info: RoundInfo }
  | { type: "done"; summary: TrainSummary }
  | { type: "error"; message: string };

const post = (message: TrainMessage) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<TrainRequest>) => {
  try {
    const history = readForecastHistoryCsv(event.data.text);
    // The lags and the target ahead are found by time: step numbers are 10-minute steps.
    const t = history.t && !history.t.some((v) => v > 1e11) ? timesInMs(history.t, "step") : history.t;
    const { data, skipped } = horizonTrainingData({ ...history, t }, event.data.horizon);
    const result = await trainModel(data, trainParams(event.data.params), { onRound: (info) => post({ type: "round", info }) });
    post({
      type: "done",
      summary: {
        features: [...data.featureNames],
        rows: history.y.length,
        skipped,
        train_rows: result.train_rows,
        valid_rows: result.validation_rows.length,
        num_trees: result.num_trees,
        train_rmse: result.train_rmse,
        valid_rmse: result.valid_rmse,
        importance: result.importance.map((i) => ({ feature: i.feature, share: i.share })),
        seconds: result.seconds,
      },
    });
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
};
