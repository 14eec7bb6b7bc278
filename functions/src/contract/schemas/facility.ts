// Facility fields as the API accepts them (issue: inventory by facility). The profile's facility
// form validates with the same rules.
import * as z from "zod";
import { FACILITY_KINDS, type FacilityKind } from "@core/inventory";

export const FACILITY_NAME_MAX = 255;

const name = z
  .string("name: введите название площадки")
  .trim()
  .min(1, "name: введите название площадки")
  .max(FACILITY_NAME_MAX, `name: название не длиннее ${FACILITY_NAME_MAX} символов`);
const kind = z.enum(Object.keys(FACILITY_KINDS) as [FacilityKind, ...FacilityKind[]], {
  error: `kind: выберите тип площадки (${Object.values(FACILITY_KINDS).join(", ")})`,
});
const text = (field: string, max: number) => z.string(`${field}: ожидается строка`).trim().max(max, `${field}: не длиннее ${max} символов`);

export const facilityCreateSchema = z.object({
  name,
  kind,
  licence_number: z.optional(text("licence_number", 50)),
  address: z.optional(text("address", 500)),
});

export const facilityPatchSchema = z.object({
  name: z.optional(name),
  kind: z.optional(kind),
  licence_number: z.optional(text("licence_number", 50)),
  address: z.optional(text("address", 500)),
  version: z.int("version: ожидается целое число"),
});

export type FacilityCreateInput = z.infer<typeof facilityCreateSchema>;
export type FacilityPatchInput = z.infer<typeof facilityPatchSchema>;
