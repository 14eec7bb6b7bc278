// an earlier round on the in-memory repositories: a facility's sensors' heads kept as batches are applied
// (the latest instant and value, the gaps before it), and the tiles from them equal, tile for tile, the
// ones a day of minutes folded gives — values, states, «нет данных N мин», flows, the stored forecast —
// while reading no minute; where the heads cannot answer (none kept, a bound model's forecast not
// stored) they say so and the route computes the tiles off the request thread. Over HTTP:
// tests/integration/monitoring-live.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor, Deps } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "./forecaster";
import { createSensor } from "../ingest/register";
import { storeBatch } from "../ingest/readings";
import { bindLiveModel, liveView, type LiveView } from "./live";
import { watchLive } from "./live-watch";
import { LIVE_HEAD_GAPS, headTimes, liveFromHeads, mergedHead } from "./live-head";
import { currentLiveView, LIVE_SHARED_MS } from "./minute-reads";

describe("a sensor's head", () => {
  it("keeps the latest instant and value and the gaps of the latest readings, in any order, a correction replacing", () => {
    const first = mergedHead(undefined, [3, 1, 2], [0.3, 0.1, 0.2])!;
    expect(first).toEqual({ at: 3, value: 0.3, gaps: [1, 1] });
    // Older readings fill in before it; a correction of the latest instant replaces its value.
    const next = mergedHead(first, [0, 3, 2.5], [0.0, 0.35, 0.25])!;
    expect(next).toEqual({ at: 3, value: 0.35, gaps: [0.5, 0.5, 1, 1] });
    expect(headTimes(next)).toEqual([0, 1, 2, 2.5, 3]);
    // No more gaps than the tiles read.
    const long = mergedHead(
      next,
      Array.from({ length: 100 }, (_, i) => 10 + i),
      new Array(100).fill(0.5),
    )!;
    expect(long.gaps).toHaveLength(LIVE_HEAD_GAPS);
    expect(long.at).toBe(109);
    expect(mergedHead(undefined, [], [])).toBeUndefined();
  });
});

describe("the tiles from the kept heads", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility: { id: string; name: string };
  const NOW = Date.parse("2026-11-16T03:00:00Z");
  const END = NOW - MINUTE_MS;

  async function push(readings: { sensor: string; t: number; value: number }[]) {
    const body = { json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) } };
    await storeBatch(d.deps, staff.company, facility.id, body);
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
  }

  /** The deps with every read of the minutes counted. */
  function counted(deps: Deps): { deps: Deps; reads: () => number } {
    let reads = 0;
    const monitoring = new Proxy(deps.repos.monitoring, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (["minutesOf", "getMinute", "getDay", "getDays", "getMinutesHead"].includes(String(name))) reads++;
          return value.apply(target, args);
        };
      },
    });
    return { deps: { ...deps, repos: { ...deps.repos, monitoring } }, reads: () => reads };
  }

  beforeAll(async () => {
    d = await memoryDomain(clockAt(NOW));
    staff = await d.actor("ООО «Головы»");
    facility = await d.facility(staff, { name: "Шахта «Голова»", kind: "underground_mine" });
    const point = (
      await d.write(() =>
        createPoint(d.deps, staff, facility.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
      )
    ).id;
    for (const [code, kind, working, extra] of [
      ["М-1", "methane", "Лава 5", { warning: 1, alarm: 1.5 }],
      ["М-2", "methane", "Лава 5", { warning: 1, alarm: 1.5 }],
      ["V-1", "air_velocity", "Лава 5", { area_m2: 12 }],
      ["Q-1", "flow", "Лава 5", {}],
      ["М-3", "methane", "Штрек 2", { warning: 0.5, alarm: 1 }],
      ["М-4", "methane", "Штрек 2", {}],
    ] as const) {
      const body = parseWith(sensorCreateSchema, { code, kind, point, working, ...extra });
      await d.write(() => createSensor(d.deps, staff, facility.id, body));
    }
  });

  it("are undefined before any head is kept", async () => {
    expect(await liveFromHeads(d.deps, staff.company, facility)).toBeUndefined();
  });

  it("equal the tiles a day of minutes gives, reading no minute", async () => {
    const readings = [];
    for (let k = 0; k < 180; k++) {
      const t = END - (179 - k) * MINUTE_MS;
      readings.push({ sensor: "М-1", t, value: 0.5 + k / 1000 }, { sensor: "V-1", t, value: 2 }, { sensor: "Q-1", t, value: 30 });
      // Every 5 minutes until 40 minutes ago: stale (two intervals are 10 minutes).
      if (k % 5 === 0 && k < 140) readings.push({ sensor: "М-2", t, value: 0.95 });
      // In the warning band, then corrected below it at its latest instant.
      if (k >= 170) readings.push({ sensor: "М-3", t, value: 0.6 });
    }
    // In two batches, the second before the first in time.
    await push(readings.filter((r) => r.t > END - 90 * MINUTE_MS));
    await push(readings.filter((r) => r.t <= END - 90 * MINUTE_MS));
    await push([{ sensor: "М-3", t: END, value: 0.4 }]);
    const folded = await liveView(d.deps, staff, facility.id);
    const { deps, reads } = counted(d.deps);
    const kept = await liveFromHeads(deps, staff.company, facility);
    expect(reads()).toBe(0);
    expect(kept).toEqual(folded);
    const [lava, shtrek] = kept!.tiles;
    expect(lava.meters.map((m) => [m.code, m.value, m.state, m.stale_minutes])).toEqual([
      ["М-1", 0.5 + 179 / 1000, "normal", null],
      // D98: 0,95 % at the shaft's point is at or above its norm of 0,75 %: the book's gassing, in force while
      // it is silent, is the tile's state (its 0,9·W beside it).
      ["М-2", 0.95, "gassing", 45],
    ]);
    expect(lava.meters[1]).toMatchObject({
      state_label: "загазирование: 0,95 % при норме 0,75 %",
      levels_label: "≥ 0,9·W (0,9 %): близко к предупредительному",
    });
    expect(shtrek.meters.map((m) => [m.code, m.value, m.state])).toEqual([
      ["М-3", 0.4, "normal"],
      ["М-4", null, "none"],
    ]);
    expect(lava.air_flow).toMatchObject({ code: "V-1", value: 2 * 12 * 60, stale_minutes: null });
  });

  it("with a bound model: its stored forecast, and undefined while it is not stored", async () => {
    await bindLiveModel(d.deps, staff, { facility: facility.id, working: "Лава 5", horizon: 60, model: "xgboost-h60" });
    // Bound since the forecaster last ran: nothing stored for it, the heads cannot answer.
    expect(await liveFromHeads(d.deps, staff.company, facility)).toBeUndefined();
    // The fold computes and stores it; then the heads answer with it.
    const folded = await liveView(d.deps, staff, facility.id);
    expect(folded.tiles[0].forecasts).toHaveLength(1);
    const { deps, reads } = counted(d.deps);
    expect(await liveFromHeads(deps, staff.company, facility)).toEqual(folded);
    expect(reads()).toBe(0);
    // A page's watch (the stream) shows them too, no minute read.
    const seen: LiveView[] = [];
    const stop = watchLive(deps, staff.company, facility, (view) => seen.push(view));
    await expect.poll(() => seen.length).toBe(1);
    stop();
    expect(seen[0]).toEqual(folded);
    expect(reads()).toBe(0);
  });

  it("computed once for the requests of a moment, anew after a change to the facility's readings or the moment", async () => {
    // 10 lanes asking for a 200-meter mine's tiles computed them each, one after another on
    // the request thread (another company's get_me p95 694 ms).
    let now = NOW;
    let heads = 0;
    const monitoring = Object.create(d.deps.repos.monitoring) as Deps["repos"]["monitoring"];
    monitoring.getLiveHead = (...args) => (heads++, d.deps.repos.monitoring.getLiveHead(...args));
    const deps: Deps = { ...d.deps, clock: { now: () => new Date(now) }, repos: { ...d.deps.repos, monitoring } };
    const views = await Promise.all(Array.from({ length: 10 }, () => currentLiveView(deps, staff, facility)));
    expect(heads).toBe(1);
    expect(views.every((view) => view === views[0])).toBe(true);
    expect(await currentLiveView(deps, staff, facility)).toBe(views[0]);
    expect(heads).toBe(1);
    // A reading applied: the next request reads the heads again and shows it.
    await push([{ sensor: "М-1", t: END + 30_000, value: 0.71 }]);
    const after = await currentLiveView(deps, staff, facility);
    expect(heads).toBe(2);
    expect(after.tiles[0].meters[0].value).toBe(0.71);
    // A moment later, anew even without a change («нет данных N мин» moves on).
    now += LIVE_SHARED_MS;
    await currentLiveView(deps, staff, facility);
    expect(heads).toBe(3);
  });
});
