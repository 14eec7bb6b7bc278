// v1/abatement/, declared: the stateless evaluation of a mine's abatement options (methodology
// section 11, D47–D55), the live preview's twin on the server. Served by http/abatement.ts.
import * as z from "zod";
import {
  abatementAssessmentSchema,
  abatementInputSchema,
  abatementResultSchema,
  assessmentBodySchema,
  assessmentPatchSchema,
  assessmentSummarySchema,
} from "../schemas/abatement";
import { ABATEMENT_MAX_BODY_BYTES } from "../schemas/limits";
import { XLSX, fileAnswer, json, listOf, type OwnedId, pathParam, route, storedObject, userAccess } from "./declare";

/** Nothing of a company is read but the dictionary's §4.10 thresholds (shared reference data). */
const own = userAccess("abatement", { scope: "own" });

export const abatementEvaluateRoute = route(
  own(
    "abatementEvaluate",
    "A mine's abatement options per stream, their emission reductions (ACM0008 form), economics and the MACC",
    [400, 429],
    "Per stream its §4.10 code (the dictionary's flow thresholds, D5) decides the options (D48); each option's BE, PE_MD, PE_UM, " +
      "PE_ME, LE, ER, carbon units, energy, NPV, IRR, paybacks and LAC; the MACC of the chosen options (D55). Prices, the grid " +
      "factor, the discount rate and the lifetime have no default: one left empty is a 400 naming it. Nothing is stored.",
  ),
  {
    post: "/evaluate",
    cost: "heavy",
    body: abatementInputSchema,
    jsonCap: ABATEMENT_MAX_BODY_BYTES,
    200: json(abatementResultSchema, "The options and the MACC"),
  },
);

const ownAssessment: OwnedId = { in: "path", name: "id", object: "abatement" };
/** Takes an assessment id: another company's is 404. */
const assessmentScoped = userAccess("abatement", { scope: "company", ids: [ownAssessment] });
const idParams = z.object({ id: pathParam("Assessment id") });

export const abatementStreamsRoute = route(
  own(
    "abatementStreams",
    "The year's drainage stations and ventilation shafts with their measured methane, as an assessment may take them",
    [400],
    "From the year's inventory balance by stream (D25, D35): t, the point's figure, and to_air_t, what of it reached the air " +
      "(a drainage station's gas less what flares, boilers and engines took), and the months it was measured in. An assessment's stream " +
      "naming the point takes to_air_t, over fewer than twelve months taken to a year: to_air_t × year_hours / hours.",
  ),
  {
    get: "/streams",
    cost: "light",
    query: z.object({ year: z.string().meta({ description: "the inventory year" }) }),
    200: json(
      listOf(
        z.object({
          point: z.string(),
          name: z.string(),
          kind: z.enum(["drainage", "ventilation"]),
          facility: z.string().nullable(),
          facility_name: z.string(),
          t: z.number(),
          to_air_t: z.number(),
          months: z.array(z.string()).meta({
            description:
              "the months (yyyy-MM) the point's counted calculations cover; fewer than 12: an assessment takes the figure to a year at their flow",
          }),
          hours: z.number().meta({ description: "the hours of those months" }),
          year_hours: z.number().meta({ description: "the hours of the year" }),
        }),
      ),
      "The streams",
    ),
  },
);

export const listAssessmentsRoute = route(
  own("listAbatementAssessments", "The company's abatement assessments, the last changed first", []),
  {
    get: "/assessments",
    cost: "light",
    200: json(listOf(assessmentSummarySchema), "The assessments"),
  },
);

export const createAssessmentRoute = route(
  own(
    "createAbatementAssessment",
    "Store an abatement assessment: its streams (by hand, or an emission point's measured methane of the year's inventory), options and prices",
    [400, 429],
    "Computed with the §4.10 thresholds in force, which it keeps (with the dictionary entry's version), and the year's GWP unless " +
      "params.gwp_ch4 is given: a later dictionary change never alters it.",
  ),
  {
    post: "/assessments",
    cost: "heavy",
    body: assessmentBodySchema,
    jsonCap: ABATEMENT_MAX_BODY_BYTES,
    201: json(abatementAssessmentSchema, "The assessment, version 1"),
  },
);

const assessment = storedObject(
  assessmentScoped,
  { path: "/assessments/{id}", params: idParams },
  abatementAssessmentSchema,
  "The assessment",
);

export const getAssessmentRoute = assessment.get("getAbatementAssessment", "One assessment as stored");

export const patchAssessmentRoute = assessment.patch(
  "patchAbatementAssessment",
  "Change, archive (archived true) or restore an assessment",
  assessmentPatchSchema,
  {
    errors: [429],
    cost: "heavy",
    description: "A change of its inputs computes it again with the thresholds it keeps; a stale version is 409.",
    jsonCap: ABATEMENT_MAX_BODY_BYTES,
  },
);

export const exportAssessmentRoute = route(
  assessmentScoped(
    "exportAbatementAssessment",
    "The assessment as a file: xlsx (inputs, options, coefficients, the MACC table) or PDF (inputs, every coefficient with its source, results, the MACC chart)",
    [400, 404],
  ),
  {
    get: "/assessments/{id}/export",
    cost: "heavy",
    params: idParams,
    query: z.object({ format: z.enum(["xlsx", "pdf"]).optional().meta({ description: "xlsx (default) or pdf" }) }),
    200: fileAnswer("The file", XLSX, "application/pdf"),
  },
);

/** The routes of v1/abatement/, as http/abatement.ts serves them. */
export const ABATEMENT_ROUTES = [
  abatementEvaluateRoute,
  abatementStreamsRoute,
  listAssessmentsRoute,
  createAssessmentRoute,
  getAssessmentRoute,
  patchAssessmentRoute,
  exportAssessmentRoute,
] as const;
