// D65's stored events written as detected: what of an event the detector decides (the rest, the
// acknowledgement, is a person's and kept), written with the stored version checked and read again after
// another writer's. Shared by the threshold detector (events.ts) and the suspect checks (suspect.ts).
import type { Deps } from "../../context";
import { Conflict } from "../../errors";
import type { SensorEvent } from "../../../ports";

/** Writes of one event tried again after another writer's: the detector and an acknowledgement. */
export const WRITE_ATTEMPTS = 5;

/** What of an event the detector decides (the rest is a person's: the acknowledgement). */
const DETECTED: readonly (keyof SensorEvent)[] = ["kind", "level", "threshold", "end", "peak", "peak_at", "minutes_above"];
export const sameDetection = (a: SensorEvent, b: SensorEvent) =>
  DETECTED.every((k) => Object.is(a[k], b[k])) &&
  a.fault?.range_minutes === b.fault?.range_minutes &&
  a.fault?.jump_minutes === b.fault?.jump_minutes &&
  a.suspect?.text === b.suspect?.text &&
  a.suspect?.other_sensor === b.suspect?.other_sensor;

/** Writes the detected event, keeping the acknowledgement of the one stored; another writer's write
 *  between the read and this one is read again. */
export async function writeDetected(deps: Pick<Deps, "repos">, event: SensorEvent, stored: SensorEvent | undefined): Promise<boolean> {
  let current = stored;
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const next: SensorEvent = current
      ? { ...event, acknowledged_by: current.acknowledged_by, acknowledged_at: current.acknowledged_at, comment: current.comment }
      : event;
    if (current && sameDetection(current, next)) return false;
    if (await deps.repos.sensorEvents.put(next, current?.version ?? 0)) return true;
    current = await deps.repos.sensorEvents.get(event.company, event.facility, event.id, event.start);
  }
  throw new Conflict("Событие изменяли одновременно: повторите позже");
}
