// v1/climate-projects/: the stateless evaluation of a monitoring period (domain/climate/evaluate.ts)
// and the stored projects (domain/climate/projects.ts). Declared in contract/routes/climate-projects.ts.
import type { ClimateInputs } from "@core/climate-project";
import {
  climateEvaluateRoute,
  createClimateProjectRoute,
  getClimateProjectRoute,
  listClimateProjectsRoute,
  patchClimateProjectRoute,
} from "../contract/routes/climate-projects";
import { evaluateClimateRequest } from "../domain/climate/evaluate";
import { createClimateProject, getClimateProject, listClimateProjects, patchClimateProject } from "../domain/climate/projects";
import { routeApp } from "./openapi-routes";

export const climateProjectRoutes = routeApp()
  .openapi(climateEvaluateRoute, async (c) =>
    c.json(await evaluateClimateRequest(c.get("deps"), c.get("actor"), c.req.valid("json") as ClimateInputs), 200),
  )
  .openapi(listClimateProjectsRoute, async (c) => {
    const results = await listClimateProjects(c.get("deps"), c.get("actor"));
    return c.json({ results, count: results.length }, 200);
  })
  .openapi(createClimateProjectRoute, async (c) =>
    c.json(await createClimateProject(c.get("deps"), c.get("actor"), c.req.valid("json")), 201),
  )
  .openapi(getClimateProjectRoute, async (c) =>
    c.json(await getClimateProject(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
  )
  .openapi(patchClimateProjectRoute, async (c) =>
    c.json(await patchClimateProject(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  );
