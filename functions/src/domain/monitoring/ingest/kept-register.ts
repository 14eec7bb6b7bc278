// A facility's sensor register as a host keeps it across pushes: 150 sensors are about
// 100 KB, 26 read units a strongly consistent Query, and every push read it in its route and again in
// the event detector, more than its minute item cost. The register's writes move its stamp
// (SensorRepository.registerStamp, moved after each create, replace and remove of a sensor), so a host
// reads the stamp, one small item, and the register only when the stamp is not the one it read it
// under. The stamp is read before the register: a register kept under a stamp is never older than that
// stamp's writes, in any process (the local request and consumer threads, each Lambda container, each
// with its own runtime).
import type { Deps } from "../../context";
import type { ReadingsWritten, Sensor } from "../../../ports";
import { keptState } from "../../../ports/runtime";

/** Facilities whose registers a host keeps (150 sensors ≈ 100 KB each): a holding's few dozen mines. */
export const KEPT_REGISTERS = 200;
/** A register kept this long is read again even with its stamp unmoved: what bounds the register a
 *  write whose stamp never moved left kept (a process that died between the two, a host of the code
 *  before this stamp writing during a deploy) at an hour, for 26 read units an hour. */
const KEPT_REGISTER_MS = 60 * 60_000;

/** A facility's register as read, the stamp read before it, and when (UTC ms). */
interface KeptRegister {
  stamp: string | undefined;
  at: number;
  sensors: Promise<readonly Sensor[]>;
}

/** The facilities' sensor registers read lately, by company and facility. */
const sensorRegisters = keptState("sensor registers", () => new Map<string, KeptRegister>());

/** The facility's sensors, retired ones too, by code: the kept register while its stamp holds. */
export async function facilityRegister(
  deps: Pick<Deps, "repos" | "runtime" | "clock">,
  company: string,
  facility: string,
): Promise<readonly Sensor[]> {
  const kept = deps.runtime.kept(sensorRegisters);
  const key = `${company}|${facility}`;
  const stamp = await deps.repos.sensors.registerStamp(company, facility);
  const now = deps.clock.now().getTime();
  const known = kept.get(key);
  if (known && known.stamp === stamp && now - known.at < KEPT_REGISTER_MS) return known.sensors;
  const reading: KeptRegister = { stamp, at: now, sensors: deps.repos.sensors.listOfFacility(company, facility) };
  // The latest read last in the map's order, so that the one dropped is the one read longest ago.
  kept.delete(key);
  if (kept.size >= KEPT_REGISTERS) kept.delete(kept.keys().next().value as string);
  kept.set(key, reading);
  reading.sensors.catch(() => {
    if (kept.get(key) === reading) kept.delete(key);
  });
  return reading.sensors;
}

/** The register the consumer read for a change of days written, else the kept one. */
export const registerOfChange = (
  deps: Pick<Deps, "repos" | "runtime" | "clock">,
  change: Pick<ReadingsWritten, "company" | "facility" | "register">,
): Promise<readonly Sensor[]> =>
  change.register ? Promise.resolve(change.register) : facilityRegister(deps, change.company, change.facility);
