// v1/projects/ (SPEC 7): list, get one, create, PATCH update / soft delete / restore.
import { Hono } from "hono";
import * as z from "zod/mini";
import { createProject, getProject, listProjects, patchProject } from "../domain/projects";
import { booleanParam, pageParams } from "../schemas/common";
import { projectCreateSchema, projectPatchSchema } from "../schemas/project";
import type { AppEnv } from "./env";
import { validate } from "./validate";
import { applyGwpRecompute, previewGwpRecompute } from "../domain/gwp-recompute";

export const DEFAULT_PAGE_SIZE = 10;
export const PROJECT_SEARCH_MAX = 100;

export const listQuery = z.object({
  ...pageParams(),
  // company is accepted for compatibility with SPEC 7 but ignored: the actor's company decides.
  company: z.optional(z.string()),
  is_active: booleanParam,
  is_deleted: booleanParam,
  /** Part of the name, any case; blank means no search. */
  search: z.optional(
    z.string().check(z.trim(), z.maxLength(PROJECT_SEARCH_MAX, `search: не длиннее ${PROJECT_SEARCH_MAX} символов`)),
  ),
});

/** GET {id}/gwp_recompute/: the year to preview (default: the project's). */
export const gwpPreviewQuery = z.object({ reporting_year: z.optional(z.string()) });

/** POST {id}/gwp_recompute/: which calculations to recompute (default: all the preview lists). */
export const gwpApplySchema = z.object({
  calculations: z.optional(z.array(z.string("calculations: ожидается список идентификаторов расчетов")).check(z.maxLength(1000))),
});

export const projectRoutes = new Hono<AppEnv>({ strict: false })
  .get("/", validate("query", listQuery), async (c) => {
    const q = c.req.valid("query");
    const page = await listProjects(c.get("deps"), c.get("actor"), q.is_deleted === "true" ? "archived" : "active", {
      limit: q.limit ?? DEFAULT_PAGE_SIZE,
      offset: q.offset ?? 0,
    }, q.search);
    return c.json(page, 200);
  })
  .post("/create_project", validate("json", projectCreateSchema), async (c) => {
    return c.json(await createProject(c.get("deps"), c.get("actor"), c.req.valid("json")), 201);
  })
  .get("/:id/gwp_recompute", validate("query", gwpPreviewQuery), async (c) => {
    return c.json(await previewGwpRecompute(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.valid("query").reporting_year), 200);
  })
  .post("/:id/gwp_recompute", validate("json", gwpApplySchema), async (c) => {
    return c.json(await applyGwpRecompute(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.valid("json").calculations), 200);
  })
  .get("/:id", async (c) => c.json(await getProject(c.get("deps"), c.get("actor"), c.req.param("id")), 200))
  .patch("/:id", validate("json", projectPatchSchema), async (c) => {
    return c.json(await patchProject(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.valid("json")), 200);
  });
