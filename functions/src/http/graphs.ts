// v1/projects/{id}/graphs/: everything the infographics screen draws, in one answer (SPEC 2, 4).
import { Hono } from "hono";
import { projectGraphs } from "../domain/graphs";
import type { AppEnv } from "./env";

export const graphRoutes = new Hono<AppEnv>({ strict: false }).get("/:id/graphs", async (c) =>
  c.json(await projectGraphs(c.get("deps"), c.get("actor"), c.req.param("id")), 200),
);
