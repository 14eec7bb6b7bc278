// An uncertainty as the API takes it (docs/methodology.md, Uncertainty): the 95 % interval as −lower_pct
// / +upper_pct of the value, a distribution, and its source. The admin coefficient change and the
// calculation dialog send the same shape; errors name the path (uncertainty.ef.lower_pct: …).
import * as z from "zod";
import { DISTRIBUTIONS } from "@core/uncertainty-core";

/** Wider than any IPCC default (+100 %), short of what makes no sense as a 95 % interval. */
export const MAX_UPPER_PCT = 1000;
import { UNCERTAINTY_SOURCE_MAX } from "./limits";
export { UNCERTAINTY_SOURCE_MAX };

const percent = (max: number, text: string) =>
  z.number(`ожидается число, ${text}`).check(z.refine(Number.isFinite, `ожидается число, ${text}`), z.gte(0, text), z.lte(max, text));

export const uncertaintySchema = z.object({
  lower_pct: percent(100, "от 0 до 100 %"),
  upper_pct: percent(MAX_UPPER_PCT, `от 0 до ${MAX_UPPER_PCT} %`),
  distribution: z.enum(DISTRIBUTIONS, "normal, lognormal, triangular или uniform"),
  source: z.optional(
    z.string("ожидается строка").check(z.trim(), z.maxLength(UNCERTAINTY_SOURCE_MAX, `не длиннее ${UNCERTAINTY_SOURCE_MAX} символов`)),
  ),
});

export type UncertaintyBody = z.infer<typeof uncertaintySchema>;

/** Per input of a calculation: its own uncertainty, or null to take the default again. */
export const calculationUncertaintySchema = z.record(z.string(), z.nullable(uncertaintySchema));
