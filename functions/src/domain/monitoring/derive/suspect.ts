// D102–D105: `suspect` events — a meter's readings questioned. A stuck meter (D102) and less gas downstream
// than upstream (D103) are found by the checks here, run where the detector runs (derive/events.ts) over the
// same minutes; a hand measurement apart from its meter (D105) opens one through `writeSuspect`. An event's
// minutes [start, end) are «под сомнением» wherever D94's doubt is read (minutes/doubt.ts); a person
// answers it with what was done (events.ts, acknowledgeEvent: the comment is required), who and when kept.
import { suspectEventId } from "@core/monitoring-events";
import type { SuspectDetail, SuspectReason } from "@core/monitoring-suspect";
import type { Deps } from "../../context";
import type { SensorEvent } from "../../../ports";
import { writeDetected } from "./events";

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
