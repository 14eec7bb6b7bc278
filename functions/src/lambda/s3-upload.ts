// S3 "object created" notifications for the uploads area (SPEC 3: file_data). What S3 stored is
// checked, and an object of a refused type or size is deleted before anything reads it.
import { DeleteObjectCommand, HeadObjectCommand, NotFound, S3Client } from "@aws-sdk/client-s3";
import { MAX_TABULAR_UPLOAD_BYTES } from "../schemas/uploads";

// The same limit the API applies when it takes a file (schemas/uploads.ts has no dependencies, so
// this bundle stays free of exceljs). Objects reach S3 through the API today; this check also
// covers anything written to uploads/ directly.
export const UPLOAD_MAX_BYTES = MAX_TABULAR_UPLOAD_BYTES;

/** What the API stores under uploads/: .xlsx workbooks and .csv files. */
export const UPLOAD_CONTENT_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "text/csv",
]);

/** The part of an S3 event notification this handler reads. */
export interface S3UploadEvent {
  Records: Array<{
    eventName: string;
    s3: { bucket: { name: string }; object: { key: string; size?: number } };
  }>;
}

export interface UploadVerdict {
  bucket: string;
  key: string;
  accepted: boolean;
  reason?: string;
}

type Log = Pick<Console, "info" | "warn">;

/** Keys in notifications are URL-encoded with "+" for spaces. */
export function decodeS3Key(key: string): string {
  return decodeURIComponent(key.replace(/\+/g, " "));
}

function refusal(size: number, contentType: string): string | undefined {
  if (size === 0) return "empty object";
  if (size > UPLOAD_MAX_BYTES) return `size ${size} exceeds ${UPLOAD_MAX_BYTES}`;
  if (!UPLOAD_CONTENT_TYPES.has(contentType)) return `content type ${JSON.stringify(contentType)} not allowed`;
  return undefined;
}

export async function checkUploads(event: S3UploadEvent, s3: S3Client, log: Log = console): Promise<UploadVerdict[]> {
  const verdicts: UploadVerdict[] = [];
  for (const record of event.Records ?? []) {
    if (!record.eventName.startsWith("ObjectCreated:")) continue;
    const bucket = record.s3.bucket.name;
    const key = decodeS3Key(record.s3.object.key);
    let head;
    try {
      head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      // Replaced or removed since the notification: nothing left to check.
      if (error instanceof NotFound) continue;
      throw error;
    }
    const contentType = (head.ContentType ?? "").split(";")[0].trim().toLowerCase();
    const reason = refusal(head.ContentLength ?? 0, contentType);
    if (reason) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      log.warn(JSON.stringify({ upload: "refused", bucket, key, reason }));
    } else {
      log.info(JSON.stringify({ upload: "accepted", bucket, key, size: head.ContentLength, contentType }));
    }
    verdicts.push({ bucket, key, accepted: !reason, reason });
  }
  return verdicts;
}

const s3 = new S3Client({});

export async function handler(event: S3UploadEvent): Promise<void> {
  await checkUploads(event, s3);
}
