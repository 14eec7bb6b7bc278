// v1/climate-projects/: the stateless evaluation of a monitoring period (domain/climate/evaluate.ts).
// Declared in contract/routes/climate-projects.ts.
import type { ClimateInputs } from "@core/climate-project";
import { climateEvaluateRoute } from "../contract/routes/climate-projects";
import { evaluateClimateRequest } from "../domain/climate/evaluate";
import { routeApp } from "./openapi-routes";

export const climateProjectRoutes = routeApp().openapi(climateEvaluateRoute, async (c) =>
  c.json(await evaluateClimateRequest(c.get("deps"), c.get("actor"), c.req.valid("json") as ClimateInputs), 200),
);
