// D89: a gassing once found is a record. A consumer of each facility's written
// readings (the change stream's «gassing record» line, beside the event detector): it finds the
// gassings the minutes give around the days written (journal.ts, the book's own rule: D87's norm by
// place, D88's every reading) and keeps each as the book's entry from the minute it is found — not
// registered yet (`registered_by` ""), with the gassing as found and when. D97: one gassing, one entry.
// A gassing found on an entry's meters and span is that entry's, whatever a correction moved (its
// start too): never a second entry. A gassing that lasts (minutes after the last the record read) is
// followed; any other change of its start, end or maximum — or its removal — adds a correction with the
// figures before (as found) and after (as the readings give them now over its span, null where no minute
// reaches the norm), the batches, their sender and when; a restoring batch adds one whose `after` is the
// found figures; a closed entry keeps its closed figures and gets the correction too, listed «после
// закрытия» (gassing-entry.ts); closing a corrected entry asks the reason (gassing-book.ts). Idempotent:
// a batch published again adds nothing (the last correction already says the same).
import type { Gassing } from "@core/monitoring-events";
import type { Deps } from "../../context";
import { Conflict } from "../../errors";
import type { FoundGassing, GassingCorrection, GassingFigures, GassingRegistration, ReadingsWritten } from "../../../ports";
import { changeRuns, DETECT_LOOKBACK_MS } from "./events";
import { NOBODY_NOTIFIED, figuresOf, foundFigures, foundOf, gassingsOn } from "./gassing-entry";
import { gassingsFound } from "./journal";
import { registerOfChange } from "../ingest/kept-register";
import { DAY_MS, MINUTE_MS } from "@core/dates";

type Change = Pick<ReadingsWritten, "company" | "facility" | "days" | "since" | "batches" | "register"> &
  Partial<Pick<ReadingsWritten, "readings">>;
const iso = (ms: number) => new Date(ms).toISOString();
const WRITE_ATTEMPTS = 3;

/** D97: the gassing the readings give now over an entry's span: its found figures with the start. */
export type GivenGassing = FoundGassing & { start: string };

/** What the readings give now over an entry's span from the gassings found there: the earliest start,
 *  the latest end (null while one lasts), the highest maximum; undefined: none reaches the norm. */
export function givenOver(gassings: readonly Gassing[]): GivenGassing | undefined {
  if (gassings.length === 0) return undefined;
  const sorted = [...gassings].sort((a, b) => a.start - b.start);
  const top = sorted.reduce((a, b) => (b.max > a.max ? b : a));
  const end = sorted.some((g) => g.end === null) ? null : Math.max(...sorted.map((g) => g.end!));
  return { ...foundOf(top), start: iso(sorted[0].start), end: end === null ? null : iso(end) };
}

const same = (a: GassingFigures | null, b: GassingFigures | null) =>
  a === b || (a !== null && b !== null && a.start === b.start && a.end === b.end && Math.abs(a.max - b.max) < 1e-12);

const withoutStart = ({ start: _, ...found }: GivenGassing): FoundGassing => found;

/** The last minute of its meters the record has read (D97; before D97: its end, or its maximum's minute). */
function seenOf(stored: GassingRegistration): number {
  const found = stored.found!;
  return Math.max(
    stored.seen_to ? Date.parse(stored.seen_to) : Number.NEGATIVE_INFINITY,
    Date.parse(found.max_at),
    found.end === null ? Number.NEGATIVE_INFINITY : Date.parse(found.end),
  );
}

/** Whether `now` is `base` lasting (D97): the same start; a gassing open then that goes on or ends at a
 *  minute not read before; its maximum the same, or higher at a minute not read before. Anything else —
 *  a moved start, an end or a maximum moved over minutes already read — is a correction. */
function lasted(base: Required<GassingFigures>, now: GivenGassing, seen: number): boolean {
  if (now.start !== base.start) return false;
  const ends = base.end === null ? now.end === null || Date.parse(now.end) > seen : now.end === base.end;
  const max = Math.abs(now.max - base.max) < 1e-9 || (now.max > base.max && Date.parse(now.max_at) > seen);
  return ends && max;
}

/** The entry `stored` as the readings give its gassing now (`now`, undefined: no minute reaches the norm
 *  over its span), or undefined where nothing changes. `seen`: the last minute of its meters these
 *  readings hold; `since`: their earliest (undefined: none of its meters' readings). D97: readings that
 *  rewrite none of its meters' minutes already read (they continue it, or another meter's joined it into
 *  a general gassing) are followed — its found figures, or its last correction's `after` — as is an open
 *  gassing that lasts; any other change adds a correction — to a closed entry too, which is never
 *  reopened; a restored value adds one whose `after` is the found figures. */
export function nextRecord(
  stored: GassingRegistration,
  now: GivenGassing | undefined,
  correction: Pick<GassingCorrection, "at" | "batches" | "sent_by">,
  seen?: number,
  since?: number,
): GassingRegistration | undefined {
  if (!stored.found) return undefined;
  const corrections = stored.corrections ?? [];
  const last = corrections.at(-1);
  const base = last ? last.after && figuresOf(last.after, stored.start) : foundFigures(stored.start, stored.found);
  const after = now ? foundFigures(now.start, now) : null;
  const known = seenOf(stored);
  const open = !stored.closed && (now ? now.end === null : false);
  const seenTo = open && seen !== undefined && seen > known ? { seen_to: iso(seen) } : {};
  // Its meters' minutes already read were not written again: nothing read was corrected.
  const rewritten = since === undefined || since <= known;
  if (!rewritten && (stored.closed || !now || !base || now.start !== base.start))
    return seenTo.seen_to ? { ...stored, ...seenTo, version: stored.version + 1 } : undefined;
  if (!stored.closed && base && now && (!rewritten || lasted(base, now, known))) {
    // It lasted: followed, as the readings give it.
    const followed = last ? { corrections: [...corrections.slice(0, -1), { ...last, after: after! }] } : { found: withoutStart(now) };
    const unchanged = last ? same(last.after, after) : JSON.stringify(stored.found) === JSON.stringify(followed.found);
    if (unchanged && !seenTo.seen_to) return undefined;
    return { ...stored, ...followed, ...seenTo, version: stored.version + 1 };
  }
  if (same(base, after)) return seenTo.seen_to ? { ...stored, ...seenTo, version: stored.version + 1 } : undefined;
  return {
    ...stored,
    corrections: [
      ...corrections,
      { ...correction, before: foundFigures(stored.start, stored.found), after, ...(stored.closed ? { after_closing: true } : {}) },
    ],
    ...seenTo,
    version: stored.version + 1,
  };
}

/** A new entry of a gassing found at `at`: in the book, not yet registered. */
export function foundRecord(company: string, facility: string, g: Gassing, at: string, seen?: number): GassingRegistration {
  return {
    ...(g.end === null && seen !== undefined ? { seen_to: iso(Math.max(seen, g.max_at)) } : {}),
    company,
    id: `${facility}.${g.id}`,
    facility,
    start: iso(g.start),
    registered_by: "",
    registered_at: "",
    found_at: at,
    notified: NOBODY_NOTIFIED,
    comment: "",
    found: foundOf(g),
    closed: false,
    closed_by: null,
    closed_at: null,
    version: 1,
  };
}

/** Who sent the change's batches (the first that names a sender). */
async function senderOf(deps: Pick<Deps, "repos">, change: Change): Promise<string | null> {
  for (const part of change.batches) {
    const batch = await deps.repos.monitoring.getBatch(change.company, part.split("#")[0]);
    if (batch?.sent_by) return batch.sent_by;
  }
  return null;
}

/** Writes `make(stored)` over the entry of `id`: first over `listed` (the entry as the facility's list
 *  read it, undefined: none), then read again after another writer's (a dispatcher's registration);
 *  nothing where it answers undefined. Answers the entry written. An entry is written without a read of its own first: a file's
 *  day may give thousands (2 880 at 20 sensors), each a read fewer. */
async function rewrite(
  deps: Pick<Deps, "repos">,
  company: string,
  id: string,
  listed: GassingRegistration | undefined,
  make: (stored: GassingRegistration | undefined) => GassingRegistration | undefined,
): Promise<GassingRegistration | undefined> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const stored = attempt === 0 ? listed : await deps.repos.gassings.get(company, id);
    const next = make(stored);
    if (!next) return undefined;
    try {
      if (stored) await deps.repos.gassings.replace(next, stored.version);
      else await deps.repos.gassings.create(next);
      return next;
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
  }
  return undefined;
}

/** The last minute of each sensor's readings written (by code). */
function latestByCode(change: Change, codeOf: ReadonlyMap<string, string>): Map<string, number> {
  const latest = new Map<string, number>();
  for (const { sensor, times } of change.readings ?? []) {
    const code = codeOf.get(sensor);
    if (code === undefined) continue;
    let last = latest.get(code) ?? Number.NEGATIVE_INFINITY;
    for (let i = 0; i < times.length; i++) if (times[i] > last) last = times[i];
    latest.set(code, Math.floor(last / MINUTE_MS) * MINUTE_MS);
  }
  return latest;
}

/** D89, D97 as a consumer of written readings: the entries of the facility's gassings around the days
 *  written made equal to the record rule — one entry a gassing: a gassing found over an entry's span on
 *  its meters (a correction moved its start) is that entry's, never a second one. Answers the entries
 *  written. */
export async function keepFoundGassings(deps: Pick<Deps, "repos" | "clock" | "runtime">, change: Change): Promise<number> {
  let written = 0;
  const register = await registerOfChange(deps, change);
  const codeOf = new Map(register.map((s) => [s.id, s.code]));
  const latest = latestByCode(change, codeOf);
  const seenOn = (codes: readonly string[]) => {
    const seen = codes.map((c) => latest.get(c)).filter((t): t is number => t !== undefined);
    return seen.length > 0 ? Math.max(...seen) : undefined;
  };
  const at = deps.clock.now().toISOString();
  let sender: string | null | undefined;
  // The company's entries read once for the change, not once a run: the list grows with every day of a
  // file applied (a 60-day file's last parts read thousands).
  let entries: GassingRegistration[] | undefined;
  for (const run of changeRuns({ ...change, register })) {
    const days = [...new Set(run.days.map((d) => d.day))].sort();
    if (days.length === 0) continue;
    const sinces = Object.values(run.since ?? {});
    const from = (sinces.length > 0 ? Math.min(...sinces) : Date.parse(days[0]) - DAY_MS) - DETECT_LOOKBACK_MS;
    const to = Date.parse(days[days.length - 1]) + DAY_MS;
    const found = await gassingsFound(deps, change.company, change.facility, from, to, register);
    const touched = new Set(run.days.map((d) => codeOf.get(d.sensor)).filter((c): c is string => c !== undefined));
    // The earliest instant these readings wrote of each meter, by code.
    const sinceOf = new Map<string, number>();
    for (const [sensor, t] of Object.entries(change.since ?? {})) {
      const code = codeOf.get(sensor);
      if (code !== undefined) sinceOf.set(code, Math.min(sinceOf.get(code) ?? t, Math.floor(t / MINUTE_MS) * MINUTE_MS));
    }
    const sinceOn = (codes: readonly string[]) => {
      const given = codes.map((c) => sinceOf.get(c)).filter((t): t is number => t !== undefined);
      return given.length > 0 ? Math.min(...given) : undefined;
    };
    entries ??= (await deps.repos.gassings.list(change.company)).filter((r) => r.facility === change.facility);
    // Each gassing found by its meters, and each entry's found on its span and meters, read once.
    const byCode = new Map<string, { start: number; end: number | null; sensors: string[]; gassing: Gassing }[]>();
    for (const g of found) {
      const item = { start: g.start, end: g.end, sensors: g.sensors.map((s) => s.code), gassing: g };
      for (const code of item.sensors) byCode.set(code, [...(byCode.get(code) ?? []), item]);
    }
    const overs = new Map<GassingRegistration, Gassing[]>();
    const over = (r: GassingRegistration): Gassing[] => {
      let given = overs.get(r);
      if (!given) {
        const near = [...new Set(r.found?.sensors.flatMap((code) => byCode.get(code) ?? []) ?? [])];
        given = near.length === 0 ? [] : gassingsOn(r, near).map((item) => item.gassing);
        overs.set(r, given);
      }
      return given;
    };
    // The entries of the days written, and any other a gassing found now falls on (D97).
    const stored = entries.filter((r) => r.found && ((Date.parse(r.start) >= from && Date.parse(r.start) < to) || over(r).length > 0));
    const correction = async () => ({ at, batches: change.batches, sent_by: (sender ??= await senderOf(deps, change)) });
    const claimed = new Set([...stored.map((r) => r.id), ...stored.flatMap((r) => over(r).map((g) => `${change.facility}.${g.id}`))]);
    for (const g of found) {
      const id = `${change.facility}.${g.id}`;
      // D97: a gassing on an entry's span and meters is that entry's (followed or corrected below).
      if (claimed.has(id)) continue;
      // One followed back past a day before the readings written (across days without readings) is the
      // reading's of its own days: made an entry when they were written, not now.
      if (g.start < from - DAY_MS) continue;
      const made = foundRecord(change.company, change.facility, g, at, seenOn(g.sensors.map((s) => s.code)));
      if (await rewrite(deps, change.company, id, undefined, (current) => (current ? undefined : made))) {
        written++;
        entries.push(made);
      }
    }
    for (const r of stored) {
      const gassings = over(r);
      // An entry of other meters than these readings touched, no gassing found on it: not this change's.
      if (gassings.length === 0 && !r.found!.sensors.some((code) => touched.has(code))) continue;
      const now = givenOver(gassings);
      const seen = seenOn(r.found!.sensors);
      // Readings of none of its meters rewrote nothing it read: a meter joining it is followed.
      const since = sinceOn(r.found!.sensors) ?? Number.POSITIVE_INFINITY;
      // Nothing to write: skipped before the sender is read (a file's day gives thousands).
      if (!nextRecord(r, now, { at, batches: [], sent_by: null }, seen, since)) continue;
      const made = await correction();
      const next = await rewrite(deps, change.company, r.id, r, (current) => current && nextRecord(current, now, made, seen, since));
      if (next) {
        written++;
        entries[entries.indexOf(r)] = next;
      }
    }
  }
  return written;
}
