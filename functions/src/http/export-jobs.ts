// v1/export_jobs/{id}/: an export job's state, asked of the SpreadsheetWorker port (in AWS the worker
// function, whose storage holds it). The id a client holds is the job's UUID signed for its company,
// so another company's job is a 404 like a missing one. v1/export_jobs/{id}/file/: the finished
// file where the host gives no download address (the local host). The declarations are in
// routes/export-jobs.ts.
import type { AppConfig } from "../config";
import { NotFound } from "../domain/errors";
import { partsSigned, signParts } from "../domain/signed-tokens";
import { routeApp } from "./openapi-routes";
import { exportJobFileRoute, exportJobRoute } from "../contract/routes/export-jobs";
import { attachmentDisposition } from "../files/file-names";

const signedParts = (company: string, job: string) => ["export-job", company, job];

/** The id a client is given for `job` of `company`. */
export const signedJobId = (config: AppConfig, company: string, job: string) => `${job}.${signParts(config, signedParts(company, job))}`;

/** The job's UUID of an id signed for `company` (before the secret's last rotation too, while the
 *  previous secret is accepted at `now`), or undefined. */
export function jobOf(config: AppConfig, company: string, id: string, now: Date): string | undefined {
  const [job, given] = id.split(".");
  if (!job || !given) return undefined;
  return partsSigned(config, signedParts(company, job), given, now) ? job : undefined;
}

export const exportJobRoutes = routeApp()
  .openapi(exportJobRoute, async (c) => {
    const deps = c.get("deps");
    const actor = c.get("actor");
    const id = c.req.valid("param").id;
    const job = jobOf(deps.config, actor.company, id, deps.clock.now());
    if (!deps.spreadsheets.jobStatus || !job) throw new NotFound("Задание выгрузки не найдено");
    const state = await deps.spreadsheets.jobStatus(actor, job);
    // Done without an address: the host serves the file itself (below).
    const file =
      state.state === "done" && !state.download_url && deps.spreadsheets.jobFile ? { file_url: `v1/export_jobs/${id}/file/` } : {};
    return c.json({ ...state, ...file, job: id }, 200, { "Cache-Control": "no-store" });
  })
  .openapi(exportJobFileRoute, async (c) => {
    const deps = c.get("deps");
    const actor = c.get("actor");
    const job = jobOf(deps.config, actor.company, c.req.valid("param").id, deps.clock.now());
    if (!deps.spreadsheets.jobFile || !job) throw new NotFound("Файл выгрузки не найден");
    const file = await deps.spreadsheets.jobFile(actor, job);
    if (file.kind !== "body") throw new NotFound("Файл выгрузки не найден");
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": attachmentDisposition(file.fileName),
      "Cache-Control": "no-store",
    });
  });
