// D20, D32: while a year's inventory is in review, approved, sent or accepted (or reworked), nothing
// that would reach it changes. This is the one guard every domain write of a calculation, project or
// facility passes through (calculations.ts, evidence.ts, projects.ts, facilities.ts, gwp-recompute.ts):
// given the item before and after the write, it finds the reporting years the change touches and
// refuses with 409 when one of them is frozen, naming the year and how to reopen it. A change it lets
// through is noted as the year's (D33: its last editor never approves it). The check is atomic with
// a step that freezes the year (D32, inventory/writes.ts).
import { inventorySourceOf, STATUS_LABELS } from "@core/inventory";
import type { Actor, Deps } from "../context";
import { Conflict } from "../errors";
import type { StoredCalculation, Facility, InventoryReview } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { isFrozen } from "./review";
import { beginYearWrite, yearWritesStayOpen } from "./writes";

export type GuardedChange =
  /** A calculation created (no before), edited, archived or restored; `project` is its project. */
  | { kind: "calculation"; before?: Pick<StoredCalculation, "type">; after: Pick<StoredCalculation, "type">; project: Project }
  /** A project edited, archived or restored. */
  | { kind: "project"; before: Project; after: Project }
  /** A facility edited (its kind says which sources its projects have). */
  | { kind: "facility"; before: Facility; after: Facility }
  /** A GWP recompute of the project's calculations. */
  | { kind: "gwp_recompute"; project: Project };

export function frozenMessage(review: Pick<InventoryReview, "year" | "status">, what: string): string {
  // A reviewer approves what they reviewed (D32): in review the year waits for their return.
  if (review.status === "in_review") {
    return (
      `Инвентаризация ${review.year} года на проверке и заморожена (статус «${STATUS_LABELS[review.status]}»): ${what}. ` +
      "Чтобы внести изменения, попросите проверяющего вернуть ее на доработку"
    );
  }
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

/** The years whose writes were counted begun and stay open until the request ends them. */
async function refuseIfFrozen(deps: Pick<Deps, "repos" | "clock">, actor: Actor, years: Iterable<number>, what: string): Promise<number[]> {
  const open: number[] = [];
  for (const year of new Set(years)) {
    if (await beginYearWrite(deps, actor, year)) {
      if (yearWritesStayOpen()) open.push(year);
      continue;
    }
    const review = await deps.repos.inventoryReviews.get(actor.company, year);
    throw new Conflict(
      review && isFrozen(review)
        ? frozenMessage(review, what)
        : `Инвентаризацию ${year} года сейчас отправляют на проверку или утверждают: ${what}. Обновите страницу и повторите`,
    );
  }
  return open;
}

/** What of a project decides where its calculations count: its year, dates, facility and state. */
const placement = (p: Project) => JSON.stringify([p.reporting_year, p.start_date, p.end_date, p.facility ?? null, p.is_deleted]);

/** Refuses (409) a change that would reach a frozen year's inventory. A calculation's answers the
 *  year whose write it counted begun and left open (the repository stores it with the write, and
 *  the table's stream ends it: WriteGuard in ports/calculation.ts). */
export async function guardFrozen(deps: Pick<Deps, "repos" | "clock">, actor: Actor, change: GuardedChange): Promise<{ year?: number }> {
  switch (change.kind) {
    case "calculation": {
      // Only the types the inventory sums reach it (a forecast or a series never does).
      const counts = [change.before?.type, change.after.type].some((type) => type && inventorySourceOf(type));
      if (!counts) return {};
      const [year] = await refuseIfFrozen(deps, actor, [change.project.reporting_year], "расчеты проектов этого года изменить нельзя");
      return { year };
    }
    case "project": {
      // A rename reaches nothing; moving a project out of a frozen year or into one does.
      if (placement(change.before) === placement(change.after)) return {};
      const years = [change.before, change.after].filter((p) => !p.is_deleted).map((p) => p.reporting_year);
      await refuseIfFrozen(deps, actor, years, "год, даты, площадку и архивирование проекта этого года изменить нельзя");
      return {};
    }
    case "facility": {
      // The kind and the archive (is_active: false) say what its projects count.
      const placed = (f: Facility) => JSON.stringify([f.kind, f.is_active]);
      if (placed(change.before) === placed(change.after)) return {};
      const projects = await deps.repos.projects.listAllOfCompany(actor.company);
      const years = projects.filter((p) => !p.is_deleted && p.facility === change.before.id).map((p) => p.reporting_year);
      await refuseIfFrozen(
        deps,
        actor,
        years,
        "площадку, проекты которой входят в этот год, нельзя отправить в архив или восстановить, а ее вид — изменить",
      );
      return {};
    }
    case "gwp_recompute":
      await refuseIfFrozen(deps, actor, [change.project.reporting_year], "пересчитать ПГП расчетов проекта этого года нельзя");
      return {};
  }
}

/** «2025 года», «2024 и 2025 годов», «2023, 2024 и 2025 годов». */
function yearsText(years: readonly number[]): string {
  if (years.length === 1) return `${years[0]} года`;
  return `${years.slice(0, -1).join(", ")} и ${years.at(-1)} годов`;
}

/** D32, D41: refuses (409) a platform-wide change (an administrator's GWP edit) that would reach
 *  `years` where some company has frozen one of them, naming every such year with a company that
 *  froze it; `what` says what cannot change, given the years in words. */
export async function refuseFrozenAnywhere(deps: Pick<Deps, "repos">, years: ReadonlySet<number>, what: (years: string) => string) {
  if (years.size === 0) return;
  const frozen = new Map<number, { review: InventoryReview; company: string; more: number }>();
  for (const company of await deps.repos.companies.list()) {
    for (const review of await deps.repos.inventoryReviews.listOfCompany(company.id)) {
      if (!years.has(review.year) || !isFrozen(review)) continue;
      const known = frozen.get(review.year);
      if (known) known.more += 1;
      else frozen.set(review.year, { review, company: company.name, more: 0 });
    }
  }
  if (frozen.size === 0) return;
  const named = [...frozen.keys()].sort((a, b) => a - b);
  const list = named.map((year) => {
    const { review, company, more } = frozen.get(year)!;
    return `${year} год: «${company}», статус «${STATUS_LABELS[review.status]}»${more > 0 ? ` (и еще организаций: ${more})` : ""}`;
  });
  throw new Conflict(
    `${what(yearsText(named))}: инвентаризации заморожены — ${list.join("; ")}. ` +
      `Укажите дату «Действует с» в году после ${named.at(-1)} или попросите проверяющего открыть год для изменений`,
  );
}

/** A guard begun now and awaited by the write it guards (the repository sends the write's own
 *  bookkeeping side by side with it). `settledBefore` runs the request's work and, when the work
 *  fails first, waits for the guard too: a year write it began is then counted before the request
 *  ends it (inventory/writes.ts), and its refusal is never left unseen. */
export function startedGuard<G>(guard: Promise<G>) {
  const settled = guard.then(
    () => undefined,
    () => undefined,
  );
  return {
    promise: guard,
    async settledBefore<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error) {
        await settled;
        // The guard's refusal (the year is frozen) says why rather than what failed after it.
        await guard;
        throw error;
      }
    },
  };
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
