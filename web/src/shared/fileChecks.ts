// What a chosen tabular file must be before it is sent: plain functions, apart from the field that
// shows them, so their tests need no React. Its size reads through the contract's fileSize.
import type { CalculationType } from "@core/registry";
import { MAX_FORECAST_UPLOAD_BYTES, MAX_FORECAST_UPLOAD_TEXT, MAX_TABULAR_UPLOAD_BYTES, MAX_TABULAR_UPLOAD_TEXT } from "@server/contract";

export const FILE_ACCEPT = ".xlsx,.csv";
export const FILE_TOO_LARGE = `Файл больше ${MAX_TABULAR_UPLOAD_TEXT}`;
export const FILE_WRONG_TYPE = "Загрузите книгу Excel (.xlsx) или файл CSV (.csv)";

/** A type's file cap: a forecast's history larger than a request goes straight to storage
 *  (api.ts, directHistory), so it may be as large as that path takes. */
export function fileCap(type: CalculationType): { bytes: number; text: string } {
  return type === "regres_methane"
    ? { bytes: MAX_FORECAST_UPLOAD_BYTES, text: MAX_FORECAST_UPLOAD_TEXT }
    : { bytes: MAX_TABULAR_UPLOAD_BYTES, text: MAX_TABULAR_UPLOAD_TEXT };
}

/** Why a chosen file cannot be sent, or undefined. The server checks the same (413, 415). */
export function fileProblem(
  file: { name: string; size: number },
  cap: { bytes: number; text: string } = { bytes: MAX_TABULAR_UPLOAD_BYTES, text: MAX_TABULAR_UPLOAD_TEXT },
): string | undefined {
  if (!/\.(xlsx|csv)$/i.test(file.name)) return FILE_WRONG_TYPE;
  if (file.size > cap.bytes) return `Файл больше ${cap.text}`;
  return undefined;
}
