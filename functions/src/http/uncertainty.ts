// v1/projects/{id}/uncertainty/: the project's uncertainty model, which the browser's uncertainty
// core turns into the total ± interval and the key categories (methodology-uncertainty.md).
import { Hono } from "hono";
import { projectUncertaintyModel } from "../domain/uncertainty";
import type { AppEnv } from "./env";

export const uncertaintyRoutes = new Hono<AppEnv>({ strict: false }).get("/:id/uncertainty", async (c) =>
  c.json(await projectUncertaintyModel(c.get("deps"), c.get("actor"), c.req.param("id")), 200),
);
