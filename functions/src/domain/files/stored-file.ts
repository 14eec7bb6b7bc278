// A stored file handed to its reader: a short-lived storage address where the store can give one (S3
// presigning: a Lambda answer holds at most 6 MB, a scan or a document more), else the bytes streamed
// from the store (the local folder), never read whole into memory.
import type { Deps } from "../context";

export type StoredFile =
  | { kind: "body"; body: Uint8Array | ReadableStream<Uint8Array>; size?: number; contentType: string; fileName: string }
  /** A short-lived storage address (S3 presigned GET) the page navigates to at once. */
  | { kind: "redirect"; url: string; fileName: string };

/** `key` of the store as `fileName`, the address living `seconds`; undefined when the store lacks it. */
export async function storedFile(blobs: Deps["blobs"], key: string, fileName: string, seconds: number): Promise<StoredFile | undefined> {
  if (blobs.downloadUrl) return { kind: "redirect", url: await blobs.downloadUrl(key, fileName, seconds), fileName };
  const { stat, getRange } = blobs;
  if (stat && getRange) {
    const info = await stat.call(blobs, key);
    const body = info && info.size > 0 ? await getRange.call(blobs, key, 0, info.size - 1) : undefined;
    return info && body ? { kind: "body", body, size: info.size, contentType: info.contentType, fileName } : undefined;
  }
  const blob = await blobs.get(key);
  return blob && { kind: "body", body: blob.body, size: blob.body.byteLength, contentType: blob.contentType, fileName };
}
