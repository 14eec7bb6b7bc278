// "Object created" notifications for the uploads area (docs/api.md: file_data). What storage holds is
// checked (size, declared type, and the first bytes against that type), and an object that fails
// is deleted before anything reads it. The same function runs on both hosts: in AWS the uploads
// bucket notifies functions/src/lambda/s3-upload.ts, which calls it; locally
// functions/src/local/upload-notifications.ts calls it in-process for what is written under uploads/.
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { isMissingObject } from "../adapters/blob/s3-blob-store";
import type { BlobStore } from "../ports";
// The same limit the API applies when it takes a file (schemas/uploads.ts has no dependencies, so
// this bundle stays free of the spreadsheet libraries).
import { MAX_FORECAST_UPLOAD_BYTES, TABULAR_CONTENT_TYPES } from "../contract/schemas/uploads";
import { EVIDENCE_FORMATS, EVIDENCE_MAX_BYTES, startsWith } from "../contract/schemas/evidence";

/** The evidence files of custom coefficients (D10): PDF, .xlsx, PNG, JPEG, up to 10 MB. */
const EVIDENCE_TYPES = new Map<string, readonly number[]>(Object.values(EVIDENCE_FORMATS).map((f) => [f.contentType, f.signature]));

/** What the API stores under uploads/: .xlsx workbooks and .csv files, and evidence files. */
export const UPLOAD_CONTENT_TYPES = new Set<string>([...Object.values(TABULAR_CONTENT_TYPES), ...EVIDENCE_TYPES.keys()]);

/** A workbook may be an evidence file, which may be larger than a tabular upload. */
/** A tabular file may be a forecast's history that came straight to storage (MAX_FORECAST_UPLOAD_BYTES),
 *  kept by the API as the calculation's file after it was read. */
const maxBytesOf = (contentType: string) => (EVIDENCE_TYPES.has(contentType) ? EVIDENCE_MAX_BYTES : MAX_FORECAST_UPLOAD_BYTES);

/** How much of an object is read to check its content against its type. */
export const SNIFF_BYTES = 4096;
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

/** The part of an S3 event notification this handler reads. */
export interface S3UploadRecord {
  eventName: string;
  s3: { bucket: { name: string }; object: { key: string; size?: number } };
}

export interface S3UploadEvent {
  Records: S3UploadRecord[];
}

export interface UploadVerdict {
  bucket: string;
  key: string;
  accepted: boolean;
  reason?: string;
}

/** What the check needs of the storage that notified: S3 in AWS, the local folder locally. */
export type UploadStore = Pick<BlobStore, "delete"> & Required<Pick<BlobStore, "stat" | "getRange">>;

type Log = Pick<Console, "info" | "warn">;

/** Keys in notifications are URL-encoded with "+" for spaces. */
export function decodeS3Key(key: string): string {
  return decodeURIComponent(key.replace(/\+/g, " "));
}

/** The key as S3 writes it into a notification. */
export function encodeS3Key(key: string): string {
  return encodeURIComponent(key).replace(/%2F/g, "/").replace(/%20/g, "+");
}

function refusal(size: number, contentType: string): string | undefined {
  if (size === 0) return "empty object";
  if (!UPLOAD_CONTENT_TYPES.has(contentType)) return `content type ${JSON.stringify(contentType)} not allowed`;
  if (size > maxBytesOf(contentType)) return `size ${size} exceeds ${maxBytesOf(contentType)}`;
  return undefined;
}

/** A workbook is a ZIP archive; a CSV file is text, which has no NUL byte; a PDF or a picture
 *  starts with its signature. */
function contentRefusal(contentType: string, head: Uint8Array): string | undefined {
  if (contentType === TABULAR_CONTENT_TYPES.xlsx) {
    return ZIP_SIGNATURE.every((byte, i) => head[i] === byte) ? undefined : "not an .xlsx workbook (no ZIP signature)";
  }
  const signature = EVIDENCE_TYPES.get(contentType);
  if (signature) return startsWith(head, signature) ? undefined : `not a ${contentType} file (signature)`;
  return head.includes(0) ? "not a text file (NUL bytes)" : undefined;
}

async function readHead(store: UploadStore, key: string, size: number): Promise<Uint8Array | undefined> {
  const stream = await store.getRange(key, 0, Math.min(size, SNIFF_BYTES) - 1);
  if (!stream) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function checkUploads(
  event: S3UploadEvent,
  storeOf: (bucket: string) => UploadStore,
  log: Log = console,
): Promise<UploadVerdict[]> {
  const verdicts: UploadVerdict[] = [];
  for (const record of event.Records ?? []) {
    if (!record.eventName.startsWith("ObjectCreated:")) continue;
    const bucket = record.s3.bucket.name;
    const key = decodeS3Key(record.s3.object.key);
    const store = storeOf(bucket);
    // Replaced or removed since the notification: nothing left to check.
    const stat = await store.stat(key);
    if (!stat) continue;
    const contentType = stat.contentType.split(";")[0].trim().toLowerCase();
    let reason = refusal(stat.size, contentType);
    if (!reason) {
      const head = await readHead(store, key, stat.size);
      if (!head) continue;
      reason = contentRefusal(contentType, head);
    }
    if (reason) {
      await store.delete(key);
      log.warn(JSON.stringify({ upload: "refused", bucket, key, reason }));
    } else {
      log.info(JSON.stringify({ upload: "accepted", bucket, key, size: stat.size, contentType }));
    }
    verdicts.push({ bucket, key, accepted: !reason, reason });
  }
  return verdicts;
}

const orMissing = async <T>(read: Promise<T>): Promise<T | undefined> => {
  try {
    return await read;
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
};

/** The notifying bucket, addressed with the key S3 named (not the API's blob store, which refuses
 *  keys it would not make itself: an object put there by other means is checked all the same). */
export function s3UploadStores(s3: S3Client): (bucket: string) => UploadStore {
  return (Bucket) => ({
    async stat(Key) {
      const head = await orMissing(s3.send(new HeadObjectCommand({ Bucket, Key })));
      return head && { size: head.ContentLength ?? 0, contentType: head.ContentType ?? "" };
    },
    async getRange(Key, start, end) {
      const out = await orMissing(s3.send(new GetObjectCommand({ Bucket, Key, Range: `bytes=${start}-${end}` })));
      return out?.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
    },
    async delete(Key) {
      await s3.send(new DeleteObjectCommand({ Bucket, Key }));
    },
  });
}
