// v1/projects/{id}/graphs/: everything the infographics screen draws, in one answer (docs/user-guide.md).
// The declaration is in routes/graphs.ts.
import { projectGraphs } from "../domain/graphs";
import { routeApp } from "./openapi-routes";
import { graphsRoute } from "../contract/routes/graphs";

export const graphRoutes = routeApp().openapi(graphsRoute, async (c) =>
  c.json(await projectGraphs(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
);
