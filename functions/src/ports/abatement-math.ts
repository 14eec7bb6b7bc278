// the security review's R4: an abatement assessment's arithmetic (methodology section 11: every stream's options,
// their reductions, cash flows and the MACC; 50 streams cost a second of CPU and more) off the request
// thread where the host can: the local host's scoring threads, each company one evaluation at a time
// (local/scoring-threads.ts); in AWS each API instance serves one request, so it runs in the instance
// (domain/abatement/evaluate.ts).
import type { AbatementRequest, AbatementResult } from "@core/abatement";
import type { FlowThresholds } from "@core/emissions";

export interface AbatementMath {
  /** The evaluation with the given §4.10 thresholds; the core's refusal as its FieldError. */
  evaluate(company: string, request: AbatementRequest, thresholds: FlowThresholds): Promise<AbatementResult>;
  /** The same as its JSON text, made where it is computed: the stateless evaluate's answer (a
   *  quarter of a megabyte for 50 streams) is then never rebuilt nor serialised on the request thread. */
  evaluateText(company: string, request: AbatementRequest, thresholds: FlowThresholds): Promise<string>;
  /** POST v1/abatement/evaluate/'s body as it came, parsed, checked (its text, its
   *  counts, its schema, its keys) and evaluated where the work runs; the answer as its JSON text. */
  abatementBody?(company: string, body: Uint8Array, thresholds: FlowThresholds): Promise<string>;
}
