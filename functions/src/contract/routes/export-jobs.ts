// v1/export_jobs/{id}/, declared: the state of an export or report passport rendered as a job
// (near its bound: docs/security.md), and v1/export_jobs/{id}/file/, the finished job's file where
// the host gives no download address (the local host). Served by http/export-jobs.ts.
import * as z from "zod";
import { downloadLinkSchema } from "../schemas/answers";
import { fileAnswer, json, pathParam, route, userAccess, XLSX } from "./declare";

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
  period_id: z.optional(
    z.string().meta({
      description: "A climate period's job, once done: the id of the stored period (v1/climate-projects/{id}/periods/{period}/)",
    }),
  ),
  status_url: z.optional(z.string().meta({ description: "In the answer that started the job: where to ask its state" })),
});

/** A file, or where to fetch it when it is too large to answer inline. */
export const fileOrLink = <const T extends readonly string[]>(description: string, ...types: T) => ({
  description,
  content: { ...fileAnswer(description, ...types).content, "application/json": { schema: downloadLinkSchema } },
});

/** Near its bound, where the host runs jobs: the job started, whose status_url the caller asks until done. */
export const jobStarted = (description: string) => json(exportJobSchema, description);

export const exportJobRoute = route(
  ownExports(
    "exportJob",
    "The state of an export or report passport rendered as a job: progress, then the download address",
    [404],
    "Only where the host runs jobs (AWS, the local host); elsewhere, and for a job of another company, 404.",
  ),
  { get: "/{id}", cost: "light", params: z.object({ id: pathParam("The job's id") }), 200: json(exportJobSchema, "The job's state") },
);

export const exportJobFileRoute = route(
  ownExports(
    "exportJobFile",
    "The file of a finished export job, where the host gives no download address (the local host)",
    [404],
    "A job not done, of another company, or on a host that gives download addresses (AWS): 404.",
  ),
  {
    get: "/{id}/file",
    cost: "light",
    params: z.object({ id: pathParam("The job's id") }),
    200: fileAnswer("The file (Content-Disposition: attachment)", "application/pdf", "text/plain", "application/vnd.ms-excel", XLSX),
  },
);

/** The routes of v1/export_jobs/, as http/export-jobs.ts serves them. */
export const EXPORT_JOB_ROUTES = [exportJobRoute, exportJobFileRoute] as const;
