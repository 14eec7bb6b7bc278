// The port that scores stored forecast models: in this process (domain/forecast/scoring.ts) or in
// the local server's scoring threads (local/scoring-threads.ts). A port, so the shared context can
// name it without importing the forecast feature.
import type { airNeeded, GbdtEngine, GbdtModel, ParsedModel, whatIf } from "@core/gbdt";
import type { Rows } from "@core/gbdt/rows";
import type { ForecastMethod } from "@core/registry";
import type { ForecastModelVersion } from "./forecast";

type Rest<F> = F extends (model: GbdtModel, ...rest: infer R) => unknown ? R : never;

/** What one scoring asks of a model, by the core function that answers it. */
export type ScoringCall =
  | { op: "predict"; args: [rows: Rows, featureOrder?: readonly string[]] }
  | { op: "what_if"; args: Rest<typeof whatIf> }
  | { op: "air_needed"; args: Rest<typeof airNeeded> };

export type ScoringAnswer<C extends ScoringCall> = C["op"] extends "predict"
  ? Float64Array
  : C["op"] extends "what_if"
    ? ReturnType<typeof whatIf>
    : ReturnType<typeof airNeeded>;

/** A model file as checked before it is stored: which engine runs it and why, and what it holds. */
export interface ModelDescription {
  engine: GbdtEngine;
  engine_reason: string;
  library: ParsedModel["library"];
  library_version: string;
  objective: string;
  horizon: number;
  feature_names: string[];
  num_trees: number;
}

export interface ModelScoring {
  /** The answer of `call` on `version`'s model; the core's RangeError (a bad argument) is thrown as it is. */
  score<C extends ScoringCall>(version: ForecastModelVersion, call: C): Promise<ScoringAnswer<C>>;
  /** A model file as text checked and described (domain/forecast/models.ts, checkModelFile), before it is stored;
   *  `features`: the named features its training kept, which it may read beyond x1 … x15. */
  check(method: ForecastMethod, text: string, features?: readonly string[]): Promise<ModelDescription>;
}
