// every channel on «Мониторинг». The sensors without a working — the shaft's anemometer
// and methane meter, the drainage line's meter and flow, the wing's return meter — are tiles under their
// place (the screen grouped by working and left them out); a sensor silent for N minutes reads «нет данных
// N мин», one silent past the day too, from its latest kept reading, never «нет датчика» (the working's
// anemometer silent for 26 h was «Расход воздуха: нет датчика»). The kept heads' tiles equal the folded ones.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { createSensor } from "../ingest/register";
import { storeBatch } from "../ingest/readings";
import { monitoringIdle } from "./forecaster";
import { liveView } from "./live";
import { liveFromHeads } from "./live-head";

describe("«Мониторинг»: the channels without a working, and silent ones", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility: { id: string; name: string };
  const NOW = Date.parse("2026-11-16T03:00:00Z");
  const END = NOW - MINUTE_MS;
  /** The test's clock, moved on by the second test. */
  let clock = NOW;

  async function push(readings: { sensor: string; t: number; value: number }[]) {
    const body = { json: { readings: readings.map((r) => ({ ...r, t: new Date(r.t).toISOString() })) } };
    await storeBatch(d.deps, staff.company, facility.id, body);
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
  }

  beforeAll(async () => {
    d = await memoryDomain({ now: () => new Date(clock) });
    staff = await d.actor("ООО «Места»");
    facility = await d.facility(staff, { name: "Шахта «Места»", kind: "underground_mine" });
    const point = (
      await d.write(() =>
        createPoint(d.deps, staff, facility.id, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
      )
    ).id;
    for (const [code, kind, working, place, extra] of [
      ["М-1", "methane", "Лава 5", "face", { warning: 1, alarm: 1.5 }],
      ["V-1", "air_velocity", "Лава 5", "longwall_return", { area_m2: 12 }],
      ["М-С", "methane", "", "shaft", {}],
      ["V-С", "air_velocity", "", "shaft", { area_m2: 20 }],
      ["М-Д", "methane_high", "", "drainage_pipeline", {}],
      ["Q-Д", "flow", "", "drainage_pipeline", {}],
      ["М-К", "methane", "", "wing_return", { warning: 0.6, alarm: 0.75 }],
      // A thermometer without a working: no kind a tile shows.
      ["T-С", "temperature", "", "shaft", {}],
    ] as const) {
      // Only the shaft's own channels measure the shaft's point.
      const body = parseWith(sensorCreateSchema, { code, kind, point: place === "shaft" ? point : null, working, place, ...extra });
      await d.write(() => createSensor(d.deps, staff, facility.id, body));
    }
    // V-1 last read 26 hours ago (past the tiles' day); then three hours of the others, V-С silent for
    // its last 30 minutes, М-К never read.
    await push([{ sensor: "V-1", t: END - 26 * 60 * MINUTE_MS, value: 2 }]);
    const readings = [];
    for (let k = 0; k < 180; k++) {
      const t = END - (179 - k) * MINUTE_MS;
      readings.push({ sensor: "М-1", t, value: 0.5 }, { sensor: "М-С", t, value: 0.3 });
      readings.push({ sensor: "М-Д", t, value: 40 }, { sensor: "Q-Д", t, value: 25 }, { sensor: "T-С", t, value: 12 });
      if (k < 150) readings.push({ sensor: "V-С", t, value: 5 });
    }
    await push(readings);
  });

  it("shows the sensors without a working under their place, each silence in minutes", async () => {
    const view = await liveView(d.deps, staff, facility.id);
    expect(view.tiles.map((t) => [t.working, t.place])).toEqual([
      ["Лава 5", null],
      ["", "wing_return"],
      ["", "shaft"],
      ["", "drainage_pipeline"],
    ]);
    const [lava, wing, shaft, drainage] = view.tiles;
    // Silent past the day: its minutes since the latest reading kept, not «нет датчика».
    expect(lava.air_flow).toEqual({
      code: "V-1",
      value: null,
      at: new Date(END - 26 * 60 * MINUTE_MS).toISOString(),
      stale_minutes: 26 * 60 + 1,
    });
    expect(shaft.meters.map((m) => [m.code, m.value, m.state_label])).toEqual([["М-С", 0.3, "норма"]]);
    expect(shaft.air_flow).toMatchObject({ code: "V-С", value: 5 * 20 * 60, stale_minutes: 31 });
    expect(shaft.drainage_flow).toBeNull();
    expect(drainage.meters.map((m) => [m.code, m.kind, m.value])).toEqual([["М-Д", "methane_high", 40]]);
    expect(drainage.drainage_flow).toMatchObject({ code: "Q-Д", value: 25, stale_minutes: null });
    expect(drainage.air_flow).toBeNull();
    // Never read: said as such (no instant kept to count from).
    expect(wing.meters.map((m) => [m.code, m.value, m.state, m.state_label])).toEqual([["М-К", null, "none", "нет показаний за сутки"]]);
    for (const tile of [wing, shaft, drainage]) {
      expect(tile.forecasts).toEqual([]);
      expect(tile.forecast_note).toBe("");
    }
  });

  it("says a meter silent past the day in minutes, and the kept heads give the same tiles", async () => {
    // М-С stops: the clock moves 25 hours on.
    clock = NOW + 25 * 60 * MINUTE_MS;
    try {
      const folded = await liveView(d.deps, staff, facility.id);
      const shaft = folded.tiles.find((t) => t.place === "shaft")!;
      expect(shaft.meters.map((m) => [m.code, m.value, m.state, m.state_label, m.stale_minutes])).toEqual([
        ["М-С", null, "none", "нет данных 1 сут 1 ч", 25 * 60 + 1],
      ]);
      expect(shaft.air_flow).toMatchObject({ code: "V-С", value: null, stale_minutes: 25 * 60 + 31 });
      expect(await liveFromHeads(d.deps, staff.company, facility)).toEqual(folded);
    } finally {
      clock = NOW;
    }
  });
});
