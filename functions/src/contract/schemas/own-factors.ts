// A company's own factor (methodology D107) as the API takes and answers it (v1/company/factors/): a
// value typed into a calculation as «Фактическое значение», kept with its unit, stated uncertainty and
// justification for the input of one calculation type, with who kept it and when.
import * as z from "zod";
import { idString } from "./common";
import { JUSTIFICATION_MAX, LIMITS } from "./limits";
import { uncertaintySchema } from "./uncertainty";

/** The stated uncertainty an entry keeps: both sides and the distribution (what D107 groups by). */
const statedUncertainty = uncertaintySchema.pick({ lower_pct: true, upper_pct: true, distribution: true });

export const ownFactorCreateSchema = z.object({
  type: idString("укажите тип расчета").meta({ description: "The calculation type (v1/{type}/), e.g. `coal_mining_underground`" }),
  field: idString("укажите поле расчета").meta({ description: "The input of that type the value is typed into, e.g. `ef_ch4`" }),
  value: z.number("ожидается число").check(z.refine(Number.isFinite, "ожидается число")),
  unit: z
    .optional(z.string("ожидается строка").check(z.maxLength(LIMITS.ownFactors.unit, `не длиннее ${LIMITS.ownFactors.unit} символов`)))
    .meta({ description: "The field's unit as the calculation records it; absent: the field's own" }),
  uncertainty: statedUncertainty,
  justification: z
    .string("введите обоснование")
    .check(z.trim(), z.minLength(1, "введите обоснование"), z.maxLength(JUSTIFICATION_MAX, `не более ${JUSTIFICATION_MAX} символов`)),
});

export const ownFactorSchema = z.object({
  id: z.string(),
  type: z.string(),
  type_label: z.string().meta({ description: "The calculation type's name" }),
  field: z.string(),
  field_label: z.string().meta({ description: "The input's name" }),
  value: z.number(),
  unit: z.string(),
  uncertainty: statedUncertainty,
  justification: z.string(),
  created_at: z.string().meta({ description: "When it was kept (ISO)" }),
  created_by: z.string().meta({ description: "Who kept it (e-mail)" }),
  created_by_name: z.optional(z.string()).meta({ description: "Their name, as the company's users list it" }),
});

export const ownFactorsQuery = z.object({
  type: z.optional(idString("ожидается тип расчета").meta({ description: "Only this calculation type's entries" })),
  field: z.optional(idString("ожидается поле расчета").meta({ description: "Only this input's entries" })),
});
