// v1/projects/ (docs/api.md), declared: list, get one, create, PATCH update / soft delete / restore,
// and the GWP recompute of D12. Served by http/projects.ts.
import * as z from "zod";
import { gwpRecomputeSchema, projectSchema } from "../schemas/answers";
import { booleanParam, pageParams } from "../schemas/common";
import { projectCreateSchema, projectPatchSchema } from "../schemas/project";
import { json, listOf, type OwnedId, pathParam, route, storedObject, userAccess } from "./declare";
import { LIMITS } from "../schemas/limits";

export const DEFAULT_PAGE_SIZE = LIMITS.page.default;
export const PROJECT_SEARCH_MAX = LIMITS.text.projectSearch;

export const listQuery = z.object({
  ...pageParams(),
  // company is accepted for compatibility with docs/api.md but ignored: the actor's company decides.
  company: z.optional(z.string()),
  is_active: booleanParam,
  is_deleted: booleanParam,
  /** Part of the name, any case; blank means no search. */
  search: z.optional(z.string().trim().max(PROJECT_SEARCH_MAX, `не длиннее ${PROJECT_SEARCH_MAX} символов`)),
});

/** GET {id}/gwp_recompute/: the year to preview (default: the project's). */
export const gwpPreviewQuery = z.object({ reporting_year: z.optional(z.string()) });

/** POST {id}/gwp_recompute/: which calculations to recompute (default: all the preview lists). */
export const gwpApplySchema = z.object({
  calculations: z.optional(z.array(z.string("ожидается список идентификаторов расчетов")).max(LIMITS.count.recomputeCalculations)),
});

/** The id of one of the caller's company's projects (another company's answers 404). */
export const projectIdParams = z.object({ id: pathParam("Project id") });
const ownProject: OwnedId = { in: "path", name: "id", object: "project" };
/** Takes a project id: isolation by company. */
export const projectScoped = userAccess("projects", { scope: "company", ids: [ownProject] });
const ownProjects = userAccess("projects", { scope: "own" });

export const listRoute = route(
  ownProjects(
    "listProjects",
    "The company's projects, newest first",
    [400],
    "`search` keeps the projects whose name contains it, in any case (ё = е), up to 100 characters; " +
      "it searches only the signed-in user's company, and `count` is the number of matches.",
  ),
  { get: "/", cost: "light", query: listQuery, 200: json(listOf(projectSchema), "A page of projects") },
);

export const createRoute = route(ownProjects("createProject", "Create a project", [400]), {
  post: "/create_project",
  cost: "light",
  body: projectCreateSchema,
  201: json(projectSchema, "The project"),
});

export const previewRoute = route(
  projectScoped(
    "previewGwpRecompute",
    "Preview: the project's calculations whose GWP set is not the one in force for a reporting year, before and after",
    [400, 404],
    "`reporting_year` (optional: the project's own) picks the set in force; nothing is stored.",
  ),
  {
    get: "/{id}/gwp_recompute",
    cost: "light",
    params: projectIdParams,
    query: gwpPreviewQuery,
    200: json(gwpRecomputeSchema, "Before and after per calculation"),
  },
);

export const applyRoute = route(
  projectScoped(
    "applyGwpRecompute",
    "Recompute the listed calculations (default: all the preview lists) with the GWP set in force for the project's reporting year",
    [400, 404, 409],
    "Each becomes a new version; answers as the preview, `after` being what was stored.",
  ),
  {
    post: "/{id}/gwp_recompute",
    cost: "light",
    params: projectIdParams,
    body: { required: false, content: { "application/json": { schema: gwpApplySchema } } },
    200: json(gwpRecomputeSchema, "The recomputed calculations, before and after"),
  },
);

const project = storedObject(projectScoped, { path: "/{id}", params: projectIdParams }, projectSchema, "The project");

export const getRoute = project.get("getProject", "One project");

export const patchRoute = project.patch("patchProject", "Edit, archive (is_deleted: true) or restore a project", projectPatchSchema);

/** Every route of v1/projects/ above, in the order http/projects.ts serves them. */
export const PROJECT_ROUTES = [listRoute, createRoute, previewRoute, applyRoute, getRoute, patchRoute] as const;
