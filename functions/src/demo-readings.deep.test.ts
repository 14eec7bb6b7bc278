// The demo's feed (demo-readings.ts) over its long spans, in the deep tier (`npm run test:deep`): a
// minute the same in one stretch or resumed after any minute over the seed's 30 days and a cycle after
// them, and the feed stopped for 40 days filling the last 30 (about 40 s of the unit tier's CPU). The
// unit tier's demo-readings.test.ts runs the same over two days and a few minutes.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain } from "../../tests/support/memory-domain";
import { parseWith } from "./http/validate";
import { createSensor } from "./domain/monitoring/ingest/register";
import { createPoint } from "./domain/company/emission-points";
import { pointCreateSchema } from "./contract/schemas/facility";
import { sensorCreateSchema } from "./contract/schemas/sensor";
import { seedDemoYear } from "./demo-year";
import { monitoringIdle } from "./domain/monitoring/live/forecaster";
import { readingsBetween } from "./domain/monitoring/ingest/stored-readings";
import {
  DEMO_SEED,
  DEMO_SENSORS,
  FEED_BATCH_MINUTES,
  demoWindow,
  feedDemoReadings,
  initialDemoState,
  simulateMinutes,
  simulateReadings,
} from "./demo-readings";

const ZONE = "Asia/Novokuznetsk";
const NOW = new Date("2026-03-20T05:00:30Z");
const { start, minutes } = demoWindow(NOW);
let series: ReturnType<typeof simulateReadings>;
beforeAll(() => {
  series = simulateReadings(start, minutes, ZONE);
});

describe("the demo's feed while the server runs", () => {
  const bytes = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

  it("makes a minute the same in one stretch or resumed from the state stored after any minute before it, bit for bit", () => {
    const simulation = { seed: DEMO_SEED, zone: ZONE, anchor: start };
    const extra = 3 * 1440 + 17;
    const whole = simulateMinutes(simulation, initialDemoState(simulation), minutes + extra).series;
    // The seed's 30 days, then the minutes one by one, then in stretches of 7 and the rest, the state
    // passed through JSON as the table stores it.
    const resumed = (first: number, steps: number[]) => {
      let state = JSON.parse(JSON.stringify(simulateMinutes(simulation, initialDemoState(simulation), first).state));
      const parts: Float64Array[][] = [];
      for (const step of steps) {
        const made = simulateMinutes(simulation, state, step);
        parts.push(made.series.map((s) => s.values));
        state = JSON.parse(JSON.stringify(made.state));
      }
      for (let i = 0; i < DEMO_SENSORS.length; i++) {
        const live = Buffer.concat(parts.map((p) => bytes(p[i])));
        expect(live.equals(bytes(whole[i].values.subarray(first))), DEMO_SENSORS[i].register.code).toBe(true);
      }
      return state;
    };
    const state = resumed(minutes, [1, 1, 1, 7, 7, extra - 17]);
    // The whole span in stretches of 50 minutes: one ends inside the shaft meter's stuck stretch of 95,
    // whose held value the state carries on.
    const stuck = DEMO_SENSORS.findIndex((s) => s.register.code === "ВС2-CH4");
    let carried = initialDemoState(simulation);
    let heldAcross = false;
    for (let k = 0; k < minutes; k += 50) {
      carried = simulateMinutes(simulation, carried, 50).state;
      if (carried.held[stuck] !== null) heldAcross = true;
    }
    expect(heldAcross).toBe(true);
    resumed(
      0,
      Array(Math.ceil((minutes + extra) / 50))
        .fill(50)
        .with(-1, (minutes + extra) % 50 || 50),
    );
    // And the seed's own minutes are the one stretch's first 30 days.
    expect(bytes(series[3].values).equals(bytes(whole[3].values.subarray(0, minutes)))).toBe(true);
    // The events come again every 30 days: М-11's alarm of day 9 is in the next cycle's day 9.
    const again = simulateMinutes(simulation, state, 30 * 1440).series[3].values;
    expect(Math.max(...again.filter((v) => !Number.isNaN(v)))).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it("pushes the demo's minutes as a gateway would up to the clock's, then after a stop fills the last 30 days, the same as the seed's simulator", async () => {
    let now = NOW.getTime();
    const d = await memoryDomain({ now: () => new Date(now) });
    const actor = await d.actor("Демо-компания");
    await d.write(() => seedDemoYear(d.deps, actor));
    const mine = (await d.deps.repos.facilities.list(actor.company)).find((f) => f.kind === "underground_mine")!.id;
    // A company of its own with a sensor of the demo's code: never fed.
    const own = await d.actor("ООО «Своя шахта»");
    const ownMine = await d.facility(own, { name: "Шахта «Своя»", kind: "underground_mine" });
    const ownPoint = await d.write(() =>
      createPoint(d.deps, own, ownMine.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
    );
    const ownSensor = await d.write(() =>
      createSensor(d.deps, own, ownMine.id, parseWith(sensorCreateSchema, { code: "М-11", kind: "methane", point: ownPoint.id })),
    );
    const [feed] = await d.deps.repos.monitoring.demoFeeds();
    expect(feed).toMatchObject({
      company: actor.company,
      facility: mine,
      seed: DEMO_SEED,
      zone: ZONE,
      anchor: start,
      next: start + minutes * MINUTE_MS,
    });
    const sensors = await d.deps.repos.sensors.listOfFacility(actor.company, mine);
    const idOf = (code: string) => sensors.find((s) => s.code === code)!.id;
    const whole = simulateReadings(start, minutes + 45 * 1440, ZONE);
    /** The stored minutes of a sensor from `from` to `to` against the one stretch's, bit for bit. */
    const same = async (code: string, from: number, to: number) => {
      const stored = await readingsBetween(d.deps, actor.company, idOf(code), from, to);
      const expected = whole.find((s) => s.sensor.register.code === code)!.values;
      const kept = [...Array((to - from) / MINUTE_MS).keys()]
        .map((k) => (from - start) / MINUTE_MS + k)
        .filter((m) => !Number.isNaN(expected[m]));
      expect(Array.from(stored.times), code).toEqual(kept.map((m) => start + m * MINUTE_MS));
      expect(bytes(stored.values).equals(bytes(Float64Array.from(kept, (m) => expected[m]))), code).toBe(true);
      return stored;
    };

    // Five minutes on: the minute the seed ended at and the five after it, one batch of 6 minutes.
    now += 5 * MINUTE_MS;
    expect(await feedDemoReadings(d.deps)).toEqual({ batches: 1, readings: 6 * DEMO_SENSORS.length });
    await monitoringIdle(d.deps);
    const end = start + minutes * MINUTE_MS;
    for (const { register } of DEMO_SENSORS) {
      const stored = await same(register.code, end - 60 * MINUTE_MS, end + 6 * MINUTE_MS);
      expect(stored.demo).toBe(true);
    }
    // Nothing due within the same minute.
    now += 20_000;
    expect(await feedDemoReadings(d.deps)).toEqual({ batches: 0, readings: 0 });

    // Stopped for 40 days: the last 30 are filled (the 10 before run through, not stored), in batches of
    // at most a push's readings.
    now += 40 * 1440 * MINUTE_MS;
    const clock = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const fed = await feedDemoReadings(d.deps);
    expect(fed.batches).toBe(Math.ceil((30 * 1440) / FEED_BATCH_MINUTES));
    await monitoringIdle(d.deps);
    const from = clock - 30 * 1440 * MINUTE_MS + MINUTE_MS;
    const m11 = await same("М-11", from, clock + MINUTE_MS);
    expect(m11.demo).toBe(true);
    expect((await readingsBetween(d.deps, actor.company, idOf("М-11"), end + 6 * MINUTE_MS, from)).times.length).toBe(0);
    await same("ДГ-Q", from, clock + MINUTE_MS);
    // The queue is empty, the offers of the month still the demo's, the own company's meter has nothing.
    expect(await d.deps.repos.monitoring.queued(1)).toEqual([]);
    expect((await readingsBetween(d.deps, own.company, ownSensor.id, start, clock + MINUTE_MS)).times.length).toBe(0);
    expect((await d.deps.repos.monitoring.demoFeeds()).map((f) => f.next)).toEqual([clock + MINUTE_MS]);
  }, 180_000);
});
