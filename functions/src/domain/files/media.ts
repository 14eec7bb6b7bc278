// Settings videos (docs/user-guide.md, /settings): «Видеоинструкция» and «Презентация».
//
// Playback: a <video> element cannot send the bearer header, and fetching a 500 MB video into a
// blob: URL first would defeat streaming and seeking. So GET /api/v1/media/ (bearer) hands out a
// signed same-origin URL, /api/v1/media/{kind}/?token=…, whose token is a JWT of type "media"
// (signed-tokens.ts, audience "media", bound to the kind, valid 10 minutes). The
// stream route verifies it and serves byte ranges, so the browser seeks without downloading the
// whole file; the CSP's media-src 'self' allows it. An expired token fails the next range request;
// the settings page then asks for a fresh URL. The token is not an access token (its type differs)
// and opens nothing but that one video.
//
// In AWS (API Gateway 10 MB, Lambda 6 MB payloads) neither way fits through the API: the video
// URL is an S3 presigned GET instead (media-src names the bucket there), and uploads go straight to
// storage (mediaUploadUrl / completeMediaUpload, direct-uploads.ts), the flow the web app uses on
// both hosts. The older upload route remains for scripts and tests: the raw file as the request body
// (PUT, Content-Type video/mp4 or video/webm), streamed to the blob store through a type and size
// check (uploads.ts); nothing is held whole in memory. See functions/src/http/UPLOADS.md.
import { signJwt, verifyGrant } from "../signed-tokens";
import type { Actor, Deps } from "../context";
import { invalidAt, NotFound, Unauthorized, UnsupportedMedia } from "../errors";
import { newId } from "../ids";
import { checkedStream, collect, detectVideo, FileTooLarge, VIDEO_SNIFF_BYTES, type VideoType } from "./uploads";
import { VIDEO_CONTENT_TYPES } from "../../contract/schemas/uploads";
import { checkDeclared, checkStored, confirmStored, discardUnlessRegistered, grantUpload, verifyUploadId } from "./direct-uploads";
import type { UploadGrant, UploadRequest } from "./direct-uploads";
import type { MediaItem, MediaKind } from "../../ports";
import { MEDIA_KIND_LABELS, MEDIA_KINDS } from "../../contract/schemas/common";

/** The refusal of a video's replacement when someone else has replaced it since (the storage
 *  adapters give it when their conditional write fails). */
export const STALE_MEDIA = "Видео уже заменено другим пользователем. Обновите страницу и повторите.";
import { assertAdmin, recordChange } from "../audit";
import type * as z from "zod";
import type { mediaStatusSchema } from "../../contract/schemas/answers";
import { LIMITS } from "../../contract/schemas/limits";

const TOKEN_AUDIENCE = "media";

export function mediaKind(raw: string): MediaKind {
  if (!(MEDIA_KINDS as readonly string[]).includes(raw)) throw new NotFound("Видео не найдено");
  return raw as MediaKind;
}

const VIDEO_TYPES: readonly VideoType[] = Object.values(VIDEO_CONTENT_TYPES);

/** A video's status as the settings page reads it (the url: signed same-origin locally, presigned in AWS, short-lived). */
export type MediaStatus = z.output<typeof mediaStatusSchema>;

async function liveItem(deps: Deps, kind: MediaKind): Promise<MediaItem | undefined> {
  const item = await deps.repos.media.get(kind);
  return item && !item.is_deleted ? item : undefined;
}

export async function signMediaToken(deps: Deps, actor: Actor, kind: MediaKind): Promise<{ token: string; expiresAt: Date }> {
  const iat = Math.floor(deps.clock.now().getTime() / 1000);
  const exp = iat + deps.config.mediaUrlTtlSeconds;
  const token = await signJwt(
    deps.config,
    {
      claims: { typ: "media", kind, cid: actor.company },
      subject: actor.id,
      audience: TOKEN_AUDIENCE,
      issuedAt: iat,
      expiresAt: exp,
    },
    deps.runtime,
  );
  return { token, expiresAt: new Date(exp * 1000) };
}

/** The stream route's check: a valid media token for this kind, of a user who is still active. */
export async function verifyMediaToken(deps: Deps, token: string | undefined, kind: MediaKind): Promise<void> {
  if (!token) throw new Unauthorized("Ссылка на видео недействительна: нет токена", "media_token");
  let payload;
  try {
    payload = await verifyGrant(deps, token, TOKEN_AUDIENCE);
  } catch {
    throw new Unauthorized("Ссылка на видео устарела или недействительна", "media_token");
  }
  if (payload.typ !== "media" || payload.kind !== kind || typeof payload.sub !== "string" || typeof payload.cid !== "string") {
    throw new Unauthorized("Ссылка на видео недействительна", "media_token");
  }
  const user = await deps.repos.users.get(payload.cid, payload.sub);
  if (!user?.is_active) throw new Unauthorized("Пользователь не найден или отключен", "user_inactive");
}

/** GET /api/v1/media/: both videos with fresh signed URLs (any signed-in user). */
export async function mediaStatus(deps: Deps, actor: Actor): Promise<MediaStatus[]> {
  const out: MediaStatus[] = [];
  for (const kind of MEDIA_KINDS) {
    const item = await liveItem(deps, kind);
    if (!item) {
      out.push({ kind, label: MEDIA_KIND_LABELS[kind], url: null, content_type: null, size: null, uploaded_at: null, expires_at: null });
      continue;
    }
    let url: string;
    let expiresAt: Date;
    if (deps.blobs.downloadUrl) {
      // AWS: a presigned GET the browser plays straight from S3, with byte ranges (a Lambda answer
      // carries 6 MB at most); the CSP's media-src names the bucket there.
      const ttl = deps.config.mediaUrlTtlSeconds;
      expiresAt = new Date(deps.clock.now().getTime() + ttl * 1000);
      url = await deps.blobs.downloadUrl(
        item.key,
        item.name || `${kind}.${item.content_type === "video/webm" ? "webm" : "mp4"}`,
        ttl,
        "inline",
      );
    } else {
      const signed = await signMediaToken(deps, actor, kind);
      expiresAt = signed.expiresAt;
      url = `/api/v1/media/${kind}/?v=${item.version}&token=${encodeURIComponent(signed.token)}`;
    }
    out.push({
      kind,
      label: MEDIA_KIND_LABELS[kind],
      url,
      content_type: item.content_type,
      size: item.size,
      uploaded_at: item.uploaded_at,
      expires_at: expiresAt.toISOString(),
    });
  }
  return out;
}

export interface MediaRange {
  start: number;
  end: number;
}

/** The bytes to serve. `range` undefined: the whole file. */
export async function openMedia(
  deps: Deps,
  kind: MediaKind,
  range?: MediaRange,
): Promise<{ item: MediaItem; body: ReadableStream<Uint8Array> | Uint8Array }> {
  const item = await liveItem(deps, kind);
  if (!item) throw new NotFound("Видео не загружено");
  const start = range?.start ?? 0;
  const end = range?.end ?? item.size - 1;
  if (deps.blobs.getRange) {
    const body = await deps.blobs.getRange(item.key, start, end);
    if (!body) throw new NotFound("Видео не найдено в хранилище");
    return { item, body };
  }
  const blob = await deps.blobs.get(item.key);
  if (!blob) throw new NotFound("Видео не найдено в хранилище");
  return { item, body: blob.body.subarray(start, end + 1) };
}

export interface MediaUpload {
  body: ReadableStream<Uint8Array> | null;
  /** The request's Content-Type; must agree with what the bytes say. */
  contentType: string;
  /** Content-Length when the client sent one: an oversize file is refused before any byte is read. */
  declaredLength?: number;
  name?: string;
}

export async function uploadMedia(deps: Deps, actor: Actor, kindName: string, upload: MediaUpload): Promise<MediaStatus> {
  assertAdmin(actor);
  const kind = mediaKind(kindName);
  const max = deps.config.videoMaxBytes;
  const declared = upload.contentType.split(";")[0].trim().toLowerCase();
  if (!(VIDEO_TYPES as readonly string[]).includes(declared)) {
    throw new UnsupportedMedia("Ожидается видео MP4 или WebM (Content-Type video/mp4 или video/webm)");
  }
  if (upload.declaredLength !== undefined && upload.declaredLength > max) throw new FileTooLarge(max);
  if (!upload.body) throw invalidAt("file", "файл пуст");

  let detected: VideoType | undefined;
  const checked = checkedStream(upload.body, max, VIDEO_SNIFF_BYTES, (head) => {
    detected = detectVideo(head);
    if (!detected) throw new UnsupportedMedia("Файл не является видео MP4 или WebM");
    if (detected !== declared) throw new UnsupportedMedia(`Содержимое файла — ${detected}, а заявлено ${declared}`);
  });
  const key = `media/${kind}/${newId()}`;
  if (deps.blobs.putStream) await deps.blobs.putStream(key, checked.stream, declared);
  else await deps.blobs.put(key, await collect(checked.stream), declared);
  return registerMedia(deps, actor, kind, { key, content_type: detected!, size: checked.size(), name: upload.name ?? "" });
}

/** Points the kind at a video already in the store (on a failed write it is removed, after a good
 *  one the replaced video), with the audit entry. */
async function registerMedia(
  deps: Deps,
  actor: Actor,
  kind: MediaKind,
  file: { key: string; content_type: string; size: number; name: string },
  discard: () => Promise<void> = () => deps.blobs.delete(file.key),
): Promise<MediaStatus> {
  const { key } = file;
  const current = await deps.repos.media.get(kind);
  // Already this file (the same direct upload completed by a concurrent call): nothing to write.
  if (current?.key === key && !current.is_deleted) return (await mediaStatus(deps, actor)).find((m) => m.kind === kind)!;
  const next: MediaItem = {
    kind,
    key,
    content_type: file.content_type,
    size: file.size,
    name: file.name.slice(0, LIMITS.name.file),
    version: (current?.version ?? 0) + 1,
    uploaded_at: deps.clock.now().toISOString(),
    uploaded_by: actor.email,
    is_deleted: false,
  };
  try {
    await deps.repos.media.put(next, current?.version ?? 0);
  } catch (error) {
    await discard();
    throw error;
  }
  if (current && current.key !== key) await deps.blobs.delete(current.key);
  await recordChange(deps, actor, {
    action: current && !current.is_deleted ? "media.replace" : "media.upload",
    target_type: "media",
    target_id: kind,
    target_label: MEDIA_KIND_LABELS[kind],
    before: current && !current.is_deleted ? current : null,
    after: next,
  });
  return (await mediaStatus(deps, actor)).find((m) => m.kind === kind)!;
}

/** Removes a video (the page then shows «Видео не загружено»); the file is deleted too, a video
 *  being replaceable at any time and far too large to keep as history. */
export async function removeMedia(deps: Deps, actor: Actor, kindName: string): Promise<void> {
  assertAdmin(actor);
  const kind = mediaKind(kindName);
  const current = await liveItem(deps, kind);
  if (!current) throw new NotFound("Видео не загружено");
  const next: MediaItem = { ...current, is_deleted: true, version: current.version + 1, uploaded_at: current.uploaded_at };
  await deps.repos.media.put(next, current.version);
  await deps.blobs.delete(current.key);
  await recordChange(deps, actor, {
    action: "media.remove",
    target_type: "media",
    target_id: kind,
    target_label: MEDIA_KIND_LABELS[kind],
    before: current,
    after: null,
  });
}

// ---- direct uploads (one flow for AWS and the local host; functions/src/http/UPLOADS.md) ----

export interface MediaUploadRequest extends UploadRequest {
  kind: string;
}

/** POST v1/admin/media/upload-url/: where to PUT a video (MP4 or WebM, ≤ videoMaxBytes). */
export async function mediaUploadUrl(deps: Deps, actor: Actor, request: MediaUploadRequest): Promise<UploadGrant> {
  assertAdmin(actor);
  const kind = mediaKind(request.kind);
  const max = deps.config.videoMaxBytes;
  const contentType = checkDeclared(request, VIDEO_TYPES, max, "Ожидается видео MP4 или WebM (content_type video/mp4 или video/webm)");
  return grantUpload(
    deps,
    actor,
    { purpose: "media", kind },
    { key: `media/${kind}/${newId()}`, contentType, max, size: request.size, name: request.name },
  );
}

/** POST v1/admin/media/complete/: the uploaded video checked by its size and first bytes (which must
 *  agree with the declared type), then made the kind's video. A refusal deletes the object;
 *  completing twice answers the same status. */
export async function completeMediaUpload(deps: Deps, actor: Actor, uploadId: string): Promise<MediaStatus> {
  assertAdmin(actor);
  const claims = await verifyUploadId(deps, actor, uploadId, "media");
  const registered = async () => {
    const item = await deps.repos.media.get(claims.kind);
    return item?.key === claims.key && !item.is_deleted;
  };
  const status = async () => (await mediaStatus(deps, actor)).find((m) => m.kind === claims.kind)!;
  if (await registered()) return status();
  const discard = () => discardUnlessRegistered(deps, claims.key, registered);
  try {
    const stored = await checkStored(deps, claims, deps.config.videoMaxBytes, (head) => {
      const detected = detectVideo(head);
      if (!detected) throw new UnsupportedMedia("Файл не является видео MP4 или WebM");
      if (detected !== claims.content_type) throw new UnsupportedMedia(`Содержимое файла — ${detected}, а заявлено ${claims.content_type}`);
    });
    await confirmStored(deps, claims.key);
    const file = { key: claims.key, content_type: claims.content_type, size: stored.size, name: claims.name };
    return await registerMedia(deps, actor, claims.kind, file, discard);
  } catch (error) {
    // The same upload_id completed twice at once: the other call registered the file.
    if (await registered()) return status();
    await discard();
    throw error;
  }
}

export async function mediaStatusAsAdmin(deps: Deps, actor: Actor): Promise<MediaStatus[]> {
  assertAdmin(actor);
  return mediaStatus(deps, actor);
}
