// v1/projects/{id}/graphs/, declared: everything the infographics screen draws, in one answer
// (docs/user-guide.md). Served by http/graphs.ts.
import { projectGraphsSchema } from "../schemas/answers";
import { json, route } from "./declare";
import { projectIdParams, projectScoped } from "./projects";

export const graphsRoute = route(
  projectScoped(
    "projectGraphs",
    "Everything the infographics screen draws for a project",
    [404, 429],
    "A forecast's series is at most 2 000 points: a longer one is sent as each bucket's lowest and highest point. Heavy work: more in flight than the user's or the company's bound is a 429 with Retry-After.",
  ),
  { get: "/{id}/graphs", cost: "heavy", params: projectIdParams, 200: json(projectGraphsSchema, "Charts data") },
);

/** The route of v1/projects/{id}/graphs/, as http/graphs.ts serves it. */
export const GRAPH_ROUTES = [graphsRoute] as const;
