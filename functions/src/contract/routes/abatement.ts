// v1/abatement/, declared: the stateless evaluation of a mine's abatement options (methodology
// section 11, D47–D55), the live preview's twin on the server. Served by http/abatement.ts.
import { abatementInputSchema, abatementResultSchema } from "../schemas/abatement";
import { json, route, userAccess } from "./declare";

/** Nothing of a company is read but the dictionary's §4.10 thresholds (shared reference data). */
const own = userAccess("abatement", { scope: "own" });

export const abatementEvaluateRoute = route(
  own(
    "abatementEvaluate",
    "A mine's abatement options per stream, their emission reductions (ACM0008 form), economics and the MACC",
    [400],
    "Per stream its §4.10 code (the dictionary's flow thresholds, D5) decides the options (D48); each option's BE, PE_MD, PE_UM, " +
      "PE_ME, LE, ER, carbon units, energy, NPV, IRR, paybacks and LAC; the MACC of the chosen options (D55). Prices, the grid " +
      "factor, the discount rate and the lifetime have no default: one left empty is a 400 naming it. Nothing is stored.",
  ),
  { post: "/evaluate", body: abatementInputSchema, 200: json(abatementResultSchema, "The options and the MACC") },
);

/** The routes of v1/abatement/, as http/abatement.ts serves them. */
export const ABATEMENT_ROUTES = [abatementEvaluateRoute] as const;
