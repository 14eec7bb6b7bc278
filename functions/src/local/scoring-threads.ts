// The ModelScoring port (ports/model-scoring.ts) of the local host: stored models parsed and
// scored in a small pool of worker threads (scoring-thread.ts), never on the server's thread, where
// a large model's parse (seconds) held every other company's request. A model is always scored by
// the same thread (chosen by its id), which keeps it parsed; each thread keeps at most its share of
// MODEL_CACHE_BYTES, so the process as a whole keeps the budget. A thread that dies (out of memory)
// fails the calls it had and is started again on the next.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { MODEL_CACHE_BYTES } from "../domain/forecast/models";
import type { ModelScoring, ScoringCall } from "../ports/model-scoring";
import type { ForecastModelVersion } from "../ports";
import type { ForecastMethod } from "@core/registry";
import type { LineInput, LinesReport } from "@core/year-uncertainty";
import type { YearMath } from "../ports/year-math";
import type { AbatementMath } from "../ports/abatement-math";
import type { ClimateMath } from "../ports/climate-math";
import type { ClimateEvaluation, ClimateInputs } from "@core/climate-project";
import type { AbatementRequest, AbatementResult } from "@core/abatement";
import type { FlowThresholds } from "@core/emissions";
import { FieldError } from "@core/emissions-core";
import { fromCore, fromWire, type WireError } from "../domain/errors";
import { ABATEMENT_AT_ONCE, companyTurns } from "../domain/heavy-work";
import { threadExecArgv, threadResourceLimits } from "./heap-limits";

export interface ScoringThreadData {
  blobsDir: string;
  /** The bytes of model files the thread keeps parsed. */
  budget: number;
}

export type ToScoring =
  | { id: number; version: ForecastModelVersion; call: ScoringCall }
  | { id: number; check: { method: ForecastMethod; text: string; features?: readonly string[] } }
  /** a year's uncertainty report (YearMath), by whichever thread. */
  | { id: number; lines: { inputs: readonly LineInput[]; monteCarlo: { trials: number; seed: number } } }
  /** the security review's R4: an abatement assessment's evaluation (AbatementMath), by whichever thread. */
  | { id: number; abatement: { request: AbatementRequest; thresholds: FlowThresholds; text: boolean } }
  /** a climate project's monitoring period (ClimateMath), by whichever thread. */
  | { id: number; climate: ClimateInputs }
  /** the evaluation's request body as it came (ClimateMath.climateBody). */
  | { id: number; climateBody: Uint8Array }
  /** an abatement evaluation's request body as it came (AbatementMath.abatementBody). */
  | { id: number; abatementBody: { body: Uint8Array; thresholds: FlowThresholds } };
export type FromScoring =
  | { id: number; type: "answer"; value: unknown }
  /** The core's refusal of a field (FieldError), rebuilt here as the 400 naming it. */
  | { id: number; type: "field"; field: string; message: string; code: string; params: Readonly<Record<string, string | number>> }
  | { id: number; type: "refused"; error: WireError }
  | { id: number; type: "range" | "failed"; message: string };

export interface ScoringThreads extends ModelScoring, YearMath, AbatementMath, ClimateMath {
  close(): Promise<void>;
}

/** At most two threads (one company's large model being parsed holds at most half the models), and
 *  a core left for the request thread: one on a 2-core machine, where a second thread parsing took
 *  the request thread's core (another company's get_me p50 89 ms against 29 ms with one). */
export const SCORING_THREADS = 2;
export const scoringThreadCount = () => Math.max(1, Math.min(SCORING_THREADS, availableParallelism() - 1));

const BOOT = new URL("./thread-boot.ts", import.meta.url);
const ENTRY = new URL("./scoring-thread.ts", import.meta.url).href;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** A short stable number of a model's id, which picks its thread. */
function hashOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(hash, 31) + id.charCodeAt(i)) >>> 0;
  return hash;
}

export function scoringThreads(options: { blobsDir: string; size?: number; heapMb?: number }): ScoringThreads {
  const size = options.size ?? scoringThreadCount();
  const data: ScoringThreadData = { blobsDir: options.blobsDir, budget: Math.floor(MODEL_CACHE_BYTES / size) };
  const threads: Array<{ worker: Worker; pending: Map<number, Pending> } | undefined> = new Array(size).fill(undefined);
  let nextId = 1;

  function threadAt(place: number) {
    const running = threads[place];
    if (running) return running;
    const worker = new Worker(BOOT, {
      workerData: { ...data, entry: ENTRY, background: true },
      execArgv: threadExecArgv(),
      resourceLimits: threadResourceLimits(options.heapMb ?? 1024),
    });
    const thread = { worker, pending: new Map<number, Pending>() };
    const retire = (reason: string) => {
      if (threads[place] === thread) threads[place] = undefined;
      for (const call of thread.pending.values()) call.reject(new Error(`scoring thread: ${reason}`));
      thread.pending.clear();
    };
    worker.on("message", (message: FromScoring) => {
      const call = thread.pending.get(message.id);
      if (!call) return;
      thread.pending.delete(message.id);
      if (message.type === "answer") call.resolve(message.value);
      else if (message.type === "refused") call.reject(fromWire(message.error));
      else if (message.type === "range") call.reject(new RangeError(message.message));
      else if (message.type === "field")
        call.reject(fromCore(new FieldError(message.field, message.message, undefined, message.code, message.params)) as Error);
      else call.reject(new Error(`scoring thread: ${message.message}`));
    });
    worker.on("error", (error) => retire(error.message));
    worker.on("exit", (code) => retire(`exited with code ${code}`));
    worker.unref();
    threads[place] = thread;
    return thread;
  }

  /** The answer of `message` from the thread at `place`. */
  function ask<T>(place: number, message: (id: number) => ToScoring): Promise<T> {
    const thread = threadAt(place);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      thread.worker.postMessage(message(id));
    });
  }

  // Abatement evaluations: each company has at most ABATEMENT_AT_ONCE of them in the threads, its
  // others wait their turn, so one company's burst leaves the threads' turns to the others.
  const abatementTurns = companyTurns(ABATEMENT_AT_ONCE);
  // Climate periods alike: a company's burst waits for its own turns, not the others'.
  const climateTurns = companyTurns(ABATEMENT_AT_ONCE);

  return {
    score: (version, call) => ask(hashOf(version.id) % size, (id) => ({ id, version, call })),
    // A file being uploaded is parsed by whichever thread, and kept by none.
    check: (method, text, features) => ask(nextId % size, (id) => ({ id, check: { method, text, features } })),
    linesReport: (inputs, monteCarlo) => ask<LinesReport>(nextId % size, (id) => ({ id, lines: { inputs, monteCarlo } })),
    evaluate: (company, request, thresholds) =>
      abatementTurns.run(company, () =>
        ask<AbatementResult>(nextId % size, (id) => ({ id, abatement: { request, thresholds, text: false } })),
      ),
    evaluateText: (company, request, thresholds) =>
      abatementTurns.run(company, () => ask<string>(nextId % size, (id) => ({ id, abatement: { request, thresholds, text: true } }))),
    abatementBody: (company, body, thresholds) =>
      abatementTurns.run(company, () => ask<string>(nextId % size, (id) => ({ id, abatementBody: { body, thresholds } }))),
    climatePeriod: (company, inputs) =>
      climateTurns.run(company, () => ask<ClimateEvaluation>(nextId % size, (id) => ({ id, climate: inputs }))),
    climateBody: (company, body) => climateTurns.run(company, () => ask<string>(nextId % size, (id) => ({ id, climateBody: body }))),
    async close() {
      await Promise.all(threads.splice(0).map((thread) => thread?.worker.terminate()));
    },
  };
}
