// The report passport as a file (GET v1/inventory/{year}/report/): the year's inventory of the
// caller's company (or of one of its facilities), its requisites, laid out as xlsx or PDF. Runs in
// the spreadsheet worker, which carries exceljs and pdfkit; the API's route reaches it through the
// SpreadsheetWorker port (export/in-process.ts, lambda/spreadsheets.ts).
import { wallTimeIn, zoneOf } from "@core/company-clock";
import type { Actor, Deps } from "../domain/context";
import { NotFound } from "../domain/errors";
import { MAX_PASSPORT_LINES, ru } from "../domain/heavy-work";
import { TooLarge } from "../domain/errors";
import { inventoryWithStored } from "../domain/inventory/year";
import { getReview, isApproved } from "../domain/inventory/review";
import { approvedVersionNumbers, loadSnapshot, printedEntity, scopedState } from "../domain/inventory/versions";
import { safeFileName } from "../files/file-names";
import { PASSPORT_FORMATS, YEAR_CALCULATIONS_FORMAT, type ExportResult, type PassportFormat, type PassportRequest } from "./formats";
import { yearCalculationsXlsx } from "./year-calculations";
import { buildPassport, type Passport } from "./inventory-passport";
import { passportPdf } from "./inventory-passport-pdf";
import { passportXlsx } from "./inventory-passport-xlsx";
import { handOut, type ExportDeps } from "./project-export";
import type { InventoryReview } from "../ports";

export function passportFileName(
  passport: Pick<Passport, "year" | "scope" | "version">,
  facility: boolean,
  format: PassportFormat,
  asked?: number,
): string {
  const scope = facility ? ` ${passport.scope}` : "";
  // A version asked for by its number says so in the name: two versions save side by side.
  const version = asked !== undefined && passport.version ? ` версия ${passport.version.number}` : "";
  return safeFileName(`Паспорт отчета ${passport.year}${scope}${version}.${format}`, `Report.${format}`);
}

/** The live inventory, each line with what it was computed from (8.1: the measured periods and
 *  how they were measured), as an approved version's snapshot carries it (D20). */
async function liveInventory(deps: Deps, actor: Actor, request: PassportRequest, review: InventoryReview) {
  const { inventory, stored } = await inventoryWithStored(deps, actor, request.year, request.facility);
  const byId = new Map(stored.map((c) => [c.id, c]));
  const processed = review.coal_processed?.filter((row) => !request.facility || row.facility === request.facility);
  return {
    ...inventory,
    ...(processed?.length ? { coal_processed: processed } : {}),
    calculations: inventory.calculations.map((line) => ({
      ...line,
      inputs: byId.get(line.id)?.inputs,
      results: byId.get(line.id)?.results,
    })),
  };
}

/** The version a passport prints: the one asked for (404 unless the year's chain of approvals
 *  reaches it), else the approved one while the year stands approved, else none (the live draft);
 *  with its place in the chain (D39: which approval step is its own). */
async function printedVersion(
  deps: ExportDeps,
  actor: Actor,
  request: PassportRequest,
  review: InventoryReview,
): Promise<{ version: number; sha256: string; key?: string; approval: number } | undefined> {
  const asked = request.version ?? (isApproved(review) ? review.snapshot?.version : undefined);
  if (asked === undefined) return undefined;
  const chain = await approvedVersionNumbers(deps, actor.company, review);
  const approval = chain.findIndex((v) => v.version === asked);
  if (approval < 0) throw new NotFound(`Версия ${asked} инвентаризации ${request.year} года не найдена`);
  const key = chain[approval].signature?.fingerprint_sha256;
  return { version: asked, sha256: chain[approval].sha256, ...(key ? { key } : {}), approval: approval + 1 };
}

/** What a file of the year prints: the company, its facilities, points and users, the review, and
 *  the inventory of the version it prints (approved: its snapshot; else the live draft). */
async function printedState(deps: ExportDeps, actor: Actor, request: PassportRequest) {
  // inventoryWithStored is typed with the API's Deps, but reads the repositories only: the worker
  // has no configuration to give it.
  const [company, facilities, review, users, points] = await Promise.all([
    deps.repos.companies.get(actor.company),
    deps.repos.facilities.list(actor.company),
    getReview(deps, actor.company, request.year),
    deps.repos.users.listByCompany(actor.company),
    deps.repos.emissionPoints.listOfCompany(actor.company),
  ]);
  if (!company) throw new NotFound("Организация не найдена");
  // D20: an approved, sent or accepted year prints its approved version, not the live figures; any
  // approved version prints when asked for by its number (D32).
  const approved = await printedVersion(deps, actor, request, review);
  const stored = approved && (await loadSnapshot(deps, actor.company, request.year, approved.version));
  if (stored && request.facility && !facilities.some((f) => f.id === request.facility)) throw new NotFound("Площадка не найдена");
  const inventory = stored ? scopedState(stored.inventory, request.facility) : await liveInventory(deps as Deps, actor, request, review);
  const snapshot =
    stored && approved
      ? {
          version: stored.version,
          sha256: approved.sha256,
          ...(approved.key ? { key: approved.key } : {}),
          approved_at: stored.approved_at,
          approved_by: stored.approved_by,
          approval: approved.approval,
          changes: stored.changes,
        }
      : undefined;
  return { company, facilities, review, users, points, stored, inventory, snapshot };
}

export async function inventoryReport(
  deps: ExportDeps,
  actor: Actor,
  request: PassportRequest & { format: PassportFormat; inlineLimitBytes?: number },
): Promise<ExportResult> {
  const { bytes, fileName } = await renderPassport(deps, actor, request);
  return handOut(deps, actor, bytes, {
    fileName,
    contentType: PASSPORT_FORMATS[request.format].contentType,
    keyPrefix: `inventory-${request.year}`,
    extension: request.format,
    inlineLimitBytes: request.inlineLimitBytes,
  });
}

/** The passport's bytes and file name (the report route hands them out; the verification pack,
 *  verification-pack.ts, puts them in its zip). */
export async function renderPassport(
  deps: ExportDeps,
  actor: Actor,
  request: PassportRequest & { format: PassportFormat },
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const { company, facilities, review, users, points, stored, inventory, snapshot } = await printedState(deps, actor, request);
  // D32: the requisites, the person responsible and the facilities as the version froze them.
  const printed = printedEntity(stored || undefined, company, facilities, points);
  const passport = buildPassport({ ...printed, inventory, review, users, now: deps.clock.now(), snapshot });
  // docs/security.md: checked before the layout, which costs about 5 ms a line in the PDF.
  const lines = passport.facilities.reduce((sum, f) => sum + f.categories.reduce((n, c) => n + c.sources.length, 0), 0);
  if (lines > MAX_PASSPORT_LINES) {
    throw new TooLarge(
      `Паспорт отчета: не более ${ru(MAX_PASSPORT_LINES)} источников, в году ${ru(lines)}. Сформируйте паспорт по площадкам`,
    );
  }
  const bytes = request.format === "pdf" ? await passportPdf(passport, request.progress) : await passportXlsx(passport);
  return { bytes, fileName: passportFileName(passport, Boolean(request.facility), request.format, request.version) };
}

/** the company-year's calculations as one workbook (year-calculations.ts), of the version
 *  the passport prints. */
export async function yearCalculations(
  deps: ExportDeps,
  actor: Actor,
  request: Omit<PassportRequest, "format"> & { inlineLimitBytes?: number },
): Promise<ExportResult> {
  const { company, facilities, points, stored, inventory, snapshot } = await printedState(deps, actor, { ...request, format: "xlsx" });
  const printed = printedEntity(stored || undefined, company, facilities, points);
  const bytes = await yearCalculationsXlsx({
    year: request.year,
    company: printed.company.name,
    version: snapshot?.version,
    ...(snapshot ? { dated: new Date(`${wallTimeIn(snapshot.approved_at, zoneOf(company))}Z`) } : {}),
    facilities: printed.facilities,
    points: printed.points,
    inventory,
  });
  const scope = request.facility ? ` ${printed.facilities.find((f) => f.id === request.facility)?.name ?? ""}` : "";
  return handOut(deps, actor, bytes, {
    fileName: safeFileName(`Расчеты ${request.year}${scope}.xlsx`, `Calculations ${request.year}.xlsx`),
    contentType: YEAR_CALCULATIONS_FORMAT.contentType,
    keyPrefix: `inventory-${request.year}`,
    extension: "xlsx",
    inlineLimitBytes: request.inlineLimitBytes,
  });
}
