// Review and sign-off of the year's inventory. Staff prepare and send; a reviewer (role reviewer or
// admin) other than the sender and the last editor of the data approves (four eyes, D33; who may
// take which step is the core's TRANSITIONS table). In review the year is frozen (D32). The year moves draft → in review → approved → submitted
// → accepted, or refused (with the notice date and a reason) → reworked → submitted again.
// Approving stores version n of the year's inventory (D20, domain/inventory/versions.ts) and freezes the
// year: a change that would reach it gets 409 (freeze.ts) until a reviewer reopens the year with a
// reason. Every transition keeps who, when and why; comments are items of their own.
import { personName, withCurrentNames } from "../person-name";
import type { Actor, Deps } from "../context";
import { Conflict, Forbidden, invalidAt } from "../errors";
import { addWorkingDays, calendarWarning, yearsWithoutCalendar, type WorkingCalendar } from "../reference/working-days";
import { workingCalendar } from "../reference/production-calendar";
import type { InventoryReview, InventoryVersion } from "../../ports";
import type * as z from "zod";
import type { reviewActionSchema } from "../../contract/routes/inventory";
import { discardVersion, storeVersion, type InventoryState, type SnapshotEntity } from "./versions";
import { contentSha256, liveEntity, loadSent, sentDifferences, storeSent, type SentContent } from "./sent";
import { holdYearWrites, releaseYearWrites } from "./writes";
import {
  APPROVED_STATUSES,
  FROZEN_STATUSES,
  STATUS_LABELS,
  TRANSITIONS,
  actionProblem,
  reviewDateProblem,
  targetOf,
  type InventoryStatus,
  type ReviewAction,
  type Transition,
} from "@core/inventory";

export { STATUS_LABELS, TRANSITIONS, type ReviewAction };

export const REWORK_WORKING_DAYS = 20;

export function emptyReview(companyId: string, year: number, now: string): InventoryReview {
  return { company: companyId, year, status: "draft", history: [], comments: [], updated_at: now, version: 0 };
}

export async function getReview(deps: Pick<Deps, "repos" | "clock">, companyId: string, year: number): Promise<InventoryReview> {
  return reviewOf(deps, companyId, year, await deps.repos.inventoryReviews.get(companyId, year));
}

/** The year's review as getReview answers it, from the item read (undefined: none stored). */
export async function reviewOf(
  deps: Pick<Deps, "repos" | "clock">,
  companyId: string,
  year: number,
  stored: InventoryReview | undefined,
): Promise<InventoryReview> {
  if (!stored) return emptyReview(companyId, year, deps.clock.now().toISOString());
  // Items written before D20 kept the frozen calculations here; the freeze is now the year's.
  const { frozen: _frozen, ...review } = stored as InventoryReview & { frozen?: unknown };
  // The deadline is counted by the calendar as it is now: a year an administrator loaded after the
  // notice (or a day corrected) moves it, and its warning goes.
  return review.notice_date ? withReworkDeadline(review, await workingCalendar(deps)) : review;
}

/** The review with the rework deadline of its notice: 20 working days by `calendar`, and the
 *  warning when it reaches a year the calendar does not hold. */
function withReworkDeadline(review: InventoryReview, calendar: WorkingCalendar): InventoryReview {
  const { rework_deadline_warning: _old, ...rest } = review;
  const notice = review.notice_date as string;
  const deadline = addWorkingDays(notice, REWORK_WORKING_DAYS, calendar);
  const warning = calendarWarning(yearsWithoutCalendar(notice, deadline, calendar));
  return { ...rest, rework_deadline: deadline, ...(warning ? { rework_deadline_warning: warning } : {}) };
}

/** The year's data may not change (D32). */
export const isFrozen = (review: InventoryReview) => FROZEN_STATUSES.includes(review.status);
/** The year stands approved: it prints and shows its approved version (D20). */
export const isApproved = (review: InventoryReview) => APPROVED_STATUSES.includes(review.status);

/** A review step as the route takes it (contract/routes/inventory.ts reviewActionSchema): the
 *  action, its reason and dates, and the year's version it was asked against. */
export type TransitionRequest = z.output<typeof reviewActionSchema>;

/** Today's date for the dates a transition takes: by the easternmost Russian time zone (UTC+12),
 *  so no user's today is taken for the future. */
export const reviewToday = (now: Date) => new Date(now.getTime() + 12 * 3_600_000).toISOString().slice(0, 10);

/** Whether `actor` may take the transition now, by the core's table (who, from which status, four
 *  eyes, reason, dates); throws 409 / 403 / 400 otherwise. Returns the reason given. */
export function permitTransition(
  actor: Pick<Actor, "email" | "role">,
  year: number,
  current: Pick<InventoryReview, "status" | "version" | "history" | "last_changed_by" | "changed_by">,
  request: TransitionRequest,
  now: Date,
): { reason?: string; date?: string } {
  const rule: Transition = TRANSITIONS[request.action];
  if (request.version !== current.version) {
    throw new Conflict("Статус инвентаризации уже изменен другим пользователем. Обновите страницу и повторите.");
  }
  if (!rule.roles.includes(actor.role)) {
    throw new Forbidden(`«${rule.label}» может только проверяющий или администратор`);
  }
  if (!(rule.from as readonly InventoryStatus[]).includes(current.status)) {
    throw new Conflict(`«${rule.label}» невозможно: инвентаризация ${year} года в статусе «${STATUS_LABELS[current.status]}»`);
  }
  // Four eyes, as the screen explains it (the core's actionProblem).
  const problem = actionProblem(request.action, actor, current);
  if (problem) throw new Forbidden(`«${rule.label}» ${problem}`);
  const reason = request.reason?.trim() || undefined;
  if (rule.reason && !reason) throw invalidAt("reason", "укажите причину");
  if (rule.noticeDate) {
    const problem = reviewDateProblem(request.notice_date ?? "", year, reviewToday(now));
    if (problem) throw invalidAt("notice_date", problem);
  }
  let date: string | undefined;
  if (rule.eventDate) {
    date = request.date || reviewToday(now);
    const problem = reviewDateProblem(date, year, reviewToday(now));
    if (problem) throw invalidAt("date", problem);
  }
  return { ...(reason ? { reason } : {}), ...(date ? { date } : {}) };
}

/** The year's inventory as it stands, which a freezing transition stores as the next version (D20). */
export type FrozenSnapshot = (companyId: string, year: number) => Promise<InventoryState>;

export async function transition(
  deps: Deps,
  actor: Actor,
  year: number,
  request: TransitionRequest,
  snapshot: FrozenSnapshot,
): Promise<InventoryReview> {
  let current = await getReview(deps, actor.company, year);
  permitTransition(actor, year, current, request, deps.clock.now());
  // D32: a step that freezes a year not frozen holds its writes and waits for those begun to end;
  // the hold ends with the review written, or is released when the step fails.
  if (!isFrozen(current) && FROZEN_STATUSES.includes(targetOf(request.action, actor.email, current))) {
    await holdYearWrites(deps, actor.company, year);
    try {
      // The writes that ended meanwhile noted their editors (D33): the step is judged again.
      current = await getReview(deps, actor.company, year);
      return await withCurrentNames(deps.repos, actor.company, await transitionFrom(deps, actor, year, request, snapshot, current));
    } catch (error) {
      await releaseYearWrites(deps, actor.company, year);
      throw error;
    }
  }
  return withCurrentNames(deps.repos, actor.company, await transitionFrom(deps, actor, year, request, snapshot, current));
}

async function transitionFrom(
  deps: Deps,
  actor: Actor,
  year: number,
  request: TransitionRequest,
  snapshot: FrozenSnapshot,
  current: InventoryReview,
): Promise<InventoryReview> {
  const rule: Transition = TRANSITIONS[request.action];
  const { reason, date } = permitTransition(actor, year, current, request, deps.clock.now());
  const now = deps.clock.now().toISOString();
  // D33: «Доработка завершена» by someone who changed the data sends the year for approval.
  const to = targetOf(request.action, actor.email, current);
  const freezes = Boolean(rule.freezes) && to === rule.to;
  // Who changed the data is counted afresh from each step; the last editor stays.
  const { changed_by: _changed, changed_after_send: _shown, ...kept } = current;
  // The history names the person as the register does (name and role), not by e-mail alone.
  const user = actor.profile ?? (await deps.repos.users.get(actor.company, actor.id));
  const name = user ? personName(user) : "";
  const next: InventoryReview = {
    ...kept,
    status: to,
    history: [
      ...current.history,
      {
        action: request.action,
        from: current.status,
        to,
        by: actor.email,
        ...(name ? { by_name: name } : {}),
        by_role: actor.role,
        at: now,
        ...(date ? { date } : {}),
        ...(request.action === "refuse" ? { date: request.notice_date } : {}),
        ...(reason ? { reason } : {}),
      },
    ],
    updated_at: now,
    version: current.version + 1,
  };
  if (freezes) {
    next.approved_at = now;
    next.approved_by = actor.email;
  }
  if (request.action === "refuse") {
    // permitTransition checked the notice date.
    Object.assign(next, withReworkDeadline({ ...next, notice_date: request.notice_date }, await workingCalendar(deps)));
  }
  // a send captures what the version would print; a step back to the draft forgets it.
  if (to === "in_review") {
    const content: SentContent = { inventory: await snapshot(actor.company, year), legal_entity: await liveEntity(deps, actor.company) };
    next.sent = await storeSent(deps, actor.company, year, next.version, content, now);
  } else if (to === "draft") delete next.sent;
  // D20: the snapshot is stored last, once every check has passed, and undone if the review
  // changed meanwhile (that approval never happened).
  let stored: InventoryVersion | undefined;
  if (freezes) {
    const state = await snapshot(actor.company, year);
    let entity: SnapshotEntity | undefined;
    if (current.status === "in_review" && current.sent) {
      // Four eyes over every printed field: the version is what was sent, or nothing.
      const sent = await loadSent(deps, current, current.sent);
      const live: SentContent = { inventory: state, legal_entity: await liveEntity(deps, actor.company) };
      if (contentSha256(live) !== current.sent.sha256) {
        const changes = sentDifferences(sent, live);
        throw new Conflict(
          `«${rule.label}» ${actionProblem(request.action, actor, { ...current, changed_after_send: changes })}. ` +
            `Изменено после отправки: ${changes.join("; ")}`,
        );
      }
      entity = sent.legal_entity;
    }
    stored = await storeVersion(deps, actor, current, request.action, now, state, entity);
    next.snapshot = { version: stored.version, sha256: stored.sha256 };
  }
  try {
    await deps.repos.inventoryReviews.put(next, current.version);
  } catch (error) {
    if (stored) await discardVersion(deps, stored);
    throw error;
  }
  return next;
}
