// v1/projects/ (docs/api.md) served: the declarations are in routes/projects.ts.
import { createProject, getProject, listProjects, patchProject } from "../domain/calculations/projects";
import { applyGwpRecompute, previewGwpRecompute } from "../domain/calculations/gwp-recompute";
import { routeApp } from "./openapi-routes";
import { applyRoute, createRoute, DEFAULT_PAGE_SIZE, getRoute, listRoute, patchRoute, previewRoute } from "../contract/routes/projects";

export const projectRoutes = routeApp()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const page = await listProjects(
      c.get("deps"),
      c.get("actor"),
      q.is_deleted === "true" ? "archived" : "active",
      {
        limit: q.limit ?? DEFAULT_PAGE_SIZE,
        offset: q.offset ?? 0,
      },
      q.search,
    );
    return c.json(page, 200);
  })
  .openapi(createRoute, async (c) => c.json(await createProject(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(previewRoute, async (c) =>
    c.json(await previewGwpRecompute(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("query").reporting_year), 200),
  )
  .openapi(applyRoute, async (c) =>
    c.json(await applyGwpRecompute(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json").calculations), 200),
  )
  .openapi(getRoute, async (c) => c.json(await getProject(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(patchRoute, async (c) =>
    c.json(await patchProject(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  );
