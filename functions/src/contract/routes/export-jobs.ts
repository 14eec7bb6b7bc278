// v1/export_jobs/{id}/, declared: the state of an export or report passport rendered as a job
// (in AWS, near its bound: docs/security.md). Served by http/export-jobs.ts.
import * as z from "zod";
import { declareRoute, json, pathParam } from "./declare";

export const exportJobSchema = z.object({
  job: z.string(),
  state: z.enum(["queued", "running", "done", "failed"]),
  progress: z.number().meta({ description: "0..100" }),
  file_name: z.optional(z.string()),
  download_url: z.optional(z.string().meta({ description: "Once done: a short-lived address of the file" })),
  detail: z.optional(z.string().meta({ description: "Once failed: why, in Russian" })),
  status_url: z.optional(z.string().meta({ description: "In the answer that started the job: where to ask its state" })),
});

export const exportJobRoute = declareRoute(
  {
    operationId: "exportJob",
    summary: "The state of an export or report passport rendered as a job: progress, then the download address",
    description: "Only where the host runs jobs (AWS); elsewhere, and for a job of another company, 404.",
    tag: "exports",
    auth: "user",
    isolation: { scope: "own" },
    errors: [404],
  },
  {
    method: "get",
    path: "/{id}",
    request: { params: z.object({ id: pathParam("The job's id") }) },
    responses: { 200: json(exportJobSchema, "The job's state") },
  },
);

/** The route of v1/export_jobs/, as http/export-jobs.ts serves it. */
export const EXPORT_JOB_ROUTES = [exportJobRoute] as const;
