// D98 on the in-memory repositories: a wing-return meter at 0,80 % with W 0,7 % and A 1,0 % read amber
// «≥ W (0,7 %): предупредительный» while the book had «продолжается 0,80 / 0,75». With an entry of the book
// in force it reads `gassing` — «загазирование: 0,80 % при норме 0,75 %» — on the tile, the day chart and
// the handover, its W state beside it; a correction that gives the gassing no more ends it.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "./forecaster";
import { createSensor } from "../ingest/register";
import { storeBatch } from "../ingest/readings";
import { handOver } from "../handover/handover";
import { liveChart, liveView, meterState } from "./live";
import { inForce, openGassingsOf } from "./live-gassing";
import type { GassingRegistration } from "../../../ports";

const NOW = Date.parse("2026-11-16T08:34:30Z");
/** The gassing's first minute: 08:33 UTC (15:33 at UTC+7). */
const ONSET = Date.parse("2026-11-16T08:33:00Z");

describe("a meter's state in a gassing (meterState)", () => {
  const open = { since: new Date(ONSET).toISOString(), norm: 0.75 };
  it("reads gassing whatever its W and A, the level it reached beside it", () => {
    expect(meterState(0.8, 0.7, 1, null)).toEqual({ state: "warning", state_label: "≥ W (0,7 %): предупредительный" });
    expect(meterState(0.8, 0.7, 1, null, open)).toEqual({
      state: "gassing",
      state_label: "загазирование: 0,80 % при норме 0,75 %",
      levels_label: "≥ W (0,7 %): предупредительный",
    });
    // W and A above the norm, not reached: nothing beside.
    expect(meterState(0.8, 1, 1.5, null, open)).toEqual({
      state: "gassing",
      state_label: "загазирование: 0,80 % при норме 0,75 %",
      levels_label: null,
    });
  });

  it("takes an entry in force from the latest correction, else as found", () => {
    const found = { end: null, max: 0.8, max_at: "", sensors: ["М-К"], limits: [0.75], working: "", kind: "местное" as const };
    const entry = { closed: false, found, corrections: [] } as Pick<GassingRegistration, "closed" | "found" | "corrections">;
    expect(inForce(entry)).toBe(true);
    expect(inForce({ ...entry, closed: true })).toBe(false);
    expect(inForce({ ...entry, found: { ...found, end: "2026-11-16T08:40:00.000Z" } })).toBe(false);
    const correction = { at: "", batches: [], sent_by: null, before: { end: null, max: 0.8 } };
    expect(inForce({ ...entry, corrections: [{ ...correction, after: null }] })).toBe(false);
    expect(inForce({ ...entry, corrections: [{ ...correction, after: { end: null, max: 0.9 } }] })).toBe(true);
    const entries = [{ ...entry, facility: "f", start: new Date(ONSET).toISOString() }] as GassingRegistration[];
    expect(openGassingsOf(entries, "f").get("М-К")).toEqual({ since: new Date(ONSET).toISOString(), norm: 0.75 });
    expect(openGassingsOf(entries, "g").size).toBe(0);
  });
});

describe("the tile, the day chart and the handover of a meter in a gassing", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility: { id: string; name: string };

  async function push(readings: { t: number; value: number }[]) {
    const body = { json: { readings: readings.map((r) => ({ sensor: "М-К", t: new Date(r.t).toISOString(), value: r.value })) } };
    await storeBatch(d.deps, staff.company, facility.id, body);
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
  }

  beforeAll(async () => {
    d = await memoryDomain(clockAt(NOW));
    staff = await d.actor("ООО «Крыло»");
    facility = await d.facility(staff, { name: "Шахта «Крыло»", kind: "underground_mine" });
    const body = parseWith(sensorCreateSchema, {
      code: "М-К",
      kind: "methane",
      working: "Крыло Северное",
      place: "wing_return",
      warning: 0.7,
      alarm: 1,
    });
    await d.write(() => createSensor(d.deps, staff, facility.id, body));
    // An hour at 0,50 %, then 0,80 % from 08:33 (a reading every 20 s).
    const readings = [];
    for (let t = ONSET - 60 * MINUTE_MS; t <= NOW - 10_000; t += 20_000) readings.push({ t, value: t >= ONSET ? 0.8 : 0.5 });
    await push(readings);
  });

  it("reads gassing on the tile, its W state beside it", async () => {
    const entries = await d.deps.repos.gassings.list(staff.company);
    expect(entries.map((e) => [e.start, e.found?.end])).toEqual([[new Date(ONSET).toISOString(), null]]);
    expect(entries[0].found?.max).toBeCloseTo(0.8, 9);
    const view = await liveView(d.deps, staff, facility.id);
    expect(view.tiles[0].meters[0]).toMatchObject({
      code: "М-К",
      value: 0.8,
      state: "gassing",
      state_label: "загазирование: 0,80 % при норме 0,75 %",
      levels_label: "≥ W (0,7 %): предупредительный",
      gassing_since: new Date(ONSET).toISOString(),
    });
  });

  it("says it on the day chart", async () => {
    const chart = await liveChart(d.deps, staff, facility.id, "Крыло Северное");
    expect(chart.meters[0].gassing).toEqual({
      since: new Date(ONSET).toISOString(),
      norm: 0.75,
      label: "загазирование: 0,80 % при норме 0,75 %",
    });
  });

  it("hands it over as a gassing, not as a level", async () => {
    const handover = await d.write(() => handOver(d.deps, staff, facility.id, {}));
    expect(handover.open.gassings).toContainEqual({
      code: "М-К",
      working: "Крыло Северное",
      text: "загазирование: 0,80 % при норме 0,75 %; ≥ W (0,7 %): предупредительный",
    });
    expect(handover.open.levels).toEqual([]);
  });
});
