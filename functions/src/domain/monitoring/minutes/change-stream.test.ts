// one change stream its host owns. A push's days are published once by the consumer
// and heard by the local host's table (local/subscribers.ts) in its order, on an in-memory bus with an
// injected clock and the host's timers in the test's hand: the live tiles first, then the forecaster
// (whose stored forecast is heard by the tiles in its turn), the event detector (whose webhook
// deliveries are heard by the sender), the acceptances' recheck last. The tiles' «нет данных N мин»
// moves on the host's timer, not one of the domain's; a second host on the same storage hears nothing.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { handTimers } from "../../../../../tests/support/hand-timers";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { hostRuntime } from "../../../events/runtime";
import { LOCAL_SUBSCRIBERS, localRuntime } from "../../../local/subscribers";
import type { Change, Subscriber } from "../../../ports";
import { createPoint } from "../../company/emission-points";
import { createWebhook } from "../derive/webhooks";
import type { Actor, Deps } from "../../context";
import { drainReadings } from "./consumer";
import { forecastQueue, monitoringIdle } from "../live/forecaster";
import { bindLiveModel, type LiveView } from "../live/live";
import { LIVE_TICK_MS, liveWatches, watchLive } from "../live/live-watch";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";

let d: MemoryDomain;
let deps: Deps;
let staff: Actor;
let facility: { id: string; name: string };
let now = Date.UTC(2026, 2, 1, 12, 0);
const clock = { now: () => new Date(now) };
const hand = handTimers(() => now);
const heard: string[] = [];
const END = now - MINUTE_MS;

/** Each line of the host's table as it is, with what it heard written down first (the sender only
 *  written down: no receiver listens). */
const recorded = LOCAL_SUBSCRIBERS.map(
  (s): Subscriber<Parameters<(typeof s)["run"]>[0]> => ({
    ...s,
    run: (deps: never, change: never) => {
      heard.push(`${s.name}: ${(change as { type: string }).type}`);
      return s.name === "webhook sender" ? undefined : (s.run as (d: unknown, c: unknown) => unknown)(deps, change);
    },
  }),
);

async function push(readings: { sensor: string; t: number; value: number }[]) {
  const body = { json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) } };
  await storeBatch(deps, staff.company, facility.id, body);
  void drainReadings(deps);
  await monitoringIdle(deps);
}

beforeAll(async () => {
  d = await memoryDomain(clock, { webhookAllowedReceivers: ["127.0.0.1"] });
  deps = { ...d.deps, runtime: hostRuntime({ subscribers: recorded, deps: () => deps, timers: hand.timers }) };
  staff = await d.actor("ООО «Поток событий»");
  facility = await d.facility(staff, { name: "Шахта «Поток»", kind: "underground_mine" });
  const point = (
    await d.write(() => createPoint(deps, staff, facility.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  for (const [code, kind, extra] of [
    ["М-1", "methane", { warning: 1, alarm: 1.5 }],
    ["V-1", "air_velocity", { area_m2: 12 }],
    ["Q-1", "flow", {}],
  ] as const) {
    await d.write(() =>
      createSensor(deps, staff, facility.id, parseWith(sensorCreateSchema, { code, kind, point, working: "Лава 5", ...extra })),
    );
  }
  const readings = [];
  for (let k = 0; k < 180; k++) {
    const t = END - (179 - k) * MINUTE_MS;
    readings.push({ sensor: "М-1", t, value: 0.5 + k / 1000 }, { sensor: "V-1", t, value: 2 }, { sensor: "Q-1", t, value: 30 });
  }
  await push(readings);
  await bindLiveModel(deps, staff, { facility: facility.id, working: "Лава 5", horizon: 60, model: "xgboost-h60" });
  await createWebhook(deps, staff, { url: "http://127.0.0.1:9/agk" });
});

describe("the local host's change stream", () => {
  it("publishes a push's days once, heard by the table's subscribers in its order", async () => {
    const seen: LiveView[] = [];
    const stop = watchLive(deps, staff.company, facility, (view) => seen.push(view));
    await expect.poll(() => seen.length).toBe(1);
    heard.length = 0;
    // Above W: the detector opens an event, and the company's webhook gets a delivery.
    await push([{ sensor: "М-1", t: END + MINUTE_MS, value: 1.2 }]);
    expect(heard).toEqual([
      // the facility's kept heads first, what the tiles' GET reads.
      "live heads: ReadingsWritten",
      "live tiles: ReadingsWritten",
      "forecaster: ReadingsWritten",
      // The forecaster's stored forecast, published while it runs.
      "live tiles: ForecastStored",
      "event detector: ReadingsWritten",
      // The detector's deliveries, published while it runs.
      "webhook sender: DeliveriesDue",
      // D89: the book's entries of the gassings the minutes give.
      "gassing record: ReadingsWritten",
      "acceptances' recheck: ReadingsWritten",
      "climate periods' flag: ReadingsWritten",
    ]);
    // The tiles heard the reading from the change, without a day read again.
    await expect.poll(() => seen.at(-1)?.tiles[0].meters[0].value).toBe(1.2);
    stop();
  });

  it("moves «нет данных N мин» on the host's timer and stops it with the last page", async () => {
    const seen: LiveView[] = [];
    expect(hand.count()).toBe(0);
    const stop = watchLive(deps, staff.company, facility, (view) => seen.push(view));
    expect(hand.count()).toBe(1);
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0].tiles[0].meters[0].stale_minutes).toBeNull();
    // Five minutes on the injected clock: no change comes, the timer's tick recomputes the tiles.
    now += 5 * MINUTE_MS;
    hand.fire();
    await expect.poll(() => seen.at(-1)?.tiles[0].meters[0].stale_minutes).toBe(5);
    stop();
    expect(hand.count()).toBe(0);
  });

  it("reads the tiles anew on the next tick after a failed first read", async () => {
    const bindings = deps.repos.liveBindings;
    let failures = 1;
    const flaky: typeof bindings = Object.create(bindings);
    flaky.listOfFacility = (...args) =>
      failures-- > 0 ? Promise.reject(new Error("хранилище недоступно")) : bindings.listOfFacility(...args);
    const shaky: Deps = { ...deps, repos: { ...deps.repos, liveBindings: flaky } };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const seen: LiveView[] = [];
    const stop = watchLive(shaky, staff.company, facility, (view) => seen.push(view));
    await expect.poll(() => errors.mock.calls.length).toBe(1);
    expect(seen).toHaveLength(0);
    now += LIVE_TICK_MS;
    hand.fire();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0].tiles[0].working).toBe("Лава 5");
    stop();
    errors.mockRestore();
  });

  it("keeps each host's runtime its own: another on the same storage hears nothing of this one's", async () => {
    const otherHeard: string[] = [];
    const other: Deps = {
      ...d.deps,
      runtime: hostRuntime({
        subscribers: [{ name: "ear", hears: ["ReadingsWritten"], run: (_d: unknown, c: Change) => void otherHeard.push(c.type) }],
        deps: () => other,
      }),
    };
    heard.length = 0;
    await push([{ sensor: "М-1", t: END + 2 * MINUTE_MS, value: 0.6 }]);
    expect(heard[0]).toBe("live heads: ReadingsWritten");
    expect(otherHeard).toEqual([]);
    // Its own drain is its own: applied there, heard there.
    await storeBatch(other, staff.company, facility.id, {
      json: { readings: [{ sensor: "М-1", t: new Date(END + 3 * MINUTE_MS).toISOString(), value: 0.6 }] },
    });
    heard.length = 0;
    void drainReadings(other);
    await monitoringIdle(other);
    expect(otherHeard).toEqual(["ReadingsWritten"]);
    expect(heard).toEqual([]);
    // Each runtime makes its own objects: a watch or a queue of one is nothing of the other's.
    expect(localRuntime(() => other).kept(liveWatches)).not.toBe(other.runtime.kept(liveWatches));
    expect(other.runtime.kept(forecastQueue)).not.toBe(d.deps.runtime.kept(forecastQueue));
  });
});
