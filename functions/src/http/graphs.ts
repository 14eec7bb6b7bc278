// v1/projects/{id}/graphs/: everything the infographics screen draws, in one answer (docs/user-guide.md).
// The declaration is in routes/graphs.ts.
import { projectGraphs } from "../domain/calculations/graphs";
import { heavyWork } from "../domain/heavy-work";
import { routeApp } from "./openapi-routes";
import { graphsRoute } from "../contract/routes/graphs";

// Reading up to 10 forecasts of 100 000 rows is heavy work: it takes a slot of the user's and the
// company's budget (domain/heavy-work.ts), so parallel calls cannot hold the server's memory.
export const graphRoutes = routeApp().openapi(graphsRoute, async (c) => {
  const deps = c.get("deps");
  const actor = c.get("actor");
  return c.json(await heavyWork(deps, actor, () => projectGraphs(deps, actor, c.req.valid("param").id)), 200);
});
