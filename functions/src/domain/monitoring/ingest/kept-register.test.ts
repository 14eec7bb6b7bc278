// a facility's register kept by the host across pushes, read again only when its stamp moved.
// Two hosts on one storage (two Lambda containers, or the local request and consumer threads): one keeps
// the register as its pushes are applied, the other adds a sensor and lowers a sensor's levels between
// two pushes; the next push on the first is applied with the register as written (the new sensor's
// reading accepted, not refused; the new levels handed to the subscribers), and a push with the
// register unchanged reads the stamp, not the register.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema, sensorPatchSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { hostRuntime } from "../../../events/runtime";
import { createPoint } from "../../company/emission-points";
import type { Actor, Deps } from "../../context";
import type { Sensor } from "../../../ports";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "./readings";
import { createSensor, patchSensor } from "./register";

const T0 = Date.UTC(2026, 2, 1, 12, 0);
let now = T0;
const clock = { now: () => new Date(now) };
const iso = (t: number) => new Date(t).toISOString();

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let point: string;
/** The host that edits the register: a runtime of its own on the same storage. */
let editor: Deps;
let registerReads = 0;
/** The registers the consumer handed its subscribers, a change each. */
const handed: (readonly Sensor[] | undefined)[] = [];

async function push(readings: { sensor: string; t: number; value: number }[]) {
  const batch = await storeBatch(d.deps, staff.company, facility, {
    json: { readings: readings.map((r) => ({ ...r, t: iso(r.t) })) },
  });
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  return { stored: batch, applied: await d.deps.repos.monitoring.getBatch(staff.company, batch.batch) };
}

beforeAll(async () => {
  d = await memoryDomain(clock);
  staff = await d.actor("ООО «Реестр»");
  facility = (await d.facility(staff, { name: "Шахта «Реестр»", kind: "underground_mine" })).id;
  point = (
    await d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  await d.write(() =>
    createSensor(
      d.deps,
      staff,
      facility,
      parseWith(sensorCreateSchema, { code: "М-7", kind: "methane", point, working: "Лава 1", warning: 1, alarm: 2 }),
    ),
  );
  editor = { ...d.deps, runtime: hostRuntime({ subscribers: [], deps: () => editor }) };
  const list = d.deps.repos.sensors.listOfFacility.bind(d.deps.repos.sensors);
  d.deps.repos.sensors.listOfFacility = (...args) => {
    registerReads++;
    return list(...args);
  };
  const changes = d.deps.runtime.changes;
  const publish = changes.publish.bind(changes);
  changes.publish = (change) => {
    if (change.type === "ReadingsWritten") handed.push(change.register);
    return publish(change);
  };
});

describe("the register a host keeps across pushes", () => {
  it("is read once while its stamp holds: the route and the consumer's subscribers take the kept one", async () => {
    now = T0 + 2 * MINUTE_MS;
    const first = await push([{ sensor: "М-7", t: T0 + MINUTE_MS, value: 0.5 }]);
    expect(first.applied).toMatchObject({ state: "done", accepted: 1 });
    registerReads = 0;
    now = T0 + 3 * MINUTE_MS;
    const second = await push([{ sensor: "М-7", t: T0 + 2 * MINUTE_MS, value: 0.5 }]);
    expect(second.applied).toMatchObject({ state: "done", accepted: 1 });
    expect(registerReads).toBe(0);
  });

  it("is read again on the next push once another host added a sensor and changed a sensor's levels", async () => {
    now = T0 + 4 * MINUTE_MS;
    await d.write(() =>
      createSensor(editor, staff, facility, parseWith(sensorCreateSchema, { code: "М-8", kind: "methane", point, warning: 1, alarm: 2 })),
    );
    const m7 = (await d.deps.repos.sensors.listOfFacility(staff.company, facility)).find((s) => s.code === "М-7");
    await d.write(() =>
      patchSensor(editor, staff, facility, m7?.id ?? "", parseWith(sensorPatchSchema, { warning: 0.3, alarm: 0.4, version: m7?.version })),
    );
    registerReads = 0;
    handed.length = 0;
    now = T0 + 8 * MINUTE_MS;
    const next = await push([
      { sensor: "М-7", t: T0 + 5 * MINUTE_MS, value: 0.6 },
      { sensor: "М-8", t: T0 + 5 * MINUTE_MS, value: 0.2 },
    ]);
    expect(next.stored.refused_count).toBe(0);
    expect(next.applied).toMatchObject({ state: "done", accepted: 2 });
    expect(registerReads).toBe(1);
    // The subscribers (the detector, the tiles, the forecaster) were handed the register as written.
    expect(handed.map((register) => register?.map((s) => [s.code, s.warning, s.alarm]))).toEqual([
      [
        ["М-7", 0.3, 0.4],
        ["М-8", 1, 2],
      ],
    ]);
  });
});
