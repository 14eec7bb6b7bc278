// Monte Carlo off the page's thread (DESIGN: the page never freezes): the same uncertainty core,
// loaded in the worker, run on the calculations' models sent in.
import { monteCarloOf, type CalculationModel } from "@core/calculation-uncertainty";
import { loadUncertainty } from "@core/uncertainty-browser";

export interface MonteCarloRequest {
  id: number;
  models: CalculationModel[];
  trials: number;
  seed: number;
}

self.onmessage = async (event: MessageEvent<MonteCarloRequest>) => {
  const { id, models, trials, seed } = event.data;
  try {
    const core = await loadUncertainty();
    self.postMessage({ id, result: monteCarloOf(core, models, { trials, seed }) ?? null });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
