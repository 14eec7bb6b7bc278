// v1/projects/{id}/graphs/: everything the infographics screen draws, in one answer (SPEC 2, 4).
import { projectGraphs } from "../domain/graphs";
import { projectGraphsSchema } from "../schemas/answers";
import { routeApp } from "./openapi-routes";
import { declareRoute, json } from "../routes/declare";
import { projectIdParams, projectScoped } from "../routes/projects";

const graphsRoute = declareRoute(
  projectScoped({ operationId: "projectGraphs", summary: "Everything the infographics screen draws for a project", errors: [404] }),
  {
    method: "get",
    path: "/{id}/graphs",
    request: { params: projectIdParams },
    responses: { 200: json(projectGraphsSchema, "Charts data") },
  },
);

export const graphRoutes = routeApp().openapi(graphsRoute, async (c) =>
  c.json(await projectGraphs(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
);
