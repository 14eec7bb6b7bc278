// D20: while a year's inventory is approved, sent or accepted (or reworked), nothing that would
// reach it changes. This is the one guard every domain write of a calculation, project or facility
// passes through (calculations.ts, evidence.ts, projects.ts, facilities.ts, gwp-recompute.ts):
// given the item before and after the write, it finds the reporting years the change touches and
// refuses with 409 when one of them is frozen, naming the year and how to reopen it.
import { inventorySourceOf, STATUS_LABELS } from "@core/inventory";
import type { Deps } from "./context";
import { Conflict } from "./errors";
import type { Calculation, Facility, InventoryReview } from "../ports";
import type { Project } from "../contract/schemas/project";
import { isFrozen } from "./inventory/review";

export type GuardedChange =
  /** A calculation created (no before), edited, archived or restored; `project` is its project. */
  | { kind: "calculation"; before?: Pick<Calculation, "type">; after: Pick<Calculation, "type">; project: Project }
  /** A project edited, archived or restored. */
  | { kind: "project"; before: Project; after: Project }
  /** A facility edited (its kind says which sources its projects have). */
  | { kind: "facility"; before: Facility; after: Facility }
  /** A GWP recompute of the project's calculations. */
  | { kind: "gwp_recompute"; project: Project };

export function frozenMessage(review: Pick<InventoryReview, "year" | "status">, what: string): string {
  return (
    `Инвентаризация ${review.year} года утверждена и заморожена (статус «${STATUS_LABELS[review.status]}»): ${what}. ` +
    "Чтобы внести изменения, попросите проверяющего открыть год для изменений"
  );
}

/** The year's review when the year is frozen. */
export async function frozenReview(deps: Pick<Deps, "repos">, companyId: string, year: number): Promise<InventoryReview | undefined> {
  const review = await deps.repos.inventoryReviews.get(companyId, year);
  return review && isFrozen(review) ? review : undefined;
}

async function refuseIfFrozen(deps: Pick<Deps, "repos">, companyId: string, years: Iterable<number>, what: string) {
  for (const year of new Set(years)) {
    const review = await frozenReview(deps, companyId, year);
    if (review) throw new Conflict(frozenMessage(review, what));
  }
}

/** What of a project decides where its calculations count: its year, dates, facility and state. */
const placement = (p: Project) => JSON.stringify([p.reporting_year, p.start_date, p.end_date, p.facility ?? null, p.is_deleted]);

/** Refuses (409) a change that would reach a frozen year's inventory. */
export async function guardFrozen(deps: Pick<Deps, "repos">, companyId: string, change: GuardedChange): Promise<void> {
  switch (change.kind) {
    case "calculation": {
      // Only the types the inventory sums reach it (a forecast or a series never does).
      const counts = [change.before?.type, change.after.type].some((type) => type && inventorySourceOf(type));
      if (counts) await refuseIfFrozen(deps, companyId, [change.project.reporting_year], "расчеты проектов этого года изменить нельзя");
      return;
    }
    case "project": {
      // A rename reaches nothing; moving a project out of a frozen year or into one does.
      if (placement(change.before) === placement(change.after)) return;
      const years = [change.before, change.after].filter((p) => !p.is_deleted).map((p) => p.reporting_year);
      await refuseIfFrozen(deps, companyId, years, "год, даты, площадку и архивирование проекта этого года изменить нельзя");
      return;
    }
    case "facility": {
      // The kind (and the archive, should facilities get one) says what its projects count.
      const placed = (f: Facility) => JSON.stringify([f.kind, (f as Facility & { is_deleted?: boolean }).is_deleted ?? false]);
      if (placed(change.before) === placed(change.after)) return;
      const projects = await deps.repos.projects.listAllOfCompany(companyId);
      const years = projects.filter((p) => !p.is_deleted && p.facility === change.before.id).map((p) => p.reporting_year);
      await refuseIfFrozen(deps, companyId, years, "вид площадки, проекты которой входят в этот год, изменить нельзя");
      return;
    }
    case "gwp_recompute":
      await refuseIfFrozen(deps, companyId, [change.project.reporting_year], "пересчитать ПГП расчетов проекта этого года нельзя");
      return;
  }
}

/** Why a project's calculations of `type` cannot change now (D20), or undefined: the list shows
 *  them locked instead of answering 409 after «Сохранить». */
export async function calculationLock(deps: Pick<Deps, "repos">, companyId: string, projectId: string, type: string) {
  // The list of every type (`all`) asks for the project's lock; the route applies it to the
  // rows of the types the inventory sums.
  if (type !== "all" && !inventorySourceOf(type)) return undefined;
  const project = await deps.repos.projects.get(companyId, projectId);
  const review = project && (await frozenReview(deps, companyId, project.reporting_year));
  return review ? frozenMessage(review, "расчеты проектов этого года изменить нельзя") : undefined;
}
