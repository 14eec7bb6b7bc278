// A stored model's scoring: parsing its file (seconds for a large one) and running it on rows, a
// what-if or the air needed. The local server does it in a pool of scoring threads
// (local/scoring-threads.ts), each keeping the models it parsed, so that no request waits behind
// another's model on the server's one thread; in AWS the API function serves one request per
// instance, and scores in its own process.
import { airNeeded, predict, whatIf, type GbdtModel } from "@core/gbdt";
import type { ModelScoring, ScoringCall } from "../../ports/model-scoring";
import type { Deps } from "../context";
import { checkModelFile, parsedModels, runnableModel } from "./models";

/** The answer of `call` on a parsed model. */
export function scoreModel(model: GbdtModel, call: ScoringCall): Float64Array | ReturnType<typeof whatIf> | ReturnType<typeof airNeeded> {
  if (call.op === "predict") return predict(model, ...call.args);
  if (call.op === "what_if") return whatIf(model, ...call.args);
  return airNeeded(model, ...call.args);
}

/** Scoring in this process, on the models its host keeps (parsedModels). */
export const inProcessScoring = (deps: Pick<Deps, "blobs"> & Partial<Pick<Deps, "runtime">>): ModelScoring => ({
  async score(version, call) {
    return scoreModel(await runnableModel(deps, version, deps.runtime?.kept(parsedModels)), call) as never;
  },
  check: checkModelFile,
});

/** The host's scoring: its threads where it has them, else this process. */
export const modelScoring = (deps: Pick<Deps, "blobs" | "modelScoring"> & Partial<Pick<Deps, "runtime">>): ModelScoring =>
  deps.modelScoring ?? inProcessScoring(deps);
