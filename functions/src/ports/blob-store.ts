// The blob store: files kept in S3 or the local folder.

export interface BlobStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ body: Uint8Array; contentType: string } | undefined>;
  delete(key: string): Promise<void>;
  /** A time-limited URL the browser can download `key` from, saved as `fileName`. Only a store that
   *  can hand out such URLs (S3 presigning) has it; large exports then go by redirect (Lambda's
   *  response size limit) instead of in the response body. */
  downloadUrl?(key: string, fileName: string, expiresInSeconds: number, disposition?: "attachment" | "inline"): Promise<string>;
  /** A time-limited URL the browser can PUT the object `key` to, straight into storage (S3
   *  presigning: a PDF or a video does not fit through Lambda's 6 MB payload). The request must
   *  carry `headers` (what was signed: Content-Type, If-None-Match, the pending tag). `maxBytes`
   *  is the limit the caller will check on completion: a presigned PUT cannot enforce a size
   *  range, so nothing is trusted before `stat`/`getRange` have looked at what arrived. A store without it (the local folder) is
   *  uploaded to through the API instead (PUT /api/v1/uploads/, functions/src/http/UPLOADS.md). */
  uploadUrl?(
    key: string,
    contentType: string,
    maxBytes: number,
    expiresInSeconds: number,
    options?: UploadUrlOptions,
  ): Promise<PresignedUpload>;
  /** Size and type of `key` without reading it; undefined when missing. */
  stat?(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /** Bytes start..end (inclusive) of `key`, read by range; undefined when the key is missing. */
  getRange?(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array> | undefined>;
  /** Writes `key` from a stream without holding it in memory; resolves to the bytes written. */
  putStream?(key: string, body: ReadableStream<Uint8Array>, contentType: string, options?: PutStreamOptions): Promise<number>;
  /** Clears the pending mark of a direct upload whose object passed the completion's checks, before
   *  it is registered: S3 drops the `upload=pending` tag the presigned PUT set (the bucket's
   *  lifecycle rule expires tagged objects after a day); the local folder removes the marker its
   *  upload route wrote. A key that was never marked is left as it is. Rejects (with `code:
   *  "ENOENT"` where the store can tell) when the object is gone: swept meanwhile. */
  confirmUpload?(key: string): Promise<void>;
  /** Deletes the objects under `areas` still marked pending (never confirmed) whose mark is older
   *  than `olderThan`, and resolves to their keys. Only a store that marks pending objects itself
   *  (the local folder) has it; in S3 the lifecycle rule does this. */
  deletePendingUploads?(areas: readonly string[], olderThan: Date): Promise<string[]>;
  /** The keys under `area` last written before `before`, page by page (the orphan sweep,
   *  domain/files/orphan-blobs.ts). */
  keysWrittenBefore?(area: string, before: Date): AsyncIterable<string[]>;
  /** Deletes the temporary files of writes under `areas` that never finished (a crash between the
   *  write and its rename) and are older than `olderThan`; resolves to their paths. Only a store
   *  that writes through temporary files (the local folder) has it: an S3 PUT leaves none. */
  deleteWriteLeftovers?(areas: readonly string[], olderThan: Date): Promise<string[]>;
}

export interface PutStreamOptions {
  /** A direct upload (PUT /api/v1/uploads/): written once — rejected with `code: "EEXIST"` when the
   *  key exists, like S3's If-None-Match: * — and marked pending until `confirmUpload`. */
  pending?: boolean;
}

export interface UploadUrlOptions {
  /** The exact size the upload must have: S3 checks the signed Content-Length (the browser sets it
   *  from the body, so it is not among the answered headers), which bounds what arrives. */
  contentLength?: number;
}

/** Where and how the browser sends a file straight to storage. */
export interface PresignedUpload {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
}

/** Optional BlobStore abilities for large files (videos up to 500 MB): written from a stream and
 *  read by byte range, never held whole in memory. A store without them falls back to put/get. */
export interface StreamingBlobStore {
  putStream(key: string, body: ReadableStream<Uint8Array>, contentType: string, options?: PutStreamOptions): Promise<number>;
  /** Bytes start..end (inclusive) of `key`; undefined when the key is missing. */
  getRange(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array> | undefined>;
  stat(key: string): Promise<{ size: number; contentType: string } | undefined>;
}
