// Methodology section 13 on the server: the core's evaluation of a monitoring period
// (wasm-core/src/climate-project.ts, the same code as the browser's preview). A year of ten devices'
// minutes costs about a second of CPU, so it runs inside a heavy-work slot of the user and the
// company (at most two and four in flight), off the request thread where the host can
// (Deps.climateMath: each company one at a time), and the core's refusal of a field is the 400 naming it.
import { type ClimateEvaluation, type ClimateInputs, evaluateClimatePeriod } from "@core/climate-project";
import type { Actor, Deps } from "../context";
import { fromCore } from "../errors";
import { heavyWork } from "../heavy-work";

/** The evaluation in this process; the core's FieldError as the 400 naming the field. */
export function evaluateClimateInputs(inputs: ClimateInputs): ClimateEvaluation {
  try {
    return evaluateClimatePeriod(inputs);
  } catch (error) {
    throw fromCore(error);
  }
}

/** The evaluation off the request thread where the host can (each company one at a time), else here;
 *  the caller holds the heavy-work slot. */
export function evaluateOnHost(
  deps: Partial<Pick<Deps, "climateMath">>,
  company: string,
  inputs: ClimateInputs,
): Promise<ClimateEvaluation> {
  return deps.climateMath ? deps.climateMath.climatePeriod(company, inputs) : Promise.resolve(evaluateClimateInputs(inputs));
}

/** POST v1/climate-projects/evaluate/: stateless. */
export async function evaluateClimateRequest(
  deps: Deps,
  actor: Pick<Actor, "id" | "company" | "heavySlot">,
  inputs: ClimateInputs,
): Promise<ClimateEvaluation> {
  return heavyWork(deps, actor, () => evaluateOnHost(deps, actor.company, inputs));
}
