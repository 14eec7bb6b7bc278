// Methodology section 11 on the server: the core's evaluation (wasm-core/src/abatement.ts, the same
// code as the browser's preview) with the dictionary's §4.10 flow thresholds (D5, D48).
import { type AbatementRequest, type AbatementResult, abatementKernels, evaluateAbatement } from "@core/abatement";
import { emissionsCore, type FlowThresholds } from "@core/emissions";
import type { Deps } from "../context";
import { fromCore } from "../errors";
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

/** The evaluation with given thresholds; the core's FieldError as the 400 naming the field. */
export function evaluateWith(request: AbatementRequest, thresholds: FlowThresholds): AbatementResult {
  try {
    return evaluateAbatement(request, abatementKernels(emissionsCore(), thresholds));
  } catch (error) {
    throw fromCore(error);
  }
}

/** POST v1/abatement/evaluate/: stateless. */
export async function evaluateAbatementRequest(deps: Deps, request: AbatementRequest): Promise<AbatementResult> {
  return evaluateWith(request, (await thresholdsInForce(deps)).values);
}
