// an entry of the gassing book («Книга учета загазирований») as the API shows it: the gassing
// the minutes give (journal.ts finds it) with the dispatcher's registration — whom they informed, the
// cause, the type, the losses, who cleared the gas and who investigated, the measures, the closing and
// the confirmations of the section's head, the head of the АБ section and the chief engineer. People are
// named by surname and initials, never by e-mail. A closed entry shows the gassing as it was when closed
// (kept with it), whatever the minutes or the rules give later; a registration whose gassing the minutes
// no longer give is still listed, from what it kept.
import type { Gassing } from "@core/monitoring-events";
import type * as z from "zod";
import type { Deps } from "../../context";
import { initialsByEmail } from "../../person-name";
import { problemAt } from "../../../contract/field-errors";
import { Invalid } from "../../errors";
import type { FoundGassing, GassingFigures, GassingRegistration } from "../../../ports";
import { DUTIES } from "@core/gassing-book";
import { NOTIFICATIONS } from "@core/monitoring-events";
import { CLOSING_FIELDS, type gassingSchema } from "../../../contract/schemas/journal";
import { zoneOf } from "@core/company-clock";
import { registerAt } from "../ingest/register";
import { DOUBT_LOOKBACK_DAYS, doubtText, facilityDoubt } from "../minutes/doubt";
import { MINUTE_MS } from "@core/dates";

export type GassingView = z.output<typeof gassingSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

export const NOBODY_NOTIFIED: GassingView["notified"] = {
  chief_engineer: null,
  head_ab: null,
  head_section: null,
  rostekhnadzor: null,
};

/** each addressee's notification `{at, by}` (null: not notified) of a stored entry. A tick
 *  kept before an earlier release (`true`) reads as notified at the entry's registration (a migration on read:
 *  what is stored stays until the entry's next write gives the time it read). */
export function noticesOf(
  registration: Pick<GassingRegistration, "notified" | "registered_at" | "found_at" | "start"> | undefined,
): GassingView["notified"] {
  if (!registration) return NOBODY_NOTIFIED;
  const registered = registration.registered_at || registration.found_at || registration.start;
  return Object.fromEntries(
    NOTIFICATIONS.map((n) => {
      const kept = registration.notified?.[n];
      return [n, kept === true ? { at: registered, by: null } : kept ? { at: kept.at, by: kept.by ?? null } : null];
    }),
  ) as GassingView["notified"];
}
/** Losses never entered: «—» in the book, never «0,0». */
type Losses = NonNullable<GassingRegistration["losses"]>;
export const NO_LOSSES: Losses = { development_m: null, coal_t: null };

/** What the entry keeps of the gassing the minutes gave. */
export const foundOf = (g: Gassing): FoundGassing => ({
  end: g.end === null ? null : iso(g.end),
  max: g.max,
  max_at: iso(g.max_at),
  sensors: g.sensors.map((s) => s.code),
  places: g.sensors.map((s) => s.place ?? ""),
  limits: g.sensors.map((s) => s.limit),
  working: g.working,
  section: g.section,
  kind: g.kind,
  sudden: g.sudden,
  over_span: g.over_span,
});

/** D97: an entry's start, end and maximum as found. */
export const foundFigures = (start: string, f: Pick<FoundGassing, "end" | "max">): Required<GassingFigures> => ({
  start,
  end: f.end,
  max: f.max,
});

/** D97: figures kept with a correction, the entry's start where kept before D97 without one. */
export const figuresOf = (f: GassingFigures, start: string): Required<GassingFigures> => ({
  start: f.start ?? start,
  end: f.end,
  max: f.max,
});

type Spanned = Pick<GassingRegistration, "start" | "found" | "corrections" | "seen_to">;

/** D97: the minutes an entry covers as its record knows them: from the earliest start its found figures
 *  or a correction gave to the latest end — of one still open, to the last minute it has read. */
export function entrySpan(r: Spanned): { start: number; end: number; open: boolean } | undefined {
  if (!r.found) return undefined;
  const figures = [foundFigures(r.start, r.found), ...(r.corrections ?? []).flatMap((c) => (c.after ? [figuresOf(c.after, r.start)] : []))];
  const seen = Math.max(
    r.seen_to ? Date.parse(r.seen_to) : Number.NEGATIVE_INFINITY,
    Date.parse(r.found.max_at),
    ...figures.map((f) => Date.parse(f.start)),
  );
  const open = figures.some((f) => f.end === null);
  return {
    start: Math.min(...figures.map((f) => Date.parse(f.start))),
    end: open ? seen : Math.max(...figures.map((f) => Date.parse(f.end!))),
    open,
  };
}

/** D97: the gassings of `gassings` (start, end: null while it lasts; their meters' codes) that share a
 *  meter and a minute with the entry: one gassing of the readings, whatever a correction moved. */
export function gassingsOn<G extends { start: number; end: number | null; sensors: readonly string[] }>(
  r: Spanned,
  gassings: readonly G[],
): G[] {
  const span = entrySpan(r);
  if (!span) return [];
  return gassings.filter(
    (g) =>
      g.sensors.some((code) => r.found!.sensors.includes(code)) &&
      (span.open ? g.start <= span.end : g.start < span.end) &&
      (g.end === null || g.end > span.start),
  );
}

/** The book's refusal to close an entry: each of cause, type and measures still empty, and (D88) what a
 *  sudden gassing was, named in Russian. */
export function closingProblems(
  entry: Pick<GassingRegistration, "cause" | "type" | "measures" | "onset" | "correction_reason">,
  sudden = false,
  corrected = false,
): Invalid | undefined {
  const empty = (Object.keys(CLOSING_FIELDS) as (keyof typeof CLOSING_FIELDS)[]).filter((field) => {
    if (field === "type") return !entry.type;
    if (field === "onset") return sudden && !entry.onset;
    if (field === "correction_reason") return corrected && !entry.correction_reason?.trim();
    return !entry[field]?.trim();
  });
  if (empty.length === 0) return undefined;
  return new Invalid(empty.map((field) => problemAt(field, `нельзя закрыть: ${CLOSING_FIELDS[field]}`)));
}

/** The entry of `id` at `facility`: the gassing as found now (open) or as kept (closed), with its
 *  registration; `carriedFrom`: the start of the day listed, before which one begun is carried over. */
export function gassingView(
  facility: string,
  id: string,
  start: string,
  found: FoundGassing,
  registration: GassingRegistration | undefined,
  nameOf: (email: string) => string,
  carriedFrom?: number,
): GassingView {
  // D89: a corrected entry keeps the gassing as found, as a closed one keeps it as closed.
  const kept = (registration?.closed || registration?.corrections?.length) && registration.found ? registration.found : found;
  // An entry kept before gassings were grouped by section has none: its working stands for it.
  const shown = {
    ...kept,
    section: kept.section ?? kept.working,
    places: kept.places ?? kept.sensors.map(() => ""),
    sudden: kept.sudden ?? false,
    over_span: kept.over_span ?? null,
  };
  const confirmations = registration?.confirmations ?? {};
  return {
    id,
    facility,
    start,
    ...shown,
    // Said by withDoubt, which reads the sensors' checks.
    doubt: null,
    carried_over: carriedFrom !== undefined && Date.parse(start) < carriedFrom,
    duration_min: shown.end === null ? null : Math.round((Date.parse(shown.end) - Date.parse(start)) / MINUTE_MS),
    found_at: registration?.found_at ?? null,
    corrections: (registration?.corrections ?? []).map((c) => ({
      at: c.at,
      batch: c.batches[0]?.split("#")[0] ?? null,
      batches: c.batches,
      sent_by: c.sent_by,
      before: figuresOf(c.before, start),
      after: c.after && figuresOf(c.after, start),
      after_closing: c.after_closing ?? (registration?.closed_at ? c.at > registration.closed_at : false),
    })),
    split_entries: [],
    correction_reason: registration?.correction_reason ?? "",
    registered_by: registration?.registered_by ? nameOf(registration.registered_by) : null,
    registered_at: registration?.registered_at || null,
    notified: noticesOf(registration),
    comment: registration?.comment ?? "",
    cause: registration?.cause ?? "",
    type: registration?.type ?? null,
    onset: registration?.onset ?? null,
    losses: registration?.losses ?? NO_LOSSES,
    cleared_by: registration?.cleared_by ?? "",
    cleared_at: registration?.cleared_at ?? null,
    resumed_at: registration?.resumed_at ?? null,
    investigated_by: registration?.investigated_by ?? "",
    measures: registration?.measures ?? "",
    closed: registration?.closed ?? false,
    closed_by: registration?.closed_by ? nameOf(registration.closed_by) : null,
    closed_at: registration?.closed_at ?? null,
    confirmations: Object.fromEntries(
      DUTIES.map((duty) => {
        const given = confirmations[duty];
        return [duty, given ? { by: nameOf(given.by), at: given.at } : null];
      }),
    ) as GassingView["confirmations"],
  };
}

/** The entries of the gassings found at `facility` in [from, to), with the registrations kept there
 *  (starting in it) whose gassing the minutes no longer give, by start; `carried`: one begun before
 *  `from` is marked carried over (a day of the journal). */
export async function gassingViews(
  deps: Pick<Deps, "repos">,
  company: string,
  facility: string,
  found: readonly Gassing[],
  from: number,
  to: number,
  carried = false,
): Promise<GassingView[]> {
  const registered = new Map(
    (await deps.repos.gassings.list(company))
      .filter((r) => r.facility === facility && Date.parse(r.start) >= from && Date.parse(r.start) < to)
      .map((r) => [r.id, r] as const),
  );
  if (found.length === 0 && registered.size === 0) return [];
  const nameOf = await initialsByEmail(deps.repos, company);
  const view = (r: GassingRegistration) => gassingView(facility, r.id, r.start, r.found!, r, nameOf, carried ? from : undefined);
  const kept = [...registered.values()].filter((r) => r.found);
  const views = found.flatMap((g) => {
    const id = `${facility}.${g.id}`;
    // D97: a gassing a correction moved (another start, so another id) is the entry's it falls on.
    const own = registered.get(id);
    if (!own && kept.some((r) => gassingsOn(r, [{ start: g.start, end: g.end, sensors: g.sensors.map((s) => s.code) }]).length > 0))
      return [];
    registered.delete(id);
    return [gassingView(facility, id, iso(g.start), foundOf(g), own, nameOf, carried ? from : undefined)];
  });
  for (const r of registered.values()) if (r.found) views.push(view(r));
  views.sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id));
  return withDoubt(deps, company, facility, oneRowEach(views, kept), to);
}

/** D97: entries kept before D97 that split one gassing — a correction moved its start and a second entry
 *  was opened for the rest — shown as one row: the first, the later listed in it as made by the
 *  correction, both registrations kept as they are. */
export function oneRowEach(views: readonly GassingView[], kept: readonly GassingRegistration[]): GassingView[] {
  const rows: GassingView[] = [];
  for (const v of views) {
    const mine = kept.find((r) => r.id === v.id);
    const end = v.end === null ? null : Date.parse(v.end);
    const first = mine
      ? rows.find((row) => {
          const theirs = kept.find((r) => r.id === row.id);
          return (
            theirs !== undefined &&
            (theirs.corrections?.length ?? 0) > 0 &&
            theirs.corrections![0].at <= (mine.found_at ?? mine.registered_at) &&
            gassingsOn(theirs, [{ start: Date.parse(v.start), end, sensors: v.sensors }]).length > 0
          );
        })
      : undefined;
    if (!first) {
      rows.push(v);
      continue;
    }
    first.split_entries.push({
      id: v.id,
      start: v.start,
      end: v.end,
      max: v.max,
      found_at: v.found_at,
      registered_by: v.registered_by,
      registered_at: v.registered_at,
      closed: v.closed,
      closed_by: v.closed_by,
      closed_at: v.closed_at,
    });
  }
  return rows;
}

/** D94: beside each gassing, its sensors' minutes «под сомнением» while it lasted (to `to` while open). */
export async function withDoubt(
  deps: Pick<Deps, "repos">,
  company: string,
  facility: string,
  views: readonly GassingView[],
  to: number,
): Promise<GassingView[]> {
  if (views.length === 0) return [];
  const earliest = Math.min(...views.map((v) => Date.parse(v.start)));
  const [sensors, stored] = await Promise.all([deps.repos.sensors.listOfFacility(company, facility), deps.repos.companies.get(company)]);
  const doubt = await facilityDoubt(deps, company, facility, earliest - DOUBT_LOOKBACK_DAYS * 86_400_000, zoneOf(stored));
  return views.map((view) => {
    const start = Date.parse(view.start);
    const end = view.end === null ? to : Date.parse(view.end);
    const said = view.sensors.flatMap((code) => {
      const sensor = sensors.find((s) => registerAt(s, start).code === code);
      const { minutes, why } = sensor ? doubt(sensor.id, start, end) : { minutes: 0, why: [] };
      return minutes > 0 ? [`${code}: ${doubtText(why, minutes)}`] : [];
    });
    return { ...view, doubt: said.length > 0 ? said.join("; ") : null };
  });
}
