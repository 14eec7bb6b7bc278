// Direct-to-storage uploads of admin files (normative-document PDFs ≤ 50 MB, settings videos
// ≤ 500 MB): one client flow for both hosts (functions/src/http/UPLOADS.md).
//
//   1. POST …/upload-url/ {…, content_type, size} checks the declared type and size and answers
//      {url, method: "PUT", headers, upload_id, expires_at};
//   2. the browser PUTs the file to `url` with `headers`: in AWS an S3 presigned PUT (Lambda's 6 MB
//      payload cannot carry the file), locally PUT /api/v1/uploads/?token={upload_id}, which streams
//      the body to disk with the size cap (http/direct-uploads.ts);
//   3. POST …/complete/ {upload_id} checks what was stored (size, first bytes by a ranged read),
//      confirms it (clears its pending mark) and registers it, or deletes the object and refuses.
//
// A file is exactly the size it was declared with: the presigned PUT signs its Content-Length (S3
// refuses any other body), the local route refuses a body of any other length, and the completion
// checks the stored size again.
//
// What is PUT but never completed is marked pending from the start (S3: the signed tag
// upload=pending; locally: a marker beside the blob) and deleted a day later (S3: the bucket's
// lifecycle rule; locally: sweepAbandonedUploads, run by the local server).
//
// The upload_id is a JWT (signed-tokens.ts: HS256 with the API secret, algorithm pinned) of type
// "upload", audience "upload": it names the storage key (made of ids only, chosen by the server),
// the declared type and size, the limit, the admin it was issued to and what the file is for (a new
// or an existing document, or a video kind). The client never names a key, so it cannot complete
// (register) an object it was not given, nor one given to another admin.
import { errors as joseErrors, type JWTPayload } from "jose";
import { signJwt, verifyGrant } from "../signed-tokens";
import type { Actor, Deps } from "../context";
import { Conflict, invalidAt, NotFound, Unauthorized, UnsupportedMedia } from "../errors";
import { checkedStream, collect, FileTooLarge } from "./uploads";
import type { MediaKind } from "../../ports";
import { MEDIA_KINDS } from "../../contract/schemas/common";
import type * as z from "zod";
import type { uploadGrantSchema } from "../../contract/schemas/answers";
import { fileSizesApart } from "../../contract/schemas/uploads";
import { LIMITS, STORED_ID } from "../../contract/schemas/limits";

const TOKEN_AUDIENCE = "upload";
/** How many leading bytes completion reads to decide the type (PDF, MP4, WebM). */
export const HEAD_BYTES = 64;

export type UploadTarget =
  /** A PDF for a new document (`document` is the id it will get) or an existing one. */
  | { purpose: "document"; document: string; create: boolean }
  | { purpose: "media"; kind: MediaKind }
  /** A forecast's or a calibration's history (domain/forecast/uploads.ts): no completion; the call
   *  that uses it names its key, reads it and deletes it. */
  | { purpose: "forecast" }
  /** A mine's dispatch export (domain/monitoring/ingest/files.ts): POST v1/telemetry/files/ names its key. */
  | { purpose: "readings" };

export type UploadClaims = UploadTarget & {
  key: string;
  content_type: string;
  /** The limit in bytes when the upload was granted. */
  max: number;
  /** The size the client declared. */
  size: number;
  /** The file's name, for display only. */
  name: string;
  /** Issued to this user (id) of this company. */
  sub: string;
  cid: string;
  /** Seconds since the epoch: the upload URL works until then; the upload_id until `exp`. */
  put_exp: number;
  exp: number;
};

/** What an upload grant answers: where and how to PUT the file, and the token to complete it. */
export type UploadGrant = z.output<typeof uploadGrantSchema>;

export interface UploadRequest {
  content_type: string;
  size: number;
  name?: string;
}

/** The declared type and size against the limits: 415, 400 (empty), 413. */
export function checkDeclared(request: UploadRequest, types: readonly string[], maxBytes: number, typeError: string): string {
  const type = request.content_type.split(";")[0].trim().toLowerCase();
  if (!types.includes(type)) throw new UnsupportedMedia(typeError);
  if (!Number.isSafeInteger(request.size) || request.size < 0) throw invalidAt("size", "ожидается размер файла в байтах");
  if (request.size === 0) throw invalidAt("size", "файл пуст");
  if (request.size > maxBytes) throw new FileTooLarge(maxBytes);
  return type;
}

/** Signs the upload_id and asks the store for a direct URL; a store without one (the local folder)
 *  is written through the API's own upload route, which takes the same token. */
export async function grantUpload(
  deps: Deps,
  actor: Actor,
  target: UploadTarget,
  file: { key: string; contentType: string; max: number; size: number; name?: string },
  ttl = deps.config.uploadUrlTtlSeconds,
): Promise<UploadGrant> {
  const iat = Math.floor(deps.clock.now().getTime() / 1000);
  const putExp = iat + ttl;
  const token = await signJwt(
    deps.config,
    {
      claims: {
        typ: "upload",
        ...target,
        key: file.key,
        content_type: file.contentType,
        max: file.max,
        size: file.size,
        name: (file.name ?? "").slice(0, LIMITS.name.file),
        cid: actor.company,
        put_exp: putExp,
      },
      subject: actor.id,
      audience: TOKEN_AUDIENCE,
      issuedAt: iat,
      expiresAt: iat + 2 * ttl,
    },
    deps.runtime,
  );
  const direct = deps.blobs.uploadUrl
    ? await deps.blobs.uploadUrl(file.key, file.contentType, file.max, ttl, { contentLength: file.size })
    : { url: `/api/v1/uploads/?token=${encodeURIComponent(token)}`, method: "PUT" as const, headers: { "Content-Type": file.contentType } };
  return { ...direct, upload_id: token, expires_at: new Date(putExp * 1000).toISOString() };
}

const KEY_OF: Record<UploadTarget["purpose"], RegExp> = {
  document: /^documents\/[0-9a-f-]{36}$/,
  media: new RegExp(`^media/(${MEDIA_KINDS.join("|")})/[0-9a-f-]{36}$`),
  forecast: new RegExp(`^forecast-uploads/${STORED_ID}/${STORED_ID}/\\d{1,7}/[0-9a-f-]{36}\\.(csv|xlsx)$`),
  readings: new RegExp(`^telemetry-uploads/${STORED_ID}/${STORED_ID}/[0-9a-f-]{36}\\.csv$`),
};

function claimsOf(payload: JWTPayload): UploadClaims | undefined {
  const p = payload as Record<string, unknown>;
  const common =
    p.typ === "upload" &&
    typeof p.key === "string" &&
    typeof p.content_type === "string" &&
    Number.isSafeInteger(p.max) &&
    Number.isSafeInteger(p.size) &&
    typeof p.name === "string" &&
    typeof p.sub === "string" &&
    typeof p.cid === "string" &&
    Number.isSafeInteger(p.put_exp);
  if (!common) return undefined;
  if (
    p.purpose === "document" &&
    typeof p.document === "string" &&
    typeof p.create === "boolean" &&
    KEY_OF.document.test(p.key as string)
  ) {
    return p as unknown as UploadClaims;
  }
  const key = p.key as string;
  if (p.purpose === "forecast" && KEY_OF.forecast.test(key) && key.startsWith(`forecast-uploads/${p.cid as string}/${p.sub as string}/`)) {
    return p as unknown as UploadClaims;
  }
  if (p.purpose === "readings" && KEY_OF.readings.test(key) && key.startsWith(`telemetry-uploads/${p.cid as string}/`)) {
    return p as unknown as UploadClaims;
  }
  if (
    p.purpose === "media" &&
    (MEDIA_KINDS as readonly unknown[]).includes(p.kind) &&
    KEY_OF.media.test(key) &&
    key.startsWith(`media/${p.kind}/`)
  ) {
    return p as unknown as UploadClaims;
  }
  return undefined;
}

async function verified(deps: Deps, token: string): Promise<UploadClaims | "expired" | undefined> {
  try {
    const payload = await verifyGrant(deps, token, TOKEN_AUDIENCE);
    return claimsOf(payload);
  } catch (error) {
    return error instanceof joseErrors.JWTExpired ? "expired" : undefined;
  }
}

/** POST …/complete/: the upload_id must be valid, of this purpose, and issued to this admin. A
 *  refusal is a 400 naming the field (never a 401: the caller's session is fine). */
export async function verifyUploadId<P extends UploadTarget["purpose"]>(
  deps: Deps,
  actor: Actor,
  token: string,
  purpose: P,
): Promise<UploadClaims & { purpose: P }> {
  const claims = await verified(deps, token);
  if (claims === "expired") throw invalidAt("upload_id", "срок загрузки истек, загрузите файл заново");
  if (!claims || claims.purpose !== purpose) throw invalidAt("upload_id", "недействительный идентификатор загрузки");
  if (claims.sub !== actor.id || claims.cid !== actor.company) throw invalidAt("upload_id", "загрузка начата другим пользователем");
  return claims as UploadClaims & { purpose: P };
}

export interface StoredHead {
  size: number;
  head: Uint8Array;
}

/** What arrived under `key`: its size and first bytes, by a ranged read (never the whole object,
 *  except from a store that cannot read ranges). */
export async function inspectStored(deps: Deps, key: string): Promise<StoredHead | undefined> {
  const { stat, getRange } = deps.blobs;
  if (stat && getRange) {
    const info = await stat.call(deps.blobs, key);
    if (!info) return undefined;
    if (info.size === 0) return { size: 0, head: new Uint8Array(0) };
    const range = await getRange.call(deps.blobs, key, 0, Math.min(HEAD_BYTES, info.size) - 1);
    if (!range) return undefined;
    return { size: info.size, head: (await collect(range)).subarray(0, HEAD_BYTES) };
  }
  const blob = await deps.blobs.get(key);
  return blob && { size: blob.body.byteLength, head: blob.body.subarray(0, HEAD_BYTES) };
}

const storedAt = async (deps: Deps, key: string): Promise<boolean> =>
  (deps.blobs.stat ? await deps.blobs.stat(key) : await deps.blobs.get(key)) !== undefined;

/** The checks every completion makes: something arrived, not empty, within the granted limit and
 *  the current one, exactly the declared size, and its first bytes are what `accept` wants. */
export async function checkStored(
  deps: Deps,
  claims: UploadClaims,
  limit: number,
  accept: (head: Uint8Array) => void,
): Promise<StoredHead> {
  const stored = await inspectStored(deps, claims.key);
  if (!stored) throw invalidAt("upload_id", "файл не загружен в хранилище");
  if (stored.size === 0) throw invalidAt("file", "файл пуст");
  const max = Math.min(claims.max, limit);
  if (stored.size > max) throw new FileTooLarge(max);
  if (stored.size !== claims.size) throw sizeMismatch(stored.size, claims.size);
  accept(stored.head);
  return stored;
}

/** The object passed its checks: clear its pending mark (S3 tag, local marker) before it is
 *  registered, so the expiry of abandoned uploads never takes a registered file. (Cleared after the
 *  registration instead, a failure in between would leave a registered file to expire.) An object
 *  swept meanwhile is refused like one never uploaded. */
export async function confirmStored(deps: Deps, key: string): Promise<void> {
  if (!deps.blobs.confirmUpload) return;
  try {
    await deps.blobs.confirmUpload(key);
  } catch (error) {
    const gone = (error as { code?: string }).code === "ENOENT" || !(await storedAt(deps, key).catch(() => true));
    if (gone) throw invalidAt("upload_id", "файл не загружен в хранилище");
    throw error;
  }
}

/** Where direct uploads go: the areas the local sweep looks at (KEY_OF above names the same). */
export const DIRECT_UPLOAD_AREAS = ["documents", "media", "forecast-uploads", "telemetry-uploads"] as const;
/** A direct upload still pending after this long is deleted: a day, as the S3 lifecycle rule. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** Deletes the direct uploads that were PUT but never completed, pending for longer than a day —
 *  and at least for the upload_id's lifetime (2 × the URL's), so that nothing still completable is
 *  swept. For a store that marks pending uploads itself (the local folder); in S3 the bucket's
 *  lifecycle rule expires them. Resolves to the keys deleted. */
export async function sweepAbandonedUploads(deps: Deps): Promise<string[]> {
  if (!deps.blobs.deletePendingUploads) return [];
  const age = Math.max(ABANDONED_UPLOAD_MS, 2 * deps.config.uploadUrlTtlSeconds * 1000);
  return deps.blobs.deletePendingUploads(DIRECT_UPLOAD_AREAS, new Date(deps.clock.now().getTime() - age));
}

/** A refused completion deletes what was uploaded, unless the key has meanwhile been registered
 *  (the same upload_id completed twice at once: the other call won). */
export async function discardUnlessRegistered(deps: Deps, key: string, registered: () => Promise<boolean>): Promise<void> {
  if (await registered()) return;
  await deps.blobs.delete(key);
}

/** The key's single-use mark (`{key}.used`): created once, refused (409) a second time. */
export const usedMarkOf = (key: string) => `${key}.used`;

async function claimToken(deps: Deps, key: string): Promise<void> {
  const empty = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  try {
    if (deps.blobs.putStream) await deps.blobs.putStream(usedMarkOf(key), empty, "application/octet-stream", { pending: true });
    else if (await storedAt(deps, usedMarkOf(key))) throw Object.assign(new Error("used"), { code: "EEXIST" });
    else await deps.blobs.put(usedMarkOf(key), new Uint8Array(0), "application/octet-stream");
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST")
      throw new Conflict("Адрес загрузки уже использован: запросите новый адрес загрузки");
    throw error;
  }
}

const sizeMismatch = (sent: number, declared: number) => {
  const [got, expected] = fileSizesApart(sent, declared);
  return invalidAt(
    "file",
    `файл ${sent < declared ? "меньше" : "больше"} заявленного размера (${got} вместо ${expected}): загрузите его заново`,
  );
};

/** PUT /api/v1/uploads/?token=: the local host's stand-in for the presigned PUT. The token is the
 *  credential (no bearer header, like S3); the body is streamed to storage with the granted size
 *  cap, never held whole. The type is checked by the completion, as it is for S3. */
export async function receiveUpload(
  deps: Deps,
  token: string | undefined,
  upload: { body: ReadableStream<Uint8Array> | null; contentType: string; declaredLength?: number },
): Promise<{ size: number }> {
  if (deps.blobs.uploadUrl) throw new NotFound("Файлы загружаются прямо в хранилище: запросите адрес загрузки");
  const claims = token ? await verified(deps, token) : undefined;
  const now = deps.clock.now().getTime() / 1000;
  if (!claims || claims === "expired" || claims.put_exp < now) {
    throw new Unauthorized(
      claims === "expired" || (claims && claims.put_exp < now)
        ? "Адрес загрузки устарел: загрузите файл заново"
        : "Адрес загрузки недействителен",
      "upload_token",
    );
  }
  // S3 refuses a PUT whose Content-Type differs from the signed one; so does this route.
  const type = upload.contentType.split(";")[0].trim().toLowerCase();
  if (type !== claims.content_type) throw new UnsupportedMedia(`Ожидается Content-Type ${claims.content_type}`);
  // Like the signed Content-Length of the presigned PUT: exactly the declared size.
  if (upload.declaredLength !== undefined && upload.declaredLength !== claims.size) {
    if (upload.declaredLength > claims.max) throw new FileTooLarge(claims.max);
    throw sizeMismatch(upload.declaredLength, claims.size);
  }
  if (!upload.body) throw invalidAt("file", "файл пуст");
  // Like the presigned PUT's If-None-Match: *, a granted key is written once; a registered file
  // cannot be overwritten through a URL that is still valid.
  if (await storedAt(deps, claims.key)) {
    throw new Conflict("Файл по этому адресу уже загружен: запросите новый адрес загрузки");
  }
  // A forecast's history is deleted once used, so "written once" alone would let the same token
  // write it again: its first PUT claims the token for good (a pending mark beside the key, created
  // exclusively, swept with the abandoned uploads a day later).
  if (claims.purpose === "forecast") await claimToken(deps, claims.key);
  const checked = checkedStream(upload.body, Math.min(claims.max, claims.size), 0, () => {});
  // Written once (two PUTs racing past the check above: one gets 409) and marked pending until
  // completion, like the S3 object's upload=pending tag (a store without putStream marks nothing).
  try {
    if (deps.blobs.putStream) await deps.blobs.putStream(claims.key, checked.stream, claims.content_type, { pending: true });
    else await deps.blobs.put(claims.key, await collect(checked.stream), claims.content_type);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST")
      throw new Conflict("Файл по этому адресу уже загружен: запросите новый адрес загрузки");
    throw error;
  }
  // A body that ended early (no Content-Length, or one the client did not keep to) is not kept.
  if (checked.size() !== claims.size) {
    await deps.blobs.delete(claims.key);
    throw sizeMismatch(checked.size(), claims.size);
  }
  return { size: checked.size() };
}
