// D94: a sensor's minutes from a failed check to its next passed one, and from the day
// after its verification's end to its next verification, are «показания под сомнением». They stay as they
// are and count as before — never substituted (D60 substitutes missing or invalid minutes only) — and each
// reader says how many of its minutes carry the doubt and why: the operator's journal beside the sensor's
// means, the gassing book beside a gassing, the shift report per sensor, a measured month in its evidence
// (whose acceptance then asks a reason, offers.ts). Here, below the instruments' folder, so the offers read
// it; the checks and verifications are the instruments' record, read through their port. D102–D105: a
// `suspect` event's minutes (a stuck meter, less gas downstream, a hand measurement apart) carry it too.
import { instantOfWallTime, isoDateIn } from "@core/company-clock";
import { LIMITS } from "../../../contract/schemas/limits";
import type { Deps } from "../../context";
import type { SensorCheck, SensorEvent, SensorVerification } from "../../../ports";
import { SUSPECT_REASON_LABELS } from "@core/monitoring-suspect";
import { verificationsInForce } from "@core/sensor-checks";
import { MINUTE_MS, ruDate } from "@core/dates";

/** The end of a Query of events with no end. */
const FAR_FUTURE = "9999-12-31T00:00:00.000Z";

export interface DoubtSpan {
  from: number;
  /** null: still open. */
  to: number | null;
  why: string;
}

/** The spans of doubt of one sensor: each failed check to the next passed one, and each stretch out of
 *  verification (`dayStart(ГГГГ-ММ-ДД)`: the instant a company day begins). */
export function doubtSpans(
  checks: readonly Pick<SensorCheck, "at" | "result" | "id">[],
  verifications: readonly Pick<SensorVerification, "verified_on" | "valid_to">[],
  dayStart: (day: string) => number,
  dayOf: (instant: number) => string,
): DoubtSpan[] {
  const spans: DoubtSpan[] = [];
  const done = [...checks].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  for (let i = 0; i < done.length; i++) {
    if (done[i].result !== "failed" || (i > 0 && done[i - 1].result === "failed")) continue;
    const passed = done.slice(i + 1).find((c) => c.result === "passed");
    spans.push({
      from: Date.parse(done[i].at),
      to: passed ? Date.parse(passed.at) : null,
      why: `датчик не прошел проверку ${ruDate(dayOf(Date.parse(done[i].at)))}`,
    });
  }
  const byDay = [...verifications].sort((a, b) => a.verified_on.localeCompare(b.verified_on));
  for (let i = 0; i < byDay.length; i++) {
    const end = dayStart(byDay[i].valid_to) + 86_400_000;
    const next = byDay[i + 1];
    const until = next ? dayStart(next.verified_on) : null;
    if (until !== null && until <= end) continue;
    spans.push({ from: end, to: until, why: `вне поверки с ${ruDate(dayOf(end))}` });
  }
  return spans;
}

/** D102–D105: a suspect event's minutes [start, end) are «под сомнением» too (open: to now), with its reason's words. */
export function suspectSpans(events: readonly Pick<SensorEvent, "kind" | "start" | "end" | "suspect">[]): DoubtSpan[] {
  return events
    .filter((e) => e.kind === "suspect" && e.suspect)
    .map((e) => ({
      from: Date.parse(e.start),
      to: e.end === null ? null : Date.parse(e.end),
      why: SUSPECT_REASON_LABELS[e.suspect!.reason],
    }));
}

/** The minutes of [from, to) under any span (their union), and the reasons of those that touch it. */
export function doubtIn(spans: readonly DoubtSpan[], from: number, to: number): { minutes: number; why: string[] } {
  const cut = spans
    .map((s) => ({ from: Math.max(from, s.from), to: Math.min(to, s.to ?? to), why: s.why }))
    .filter((s) => s.from < s.to)
    .sort((a, b) => a.from - b.from);
  let minutes = 0;
  let reach = from;
  for (const s of cut) {
    const start = Math.max(s.from, reach);
    if (s.to > start) minutes += Math.round((s.to - start) / MINUTE_MS);
    reach = Math.max(reach, s.to);
  }
  return { minutes, why: [...new Set(cut.map((s) => s.why))] };
}

/** How far before a window its checks are read for a failed one still open, days. */
export const DOUBT_LOOKBACK_DAYS = LIMITS.sensorChecks.lookbackDays;

/** The doubt of one sensor over [from, to): its minutes and reasons. */
export type DoubtOf = (sensor: string, from: number, to: number) => { minutes: number; why: string[]; spans: DoubtSpan[] };

/** The instant a company day (ГГГГ-ММ-ДД) begins on `zone`'s clock. */
const dayStartIn = (zone: string) => (day: string) =>
  instantOfWallTime(Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10)), 0, 0, zone);

/** The facility's doubt by sensor, from its checks written since `since` (ms) and all its verifications;
 *  a company day begins at 00:00 on `zone`'s clock, as the journal's first shift does (D64). */
export async function facilityDoubt(
  deps: Pick<Deps, "repos">,
  company: string,
  facility: string,
  since: number,
  zone: string,
): Promise<DoubtOf> {
  const [checks, verifications, events] = await Promise.all([
    deps.repos.sensorChecks.listOfFacility(company, facility, since),
    deps.repos.sensorChecks.verificationsOfFacility(company, facility),
    // D102–D105: the facility's suspect events since then (one Query; the other kinds are left).
    deps.repos.sensorEvents.listOfFacility(company, facility, new Date(since).toISOString(), FAR_FUTURE),
  ]);
  const suspects = events.filter((e) => e.kind === "suspect");
  const dayStart = dayStartIn(zone);
  const dayOf = (instant: number) => isoDateIn(new Date(instant), zone);
  const spansOf = new Map<string, DoubtSpan[]>();
  return (sensor, from, to) => {
    let spans = spansOf.get(sensor);
    if (!spans) {
      spans = [
        ...doubtSpans(
          checks.filter((c) => c.sensor === sensor),
          verificationsInForce(verifications.filter((v) => v.sensor === sensor)),
          dayStart,
          dayOf,
        ),
        // D103: an airway event questions both meters of its pair.
        ...suspectSpans(suspects.filter((e) => e.sensor === sensor || e.suspect?.other_sensor === sensor)),
      ];
      spansOf.set(sensor, spans);
    }
    // A check after `to` does not close a span inside it: spans are cut to [from, to) by their own ends.
    const { minutes, why } = doubtIn(spans, from, to);
    const inside = spans.map((s) => ({ ...s, from: Math.max(from, s.from), to: Math.min(to, s.to ?? to) })).filter((s) => s.from < s.to);
    return { minutes, why, spans: inside };
  };
}

/** «показания под сомнением: датчик не прошел проверку 03.03.2026 — 840 мин». */
export const doubtText = (why: readonly string[], minutes: number) =>
  `показания под сомнением: ${why.join("; ")} — ${minutes.toLocaleString("ru-RU")} мин`;
