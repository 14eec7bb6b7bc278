// Issue 74: the answers that fold a whole year, or years (the year's uncertainty with its 100 000
// Monte Carlo trials, the trend), cost seconds of CPU. Ten of them in flight held every other
// company's requests (a get_me p50 of 460-801 ms). Each is now computed once per what it depends
// on and kept in the process within a byte budget (byte-budget-cache.ts: the callers asking at
// once share one computation), and computed inside a heavy-work slot of the user and the company
// (heavy-work.ts), its arithmetic off the request thread where the host can (Deps.yearMath).
// What they depend on is the company's data as it stands: its calculation writes (the inventory
// write counter, which every calculation write moves), projects, facilities, points, the years'
// reviews (status, approved version, coal), the trend settings and the platform's dictionaries
// (their change counter: GWP sets and factors). An approved year's figures are its version's,
// whose hash the reviews carry. While a calculation write is not yet in the kept sums nothing is
// kept: the answer is computed for that request alone.
import { createHash } from "node:crypto";
import { byteBudgetCache } from "./byte-budget-cache";
import type { Actor, Deps } from "./context";
import { heavyWork } from "./heavy-work";

/** What the process keeps of whole-year answers, all companies together (LRU past it). */
export const HEAVY_READ_CACHE_BYTES = 32 * 1024 * 1024;

const answers = byteBudgetCache<unknown>(HEAVY_READ_CACHE_BYTES);
/** The answers being made while a calculation write was on its way (not kept once made). */
const unsettled = new Map<string, Promise<unknown>>();

/** The company's data version for the whole-year answers, or undefined while a calculation write
 *  is on its way into the kept sums. */
export async function companyDataVersion(deps: Pick<Deps, "repos">, companyId: string): Promise<string | undefined> {
  const [writes, projects, facilities, points, reviews, settings, dictionaries] = await Promise.all([
    deps.repos.statistics.inventoryWrites(companyId),
    deps.repos.projects.listAllOfCompany(companyId),
    deps.repos.facilities.list(companyId),
    deps.repos.emissionPoints.listOfCompany(companyId),
    deps.repos.inventoryReviews.listOfCompany(companyId),
    deps.repos.trendSettings.get(companyId),
    deps.repos.dictionaries.changeCount(),
  ]);
  if (writes.writes !== writes.applied) return undefined;
  const text = JSON.stringify([
    writes.writes,
    dictionaries,
    settings?.version ?? 0,
    projects.map((p) => [p.id, p.updated_at, p.reporting_year, p.start_date, p.end_date, p.facility ?? null, p.is_deleted, p.name]),
    facilities.map((f) => [f.id, f.version, f.kind, f.is_active, f.name]),
    points.map((p) => [p.id, p.version]),
    reviews.map((r) => [r.year, r.version, r.status, r.snapshot?.sha256 ?? null, r.coal_processed ?? null, r.coal_output ?? null]),
  ]);
  return createHash("sha256").update(text).digest("hex");
}

/** `compute`'s answer for the actor's company and `what` (the route and its parameters): kept
 *  while the company's data stay as they are, computed once in a heavy-work slot otherwise. */
export async function heavyRead<T>(
  deps: Pick<Deps, "repos">,
  actor: Pick<Actor, "id" | "company" | "heavySlot">,
  what: readonly unknown[],
  compute: () => Promise<T>,
): Promise<T> {
  const version = await companyDataVersion(deps, actor.company);
  const key = `${actor.company}|${version}|${JSON.stringify(what)}`;
  if (version === undefined) {
    // A write on its way: its answer is kept by nobody, but the callers asking now share it.
    const running = unsettled.get(key);
    if (running) return running as Promise<T>;
    const made = heavyWork(deps, actor, compute).finally(() => unsettled.delete(key));
    unsettled.set(key, made);
    return made;
  }
  return (await answers.get(key, async () => {
    const value = await heavyWork(deps, actor, compute);
    // UTF-16 in memory: about two bytes a character of its JSON.
    return { value, bytes: 2 * JSON.stringify(value).length };
  })) as T;
}

/** How many answers the process keeps and their bytes (the tests and the bench read them). */
export const heavyReadsHeld = () => ({ answers: answers.size(), bytes: answers.bytes() });
