// v1/climate-projects/, declared: the stateless evaluation of a climate project's monitoring period
// from its devices' minutes (methodology section 13, D67–D80), what the browser's preview and the
// vectors' tests call. Served by http/climate-projects.ts.
import { climateEvaluateSchema, climateEvaluationSchema } from "../schemas/climate-project";
import { json, route, userAccess } from "./declare";

/** Nothing of a company is read: the figures come in the body. */
const own = userAccess("climateProjects", { scope: "own" });

export const climateEvaluateRoute = route(
  own(
    "climateProjectEvaluate",
    "A climate project's monitoring period per device-hour from its meters' minutes: reductions and carbon units",
    [400, 429],
    "Section 13: each device's hours as minute segments (flow, CH4, pressure and temperature, flame, run status, exhaust " +
      "temperature) give per hour the methane sent and destroyed, the efficiency and its basis, BE, PE_UM, PE_MD and ER; the " +
      "period's electricity, heat, grid electricity and fuels, leakage, the deficit carried and the carbon units (D78); the " +
      "deviations by device and block (D79). Nothing is stored.",
  ),
  { post: "/evaluate", body: climateEvaluateSchema, 200: json(climateEvaluationSchema, "The period's figures") },
);

/** The routes of v1/climate-projects/, as http/climate-projects.ts serves them. */
export const CLIMATE_PROJECT_ROUTES = [climateEvaluateRoute] as const;
