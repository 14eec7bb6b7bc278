// Issue 114, item 3 (D89): a gassing once found is a record. A consumer of each facility's written
// readings (the change stream's «gassing record» line, beside the event detector): it finds the
// gassings the minutes give around the days written (journal.ts, the book's own rule: D87's norm by
// place, D88's every reading) and keeps each as the book's entry from the minute it is found — not
// registered yet (`registered_by` ""), with the gassing as found and when. A later batch whose readings
// no longer give it (or give it shorter, or lower) never rewrites it: the entry keeps what was found and
// adds a correction with the readings before and after, the batches, their sender and when; closing it
// then asks the reason (gassing-book.ts). A gassing that grows (it lasts, or its new minutes are higher)
// is followed as before. A closed entry is never touched (it keeps its gassing as closed). Idempotent: a
// batch published again adds nothing (the last correction already says the same).
import type { Gassing } from "@core/monitoring-events";
import type { Deps } from "../../context";
import { Conflict } from "../../errors";
import type { FoundGassing, GassingCorrection, GassingRegistration, ReadingsWritten } from "../../../ports";
import { changeRuns, DETECT_LOOKBACK_MS } from "./events";
import { NOBODY_NOTIFIED, foundOf } from "./gassing-entry";
import { gassingsFound } from "./journal";
import { registerOfChange } from "../ingest/kept-register";
import { DAY_MS } from "@core/dates";

type Change = Pick<ReadingsWritten, "company" | "facility" | "days" | "since" | "batches" | "register">;
const iso = (ms: number) => new Date(ms).toISOString();
const WRITE_ATTEMPTS = 3;

/** What a correction compares: the gassing's end and maximum. */
const shape = (f: Pick<FoundGassing, "end" | "max">) => ({ end: f.end, max: f.max });
const same = (a: GassingCorrection["after"], b: GassingCorrection["after"]) =>
  a === b || (a !== null && b !== null && a.end === b.end && Math.abs(a.max - b.max) < 1e-12);

/** Whether `now` gives less than `found`: ended earlier, or lower (a gassing still open when found that
 *  has ended since is one that lasted, not a correction). */
function lessThan(found: FoundGassing, now: FoundGassing): boolean {
  const shorter = found.end !== null && now.end !== null && Date.parse(now.end) < Date.parse(found.end);
  return shorter || now.max < found.max - 1e-9;
}

/** The entry `stored` as the minutes give its gassing now (`now`, undefined: no more), or undefined where
 *  nothing changes. */
export function nextRecord(
  stored: GassingRegistration,
  now: FoundGassing | undefined,
  correction: Pick<GassingCorrection, "at" | "batches" | "sent_by">,
): GassingRegistration | undefined {
  if (stored.closed || !stored.found) return undefined;
  const corrections = stored.corrections ?? [];
  const after = now ? shape(now) : null;
  if (corrections.length > 0) {
    // Corrected before: the record stays as found; a further change of the readings is another correction.
    if (same(corrections[corrections.length - 1].after, after)) return undefined;
  } else if (now && !lessThan(stored.found, now)) {
    // It lasted or grew: followed, as the minutes give it.
    if (JSON.stringify(stored.found) === JSON.stringify(now)) return undefined;
    return { ...stored, found: now, version: stored.version + 1 };
  }
  return {
    ...stored,
    corrections: [...corrections, { ...correction, before: shape(stored.found), after }],
    version: stored.version + 1,
  };
}

/** A new entry of a gassing found at `at`: in the book, not yet registered. */
export function foundRecord(company: string, facility: string, g: Gassing, at: string): GassingRegistration {
  return {
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
 *  nothing where it answers undefined. An entry is written without a read of its own first: a file's
 *  day may give thousands (2 880 at 20 sensors), each a read fewer. */
async function rewrite(
  deps: Pick<Deps, "repos">,
  company: string,
  id: string,
  listed: GassingRegistration | undefined,
  make: (stored: GassingRegistration | undefined) => GassingRegistration | undefined,
): Promise<boolean> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const stored = attempt === 0 ? listed : await deps.repos.gassings.get(company, id);
    const next = make(stored);
    if (!next) return false;
    try {
      if (stored) await deps.repos.gassings.replace(next, stored.version);
      else await deps.repos.gassings.create(next);
      return true;
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
  }
  return false;
}

/** D89 as a consumer of written readings: the entries of the facility's gassings around the days written
 *  made equal to the record rule. Answers the entries written. */
export async function keepFoundGassings(deps: Pick<Deps, "repos" | "clock" | "runtime">, change: Change): Promise<number> {
  let written = 0;
  const register = await registerOfChange(deps, change);
  const codeOf = new Map(register.map((s) => [s.id, s.code]));
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
    entries ??= (await deps.repos.gassings.list(change.company)).filter((r) => r.facility === change.facility);
    const stored = entries.filter((r) => r.facility === change.facility && Date.parse(r.start) >= from && Date.parse(r.start) < to);
    const given = new Set<string>();
    const correction = async () => ({ at, batches: change.batches, sent_by: (sender ??= await senderOf(deps, change)) });
    for (const g of found) {
      const id = `${change.facility}.${g.id}`;
      given.add(id);
      const now = foundOf(g);
      const known = stored.find((r) => r.id === id);
      // One followed back past a day before the readings written (across days without readings) is the
      // reading's of its own days: made an entry when they were written, not now.
      if (!known && g.start < from - DAY_MS) continue;
      if (known && (known.closed || (known.found && JSON.stringify(known.found) === JSON.stringify(now) && !known.corrections?.length)))
        continue;
      const made = await correction();
      if (
        await rewrite(deps, change.company, id, known, (current) =>
          !current ? foundRecord(change.company, change.facility, g, at) : nextRecord(current, now, made),
        )
      )
        written++;
    }
    // An entry whose gassing the minutes no longer give, of a sensor these readings touched: corrected.
    for (const r of stored) {
      if (given.has(r.id) || r.closed || !r.found || !r.found.sensors.some((code) => touched.has(code))) continue;
      const made = await correction();
      if (await rewrite(deps, change.company, r.id, r, (current) => current && nextRecord(current, undefined, made))) written++;
    }
  }
  return written;
}
