// Export of a project to txt, xls or xlsx (docs/user-guide.md, «Export»; docs/api.md): scoping, the file's name and type,
// and how the bytes leave. xlsx and txt stream: the file is written while the calculations are read
// and sent as it grows. When the blob store can hand out download URLs (S3: the spreadsheet worker
// function in AWS) the file is collected instead, and one larger than INLINE_EXPORT_LIMIT_BYTES is
// stored under exports/{company}/… and answered with a redirect.
// Called in-process by the local and test hosts and by the worker (export/in-process.ts); the API's
// routes reach it only through the SpreadsheetWorker port, so they never import exceljs or SheetJS.
import { zoneOf } from "@core/company-clock";
import { PassThrough, Readable } from "node:stream";
import type { Actor, Deps } from "../domain/context";
import { forecastRowsOf } from "../domain/forecast/rows";
import { newId } from "../domain/ids";
import { MAX_DETAILED_XLS_ROWS, MAX_DETAILED_XLSX_ROWS, MAX_EXPORT_CALCULATIONS, ru } from "../domain/heavy-work";
import { TooLarge } from "../domain/errors";
import { getProject } from "../domain/calculations/projects";
import { projectNetting } from "../domain/inventory/project-figures";
import { safeFileName } from "../files/file-names";
import type { Project } from "../contract/schemas/project";
import { exportSheets, type ExportOptions, type Sheet } from "./content";
import { DEFAULT_EXPORT_DECIMALS, EXPORT_FORMATS, type ExportFormat, type ExportRequest, type ExportResult } from "./formats";
import { txtChunks } from "./txt-writer";
import { writeXls } from "./xls-writer";
import { writeXlsx } from "./xlsx-writer";

/** What an export reads and writes: no configuration, no secret (the worker function has neither). */
/** `signer`: the platform's version signer, which signs a verification pack's manifest (an earlier round
 *  R9); a host that renders no pack may leave it out. */
export type ExportDeps = Pick<Deps, "repos" | "blobs" | "clock"> & Partial<Pick<Deps, "signer">>;

/** Above this the file goes through the blob store and a redirect, when the store can do that.
 *  In AWS the bytes travel base64-encoded twice, in the worker's invoke answer and in the API's
 *  Lambda answer, each limited to 6 MB: 3 MB is 4 MB of base64 with room for the JSON around it. */
export const INLINE_EXPORT_LIMIT_BYTES = 3 * 1024 * 1024;
const DOWNLOAD_URL_SECONDS = 15 * 60;

/** docs/api.md: saved under the project's name, or «Report» without one; the detailed export with
 *  «(подробный)» after it, so the two kinds never save over each other. */
export function exportFileName(project: Pick<Project, "name">, format: ExportFormat, detail = false): string {
  return `${safeFileName(project.name ?? "", "Report")}${detail ? " (подробный)" : ""}.${format}`;
}

async function* sheetsOf(deps: ExportDeps, actor: Actor, project: Project, options: ExportOptions): AsyncGenerator<Sheet> {
  // D26: «Итоги» at the reporting year's GWP, netted as the facility-year's inventory is.
  // D25: the points of the project's facility name each measured calculation's source.
  const [netting, points] = await Promise.all([
    projectNetting(deps, actor.company, project),
    project.facility ? deps.repos.emissionPoints.listOfFacility(actor.company, project.facility) : undefined,
  ]);
  yield* exportSheets(
    project,
    (type) => deps.repos.calculations.listAllByProject(actor.company, project.id, type, "active"),
    { ...options, points },
    (calculation) => forecastRowsOf(deps, calculation),
    netting,
  );
}

/** The file as a Node stream; an error while writing ends the stream with that error. */
function fileStream(format: ExportFormat, sheets: AsyncGenerator<Sheet>): Readable {
  if (format === "txt") return Readable.from(txtChunks(sheets), { objectMode: false });
  if (format === "xls")
    return Readable.from(
      (async function* () {
        yield await writeXls(sheets);
      })(),
      { objectMode: false },
    );
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
  deps: ExportDeps,
  actor: Actor,
  projectId: string,
  format: ExportFormat,
  request: ExportRequest & { inlineLimitBytes?: number },
): Promise<ExportResult> {
  // The bounds are read beside the project (another company's id counts nothing and is a 404).
  const [project, company] = await Promise.all([
    getProject(deps, actor, projectId),
    deps.repos.companies.get(actor.company),
    checkExportBounds(deps, actor, projectId, format, request),
  ]);
  const options: ExportOptions = {
    // The txt export has one kind; its blocks already summarise the rows of the detailed sheets.
    detail: format !== "txt" && request.detail === true,
    decimals: request.decimals ?? DEFAULT_EXPORT_DECIMALS,
    now: deps.clock.now(),
    zone: zoneOf(company),
  };
  const fileName = exportFileName(project, format, options.detail);
  const { contentType } = EXPORT_FORMATS[format];
  const stream = fileStream(format, sheetsOf(deps, actor, project, options));

  if (!deps.blobs.downloadUrl) {
    return { kind: "body", fileName, contentType, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
  }
  return handOut(deps, actor, await collect(stream), {
    fileName,
    contentType,
    keyPrefix: project.id,
    extension: format,
    inlineLimitBytes: request.inlineLimitBytes,
  });
}

/** The export's bounds (docs/security.md), checked before a row is written: the project's
 *  calculations by their list counts, a detailed export's forecast rows by the forecasts' summaries. */
async function checkExportBounds(
  deps: ExportDeps,
  actor: Actor,
  projectId: string,
  format: ExportFormat,
  request: ExportRequest,
): Promise<void> {
  const counts = await deps.repos.statistics.listCounts(actor.company, projectId);
  const calculations = counts.reduce((sum, c) => sum + c.active, 0);
  if (calculations > MAX_EXPORT_CALCULATIONS) {
    throw new TooLarge(
      `Выгрузка проекта: не более ${ru(MAX_EXPORT_CALCULATIONS)} расчетов, в проекте ${ru(calculations)}. Перенесите часть расчетов в другой проект или в архив`,
    );
  }
  // The txt export has no row sheets (exportProject).
  if (format === "txt" || request.detail !== true) return;
  const forecasts = await deps.repos.calculations.listAllByProject(actor.company, projectId, "regres_methane", "active");
  const rows = forecasts.reduce((sum, c) => sum + (typeof c.results.rows === "number" ? c.results.rows : 0), 0);
  const limit = format === "xls" ? MAX_DETAILED_XLS_ROWS : MAX_DETAILED_XLSX_ROWS;
  if (rows > limit) {
    throw new TooLarge(
      `Подробная выгрузка в ${format}: не более ${ru(limit)} строк прогнозов, в проекте ${ru(rows)}. Выгрузите без подробностей${format === "xls" ? ", в xlsx" : ""} или перенесите часть прогнозов в другой проект`,
    );
  }
}

/** A rendered file as the answer: inline up to the limit, else stored under
 *  exports/{company}/{keyPrefix}/… and handed out as a short-lived download URL (when the blob
 *  store can make one: S3; locally the file is always inline). */
export async function handOut(
  deps: ExportDeps,
  actor: Actor,
  bytes: Uint8Array,
  file: { fileName: string; contentType: string; keyPrefix: string; extension: string; inlineLimitBytes?: number },
): Promise<ExportResult> {
  const { fileName, contentType } = file;
  if (!deps.blobs.downloadUrl || bytes.byteLength <= (file.inlineLimitBytes ?? INLINE_EXPORT_LIMIT_BYTES)) {
    return { kind: "body", fileName, contentType, body: bytes };
  }
  const key = `exports/${actor.company}/${file.keyPrefix}/${newId()}.${file.extension}`;
  await deps.blobs.put(key, bytes, contentType);
  return { kind: "redirect", url: await deps.blobs.downloadUrl(key, fileName, DOWNLOAD_URL_SECONDS), fileName };
}
