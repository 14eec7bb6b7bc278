// The report passport as a file (GET v1/inventory/{year}/report/): the year's inventory of the
// caller's company (or of one of its facilities), its requisites, laid out as xlsx or PDF. Runs in
// the spreadsheet worker, which carries exceljs and pdfkit; the API's route reaches it through the
// SpreadsheetWorker port (export/in-process.ts, lambda/spreadsheets.ts).
import type { Actor, Deps } from "../domain/context";
import { NotFound } from "../domain/errors";
import { MAX_PASSPORT_LINES, TooLarge, ru } from "../domain/heavy-work";
import { inventoryWithStored } from "../domain/inventory/year";
import { getReview, isApproved } from "../domain/inventory/review";
import { loadSnapshot, scopedState } from "../domain/inventory/versions";
import { safeFileName } from "../files/file-names";
import { PASSPORT_FORMATS, type ExportResult, type PassportRequest } from "./formats";
import { buildPassport, type Passport } from "./inventory-passport";
import { passportPdf } from "./inventory-passport-pdf";
import { passportXlsx } from "./inventory-passport-xlsx";
import { handOut, type ExportDeps } from "./project-export";
import type { InventoryReview } from "../ports";

export function passportFileName(passport: Pick<Passport, "year" | "scope">, facility: boolean, format: PassportRequest["format"]): string {
  const scope = facility ? ` ${passport.scope}` : "";
  return safeFileName(`Паспорт отчета ${passport.year}${scope}.${format}`, `Report.${format}`);
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

export async function inventoryReport(
  deps: ExportDeps,
  actor: Actor,
  request: PassportRequest & { inlineLimitBytes?: number },
): Promise<ExportResult> {
  // inventoryWithStored is typed with the API's Deps, but reads the repositories only: the worker
  // has no configuration to give it.
  const [company, facilities, review, users] = await Promise.all([
    deps.repos.companies.get(actor.company),
    deps.repos.facilities.list(actor.company),
    getReview(deps, actor.company, request.year),
    deps.repos.users.listByCompany(actor.company),
  ]);
  if (!company) throw new NotFound("Организация не найдена");
  // D20: an approved, sent or accepted year prints its approved version, not the live figures.
  const approved = isApproved(review) && review.snapshot ? review.snapshot : undefined;
  const stored = approved && (await loadSnapshot(deps, actor.company, request.year, approved.version));
  if (stored && request.facility && !facilities.some((f) => f.id === request.facility)) throw new NotFound("Площадка не найдена");
  const inventory = stored ? scopedState(stored.inventory, request.facility) : await liveInventory(deps as Deps, actor, request, review);
  const snapshot =
    stored && approved
      ? { version: stored.version, sha256: approved.sha256, approved_at: stored.approved_at, changes: stored.changes }
      : undefined;
  const passport = buildPassport({ company, facilities, inventory, review, users, now: deps.clock.now(), snapshot });
  // docs/security.md: checked before the layout, which costs about 5 ms a line in the PDF.
  const lines = passport.facilities.reduce((sum, f) => sum + f.categories.reduce((n, c) => n + c.sources.length, 0), 0);
  if (lines > MAX_PASSPORT_LINES) {
    throw new TooLarge(
      `Паспорт отчета: не более ${ru(MAX_PASSPORT_LINES)} источников, в году ${ru(lines)}. Сформируйте паспорт по площадкам`,
    );
  }
  const bytes = request.format === "pdf" ? await passportPdf(passport, request.progress) : await passportXlsx(passport);
  return handOut(deps, actor, bytes, {
    fileName: passportFileName(passport, Boolean(request.facility), request.format),
    contentType: PASSPORT_FORMATS[request.format].contentType,
    keyPrefix: `inventory-${request.year}`,
    extension: request.format,
    inlineLimitBytes: request.inlineLimitBytes,
  });
}
