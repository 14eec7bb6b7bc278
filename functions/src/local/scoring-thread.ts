// One scoring thread of the local host (scoring-threads.ts): parses the stored models it is asked
// for, keeps them within its share of the models' byte budget, and answers predictions, what-ifs
// and the air needed on them, so the server's own thread never parses nor walks a forest.
import { parentPort, workerData } from "node:worker_threads";
import type { GbdtModel } from "@core/gbdt";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { byteBudgetCache } from "../domain/byte-budget-cache";
import { DomainError, toWire } from "../domain/errors";
import { checkModelFile, runnableModel } from "../domain/forecast/models";
import { scoreModel } from "../domain/forecast/scoring";
import type { FromScoring, ScoringThreadData, ToScoring } from "./scoring-threads";
import { uncertaintyCore } from "@core/uncertainty-node";
import { linesReport } from "@core/year-uncertainty";
import { type AbatementRequest, abatementKernels, evaluateAbatement } from "@core/abatement";
import type { FlowThresholds } from "@core/emissions";
import { abatementInputSchema } from "../contract/schemas/abatement";
import { refuseKeysNamingNoStream } from "../domain/abatement/evaluate";
import { type ClimateInputs, evaluateClimatePeriod } from "@core/climate-project";
import { climateEvaluateSchema } from "../contract/schemas/climate";
import { Invalid, invalidAt } from "../domain/errors";
import { countPast, HEAVY_BODIES } from "../http/heavy-bodies";
import { REFUSED_TEXT, refusedText } from "../http/text-hygiene";
import { parseWith } from "../http/validate";
import { emissionsCore } from "@core/emissions";
import { FieldError } from "@core/emissions-core";

const { blobsDir, budget } = workerData as ScoringThreadData;
const deps = { blobs: fsBlobStore(blobsDir) };
const models = byteBudgetCache<GbdtModel>(budget);
const port = parentPort!;

/** an evaluation's body checked here, as the request thread once did before its
 *  slot: parsed, its counts (http/heavy-bodies.ts) first, then its text (http/text-hygiene.ts). */
function checkedBody(bytes: Uint8Array, operation: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new Invalid("Тело запроса не является корректным JSON");
  }
  for (const bound of HEAVY_BODIES[operation]) {
    const past = countPast(body, bound);
    if (past !== undefined) throw invalidAt(past, bound.message);
  }
  const at = refusedText(body);
  if (at !== undefined) throw invalidAt(at, REFUSED_TEXT);
  return body;
}

const evaluateClimateBody = (bytes: Uint8Array) =>
  evaluateClimatePeriod(parseWith(climateEvaluateSchema, checkedBody(bytes, "climateProjectEvaluate")) as ClimateInputs);

function evaluateAbatementBody(bytes: Uint8Array, thresholds: FlowThresholds) {
  const request = parseWith(abatementInputSchema, checkedBody(bytes, "abatementEvaluate")) as AbatementRequest;
  refuseKeysNamingNoStream(request);
  return evaluateAbatement(request, abatementKernels(emissionsCore(), thresholds));
}

function failure(id: number, error: unknown): FromScoring {
  if (error instanceof FieldError)
    return { id, type: "field", field: error.field, message: error.message, code: error.code, params: { ...error.params } };
  if (error instanceof DomainError) return { id, type: "refused", error: toWire(error) };
  const message = error instanceof Error ? error.message : String(error);
  // The core's RangeError names a bad argument: the caller maps it to its field.
  return { id, type: error instanceof RangeError ? "range" : "failed", message };
}

port.on("message", async (message: ToScoring) => {
  const { id } = message;
  try {
    if ("lines" in message) {
      const { inputs, monteCarlo } = message.lines;
      port.postMessage({ id, type: "answer", value: linesReport(uncertaintyCore(), inputs, monteCarlo) } satisfies FromScoring);
      return;
    }
    if ("abatement" in message) {
      const { request, thresholds, text } = message.abatement;
      const value = evaluateAbatement(request, abatementKernels(emissionsCore(), thresholds));
      port.postMessage({ id, type: "answer", value: text ? JSON.stringify(value) : value } satisfies FromScoring);
      return;
    }
    if ("abatementBody" in message) {
      const { body, thresholds } = message.abatementBody;
      port.postMessage({ id, type: "answer", value: JSON.stringify(evaluateAbatementBody(body, thresholds)) } satisfies FromScoring);
      return;
    }
    if ("climateBody" in message) {
      port.postMessage({ id, type: "answer", value: JSON.stringify(evaluateClimateBody(message.climateBody)) } satisfies FromScoring);
      return;
    }
    if ("climate" in message) {
      port.postMessage({ id, type: "answer", value: evaluateClimatePeriod(message.climate) } satisfies FromScoring);
      return;
    }
    if ("check" in message) {
      port.postMessage({
        id,
        type: "answer",
        value: await checkModelFile(message.check.method, message.check.text, message.check.features),
      } satisfies FromScoring);
      return;
    }
    const value = scoreModel(await runnableModel(deps, message.version, models), message.call);
    port.postMessage(
      { id, type: "answer", value } satisfies FromScoring,
      value instanceof Float64Array ? [value.buffer as ArrayBuffer] : [],
    );
  } catch (error) {
    port.postMessage(failure(id, error));
  }
});
