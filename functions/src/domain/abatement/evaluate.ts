// Methodology section 11 on the server: the core's evaluation (wasm-core/src/abatement.ts, the same
// code as the browser's preview) with the dictionary's §4.10 flow thresholds (D5, D48). the security review's R4:
// an evaluation of 50 streams costs a second of CPU, so it runs inside a heavy-work slot of the user
// and the company, off the request thread where the host can (Deps.abatementMath: each company one at
// a time), and a body's keys that name no stream are refused before anything is computed.
import { type AbatementRequest, type AbatementResult, abatementKernels, evaluateAbatement } from "@core/abatement";
import { emissionsCore, type FlowThresholds } from "@core/emissions";
import type { Actor, Deps } from "../context";
import { fromCore, invalidAt } from "../errors";
import { heavyWork } from "../heavy-work";
import { getDictionaryItems } from "../reference/dictionaries";

export const THRESHOLDS_DICTIONARY = "get_recycle_technology";

/** The thresholds in force and the dictionary entry's version they come from. */
export interface UsedThresholds {
  values: FlowThresholds;
  item_id: number | null;
  item_version: number | null;
}

export async function thresholdsInForce(deps: Deps): Promise<UsedThresholds> {
  const [item] = await getDictionaryItems(deps, THRESHOLDS_DICTIONARY);
  const kernels = abatementKernels(
    emissionsCore(),
    item ? Object.fromEntries(Object.entries(item.values).map(([k, v]) => [k, v.value])) : {},
  );
  return { values: { ...kernels.thresholds }, item_id: item?.id ?? null, item_version: item?.version ?? null };
}

/** The evaluation with given thresholds, in this process; the core's FieldError as the 400 naming the field. */
export function evaluateWith(request: AbatementRequest, thresholds: FlowThresholds): AbatementResult {
  try {
    return evaluateAbatement(request, abatementKernels(emissionsCore(), thresholds));
  } catch (error) {
    throw fromCore(error);
  }
}

interface Keyed {
  streams: readonly { code: string }[];
  options?: object;
  chosen?: object;
  overrides?: object;
}

/** the security review's R4: a key of `options`, `chosen` or `overrides` names a stream of the request, or the
 *  request is refused naming it (it was once validated and ignored, at the request thread's cost). */
export function refuseKeysNamingNoStream(request: Keyed): void {
  const codes = new Set(request.streams.map((s) => s.code));
  for (const field of ["options", "chosen", "overrides"] as const) {
    const record = request[field];
    if (!record) continue;
    for (const key of Object.keys(record)) {
      if (!codes.has(key)) throw invalidAt(`${field}.${key}`, `нет потока с кодом «${key}» среди потоков запроса`);
    }
  }
}

/** The evaluation as the API runs it: in a heavy-work slot of the user and the company, off the
 *  request thread where the host can (each company one at a time there). */
export async function evaluateAsHeavyWork(
  deps: Deps,
  actor: Pick<Actor, "id" | "company" | "heavySlot">,
  request: AbatementRequest,
  thresholds: FlowThresholds,
): Promise<AbatementResult> {
  refuseKeysNamingNoStream(request);
  return heavyWork(deps, actor, async () =>
    deps.abatementMath ? deps.abatementMath.evaluate(actor.company, request, thresholds) : evaluateWith(request, thresholds),
  );
}

/** POST v1/abatement/evaluate/: stateless; the answer as its JSON text, made where it is computed
 *  (off the request thread where the host can). */
export async function evaluateAbatementRequest(deps: Deps, actor: Actor, request: AbatementRequest): Promise<string> {
  refuseKeysNamingNoStream(request);
  const thresholds = (await thresholdsInForce(deps)).values;
  return heavyWork(deps, actor, async () =>
    deps.abatementMath
      ? deps.abatementMath.evaluateText(actor.company, request, thresholds)
      : JSON.stringify(evaluateWith(request, thresholds)),
  );
}
