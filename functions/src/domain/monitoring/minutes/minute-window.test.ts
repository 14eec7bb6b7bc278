// a host's window of a facility's recent minutes (minute-window.ts) reads what storage holds
// however many hosts write the facility: two runtimes writing it in turn each read the other's minutes,
// one that missed more writes than the head logs reads its window anew, one that read a minute whose
// logged write had not landed reads it again, and the detector with a window finds the events a read of
// storage gives.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { hostRuntime } from "../../../events/runtime";
import { createPoint } from "../../company/emission-points";
import type { Actor, Deps } from "../../context";
import { readingsBetween, utcDay, utcMinute } from "../ingest/stored-readings";
import { createSensor } from "../ingest/register";
import { detectEvents, sensorEvents } from "../derive/events";
import { emptyMinute, mergeMinute } from "./minutes";
import { facilitiesWrittenLately, guessedMinute, keptMinutes, readMinute, warmMinuteWindows, writeMinute } from "./minute-window";

const MINUTE = 60_000;
const DAY = Date.UTC(2026, 2, 10);
let now = DAY + 12 * 3_600_000;
let d: MemoryDomain;
let actor: Actor;
let facility: string;
let sensor: string;

beforeAll(async () => {
  d = await memoryDomain({ now: () => new Date(now) });
  actor = await d.actor("ООО «Окно»");
  facility = (await d.facility(actor, { name: "Шахта", kind: "underground_mine" })).id;
  const point = (
    await d.write(() => createPoint(d.deps, actor, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  sensor = (
    await d.write(() => createSensor(d.deps, actor, facility, parseWith(sensorCreateSchema, { code: "М-1", kind: "methane", point })))
  ).id;
});

/** Another host on the same storage: a runtime of its own (its own windows), no subscribers. */
function host(): Deps {
  const deps: Deps = { ...d.deps, runtime: hostRuntime({ subscribers: [], deps: () => deps }) };
  return deps;
}

/** A reading written into its minute as the consumer writes it: the window's guess first, storage after a refusal. */
async function write(deps: Deps, t: number, value: number) {
  const [day, minute] = [utcDay(t), utcMinute(t)];
  let guess = guessedMinute(deps, actor.company, facility, day, minute);
  for (;;) {
    const known = guess === undefined ? await readMinute(deps, actor.company, facility, day, minute) : guess;
    guess = undefined;
    const stored = known ?? emptyMinute(actor.company, facility, day, minute);
    const merged = mergeMinute(stored, `${new Date(now).toISOString()}#b${t}-${value}`, [{ sensor, times: [t], values: [value] }]).minute;
    if (await writeMinute(deps, merged, stored.version)) return;
  }
}

const at = () => ({ id: sensor, facility });
/** The last hours as the host's window reads them, and as storage holds them. */
async function windowAndStorage(deps: Deps) {
  const from = now - 5 * 3_600_000;
  const kept = await readingsBetween(deps, actor.company, at(), from, now + MINUTE, keptMinutes(deps));
  const stored = await readingsBetween(deps, actor.company, at(), from, now + MINUTE, deps.repos.monitoring);
  return { kept: [...kept.times].map((t, i) => [t, kept.values[i]]), stored: [...stored.times].map((t, i) => [t, stored.values[i]]) };
}

describe("a host's window of a facility's minutes", () => {
  it("reads the minutes another host wrote: two hosts writing in turn each read the other's", async () => {
    const [a, b] = [host(), host()];
    for (let i = 0; i < 40; i++) {
      now += MINUTE;
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      // Each writes this minute and corrects the one before (the other's).
      await write(writer, now - 5_000, 0.3 + (i % 7) / 100);
      await write(writer, now - MINUTE - 5_000, 0.5 + (i % 5) / 100);
      const { kept, stored } = await windowAndStorage(reader);
      expect(kept).toEqual(stored);
      expect(kept.length).toBeGreaterThan(i);
    }
  });

  it("reads its window anew when the head no longer lists all the writes since it looked", async () => {
    const [a, b] = [host(), host()];
    expect((await windowAndStorage(a)).kept.length).toBeGreaterThan(0);
    for (let i = 0; i < 50; i++) {
      now += MINUTE;
      await write(b, now - 5_000, 0.2 + i / 1000);
    }
    const { kept, stored } = await windowAndStorage(a);
    expect(kept).toEqual(stored);
  });

  it("reads again a minute whose logged write had not landed when it read it", async () => {
    const [a, b] = [host(), host()];
    now += MINUTE;
    const t = now - 5_000;
    await windowAndStorage(a);
    // B logs its write, then stops before the write lands; A reads meanwhile.
    let land = () => {};
    const held = new Promise<void>((resolve) => (land = resolve));
    const put = b.repos.monitoring.putMinute;
    b.repos = { ...b.repos, monitoring: { ...b.repos.monitoring, putMinute: async (m, v) => (await held, put(m, v)) } };
    const writing = write(b, t, 0.77);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await windowAndStorage(a)).kept.some(([time]) => time === t)).toBe(false);
    land();
    await writing;
    const { kept, stored } = await windowAndStorage(a);
    expect(kept).toEqual(stored);
    expect(kept).toContainEqual([t, 0.77]);
  });

  it("gives the detector the events a read of storage gives, while another host writes the minutes", async () => {
    const [a, b] = [host(), host()];
    const start = now;
    // A host's window read early (its detector ran), then the other writes 30 minutes, one a high.
    await detectEvents(a, { company: actor.company, facility, days: [{ sensor, day: utcDay(now) }], since: { [sensor]: now - MINUTE } });
    for (let i = 0; i < 30; i++) {
      now += MINUTE;
      await write(b, now - 5_000, i === 20 ? 3.5 : 0.3);
    }
    await detectEvents(a, { company: actor.company, facility, days: [{ sensor, day: utcDay(now) }], since: { [sensor]: start } });
    const from = start - 6 * 3_600_000;
    const stored = (
      await d.deps.repos.sensorEvents.listOfFacility(
        actor.company,
        facility,
        new Date(from).toISOString(),
        new Date(now + MINUTE).toISOString(),
      )
    )
      .filter((e) => e.sensor === sensor && Date.parse(e.start) >= start - 3 * 3_600_000)
      .map((e) => [e.kind, e.level, e.start, e.end]);
    const register = (await d.deps.repos.sensors.get(actor.company, facility, sensor))!;
    const fresh = (await sensorEvents(d.deps, register, start - 3 * 3_600_000, now + MINUTE, now, from)).map((e) => [
      e.kind,
      e.level,
      e.start,
      e.end,
    ]);
    expect(stored).toEqual(fresh);
  });
});

// The holding bench's first minute after a start: each facility's first push read its 7 hours of minutes
// into the consumer's new window (and started its thread), the first tiles 1 s late.
describe("a host started again", () => {
  it("finds the facilities written lately and reads their windows before their next push", async () => {
    const quiet = (await d.facility(actor, { name: "Шахта без показаний", kind: "underground_mine" })).id;
    const writer = host();
    now += MINUTE;
    await write(writer, now - 5_000, 0.31);
    const restarted = host();
    const lately = await facilitiesWrittenLately(restarted);
    expect(lately).toContainEqual({ company: actor.company, facility });
    expect(lately.some((f) => f.facility === quiet)).toBe(false);
    await warmMinuteWindows(restarted, lately);
    const queries = vi.spyOn(d.deps.repos.monitoring, "minutesOf");
    try {
      const { kept, stored } = await windowAndStorage(restarted);
      // windowAndStorage's second read is of storage itself: the window's took no Query.
      expect(queries).toHaveBeenCalledTimes(1);
      expect(kept).toEqual(stored);
    } finally {
      queries.mockRestore();
    }
  });

  it("leaves out a facility whose latest minute is older than a window", async () => {
    now += 8 * 3_600_000;
    expect(await facilitiesWrittenLately(host())).toEqual([]);
  });
});
