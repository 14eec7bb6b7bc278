// a climate project's monitoring period (methodology section 13: every device's minutes of a
// period, a year of ten devices about a second of CPU) off the request thread where the host can: the
// local host's scoring threads, each company one evaluation at a time (local/scoring-threads.ts); in
// AWS each API instance serves one request, so it runs in the instance (domain/climate/evaluate.ts).
import type { ClimateEvaluation, ClimateInputs } from "@core/climate-project";

export interface ClimateMath {
  /** The period's figures; the core's refusal as its FieldError. */
  climatePeriod(company: string, inputs: ClimateInputs): Promise<ClimateEvaluation>;
  /** POST v1/climate-projects/evaluate/'s body as it came, parsed, checked (its text,
   *  its counts, its schema) and evaluated where the work runs; the answer as its JSON text. A refusal
   *  is the 400 naming the field the request thread would have answered. */
  climateBody?(company: string, body: Uint8Array): Promise<string>;
}
