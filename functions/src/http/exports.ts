// v1/projects/{id}/export_to_{txt|xls|xlsx}/ (docs/api.md): the project as a file, served. The
// declaration (with the detail and decimals query) is in routes/exports.ts.
import { exportFormat } from "../export/formats";
import { exportNeedsJob } from "../domain/heavy-work";
import { exportJob } from "../domain/export-jobs";
import { heavyFileAnswer, jobAnswer } from "./heavy-file";
import { routeApp } from "./openapi-routes";
import { exportRoute } from "../contract/routes/exports";

export const exportRoutes = routeApp().openapi(exportRoute, async (c) => {
  const { id, action } = c.req.valid("param");
  const format = exportFormat(action.slice("export_to_".length));
  const q = c.req.valid("query");
  const detail = q.detail === "true";
  // Rendered behind the SpreadsheetWorker port: in worker threads locally, by the worker function in
  // AWS. A detailed export (forecast rows) and an xls (built whole in memory) take a heavy-work slot;
  // a plain xlsx or txt (at most 20 000 rows, streamed) does not.
  // Where the host runs export jobs (AWS), an export near its bound is one (domain/heavy-work.ts).
  const deps = c.get("deps");
  const actor = c.get("actor");
  if (deps.spreadsheets.jobsOf?.includes("export") === true && (await exportNeedsJob(deps, actor, id, { format, detail }))) {
    const request = { op: "export" as const, projectId: id, format, detail, decimals: q.decimals };
    return jobAnswer(
      c,
      await exportJob(deps, actor, request, (job) =>
        deps.spreadsheets.exportProject(actor, id, format, { detail, decimals: q.decimals, job }),
      ),
    );
  }
  return heavyFileAnswer(
    c,
    () => deps.spreadsheets.exportProject(actor, id, format, { detail, decimals: q.decimals }),
    detail || format === "xls",
  );
});
