// Export of a project to txt, xls or xlsx (SPEC 2 «Export», 7): scoping, the file's name and type,
// and how the bytes leave. xlsx and txt stream: the file is written while the calculations are read
// and sent as it grows. When the blob store can hand out download URLs (S3) the file is collected
// instead, and one larger than a Lambda response may be (6 MB; 5 MB leaves room for the encoding)
// is stored under exports/{company}/… and answered with a redirect.
import { PassThrough, Readable } from "node:stream";
import type { Actor, Deps } from "../domain/context";
import { Invalid } from "../domain/errors";
import { newId } from "../domain/ids";
import { getProject } from "../domain/projects";
import { safeFileName } from "../http/download";
import type { Project } from "../schemas/project";
import { exportSheets, type ExportOptions, type Sheet } from "./content";
import { txtChunks } from "./txt-writer";
import { writeXls } from "./xls-writer";
import { writeXlsx } from "./xlsx-writer";

export const EXPORT_FORMATS = {
  txt: { contentType: "text/plain; charset=utf-8" },
  xls: { contentType: "application/vnd.ms-excel" },
  xlsx: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
} as const;

export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** SPEC 8: any other format is «Unsupported file type». */
export function exportFormat(value: string): ExportFormat {
  if (Object.hasOwn(EXPORT_FORMATS, value)) return value as ExportFormat;
  throw new Invalid("Unsupported file type");
}

export const DEFAULT_EXPORT_DECIMALS = 2;
/** Above this the file goes through the blob store and a redirect, when the store can do that. */
export const INLINE_EXPORT_LIMIT_BYTES = 5 * 1024 * 1024;
const DOWNLOAD_URL_SECONDS = 15 * 60;

export type ExportResult =
  | { kind: "body"; fileName: string; contentType: string; body: ReadableStream<Uint8Array> | Uint8Array }
  | { kind: "redirect"; url: string; fileName: string };

/** SPEC 7: saved under the project's name, or «Report» without one. */
export function exportFileName(project: Pick<Project, "name">, format: ExportFormat): string {
  return `${safeFileName(project.name ?? "", "Report")}.${format}`;
}

function sheetsOf(deps: Deps, actor: Actor, project: Project, options: ExportOptions): AsyncGenerator<Sheet> {
  return exportSheets(project, (type) => deps.repos.calculations.listAllByProject(actor.company, project.id, type, "active"), options);
}

/** The file as a Node stream; an error while writing ends the stream with that error. */
function fileStream(format: ExportFormat, sheets: AsyncGenerator<Sheet>): Readable {
  if (format === "txt") return Readable.from(txtChunks(sheets), { objectMode: false });
  if (format === "xls") return Readable.from((async function* () { yield await writeXls(sheets); })(), { objectMode: false });
  const out = new PassThrough();
  writeXlsx(sheets, out).catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

async function collect(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer));
  const all = Buffer.concat(chunks);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

export async function exportProject(
  deps: Deps,
  actor: Actor,
  projectId: string,
  format: ExportFormat,
  request: { detail?: boolean; decimals?: number; inlineLimitBytes?: number },
): Promise<ExportResult> {
  const project = await getProject(deps, actor, projectId);
  const options: ExportOptions = {
    // The txt export has one kind; its blocks already summarise the rows of the detailed sheets.
    detail: format !== "txt" && request.detail === true,
    decimals: request.decimals ?? DEFAULT_EXPORT_DECIMALS,
    now: deps.clock.now(),
  };
  const fileName = exportFileName(project, format);
  const { contentType } = EXPORT_FORMATS[format];
  const stream = fileStream(format, sheetsOf(deps, actor, project, options));

  if (!deps.blobs.downloadUrl) {
    return { kind: "body", fileName, contentType, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
  }
  const bytes = await collect(stream);
  if (bytes.byteLength <= (request.inlineLimitBytes ?? INLINE_EXPORT_LIMIT_BYTES)) return { kind: "body", fileName, contentType, body: bytes };
  const key = `exports/${actor.company}/${project.id}/${newId()}.${format}`;
  await deps.blobs.put(key, bytes, contentType);
  return { kind: "redirect", url: await deps.blobs.downloadUrl(key, fileName, DOWNLOAD_URL_SECONDS), fileName };
}
