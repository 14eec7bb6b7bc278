// The parsed forecast models a process keeps (docs/security.md, «Models bounded»): 13 large models
// used in turn held 768 → 1 589 MB of RSS, none ever given up. The cache now holds at most
// MODEL_CACHE_BYTES of model files, the least recently used parsed again when asked.
import { describe, expect, it } from "vitest";
import { predict } from "@core/gbdt";
import { byteBudgetCache } from "@server/domain/byte-budget-cache";
import { MODEL_CACHE_BYTES, runnableModel } from "@server/domain/forecast/models";
import type { GbdtModel } from "@core/gbdt";
import type { ForecastModelVersion } from "@server/ports";
import { syntheticXGBoost } from "../bench/synthetic-forest";

const MODELS = 13;
/** Trees of depth 6 whose file is about 10 MB: 13 of them are twice the budget. */
const TREES = 1_700;

describe(`${MODELS} large models used in turn`, () => {
  it("keep the parsed models, and the process's memory, within the cache's budget", async () => {
    const text = new TextEncoder().encode(syntheticXGBoost(TREES));
    const blobs = { get: async () => ({ body: text, contentType: "application/json" }) };
    const version = (i: number) => ({ id: `large-${i}`, blob_key: `models/xgboost/large-${i}` }) as ForecastModelVersion;
    const rss = () => {
      global.gc?.();
      return process.memoryUsage().rss / 1024 / 1024;
    };
    // The cache a host keeps for its own scoring (parsedModels, which its runtime keeps), made here as a host makes it.
    const parsedModels = byteBudgetCache<GbdtModel>(MODEL_CACHE_BYTES);
    const before = rss();
    const afterEach: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < MODELS; i++) {
        const model = await runnableModel({ blobs } as never, version(i), parsedModels);
        expect(Number.isFinite(predict(model, [model.featureNames.map(() => 1)])[0])).toBe(true);
        expect(parsedModels.bytes()).toBeLessThanOrEqual(MODEL_CACHE_BYTES);
        afterEach.push(rss());
      }
    }
    // Once the cache is full (its first models given up), using more keeps the memory where it was:
    // an evicted model's memory is the next one's.
    const full = afterEach[MODELS - 1];
    const last = Math.max(...afterEach.slice(MODELS));
    console.log(
      `${MODELS} models of ${(text.byteLength / 1024 / 1024).toFixed(1)} MB used in turn twice: ${parsedModels.size()} kept ` +
        `(${(parsedModels.bytes() / 1024 / 1024).toFixed(0)} MB of files, budget ${MODEL_CACHE_BYTES / 1024 / 1024} MB); RSS ${before.toFixed(0)} MB before, ` +
        `${full.toFixed(0)} MB after the first ${MODELS}, at most ${last.toFixed(0)} MB through the next ${MODELS}`,
    );
    expect(parsedModels.size()).toBeLessThan(MODELS);
    expect(last - full).toBeLessThan(MODEL_CACHE_BYTES / 1024 / 1024);
  }, 600_000);
});
