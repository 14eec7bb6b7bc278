// v1/company/factors/, declared (methodology D107): the company's own factors, values typed into
// calculations as «Фактическое значение» with their stated uncertainty and justification, kept as the
// company's entries. Listed and added; an entry is a record, never edited in place. Served by
// http/own-factors.ts.
import { ownFactorCreateSchema, ownFactorSchema, ownFactorsQuery } from "../schemas/own-factors";
import { LIMITS } from "../schemas/limits";
import { json, listOf, route, userAccess } from "./declare";

const own = userAccess("own-factors", { scope: "own" });

export const listOwnFactorsRoute = route(
  own("listOwnFactors", "The company's own factors, newest first (of one calculation type and input when asked)", [400]),
  { get: "/", cost: "light", query: ownFactorsQuery, 200: json(listOf(ownFactorSchema), "The entries") },
);

export const createOwnFactorRoute = route(
  own(
    "createOwnFactor",
    "Keep a value typed as «Фактическое значение» as the company's own factor (D107)",
    [400, 409],
    "The input of one calculation type a dictionary entry fills (D10), its value in the field's unit, the stated uncertainty " +
      "(−%, +%, distribution; not both 0) and the justification. A calculation that takes the entry records the same typed value, " +
      "so it is one shared source with every calculation that typed it (D107). The same entry kept again is 409, " +
      `so is the ${LIMITS.ownFactors.perCompany + 1}th; never edited nor deleted.`,
  ),
  { post: "/", cost: "light", body: ownFactorCreateSchema, 201: json(ownFactorSchema, "The entry kept") },
);

/** Every route of v1/company/factors/ above, in the order http/own-factors.ts serves them. */
export const OWN_FACTOR_ROUTES = [listOwnFactorsRoute, createOwnFactorRoute] as const;
