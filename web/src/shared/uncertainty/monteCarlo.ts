// Runs Monte Carlo (Approach 2) in a Web Worker: one worker per page, requests answered in order.
import type { CalculationModel } from "@core/calculation-uncertainty";
import type { MonteCarloResult } from "@core/uncertainty-core";
import type { MonteCarloRequest } from "./monteCarlo.worker";

export const TRIAL_OPTIONS = [10_000, 100_000, 1_000_000] as const;

let worker: Worker | undefined;
let next = 0;
const waiting = new Map<number, { resolve(result: MonteCarloResult | null): void; reject(error: Error): void }>();

function theWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL("./monteCarlo.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<{ id: number; result?: MonteCarloResult | null; error?: string }>) => {
      const { id, result, error } = event.data;
      const pending = waiting.get(id);
      waiting.delete(id);
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve(result ?? null);
    };
    worker.onerror = (event) => {
      for (const pending of waiting.values()) pending.reject(new Error(event.message || "Расчет Монте-Карло не выполнен"));
      waiting.clear();
      worker?.terminate();
      worker = undefined;
    };
  }
  return worker;
}

export function runMonteCarlo(models: CalculationModel[], trials: number, seed = 1): Promise<MonteCarloResult | null> {
  const id = ++next;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    const request: MonteCarloRequest = { id, models, trials, seed };
    theWorker().postMessage(request);
  });
}
