// D102–D105: `suspect` events — a meter's readings questioned. A stuck meter (D102) and less gas downstream
// than upstream (D103) are found by the checks here, run where the detector runs (derive/events.ts) over the
// same minutes; a hand measurement apart from its meter (D105) opens one through `writeSuspect`. An event's
// minutes [start, end) are «под сомнением» wherever D94's doubt is read (minutes/doubt.ts); a person
// answers it with what was done (events.ts, acknowledgeEvent: the comment is required), who and when kept.
import { airwayPairs, neighboursOf, type AirPathMeter } from "@core/air-path";
import { MINUTE_MS } from "@core/dates";
import { minuteMeans, type SensorKind } from "@core/monitoring";
import { suspectEventId } from "@core/monitoring-events";
import {
  AIRWAY_MEAN_MIN,
  AIRWAY_TRANSPORT_MIN,
  RESOLUTION_STEPS,
  STUCK_CHECKED_KINDS,
  SUSPECT_REASON_LABELS,
  airwayRuns,
  airwayText,
  stuckRuns,
  stuckText,
  type MinuteRun,
  type SuspectDetail,
  type SuspectReason,
} from "@core/monitoring-suspect";
import type * as z from "zod";
import type { questionSchema } from "../../../contract/schemas/journal";
import type { Deps } from "../../context";
import type { Sensor, SensorEvent } from "../../../ports";
import { registerAt } from "../ingest/register";
import { cachedReadings, type MinuteSource, type ReadingsCache } from "../ingest/stored-readings";
import { writeDetected } from "./event-writes";

/** What a suspect event is made of: whose meter, why, its span (end null: open) and its minutes. */
export interface SuspectFinding {
  company: string;
  facility: string;
  sensor: string;
  reason: SuspectReason;
  start: number;
  end: number | null;
  /** The minutes it questions (once closed, its span's). */
  minutes: number;
  text: string;
  other_sensor?: string | null;
  asks_hand_measurement?: boolean;
}

/** The stored event of a finding: id `<sensor>.u.<reason>.<start>` (the same finding, the same id). */
export function suspectEvent(f: SuspectFinding): SensorEvent {
  const suspect: SuspectDetail = {
    reason: f.reason,
    text: f.text,
    other_sensor: f.other_sensor ?? null,
    asks_hand_measurement: f.asks_hand_measurement ?? f.reason !== "stuck",
  };
  return {
    company: f.company,
    facility: f.facility,
    id: `${f.facility}.${suspectEventId(f.sensor, f.reason, f.start)}`,
    sensor: f.sensor,
    kind: "suspect",
    level: null,
    threshold: null,
    start: new Date(f.start).toISOString(),
    end: f.end === null ? null : new Date(f.end).toISOString(),
    peak: null,
    peak_at: null,
    minutes_above: f.minutes,
    suspect,
    acknowledged_by: null,
    acknowledged_at: null,
    comment: "",
    version: 0,
  };
}

/** Writes a finding as its event, keeping an acknowledgement already on it; true when written. */
export async function writeSuspect(deps: Pick<Deps, "repos">, f: SuspectFinding): Promise<boolean> {
  const event = suspectEvent(f);
  const stored = await deps.repos.sensorEvents.get(f.company, f.facility, event.id, event.start);
  return writeDetected(deps, event, stored);
}

/** The reasons the checks here find (a hand measurement's are the journal's, D105). */
const FOUND_HERE: readonly SuspectReason[] = ["stuck", "airway"];
/** How far before a window a stored open event is followed from, and the minutes the airway check needs
 *  before its first comparison (the upstream's window and the transport time). */
const AIRWAY_LEAD_MIN = AIRWAY_MEAN_MIN + AIRWAY_TRANSPORT_MIN;

/** A meter of the facility as the checks read it: the register now, its id. */
type Meter = AirPathMeter & { sensor: Sensor };

/** The register's meters in service (their entry now) with their air-path fields. */
function metersOf(register: readonly Sensor[], now: number): Meter[] {
  return register
    .filter((s) => s.is_active)
    .map((sensor) => {
      const r = registerAt(sensor, now);
      return {
        id: sensor.id,
        code: r.code,
        kind: r.kind,
        place: r.place,
        section: r.section,
        working: r.working,
        airflow_order: r.airflow_order ?? null,
        fresh_air_joins: r.fresh_air_joins ?? false,
        sensor,
      };
    });
}

/** The span a run of minutes covers (end null while open) and its minutes. */
const spanOf = (start: number, run: MinuteRun) => ({
  start: start + run.from * MINUTE_MS,
  end: run.open ? null : start + run.to * MINUTE_MS,
  minutes: run.open ? 0 : run.to - run.from,
});

/** D102 and D103 as the detector's second step (detectEvents calls it with the sensors whose minutes
 *  changed and the window it read): each changed methane meter's stuck runs beside its neighbours (air
 *  path or working), and each air-path pair with a changed meter, over the same minutes from `windowStart`
 *  to `readUntil`; the stored stuck and airway events starting in the window are made equal to them (an
 *  acknowledgement kept), those the minutes no longer give removed. An open one stored before the window
 *  is followed from its start. Answers the events written. */
export async function detectSuspects(
  deps: Pick<Deps, "repos" | "clock">,
  args: {
    company: string;
    facility: string;
    register: readonly Sensor[];
    changed: ReadonlySet<string>;
    windowStart: number;
    readUntil: number;
    minutes: MinuteSource;
    now: number;
    /** The facility's events the detector read (from a week before its window): no second Query. */
    events: readonly SensorEvent[];
    /** The readings the detector read in this run, by sensor and window: read once. */
    reads?: ReadingsCache;
  },
): Promise<SensorEvent[]> {
  const meters = metersOf(args.register, args.now);
  const stuckChecked = meters.filter((m) => args.changed.has(m.id) && STUCK_CHECKED_KINDS.includes(m.kind));
  const pairs = airwayPairs(meters).filter((p) => args.changed.has(p.upstream.id) || args.changed.has(p.downstream.id));
  if (stuckChecked.length === 0 && pairs.length === 0) return [];
  const checkedIds = new Set([...stuckChecked.map((m) => m.id), ...pairs.map((p) => p.downstream.id)]);
  // The stored events of these checks: open ones before the window are followed from their start.
  const stored = args.events.filter(
    (e) => e.kind === "suspect" && e.suspect && FOUND_HERE.includes(e.suspect.reason) && checkedIds.has(e.sensor),
  );
  let windowStart = args.windowStart;
  for (const e of stored)
    if (e.end === null || Date.parse(e.end) >= args.windowStart)
      windowStart = Math.min(windowStart, Date.parse(e.start) - AIRWAY_LEAD_MIN * MINUTE_MS);
  windowStart = Math.floor(windowStart / MINUTE_MS) * MINUTE_MS;
  const count = Math.round((args.readUntil - windowStart) / MINUTE_MS);
  if (count <= 0) return [];
  // Each meter's minute means over the window, read once.
  const means = new Map<string, Float64Array>();
  const meansOf = async (m: Meter) => {
    let values = means.get(m.id);
    if (!values) {
      const { times, values: read } = await cachedReadings(
        deps,
        args.company,
        m.sensor,
        windowStart,
        args.readUntil,
        args.minutes,
        args.reads,
      );
      values = minuteMeans(m.kind as SensorKind, times, read, windowStart, count).values;
      means.set(m.id, values);
    }
    return values;
  };
  const found: SensorEvent[] = [];
  for (const m of stuckChecked) {
    const values = await meansOf(m);
    const neighbours = [];
    for (const n of neighboursOf(m, meters).filter((n) => RESOLUTION_STEPS[n.kind] !== undefined))
      neighbours.push({ values: await meansOf(n), step: RESOLUTION_STEPS[n.kind] });
    for (const run of stuckRuns(values, RESOLUTION_STEPS[m.kind], neighbours)) {
      // A run at the window's first minute may have begun before it: left to a read that holds its start.
      if (run.from === 0) continue;
      const span = spanOf(windowStart, run);
      found.push(
        suspectEvent({
          company: args.company,
          facility: args.facility,
          sensor: m.id,
          reason: "stuck",
          ...span,
          text: span.end === null ? SUSPECT_REASON_LABELS.stuck : stuckText(span.minutes),
          asks_hand_measurement: false,
        }),
      );
    }
  }
  for (const { upstream, downstream } of pairs) {
    const up = await meansOf(upstream);
    const down = await meansOf(downstream);
    for (const run of airwayRuns(up, down)) {
      if (run.from <= AIRWAY_LEAD_MIN && !Number.isNaN(down[0])) continue;
      found.push(
        suspectEvent({
          company: args.company,
          facility: args.facility,
          sensor: downstream.id,
          reason: "airway",
          ...spanOf(windowStart, run),
          text: airwayText(upstream.code),
          other_sensor: upstream.id,
          asks_hand_measurement: true,
        }),
      );
    }
  }
  // Stored in the window (after its first minute) and not found again: the minutes no longer give it.
  const all = new Map(stored.map((e) => [e.id, e]));
  const before = new Map(stored.filter((e) => Date.parse(e.start) > windowStart).map((e) => [e.id, e]));
  const written: SensorEvent[] = [];
  for (const event of found) {
    const kept = all.get(event.id);
    before.delete(event.id);
    if (await writeDetected(deps, event, kept)) written.push(event);
  }
  if (before.size > 0) await deps.repos.sensorEvents.removeAll([...before.values()]);
  return written;
}

/** A suspect event as the journal and the handover list it (the contract's questionSchema): the meter, the
 *  working, the sentence, the span and the answer (what was done, who, when) or null while unanswered. */
export type Question = z.output<typeof questionSchema>;

/** Item 7 (D102–D105): the facility's suspect events overlapping [from, to) (open ones to now), by start, with
 *  each one's answer; the other meter of a pair named in its sentence. */
export async function questionsOf(
  deps: Pick<Deps, "repos">,
  company: string,
  facility: string,
  from: number,
  to: number,
  now: number,
  nameOf: (email: string) => string,
): Promise<Question[]> {
  const [events, sensors] = await Promise.all([
    deps.repos.sensorEvents.listOfFacility(company, facility, new Date(from - 7 * 86_400_000).toISOString(), new Date(to).toISOString()),
    deps.repos.sensors.listOfFacility(company, facility),
  ]);
  const byId = new Map(sensors.map((s) => [s.id, s]));
  return events
    .filter((e) => e.kind === "suspect" && e.suspect && Date.parse(e.start) < to && (e.end === null || Date.parse(e.end) > from))
    .sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id))
    .map((e) => {
      const sensor = byId.get(e.sensor);
      const register = sensor ? registerAt(sensor, e.start) : undefined;
      const running = Math.max(0, Math.floor((now - Date.parse(e.start)) / MINUTE_MS));
      return {
        sensor: e.sensor,
        code: register?.code ?? "",
        working: register?.working ?? "",
        reason: e.suspect!.reason,
        text: e.suspect!.reason === "stuck" && e.end === null ? stuckText(running) : e.suspect!.text,
        start: e.start,
        end: e.end,
        answer: e.acknowledged_at ? { text: e.comment, by: nameOf(e.acknowledged_by ?? ""), at: e.acknowledged_at } : null,
      };
    });
}
