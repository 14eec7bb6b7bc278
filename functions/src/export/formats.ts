// What the API knows about exports without rendering one: the formats, the request and the shape of
// the answer. The writers (exceljs, SheetJS) are behind the SpreadsheetWorker port (ports/spreadsheet-worker.ts), so
// the routes import this module and never project-export.ts: the API's bundle carries neither
// library (in AWS the spreadsheet worker function renders the files, lambda/spreadsheets.ts).
import { Invalid, invalidAt } from "../domain/errors";
import type { Role } from "../contract/schemas/common";
import type { ExportJobView } from "../contract/views";
import type * as z from "zod";
import type { climatePeriodBodySchema } from "../contract/schemas/climate";

export const EXPORT_FORMATS = {
  txt: { contentType: "text/plain; charset=utf-8" },
  xls: { contentType: "application/vnd.ms-excel" },
  xlsx: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
} as const;

export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** docs/api.md: any other format is «Unsupported file type». */
export function exportFormat(value: string): ExportFormat {
  if (Object.hasOwn(EXPORT_FORMATS, value)) return value as ExportFormat;
  throw new Invalid("Unsupported file type");
}

export const DEFAULT_EXPORT_DECIMALS = 2;

/** detail=true: the detailed workbook (xls, xlsx); decimals 0..4: the number formats. */
export interface ExportRequest {
  detail?: boolean;
  decimals?: number;
  /** Near its bound (domain/heavy-work.ts): rendered as a job where the host runs jobs (AWS). */
  job?: JobTicket;
}

/** A job the API decided to start (domain/export-jobs.ts): its id, and the heavy-work slots it holds
 *  until it ends (queued and running jobs count against the user's and the company's budget). */
export interface JobTicket {
  id: string;
  /** The budgets' reservations (ports/counters.ts, AttemptReservation). */
  slots: Array<{ key: string; windowStart: number }>;
}

/** A model trained on a company's history as a job (domain/forecast/training.ts): the history
 *  stored under training/ at `key` by the API, the parameters by XGBoost's names as the API checked
 *  them; the job stores the model as a version of the company's own (`activate`: its forecasts use it). */
export interface TrainJobRequest {
  op: "train";
  actor: { id: string; company: string; email: string; role: Role };
  key: string;
  file_name: string;
  params: Record<string, number | string>;
  /** Minutes ahead (0: the nowcast). */
  horizon?: number;
  /** The history's own columns the model reads beyond x1 … x15; absent: none. */
  features?: string[];
  description: string;
  activate: boolean;
}

/** A climate project's monitoring period computed as a job (domain/climate/periods.ts,
 *  runClimatePeriodJob): a new period the API checked, with the hold on the project's periods it took
 *  for the job (its token and date), which the job gives back when it ends; or a stored one computed
 *  again. */
export interface ClimatePeriodJobRequest {
  op: "climate_period";
  actor: { id: string; company: string; email: string; role: Role };
  project: string;
  /** A new period: the hold and the body as POST …/periods/ took it. */
  claim?: { token: string; at: string };
  body?: z.output<typeof climatePeriodBodySchema>;
  /** Or a stored period computed again (POST …/periods/{p}/recompute/), at the version read. */
  recompute?: { period: string; version: number; given?: { ef_grid_t_per_mwh?: number | null; ef_grid_source?: string | null } };
}

/** A dispatch export reconciled with the stored readings as a job (domain/monitoring/ingest/reconciliation.ts,
 *  an earlier round): the record the API wrote under `reconciliation` names the facility and the file. */
export interface ReconciliationJobRequest {
  op: "telemetry_reconciliation";
  actor: { id: string; company: string; email: string; role: Role };
  reconciliation: string;
}

/** An export or passport rendered as a job: its state, progress (0..100) and, once done, where
 *  to fetch the file or, a training job, the id of the model version it stored
 *  (adapters/spreadsheets/protocol.ts): the status answer but the addresses the route adds. */
export type ExportJobState = Omit<ExportJobView, "file_url" | "status_url">;

export type ExportResult =
  | { kind: "body"; fileName: string; contentType: string; body: ReadableStream<Uint8Array> | Uint8Array }
  | { kind: "redirect"; url: string; fileName: string }
  | { kind: "job"; job: ExportJobState };

/** The 296-FZ report passport (inventory-passport.ts): a workbook or a printable PDF. */
export const PASSPORT_FORMATS = {
  xlsx: { contentType: EXPORT_FORMATS.xlsx.contentType },
  pdf: { contentType: "application/pdf" },
} as const;

export type PassportFormat = keyof typeof PASSPORT_FORMATS;

export function passportFormat(value: string | undefined): PassportFormat {
  if (value !== undefined && Object.hasOwn(PASSPORT_FORMATS, value)) return value as PassportFormat;
  throw invalidAt("format", "ожидается xlsx или pdf");
}

/** D34: the verification pack of an approved version (export/verification-pack.ts), a zip; asked
 *  through the passport's request and worker (the same bounds, job and hand-out), never by ?format=. */
export const PACK_FORMAT = { format: "pack", contentType: "application/zip" } as const;

/** What the passport's request renders: the passport in a format, or a version's pack. */
/** the company-year's calculations as one workbook (export/year-calculations.ts): every
 *  counted calculation with its facility, point, IPCC line and netted figure; asked as the report's
 *  ?format=calculations, rendered by the passport's worker with its bounds, job and hand-out. */
export const YEAR_CALCULATIONS_FORMAT = { format: "calculations", contentType: EXPORT_FORMATS.xlsx.contentType } as const;

export type ReportFileFormat = PassportFormat | typeof PACK_FORMAT.format | typeof YEAR_CALCULATIONS_FORMAT.format;

/** The passport PDF's fonts (fonts/README.md): in ./fonts beside the PDF module, and in AWS beside
 *  the worker's bundle, where the CDK stack copies them (infra/lib/stack.ts). */
export const PASSPORT_FONTS = { dir: "fonts", regular: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf" } as const;

/** The verification pack's script (verification-pack.ts): in ./verify beside the module, and in
 *  AWS beside the worker's bundle, where the CDK stack copies it as it does the fonts. */
export const VERIFY_SCRIPT = { dir: "verify", file: "verify.py" } as const;

/** the security review's R9: the pack's file with the manifest as signed and the platform's signature over the
 *  SHA-256 of its canonical JSON (RFC 8785): the manifest names the version and every other file's
 *  SHA-256, so the signature binds them all to the version. */
export const MANIFEST_SIGNATURE_FILE = "manifest.sig.json";

/** The pack's format: 2 since its manifest is signed (a pack without manifest.sig.json is of the
 *  older format, verify.py says so). */
export const PACK_MANIFEST_FORMAT = 2;

/** Which year's passport, of the whole company or of one of its facilities. */
export interface PassportRequest {
  year: number;
  facility?: string;
  format: ReportFileFormat;
  /** D32: an approved version by its number; none: the approved one while the year stands approved, else the draft. */
  version?: number;
  /** As ExportRequest.job. */
  job?: JobTicket;
  /** Told how far the layout is (0..1), by a job that reports its progress (adapters/spreadsheets/jobs.ts). */
  progress?: (done: number) => void;
}
