// Which bucket holds each blob area (a key's first segment) in AWS, and what the API may do there.
// Read by the Lambda host (deps.ts) and by the CDK stack (infra/lib/stack.ts), which grants the
// API exactly these prefixes: a new area is added here, and both follow. A key in an area not
// listed is refused by the S3 blob store rather than written where no policy expects it.
import { JOB_FILE_DAYS } from "../../domain/heavy-work";

export type BucketEnv = "UPLOADS_BUCKET" | "EXPORTS_BUCKET" | "DOCUMENTS_BUCKET";

export const BLOB_AREAS: Record<string, { bucket: BucketEnv; access: "read" | "readWrite"; directUploads?: true }> = {
  /** Files users upload (checked by the upload function, which listens on this prefix). */
  uploads: { bucket: "UPLOADS_BUCKET", access: "readWrite" },
  /** Stored forecast inputs/results and uploaded GBDT models: user data kept like uploads. */
  forecasts: { bucket: "UPLOADS_BUCKET", access: "readWrite" },
  models: { bucket: "UPLOADS_BUCKET", access: "readWrite" },
  /** D20: approved inventory snapshots, `inventory/{company}/{year}/v{n}.json`, written once. */
  inventory: { bucket: "UPLOADS_BUCKET", access: "readWrite" },
  /** Normative-document PDFs and the settings videos, uploaded by operators straight to S3 with
   *  URLs the API presigns (PutObject, and PutObjectTagging for the pending tag they carry),
   *  checked and deleted by it when refused (GetObject, DeleteObject) or untagged when accepted
   *  (PutObjectTagging): http/UPLOADS.md. */
  documents: { bucket: "DOCUMENTS_BUCKET", access: "readWrite", directUploads: true },
  media: { bucket: "DOCUMENTS_BUCKET", access: "readWrite", directUploads: true },
  /** A history waiting for its training job (domain/forecast/training.ts): written by the API, read
   *  and deleted by the job; in the exports bucket, so a job that never ran leaves it to the
   *  bucket's lifecycle rule (EXPORTS_AREA.days), like the job's state. */
  training: { bucket: "EXPORTS_BUCKET", access: "readWrite" },
  /** A forecast's or a calibration's history sent by a user straight to S3 (a year of 10-minute
   *  readings is larger than a request): read and deleted by the call that names it
   *  (domain/forecast/uploads.ts); what is never used expires by the bucket's lifecycle rules. */
  "forecast-uploads": { bucket: "DOCUMENTS_BUCKET", access: "readWrite", directUploads: true },
  /** A mine's dispatch export sent straight to S3 (a year of readings, up to 400 MB), named by
   *  POST v1/telemetry/files/ and read by the readings' consumer; kept as the batch's readings
   *  (domain/monitoring/ingest/files.ts). */
  "telemetry-uploads": { bucket: "DOCUMENTS_BUCKET", access: "readWrite", directUploads: true },
  /** A mine's readings (domain/monitoring): each pushed batch's accepted readings
   *  (`telemetry/batches/{company}/{batch}.json`), and the dispatch exports a mine's system drops
   *  under its facility's prefix (`telemetry/files/{company}/{facility}/…`), whose "object created"
   *  notifications go to the readings' queue. An area's name is its S3 prefix, so this one and
   *  "telemetry-uploads" keep the wing's old word: the objects stored are under them. */
  telemetry: { bucket: "UPLOADS_BUCKET", access: "readWrite" },
  /** A climate project's monitoring periods (domain/climate/periods.ts): each period's hour blocks and
   *  figures as computed, `climate/{company}/{project}/{period}.json`, written once. */
  climate: { bucket: "UPLOADS_BUCKET", access: "readWrite" },
};

/** The documents bucket's rule for forecast histories: whatever is under the area after `days`
 *  (granted and never used, or left by a call that died before deleting it) expires. */
export const FORECAST_UPLOADS_EXPIRY = { prefix: "forecast-uploads/", days: 1 } as const;

/** The tag every direct upload is created with (the presigned PUT signs `x-amz-tagging`) and that
 *  its completion removes once the object passed its checks; the documents bucket's lifecycle rule
 *  expires objects still carrying it after `days`: uploads granted and PUT but never completed. */
export const PENDING_UPLOAD_TAG = { key: "upload", value: "pending", days: 1 } as const;

/** Generated exports: written and handed out (presigned GET) by the spreadsheet worker function
 *  alone (lambda/spreadsheets.ts), which the stack grants this prefix and nothing else; expired by
 *  the bucket's lifecycle rule after `days` (on the local host by its sweep, the same number). Not
 *  an area of the API: it writes no files of its own there (the histories of training jobs are the
 *  area `training` of the same bucket). */
export const EXPORTS_AREA = { area: "exports", bucket: "EXPORTS_BUCKET", days: JOB_FILE_DAYS } as const satisfies {
  area: string;
  bucket: BucketEnv;
  days: number;
};
