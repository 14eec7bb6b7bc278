// D32: approval is atomic with respect to writes. A write that may reach a year's inventory (every
// change freeze.ts guards) begins with one conditional update of the year's review item, which
// counts it begun and is refused while the year is frozen or a freezing step holds its writes
// (adapters/dynamodb/inventory-review-repository.ts); the request counts it ended once its work is
// done, before it answers (withYearWrites, around every request that may write). A step that
// freezes the year (sending it to review, an approval from a year not frozen) holds the year's
// writes first and waits until every write begun has ended: a save answered before the step
// answered is in what it freezes, and no save of that year is answered after it.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Actor, Deps } from "../context";
import { Conflict } from "../errors";

/** No API request lives this long (the API function's timeout is 30 s): a write begun earlier has
 *  ended or its process is gone, and a hold taken earlier belongs to a step that died. */
export const WRITE_LIFETIME_MS = 60_000;
/** How long a freezing step waits for the writes begun before its hold to end. */
export const SETTLE_WAIT_MS = 10_000;

export const staleBefore = (now: Date) => new Date(now.getTime() - WRITE_LIFETIME_MS).toISOString();

/** The writes this request has begun, each to end once its work is done. */
const begunWrites = new AsyncLocalStorage<Array<{ company: string; year: number }>>();

/** A write that may reach `year` begins: counted on the year's review, with `actor` noted as its
 *  last editor (D33); false while the year is frozen or a freezing step holds its writes. Ended
 *  by withYearWrites; outside a request (a command-line tool) the write is counted for its check only. */
export async function beginYearWrite(deps: Pick<Deps, "repos" | "clock">, actor: Pick<Actor, "company" | "email">, year: number) {
  const now = deps.clock.now();
  const reviews = deps.repos.inventoryReviews;
  if (!(await reviews.beginWrite(actor.company, year, actor.email, now.toISOString(), staleBefore(now)))) return false;
  const scope = begunWrites.getStore();
  if (scope) scope.push({ company: actor.company, year });
  else await reviews.endWrite(actor.company, year);
  return true;
}

/** Whether a year write begun now stays open until the request ends it (or hands it over). */
export const yearWritesStayOpen = () => begunWrites.getStore() !== undefined;

/** A calculation write stored with the year whose lock counted it begun (its `inventory_year`):
 *  the table's stream counts it ended once the write is in (events/table-changes.ts, exactly once
 *  with the statistics' marks), so the request does not end it itself. */
export function handOverYearWrite(companyId: string, year: number): void {
  const scope = begunWrites.getStore();
  const i = scope?.findIndex((w) => w.company === companyId && w.year === year) ?? -1;
  if (i >= 0) scope!.splice(i, 1);
}

/** Runs a request's work, then ends every year write it began (made or refused), before it answers. */
export async function withYearWrites<T>(deps: Pick<Deps, "repos">, work: () => Promise<T>): Promise<T> {
  const begun: Array<{ company: string; year: number }> = [];
  try {
    return await begunWrites.run(begun, work);
  } finally {
    await Promise.allSettled(begun.map((w) => deps.repos.inventoryReviews.endWrite(w.company, w.year)));
  }
}

/** D32: before a step freezes the year, holds its writes (new ones are refused) and waits until
 *  every write begun before has ended; 409 when another step holds them or they do not end in
 *  time. The hold ends with the review the step writes, or by releaseYearWrites. */
export async function holdYearWrites(deps: Pick<Deps, "repos" | "clock">, companyId: string, year: number): Promise<void> {
  const reviews = deps.repos.inventoryReviews;
  const now = deps.clock.now();
  if (!(await reviews.holdWrites(companyId, year, now.toISOString(), staleBefore(now)))) {
    throw new Conflict(`Инвентаризацию ${year} года сейчас отправляет или утверждает другой пользователь. Обновите страницу и повторите`);
  }
  // A calculation write is counted ended by the table's stream once stored (handOverYearWrite):
  // in AWS its batching window (5 s) is within the wait.
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const counts = await reviews.writeCounts(companyId, year);
    if (counts.ended >= counts.begun) return;
    if (counts.last_begun_at !== undefined && counts.last_begun_at < staleBefore(deps.clock.now())) {
      await reviews.settleAbandoned(companyId, year, counts.begun);
      continue;
    }
    if (Date.now() > deadline) {
      await reviews.releaseWrites(companyId, year);
      throw new Conflict(`В инвентаризацию ${year} года сейчас сохраняются изменения. Повторите через минуту`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const releaseYearWrites = (deps: Pick<Deps, "repos">, companyId: string, year: number) =>
  deps.repos.inventoryReviews.releaseWrites(companyId, year);
