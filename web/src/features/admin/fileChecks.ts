// What a chosen document, model or video must be before it is sent: plain functions, apart from
// the tabs that use them, so their tests need no React. The server checks each again.
import { VIDEO_CONTENT_TYPES, fileSize } from "@server/contract";

/** A refusal before sending: a PDF is checked by the server too (by its first bytes). */
export function pdfProblem(file: File, maxBytes: number): string | undefined {
  if (file.size > maxBytes) return `Файл больше ${fileSize(maxBytes)}`;
  if (file.size === 0) return "Файл пуст";
  if (file.type && file.type !== "application/pdf") return "Ожидается файл PDF";
  return undefined;
}

/** A refusal before sending. The name is not checked (the picker offers .json/.txt): the server
 *  judges the content itself — parses it and test-predicts. */
export function modelFileProblem(file: File, maxBytes: number): string | undefined {
  if (file.size === 0) return "Файл пуст";
  if (file.size > maxBytes) return `Файл модели больше ${fileSize(maxBytes)} (${fileSize(file.size)})`;
  return undefined;
}

const VIDEO_TYPES: readonly string[] = Object.values(VIDEO_CONTENT_TYPES);
/** What the file picker offers: the types and their extensions. */
export const VIDEO_ACCEPT = [...VIDEO_TYPES, ...Object.keys(VIDEO_CONTENT_TYPES).map((extension) => `.${extension}`)].join(",");

/** The Content-Type to send: the browser's, or the extension's when the browser gives none. */
export function videoType(file: File): string | undefined {
  if (VIDEO_TYPES.includes(file.type)) return file.type;
  if (file.type) return undefined;
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  return Object.hasOwn(VIDEO_CONTENT_TYPES, extension) ? VIDEO_CONTENT_TYPES[extension as keyof typeof VIDEO_CONTENT_TYPES] : undefined;
}
