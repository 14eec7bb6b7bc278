// The caps on uploads, shared by the API, the S3 upload check and the web dialogs, and how a size
// reads in both.

/** A file's size or a cap as the screens and the messages write it: «812 Б», «14 КБ», «1,2 МБ»,
 *  «16 МБ» (binary units; megabytes with one decimal at most; Russian digits). */
export function fileSize(bytes: number, extraDecimals = 0): string {
  const [value, unit, decimals] =
    bytes < 1024 ? [bytes, "Б", 0] : bytes < 1024 * 1024 ? [bytes / 1024, "КБ", 0] : [bytes / 1024 / 1024, "МБ", 1];
  const digits = unit === "Б" ? 0 : decimals + extraDecimals;
  return `${value.toLocaleString("ru-RU", { maximumFractionDigits: digits }).replace(/\s/g, " ")} ${unit}`;
}

/** Two sizes a message sets side by side («… вместо …»), each with as many decimals as tell them
 *  apart («62 КБ вместо 62 КБ»), in bytes when three more do not. */
export function fileSizesApart(a: number, b: number): [string, string] {
  if (a === b) return [fileSize(a), fileSize(b)];
  for (let extra = 0; extra <= 3; extra++) {
    const [x, y] = [fileSize(a, extra), fileSize(b, extra)];
    if (x !== y) return [x, y];
  }
  const bytes = (n: number) => `${n.toLocaleString("ru-RU").replace(/\s/g, " ")} Б`;
  return [bytes(a), bytes(b)];
}

/** The cap on a tabular upload (.xlsx / .csv). 4 MB, not more: in AWS a request reaches Lambda
 *  base64-encoded inside a 6 MB payload. */
export const MAX_TABULAR_UPLOAD_BYTES = 4 * 1024 * 1024;
export const MAX_TABULAR_UPLOAD_TEXT = fileSize(MAX_TABULAR_UPLOAD_BYTES);
/** The cap on a history sent straight to storage (the direct upload, POST v1/forecast/upload-url/)
 *  for a forecast, a calibration or a training: the 200 000 rows training takes (about 29 MB as the
 *  monitoring system's CSV), a year of 10-minute readings (52 560 rows, about 8 MB) with room to
 *  spare. Larger than a request can carry, so such a file never passes through the API's body. */
export const MAX_FORECAST_UPLOAD_BYTES = 32 * 1024 * 1024;
export const MAX_FORECAST_UPLOAD_TEXT = fileSize(MAX_FORECAST_UPLOAD_BYTES);
/** docs/security.md: the forecast histories uploaded straight to storage and not yet used (a
 *  forecast's, a calibration's or a training's use takes one; a preview keeps it for the save), per
 *  user and per company: two of the largest per user. What is never used counts until the day after
 *  its grant: it is deleted a day later. */
export const FORECAST_UPLOADS_PER_USER_BYTES = 64 * 1024 * 1024;
export const FORECAST_UPLOADS_PER_COMPANY_BYTES = 256 * 1024 * 1024;

/** A settings video's Content-Type by its file's extension: MP4 or WebM, which play in every
 *  browser. The upload routes declare them, the server accepts only these, and the admin screen
 *  sends them. */
export const VIDEO_CONTENT_TYPES = { mp4: "video/mp4", webm: "video/webm" } as const;
export type VideoType = (typeof VIDEO_CONTENT_TYPES)[keyof typeof VIDEO_CONTENT_TYPES];

/** The content type a stored tabular upload carries: the API writes it (domain/calculations/calculations.ts) and
 *  the S3 upload check accepts only these (events/upload-check.ts). */
export const TABULAR_CONTENT_TYPES = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv",
} as const;
