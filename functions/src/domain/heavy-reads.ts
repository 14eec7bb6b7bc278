// the answers that fold a whole year, or years (the year's uncertainty with its 100 000
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
// kept: the answer is computed for that request alone. A company's answers of an older version of
// its data are given up as soon as one of a newer is asked for: nobody asks for them again, and
// kept they held the process's memory after a burst (RSS +13 % once idle).
import { createHash } from "node:crypto";
import { byteBudgetCache, type ByteBudgetCache } from "./byte-budget-cache";
import { keptState } from "../ports/runtime";
import type { Actor, Deps } from "./context";
import { heavyWork } from "./heavy-work";

/** What the process keeps of whole-year answers, all companies together (LRU past it). */
export const HEAVY_READ_CACHE_BYTES = 32 * 1024 * 1024;

/** What the host keeps of whole-year answers: the answers, each company's data version they are
 *  of, the answers being made while a calculation write was on its way (not kept once made) and the
 *  companies' version reads in flight. */
interface HeavyReads {
  readonly answers: ByteBudgetCache<unknown>;
  readonly keptVersion: Map<string, string>;
  readonly unsettled: Map<string, Promise<unknown>>;
  readonly versionReads: Map<string, VersionReads>;
}

/** A company's data version being read, and the read asked for after it. */
interface VersionReads {
  current: Promise<string | undefined>;
  next?: Promise<string | undefined>;
}

const heavyReads = keptState(
  "heavy reads",
  (): HeavyReads => ({
    answers: byteBudgetCache<unknown>(HEAVY_READ_CACHE_BYTES),
    keptVersion: new Map(),
    unsettled: new Map(),
    versionReads: new Map(),
  }),
);

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

const ignore = () => {};

/** A company's version reads in flight (VersionReads): one at a time, the callers that come meanwhile sharing the
 *  next. Fifty whole-year reads in flight each read the seven lists of companyDataVersion, and their
 *  reads queued before another company's get_me in the engine. */
function startVersionRead(
  deps: Pick<Deps, "repos" | "runtime">,
  company: string,
  reads: Partial<VersionReads>,
): Promise<string | undefined> {
  const { versionReads } = deps.runtime.kept(heavyReads);
  const read = companyDataVersion(deps, company);
  const state = Object.assign(reads, { current: read });
  versionReads.set(company, state);
  void read.then(ignore, ignore).then(() => {
    if (state.current === read && !state.next) versionReads.delete(company);
  });
  return read;
}

/** The company's data version as read after the caller came: a read already in flight may have been
 *  sent before a write the caller saw acknowledged, so the caller waits for the next one. */
export function sharedDataVersion(deps: Pick<Deps, "repos" | "runtime">, company: string): Promise<string | undefined> {
  const reads = deps.runtime.kept(heavyReads).versionReads.get(company);
  if (!reads) return startVersionRead(deps, company, {});
  reads.next ??= reads.current.then(ignore, ignore).then(() => {
    reads.next = undefined;
    return startVersionRead(deps, company, reads);
  });
  return reads.next;
}

/** `compute`'s answer for the actor's company and `what` (the route and its parameters): kept
 *  while the company's data stay as they are, computed once in a heavy-work slot otherwise. */
export async function heavyRead<T>(
  deps: Pick<Deps, "repos" | "clock" | "runtime">,
  actor: Pick<Actor, "id" | "company" | "heavySlot">,
  what: readonly unknown[],
  compute: () => Promise<T>,
): Promise<T> {
  const { answers, keptVersion, unsettled } = deps.runtime.kept(heavyReads);
  const version = await sharedDataVersion(deps, actor.company);
  // The year of today's conditions (a trend's comparable GWP, a target's progress) is the clock's.
  const key = `${actor.company}|${version}|${deps.clock.now().getUTCFullYear()}|${JSON.stringify(what)}`;
  if (version === undefined) {
    // A write on its way: its answer is kept by nobody, but the callers asking now share it.
    const running = unsettled.get(key);
    if (running) return running as Promise<T>;
    const made = heavyWork(deps, actor, compute).finally(() => unsettled.delete(key));
    unsettled.set(key, made);
    return made;
  }
  if (keptVersion.get(actor.company) !== version) {
    keptVersion.set(actor.company, version);
    answers.forget((kept) => kept.startsWith(`${actor.company}|`) && !kept.startsWith(`${actor.company}|${version}|`));
  }
  return (await answers.get(key, async () => {
    const value = await heavyWork(deps, actor, compute);
    // UTF-16 in memory: about two bytes a character of its JSON.
    return { value, bytes: 2 * JSON.stringify(value).length };
  })) as T;
}

/** How many answers the host keeps and their bytes (the tests and the bench read them). */
export function heavyReadsHeld(deps: Pick<Deps, "runtime">) {
  const { answers } = deps.runtime.kept(heavyReads);
  return { answers: answers.size(), bytes: answers.bytes() };
}
