// v1/projects/ (docs/api.md), declared: list, get one, create, PATCH update / soft delete / restore,
// and the GWP recompute of D12. Served by http/projects.ts.
import * as z from "zod";
import { gwpRecomputeSchema, projectSchema } from "../schemas/answers";
import { booleanParam, pageParams } from "../schemas/common";
import { projectCreateSchema, projectPatchSchema } from "../schemas/project";
import { declareRoute, json, jsonBody, listOf, pathParam, type OwnedId, userAccess } from "./declare";

export const DEFAULT_PAGE_SIZE = 10;
export const PROJECT_SEARCH_MAX = 100;

export const listQuery = z.object({
  ...pageParams(),
  // company is accepted for compatibility with docs/api.md but ignored: the actor's company decides.
  company: z.optional(z.string()),
  is_active: booleanParam,
  is_deleted: booleanParam,
  /** Part of the name, any case; blank means no search. */
  search: z.optional(z.string().trim().max(PROJECT_SEARCH_MAX, `search: не длиннее ${PROJECT_SEARCH_MAX} символов`)),
});

/** GET {id}/gwp_recompute/: the year to preview (default: the project's). */
export const gwpPreviewQuery = z.object({ reporting_year: z.optional(z.string()) });

/** POST {id}/gwp_recompute/: which calculations to recompute (default: all the preview lists). */
export const gwpApplySchema = z.object({
  calculations: z.optional(z.array(z.string("calculations: ожидается список идентификаторов расчетов")).max(1000)),
});

/** The id of one of the caller's company's projects (another company's answers 404). */
export const projectIdParams = z.object({ id: pathParam("Project id") });
const ownProject: OwnedId = { in: "path", name: "id", object: "project" };
/** Takes a project id: isolation by company. */
export const projectScoped = userAccess("projects", { scope: "company", ids: [ownProject] });
const ownProjects = userAccess("projects", { scope: "own" });

export const listRoute = declareRoute(
  ownProjects({
    operationId: "listProjects",
    summary: "The company's projects, newest first",
    description:
      "`search` keeps the projects whose name contains it, in any case (ё = е), up to 100 characters; " +
      "it searches only the signed-in user's company, and `count` is the number of matches.",
    errors: [400],
  }),
  { method: "get", path: "/", request: { query: listQuery }, responses: { 200: json(listOf(projectSchema), "A page of projects") } },
);

export const createRoute = declareRoute(ownProjects({ operationId: "createProject", summary: "Create a project", errors: [400] }), {
  method: "post",
  path: "/create_project",
  request: { body: jsonBody(projectCreateSchema) },
  responses: { 201: json(projectSchema, "The project") },
});

export const previewRoute = declareRoute(
  projectScoped({
    operationId: "previewGwpRecompute",
    summary: "Preview: the project's calculations whose GWP set is not the one in force for a reporting year, before and after",
    description: "`reporting_year` (optional: the project's own) picks the set in force; nothing is stored.",
    errors: [400, 404],
  }),
  {
    method: "get",
    path: "/{id}/gwp_recompute",
    request: { params: projectIdParams, query: gwpPreviewQuery },
    responses: { 200: json(gwpRecomputeSchema, "Before and after per calculation") },
  },
);

export const applyRoute = declareRoute(
  projectScoped({
    operationId: "applyGwpRecompute",
    summary:
      "Recompute the listed calculations (default: all the preview lists) with the GWP set in force for the project's reporting year",
    description: "Each becomes a new version; answers as the preview, `after` being what was stored.",
    errors: [400, 404, 409],
  }),
  {
    method: "post",
    path: "/{id}/gwp_recompute",
    request: { params: projectIdParams, body: { required: false, content: { "application/json": { schema: gwpApplySchema } } } },
    responses: { 200: json(gwpRecomputeSchema, "The recomputed calculations, before and after") },
  },
);

export const getRoute = declareRoute(projectScoped({ operationId: "getProject", summary: "One project", errors: [404] }), {
  method: "get",
  path: "/{id}",
  request: { params: projectIdParams },
  responses: { 200: json(projectSchema, "The project") },
});

export const patchRoute = declareRoute(
  projectScoped({ operationId: "patchProject", summary: "Edit, archive (is_deleted: true) or restore a project", errors: [400, 404, 409] }),
  {
    method: "patch",
    path: "/{id}",
    request: { params: projectIdParams, body: jsonBody(projectPatchSchema) },
    responses: { 200: json(projectSchema, "The project, version + 1") },
  },
);

/** Every route of v1/projects/ above, in the order http/projects.ts serves them. */
export const PROJECT_ROUTES = [listRoute, createRoute, previewRoute, applyRoute, getRoute, patchRoute] as const;
