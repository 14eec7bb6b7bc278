// v1/export_jobs/{id}/, declared: the state of an export or report passport rendered as a job
// (near its bound: docs/security.md), and v1/export_jobs/{id}/file/, the finished job's file where
// the host gives no download address (the local host). Served by http/export-jobs.ts.
import * as z from "zod";
import { binaryFile, declareRoute, json, pathParam, userAccess } from "./declare";

const ownExports = userAccess("exports", { scope: "own" });

export const exportJobSchema = z.object({
  job: z.string(),
  state: z.enum(["queued", "running", "done", "failed"]),
  progress: z.number().meta({ description: "0..100" }),
  file_name: z.optional(z.string()),
  download_url: z.optional(z.string().meta({ description: "Once done, in AWS: a short-lived address of the file" })),
  file_url: z.optional(
    z
      .string()
      .meta({ description: "Once done, on the local host: where to GET the file with the bearer token (v1/export_jobs/{id}/file/)" }),
  ),
  detail: z.optional(z.string().meta({ description: "Once failed: why, in Russian" })),
  model_id: z.optional(
    z.string().meta({ description: "A training job, once done: the id of the stored model version (v1/forecast_models/)" }),
  ),
  status_url: z.optional(z.string().meta({ description: "In the answer that started the job: where to ask its state" })),
});

export const exportJobRoute = declareRoute(
  ownExports({
    operationId: "exportJob",
    summary: "The state of an export or report passport rendered as a job: progress, then the download address",
    description: "Only where the host runs jobs (AWS, the local host); elsewhere, and for a job of another company, 404.",
    errors: [404],
  }),
  {
    method: "get",
    path: "/{id}",
    request: { params: z.object({ id: pathParam("The job's id") }) },
    responses: { 200: json(exportJobSchema, "The job's state") },
  },
);

export const exportJobFileRoute = declareRoute(
  ownExports({
    operationId: "exportJobFile",
    summary: "The file of a finished export job, where the host gives no download address (the local host)",
    description: "A job not done, of another company, or on a host that gives download addresses (AWS): 404.",
    errors: [404],
  }),
  {
    method: "get",
    path: "/{id}/file",
    request: { params: z.object({ id: pathParam("The job's id") }) },
    responses: {
      200: {
        description: "The file (Content-Disposition: attachment)",
        content: {
          "application/pdf": binaryFile(),
          "text/plain": binaryFile(),
          "application/vnd.ms-excel": binaryFile(),
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": binaryFile(),
        },
      },
    },
  },
);

/** The routes of v1/export_jobs/, as http/export-jobs.ts serves them. */
export const EXPORT_JOB_ROUTES = [exportJobRoute, exportJobFileRoute] as const;
