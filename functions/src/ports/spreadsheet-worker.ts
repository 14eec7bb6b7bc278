// The spreadsheet work behind its own port, so the API's bundle carries no writer.
import type {
  ClimatePeriodJobRequest,
  ExportFormat,
  ExportJobState,
  ExportRequest,
  ExportResult,
  JobTicket,
  PassportRequest,
  ReconciliationJobRequest,
  TrainJobRequest,
} from "../export/formats";
import type * as z from "zod";
import type { trendSchema } from "../contract/schemas/answers";
import type { reviewActionSchema } from "../contract/routes/inventory";
import type { measuredVsEstimatedSchema } from "../contract/schemas/measured-vs-estimated";
import type { offerAcceptSchema, shiftReportQuerySchema } from "../contract/schemas/monitoring";
import type { User } from "./user";
import type { AbatementAssessment } from "./abatement";
import type { ClimateReport } from "../contract/schemas/climate-report";
import type { gassingListQuerySchema, journalQuerySchema, journalSchema } from "../contract/schemas/journal";
import type { ChecksDocument, HandoversDocument, SensorRegisterDocument } from "../contract/schemas/sensor-checks";
import type { CutoffsDocument, HandMeasurementsDocument } from "../contract/schemas/readings-audit";

/** the АГК operator's journal of a day (xlsx, PDF); the «Метан» maintenance
 *  journal of a period and the shift handovers (xlsx, PDF), the sensor register with metrology (xlsx). */
export type MonitoringFile =
  | { kind: "journal"; journal: z.output<typeof journalSchema>; format: "xlsx" | "pdf" }
  | { kind: "sensor_checks"; document: ChecksDocument; format: "xlsx" | "pdf" }
  | { kind: "handovers"; document: HandoversDocument; format: "xlsx" | "pdf" }
  | { kind: "sensor_register"; document: SensorRegisterDocument; format: "xlsx" }
  /** D104–D105: the cut-offs not confirmed and the hand measurements' journal. */
  | { kind: "cutoffs"; document: CutoffsDocument; format: "xlsx" | "pdf" }
  | { kind: "hand_measurements"; document: HandMeasurementsDocument; format: "xlsx" | "pdf" };

/** The spreadsheet work: project exports (txt, xls, xlsx), the .xlsx upload templates and the
 *  inventory's report passport (xlsx, PDF). exceljs, SheetJS and pdfkit live behind it, so the
 *  API's bundle carries none of them. In AWS a worker function does
 *  it (functions/src/lambda/spreadsheets.ts, invoked by adapters/spreadsheets/lambda-worker.ts);
 *  the local and test hosts run the same code in-process (export/in-process.ts). */
/** A whole-year answer: what folds a whole year or years, whose arithmetic costs seconds
 *  of CPU (domain/inventory/whole-year.ts computes it; the parameters were validated by the route). */
export type WholeYearRead =
  | { read: "uncertainty"; year: number; facility?: string; base?: number }
  | { read: "trend"; from: number; to: number; facility?: string; gwp_set?: number }
  | { read: "trend_settings" }
  /** a step of the year's review, which folds the year for its checks and its
   *  snapshot (domain/inventory/send.ts, reviewStep): never kept, taken where the answers are computed. */
  | { read: "review"; year: number; request: z.output<typeof reviewActionSchema> }
  /** Likewise the base year's writes, which compute its comparable total (domain/inventory/targets.ts). */
  | { read: "base_year"; body: { year: number; reason: string; version: number } }
  | { read: "base_year_recalculation"; body: { reason: string; version: number } };

/** A read that folds a facility's stored minutes: the gassings register of up to 92 days, the
 *  operator's journal of a day, a year's completeness and offers, a working's day chart
 *  (domain/monitoring/live/minute-reads.ts computes them; the query was validated by the route). */
export type MinutesRead =
  | { read: "gassings"; query: Pick<z.output<typeof gassingListQuerySchema>, "facility" | "from" | "to"> }
  | { read: "journal"; query: Pick<z.output<typeof journalQuerySchema>, "facility" | "date"> }
  /** each sensor's months of a year (D62), and each point's offered months (D61–D63). */
  | { read: "completeness" | "offers"; query: { facility: string; year: number } }
  /** found by the loop budget: a sensor's month of gaps, its day minute by minute. */
  | { read: "sensor_gaps"; query: { facility: string; sensor: string; month: string; limit?: number; offset?: number } }
  | { read: "sensor_day"; query: { facility: string; sensor: string; date: string } }
  /** a working's last 24 h of minute means and its bound models' forecasts. */
  | { read: "live_chart"; query: { facility: string; working: string } }
  /** the facility's tiles where its kept heads cannot answer (live/live-head.ts). */
  | { read: "live"; query: { facility: string } }
  /** found by the loop budget: months of a point accepted into a project (D61–D63),
   *  which reads each month's minutes: a write taken where the reads are, answered with the months. */
  | { read: "accept_offers"; query: z.output<typeof offerAcceptSchema> };

/** found by the loop budget: a climate project's work over its meters' stored
 *  minutes, answered as the facility's reads are (MinutesRead): a day of them (domain/climate/
 *  day-minutes.ts), and a period below the job's bound computed and kept as its job would
 *  (domain/climate/periods.ts, runClimatePeriodJob), the request waiting for it in its heavy-work slot. */
export type ClimateRead =
  | { read: "climate_day"; query: { project: string; date: string } }
  | { read: "climate_period"; request: ClimatePeriodJobRequest };

export interface SpreadsheetWorker {
  /** The project of `actor`'s company as a file: NotFound for another company's or a missing
   *  project, like every domain call. */
  exportProject(
    actor: Pick<User, "id" | "company" | "email" | "role">,
    projectId: string,
    format: ExportFormat,
    request: ExportRequest,
  ): Promise<ExportResult>;
  /** The .xlsx upload template of a calculation type (contract/templates.ts); NotFound for
   *  a type without one. */
  template(type: string, year?: number): Promise<Uint8Array>;
  /** The company's years side by side (GET v1/inventory/trend/export/) as an .xlsx, as reported or
   *  in comparable conditions: the trend's answer in, the workbook out. */
  trendWorkbook(trend: z.output<typeof trendSchema>, view: "reported" | "comparable"): Promise<Uint8Array>;
  /** «Измерено и оценено» (GET v1/inventory/measured-vs-estimated/?format=xlsx): the comparison in, the workbook out. */
  comparisonWorkbook(comparison: z.output<typeof measuredVsEstimatedSchema>): Promise<Uint8Array>;
  /** An abatement assessment (GET v1/abatement/assessments/{id}/export/) as an .xlsx or a PDF: the
   *  assessment in, the file out; `issued` dates the PDF. */
  abatementFile(assessment: AbatementAssessment, format: "xlsx" | "pdf", issued: string): Promise<Uint8Array>;
  /** A climate period's report on implementation (GET v1/climate-projects/{id}/periods/{p}/report/) as an
   *  .xlsx or a PDF: its sections in, the file out; `issued` dates the file. */
  climateReportFile(report: ClimateReport, format: "xlsx" | "pdf", issued: string): Promise<Uint8Array>;
  /** The АГК operator's journal: the figures in, the file out. */
  monitoringFile(file: MonitoringFile): Promise<Uint8Array>;
  /** The gassing book of `actor`'s company for a period (GET v1/telemetry/gassings/?format=xlsx|pdf,
   *  an earlier round), read and rendered where exceljs and pdfkit are: NotFound for another company's facility. */
  gassingBook(
    actor: Pick<User, "id" | "company" | "email" | "role">,
    query: z.output<typeof gassingListQuerySchema> & { format: "xlsx" | "pdf" },
  ): Promise<ExportResult>;
  /** A shift's report of `actor`'s company (GET v1/telemetry/shift-report/) as an .xlsx or a PDF, so
   *  that exceljs and pdfkit stay in the worker: NotFound for another company's facility. */
  shiftReport(
    actor: Pick<User, "id" | "company" | "email" | "role">,
    query: z.output<typeof shiftReportQuerySchema>,
  ): Promise<ExportResult>;
  /** The 296-FZ report passport of `actor`'s company for a year (export/inventory-passport.ts):
   *  NotFound for another company's facility. */
  inventoryReport(actor: Pick<User, "id" | "company" | "email" | "role">, request: PassportRequest): Promise<ExportResult>;
  /** A climate project's monitoring period's verifier's pack (export/climate-pack.ts): a zip,
   *  or a zip of its parts each at most `partBytes`; NotFound for another company's project or period. */
  climatePack(
    actor: Pick<User, "id" | "company" | "email" | "role">,
    request: { project: string; period: string; partBytes: number; job?: JobTicket },
  ): Promise<ExportResult>;
  /** That pack's manifest.json as the pack carries it, the file the executor signs with their КЭП
   *: made where the pack is made, from the same files. */
  climatePackManifest(
    actor: Pick<User, "id" | "company" | "email" | "role">,
    request: { project: string; period: string },
  ): Promise<ExportResult>;
  /** The work this host renders as a job near its bound (domain/heavy-work.ts): in AWS exports and
   *  passports (the job function), on the local host passports only (its worker threads; an export
   *  streams as it is written there, with no call's time limit). */
  jobsOf?: ReadonlyArray<"export" | "inventory_report" | "train" | "climate_pack" | "climate_period" | "telemetry_reconciliation">;
  /** A company's model trained on its history as a job (domain/forecast/training.ts), where the
   *  host runs training jobs (`jobsOf` has "train"): answers at once with the queued job. */
  trainModel?(request: TrainJobRequest, ticket: JobTicket): Promise<ExportResult>;
  /** A climate project's long monitoring period computed and stored as a job (domain/climate/periods.ts),
   *  where the host runs them (`jobsOf` has "climate_period"): answers at once with the queued job. */
  climatePeriod?(request: ClimatePeriodJobRequest, ticket: JobTicket): Promise<ExportResult>;
  /** A dispatch export reconciled with the stored readings and its differences' xlsx written
   *  (domain/monitoring/ingest/reconciliation.ts): a job where the host runs them (`jobsOf` has
   *  "telemetry_reconciliation", answering at once with the queued job), else done within the call. */
  reconcile?(request: ReconciliationJobRequest, ticket?: JobTicket): Promise<ExportResult>;
  /** A job's state (an export or passport asked with `job`), where the host runs jobs; NotFound
   *  for a job `actor`'s company never started. */
  jobStatus?(actor: Pick<User, "id" | "company" | "email" | "role">, job: string): Promise<ExportJobState>;
  /** A finished job's file, where the host's store gives no download address (the local host). */
  jobFile?(actor: Pick<User, "id" | "company" | "email" | "role">, job: string): Promise<ExportResult>;
  /** A whole-year answer of `actor`'s company computed off the request thread, where the host can
   *  (the local host's spreadsheet threads, each company at most HEAVY_READS_AT_ONCE of them at a
   *  time); without it, in the API's process (AWS: one request per API instance, nobody waits
   *  behind it). Refusals as the domain's (NotFound for another company's facility). */
  wholeYear?(actor: Pick<User, "id" | "company" | "email" | "role">, read: WholeYearRead): Promise<unknown>;
  /** A read over a facility's stored minutes (MinutesRead) of `actor`'s company, answered as its JSON
   *  text off the request thread where the host can (the local host's spreadsheet threads, each company
   *  at most HEAVY_READS_AT_ONCE of them with its whole-year answers); without it, in the API's process
   *  (AWS: one request per API instance). Refusals as the domain's. */
  minutesRead?(actor: Pick<User, "id" | "company" | "email" | "role">, read: MinutesRead): Promise<string>;
  /** A climate project's read (ClimateRead) of `actor`'s company, as minutesRead: off the request thread
   *  where the host can. */
  climateRead?(actor: Pick<User, "id" | "company" | "email" | "role">, read: ClimateRead): Promise<string>;
}
