// A forecast's or a calibration's history straight to storage (docs/api.md, «Large histories»):
// a year of 10-minute readings (52 560 rows, about 8 MB as CSV) does not fit in a request (4 MB,
// Lambda's 6 MB payload). So:
//
//   1. POST v1/forecast/upload-url/ {content_type, size, name} checks the declared type (.csv or
//      .xlsx) and size (≤ MAX_FORECAST_UPLOAD_BYTES) and answers where to PUT the file: an S3
//      presigned PUT in AWS (the documents bucket's area forecast-uploads/, short-lived, created
//      once and tagged pending), locally PUT /api/v1/uploads/?token=… (streamed to disk under the
//      granted size, the token good for one PUT) — and `file_upload`, the object's key;
//   2. the browser PUTs the file there;
//   3. the forecast (POST/PATCH v1/regres_methane/, dry run included) or the calibration
//      (POST v1/forecast_models/{id}/calibration/) names `file_upload` in its form instead of the
//      file: the object is read from storage and then goes exactly the multipart file's way (the same
//      readers, the same row errors), and is deleted after that one use, whatever its outcome. A
//      dry run (the dialog's preview) reads it and keeps it, so that the save that follows names
//      the same key instead of sending the file again; the save (or the calibration) is its one use.
//
// The key is `forecast-uploads/{company}/{user}/{day}/{uuid v7}.{csv|xlsx}`, chosen by the server
// (day: of the grant, in days since 1970-01-01 UTC): a key of another company, or one already used
// or never uploaded, is not found (404). What is granted but never used is deleted a day later (S3:
// the bucket's lifecycle rules; locally the upload sweep). Each user and each company has a budget
// of bytes granted and not yet used (docs/security.md): a grant takes its declared size from both
// on its day, and the use gives it back to the user, company and day its key names.
import { lineOf } from "../../contract/field-errors";
import {
  FORECAST_UPLOADS_PER_COMPANY_BYTES,
  FORECAST_UPLOADS_PER_USER_BYTES,
  MAX_FORECAST_UPLOAD_BYTES,
  TABULAR_CONTENT_TYPES,
  fileSize,
} from "../../contract/schemas/uploads";
import type { UploadedFile } from "../../files/tabular";
import type { Actor, Deps } from "../context";
import { checkDeclared, grantUpload, type UploadGrant, type UploadRequest } from "../files/direct-uploads";
import { invalidAt, NotFound, TooManyRequests } from "../errors";
import { newId } from "../ids";
import { FileTooLarge } from "../files/uploads";
import { forgetPreviewColumns } from "./preview-columns";
import { LIMITS, STORED_ID } from "../../contract/schemas/limits";
import { DAY_MS } from "@core/dates";

/** The area of these uploads (adapters/blob/areas.ts: the documents bucket, with the admins' files). */
export const FORECAST_UPLOAD_AREA = "forecast-uploads";
/** The upload URL's lifetime: a history is sent at once, not resumed tomorrow. */
export const FORECAST_UPLOAD_TTL_SECONDS = 15 * 60;
/** The form field naming the uploaded object instead of the file. */
export const FILE_UPLOAD_FIELD = "file_upload";
/** The form field with the uploaded file's name, for display (the calculation's file_data.name). */
export const FILE_UPLOAD_NAME_FIELD = "file_upload_name";

const KEY_RE = new RegExp(`^forecast-uploads/(${STORED_ID})/(${STORED_ID})/(\\d{1,7})/[0-9a-f-]{36}\\.(csv|xlsx)$`);
const TYPE_ERROR = lineOf({ field: "content_type", message: "ожидается файл .xlsx или .csv (text/csv)" });

/** The budgets a grant of `user` takes from, by day: the user's and the company's. */
const budgets = (user: string) => [
  { name: `UPLOADS#USER#${user}#DAY#`, limit: FORECAST_UPLOADS_PER_USER_BYTES },
  { name: "UPLOADS#DAY#", limit: FORECAST_UPLOADS_PER_COMPANY_BYTES },
];

/** Takes `bytes` from the user's and the company's budgets: what today's and yesterday's grants
 *  took and was not used yet, plus `bytes`, within each; 429 otherwise, nothing taken. */
async function takeUploadBudget(deps: Deps, actor: Actor, day: number, bytes: number): Promise<void> {
  const now = deps.clock.now().getTime();
  const taken: string[] = [];
  for (const { name, limit } of budgets(actor.id)) {
    const yesterday = await deps.repos.caps.taken(actor.company, `${name}${day - 1}`);
    if (await deps.repos.caps.take(actor.company, `${name}${day}`, limit - yesterday, async () => 0, bytes)) {
      taken.push(`${name}${day}`);
      continue;
    }
    await Promise.all(taken.map((cap) => deps.repos.caps.give(actor.company, cap, bytes)));
    const whose = limit === FORECAST_UPLOADS_PER_USER_BYTES ? "вами" : "вашей организацией";
    throw new TooManyRequests(
      `Загруженные ${whose} и еще не использованные файлы истории вместе с этим превысили бы ${fileSize(limit)} ` +
        `(не более ${fileSize(FORECAST_UPLOADS_PER_USER_BYTES)} на пользователя и ${fileSize(FORECAST_UPLOADS_PER_COMPANY_BYTES)} на организацию): ` +
        "сохраните прогнозы по уже загруженным файлам или повторите завтра",
      // Yesterday's grants stop counting at midnight (UTC).
      Math.ceil(((day + 1) * DAY_MS - now) / 1000),
    );
  }
}

/** Gives a used upload's bytes back to the budgets its key names, on the day it was granted. */
async function giveUploadBudget(deps: Deps, company: string, user: string, day: string, bytes: number): Promise<void> {
  await Promise.all(budgets(user).map(({ name }) => deps.repos.caps.give(company, `${name}${day}`, bytes)));
}

/** POST v1/forecast/upload-url/: any signed-in user, for their own company, within its budgets. */
export async function forecastUploadUrl(deps: Deps, actor: Actor, request: UploadRequest): Promise<UploadGrant & { file_upload: string }> {
  const contentType = checkDeclared(request, Object.values(TABULAR_CONTENT_TYPES), MAX_FORECAST_UPLOAD_BYTES, TYPE_ERROR);
  const format = contentType === TABULAR_CONTENT_TYPES.xlsx ? "xlsx" : "csv";
  const day = Math.floor(deps.clock.now().getTime() / DAY_MS);
  const key = `${FORECAST_UPLOAD_AREA}/${actor.company}/${actor.id}/${day}/${newId()}.${format}`;
  await takeUploadBudget(deps, actor, day, request.size);
  // The declared size is the file's: S3 checks the signed Content-Length, the local route counts
  // the streamed bytes against it.
  const grant = await grantUpload(
    deps,
    actor,
    { purpose: "forecast" },
    { key, contentType, max: request.size, size: request.size, name: request.name },
    Math.min(FORECAST_UPLOAD_TTL_SECONDS, deps.config.uploadUrlTtlSeconds),
  );
  return { ...grant, file_upload: key };
}

/** The uploaded history named by `key`, read whole (the readers need it so), with `name` for
 *  display (its extension is the key's). Another company's key answers as a missing one. */
export async function readForecastUpload(deps: Deps, actor: Actor, key: string, name?: string): Promise<UploadedFile> {
  const match = KEY_RE.exec(key);
  if (!match) throw invalidAt(FILE_UPLOAD_FIELD, "ожидается ключ файла из ответа upload-url");
  const missing = new NotFound("Загруженный файл не найден: загрузите его заново");
  if (match[1] !== actor.company) throw missing;
  const info = deps.blobs.stat ? await deps.blobs.stat(key) : undefined;
  if (info && info.size > MAX_FORECAST_UPLOAD_BYTES) {
    await deps.blobs.delete(key);
    throw new FileTooLarge(MAX_FORECAST_UPLOAD_BYTES);
  }
  const blob = await deps.blobs.get(key);
  if (!blob) throw missing;
  const extension = `.${match[4]}`;
  const given = (name ?? "").trim().slice(0, LIMITS.name.file);
  return { name: given.toLowerCase().endsWith(extension) ? given : `${given || "history"}${extension}`, bytes: blob.body, upload: key };
}

/** Runs `use` on the uploaded history and deletes it afterwards, used or refused: a key serves once.
 *  A dry run (`keep`) only reads it: nothing is stored, so the save after the preview may name the
 *  same key; what no save follows is deleted with the never-used uploads a day later. */
export async function withForecastUpload<T>(
  deps: Deps,
  actor: Actor,
  key: string,
  name: string | undefined,
  use: (file: UploadedFile) => Promise<T>,
  keep = false,
): Promise<T> {
  const file = await readForecastUpload(deps, actor, key, name);
  if (keep) return use(file);
  try {
    return await use(file);
  } finally {
    forgetPreviewColumns(deps, key);
    await deps.blobs.delete(key);
    const [, company, user, day] = KEY_RE.exec(key)!;
    await giveUploadBudget(deps, company, user, day, file.bytes.byteLength);
  }
}
