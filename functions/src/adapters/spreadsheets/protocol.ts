// What the API and the spreadsheet worker function (lambda/spreadsheets.ts) say to each other in a
// synchronous invoke: small JSON both ways. The API has authenticated the user and sends who they
// are; only the API's role may invoke the worker (infra/lib/stack.ts). Files come back inline,
// base64 (at most INLINE_EXPORT_LIMIT_BYTES, so the answer stays under Lambda's 6 MB), or as a
// presigned download address of an object under exports/. A domain refusal (another company's
// project: 404) comes back as data with its status, so the API answers it as it would itself.
import { LIMITS } from "../../contract/schemas/limits";
import { isHorizon } from "@core/gbdt/horizon";
import { trendSchema } from "../../contract/schemas/answers";
import { measuredVsEstimatedSchema } from "../../contract/schemas/measured-vs-estimated";
import { shiftReportQuerySchema } from "../../contract/schemas/monitoring";
import { abatementAssessmentSchema } from "../../contract/schemas/abatement";
import { climateReportSchema } from "../../contract/schemas/climate-report";
import { gassingListQuerySchema, journalSchema } from "../../contract/schemas/journal";
import { checksDocumentSchema, handoversDocumentSchema, sensorRegisterDocumentSchema } from "../../contract/schemas/sensor-checks";
import { cutoffsDocumentSchema, handMeasurementsDocumentSchema } from "../../contract/schemas/readings-audit";
import { climatePeriodBodySchema } from "../../contract/schemas/climate";
import { ROLES } from "../../contract/schemas/common";
import * as z from "zod/mini";
import type { WireError } from "../../domain/errors";
import type { ExportJobState } from "../../export/formats";

const actor = z.object({
  id: z.string(),
  company: z.string().check(z.minLength(1)),
  email: z.string(),
  role: z.enum(ROLES),
});

/** Checked by the worker: a request it cannot read is a fault between the two functions (it fails
 *  the invoke and alarms), never an answer to a user. The format and decimals were validated by
 *  the API's route. */
const exportRequest = z.object({
  op: z.literal("export"),
  actor,
  projectId: z.string(),
  format: z.string(),
  detail: z.optional(z.boolean()),
  decimals: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(4))),
});
// The report passport (export/inventory-report.ts); year and format were validated by the API.
const reportRequest = z.object({
  op: z.literal("inventory_report"),
  actor,
  year: z.number().check(z.int()),
  facility: z.optional(z.string()),
  // pack: the verification pack of an approved version (export/verification-pack.ts, D34);
  // calculations: the year's calculations as one workbook (export/year-calculations.ts).
  format: z.enum(["xlsx", "pdf", "pack", "calculations"]),
  version: z.optional(z.number().check(z.int())),
});

/** A climate period's verifier's pack (export/climate-pack.ts); the ids were checked by the API's
 *  route. Made at once, or as a job for a long period (domain/heavy-work.ts). */
const climatePackRequest = z.object({
  op: z.literal("climate_pack"),
  actor,
  project: z.string(),
  period: z.string(),
  partBytes: z.number().check(z.int(), z.positive()),
});

/** A climate project's monitoring period computed and stored as a job (domain/climate/periods.ts,
 *  runClimatePeriodJob): the body as the API's route checked it, and the hold on the project's
 *  periods the API took for the job, which the job gives back. */
const climatePeriodRequest = z.object({
  op: z.literal("climate_period"),
  actor,
  project: z.string(),
  claim: z.optional(z.object({ token: z.string(), at: z.string() })),
  body: z.optional(climatePeriodBodySchema),
  // A stored period computed again instead, at the version the API read.
  recompute: z.optional(z.object({ period: z.string(), version: z.number().check(z.int()) })),
});

/** A model trained on a company's history (domain/forecast/training.ts), only ever as a job: the
 *  API stored the history under training/ (`key`) and checked the parameters; the job reads the
 *  file, trains, stores the model as the company's own version and deletes the file. */
const trainRequest = z.object({
  op: z.literal("train"),
  actor,
  key: z.string().check(z.regex(/^training\//)),
  file_name: z.string(),
  params: z.record(z.string(), z.union([z.number(), z.string()])),
  // Minutes ahead (0 or absent: the nowcast). A key the schema did not name was dropped by the parse,
  // so a model trained for 1 h in a job was stored as a nowcast.
  horizon: z.optional(z.number().check(z.refine(isHorizon))),
  // The history's own columns the model reads beyond x1 … x15: dropped, the job's
  // model would read x1 … x15 alone and forecasts with rows carrying them would never ask for them.
  features: z.optional(z.array(z.string()).check(z.maxLength(LIMITS.forecast.namedFeatures))),
  description: z.string(),
  activate: z.boolean(),
});

/** A dispatch export reconciled with the stored readings (domain/monitoring/ingest/reconciliation.ts): the
 *  record the API wrote under its id names the facility and the file. */
const reconciliationRequest = z.object({
  op: z.literal("telemetry_reconciliation"),
  actor,
  reconciliation: z.string().check(z.regex(/^[0-9a-f-]{36}$/)),
});

/** A job's id: a UUID v7 the API made (its time tells a job not yet started from none). */
const jobId = z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/));

export const workerRequest = z.discriminatedUnion("op", [
  exportRequest,
  z.object({ op: z.literal("template"), type: z.string(), year: z.optional(z.int()) }),
  z.object({ op: z.literal("trend"), trend: trendSchema, view: z.enum(["reported", "comparable"]) }),
  z.object({ op: z.literal("comparison"), comparison: measuredVsEstimatedSchema }),
  z.object({ op: z.literal("abatement"), assessment: abatementAssessmentSchema, format: z.enum(["xlsx", "pdf"]), issued: z.string() }),
  z.object({ op: z.literal("climate_report"), report: climateReportSchema, format: z.enum(["xlsx", "pdf"]), issued: z.string() }),
  z.object({ op: z.literal("shift_report"), actor, query: shiftReportQuerySchema }),
  z.object({ op: z.literal("gassing_book"), actor, query: gassingListQuerySchema.extend({ format: z.enum(["xlsx", "pdf"]) }) }),
  z.object({
    op: z.literal("monitoring_file"),
    file: z.union([
      z.object({ kind: z.literal("journal"), journal: journalSchema, format: z.enum(["xlsx", "pdf"]) }),
      // the instruments' documents.
      z.object({ kind: z.literal("sensor_checks"), document: checksDocumentSchema, format: z.enum(["xlsx", "pdf"]) }),
      z.object({ kind: z.literal("handovers"), document: handoversDocumentSchema, format: z.enum(["xlsx", "pdf"]) }),
      z.object({ kind: z.literal("sensor_register"), document: sensorRegisterDocumentSchema, format: z.literal("xlsx") }),
      // D104–D105: readings questioned.
      z.object({ kind: z.literal("cutoffs"), document: cutoffsDocumentSchema, format: z.enum(["xlsx", "pdf"]) }),
      z.object({ kind: z.literal("hand_measurements"), document: handMeasurementsDocumentSchema, format: z.enum(["xlsx", "pdf"]) }),
    ]),
  }),
  climatePackRequest,
  // That pack's manifest, the file the executor signs.
  z.object({ op: z.literal("climate_pack_manifest"), actor, project: z.string(), period: z.string() }),
  reportRequest,
  // An export or a passport near its bound, or a model's training, invoked asynchronously (InvocationType Event): the
  // worker writes the job's state under exports/{company}/jobs/ and the file beside it, and gives
  // back the heavy-work slots the job held (domain/export-jobs.ts) when it ends.
  z.object({
    op: z.literal("job"),
    job: jobId,
    request: z.discriminatedUnion("op", [
      exportRequest,
      reportRequest,
      trainRequest,
      climatePackRequest,
      climatePeriodRequest,
      reconciliationRequest,
    ]),
    slots: z.optional(z.array(z.object({ key: z.string(), windowStart: z.number() }))),
  }),
  // A job's state as the API's status route asks it (synchronously).
  z.object({ op: z.literal("job_status"), actor, job: jobId }),
]);

export type WorkerRequest = z.infer<typeof workerRequest>;

export type WorkerAnswer =
  | { kind: "body"; fileName: string; contentType: string; base64: string }
  | ({ kind: "job" } & ExportJobState)
  | { kind: "redirect"; url: string; fileName: string }
  | { kind: "error"; error: WireError };
