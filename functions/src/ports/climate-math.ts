// Issue 89: a climate project's monitoring period (methodology section 13: every device's minutes of a
// period, a year of ten devices about a second of CPU) off the request thread where the host can: the
// local host's scoring threads, each company one evaluation at a time (local/scoring-threads.ts); in
// AWS each API instance serves one request, so it runs in the instance (domain/climate/evaluate.ts).
import type { ClimateEvaluation, ClimateInputs } from "@core/climate-project";

export interface ClimateMath {
  /** The period's figures; the core's refusal as its FieldError. */
  climatePeriod(company: string, inputs: ClimateInputs): Promise<ClimateEvaluation>;
}
