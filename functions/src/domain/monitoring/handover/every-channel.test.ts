// D101 on the in-memory repositories: a CO meter of a longwall silent for 21 h was missing from the signed
// handover's «Датчики молчат» and from its working's tile (the lists were built from the methane and flow
// channels), and its silent minutes counted as substituted in «Полнота данных». Every channel the register
// holds is on its working's tile with its silence, handed over silent, and counted missing while silent.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { createSensor } from "../ingest/register";
import { storeBatch } from "../ingest/readings";
import { liveView } from "../live/live";
import { sensorCompleteness } from "../minutes/sensor-data";
import { handOver } from "./handover";

const NOW = Date.parse("2026-11-16T08:00:00Z");
const HOUR = 60 * MINUTE_MS;

describe("a CO meter silent for 21 h (D101)", () => {
  let d: MemoryDomain;
  let staff: Actor;
  let facility = "";

  beforeAll(async () => {
    d = await memoryDomain(clockAt(NOW));
    staff = await d.actor("ООО «Все каналы»");
    facility = (await d.facility(staff, { name: "Шахта «Угарная»", kind: "underground_mine" })).id;
    for (const body of [
      { code: "М-1", kind: "methane", working: "Лава 7", place: "face", warning: 1, alarm: 1.5 },
      { code: "CO-1", kind: "carbon_monoxide", working: "Лава 7", place: "longwall_return", warning: 17, alarm: 20 },
      { code: "O2-1", kind: "oxygen", working: "Лава 7", place: "longwall_return" },
      // A shaft's CO meter without a working, never read: on the shaft's tile too.
      { code: "CO-С", kind: "carbon_monoxide", place: "shaft", warning: 17, alarm: 20 },
    ])
      await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
    const readings: { sensor: string; t: string; value: number }[] = [];
    // The methane and oxygen meters read to now; CO-1 from 03:00 of 15.11 (UTC) and silent since 11:00.
    for (let t = NOW - 23 * HOUR; t < NOW; t += MINUTE_MS) {
      const at = new Date(t).toISOString();
      readings.push({ sensor: "М-1", t: at, value: 0.4 }, { sensor: "O2-1", t: at, value: 20.6 });
      if (t < NOW - 21 * HOUR) readings.push({ sensor: "CO-1", t: at, value: 4 });
    }
    await storeBatch(d.deps, staff.company, facility, { json: { readings } });
    void drainReadings(d.deps);
    await monitoringIdle(d.deps);
  });

  it("is on its working's tile with its silence, beside the other channels", async () => {
    const tile = (await liveView(d.deps, staff, facility)).tiles.find((t) => t.working === "Лава 7")!;
    expect(tile.channels.map((c) => [c.code, c.kind_label, c.stale_minutes, c.state_label])).toEqual([
      ["CO-1", "Оксид углерода (CO)", 21 * 60 + 1, "нет данных 21 ч 1 мин"],
      ["O2-1", "Кислород (O2)", null, "в работе"],
    ]);
    expect(tile.channels[0]).toMatchObject({ value: 4, unit: "ppm", at: new Date(NOW - 21 * HOUR - MINUTE_MS).toISOString() });
    const shaft = (await liveView(d.deps, staff, facility)).tiles.find((t) => t.place === "shaft")!;
    expect(shaft.channels.map((c) => [c.code, c.value, c.state_label])).toEqual([["CO-С", null, "нет показаний за сутки"]]);
  });

  it("is handed over silent", async () => {
    const handover = await d.write(() => handOver(d.deps, staff, facility, {}));
    expect(handover.open.silent).toEqual([
      { code: "CO-1", working: "Лава 7", text: "нет показаний 21 ч 1 мин" },
      { code: "CO-С", working: "Ствол (канал вентилятора)", text: "нет показаний за сутки" },
    ]);
  });

  it("counts its silent minutes missing, never substituted", async () => {
    const co = (await sensorCompleteness(d.deps, staff, facility, 2026)).find((s) => s.code === "CO-1")!;
    const month = co.months.find((m) => m.month === "2026-11")!;
    expect(month.minutes.substituted).toBe(0);
    expect(month.minutes.valid).toBe(2 * 60);
    expect(month.minutes.missing).toBe(month.minutes.expected - 2 * 60);
    // The methane meter's gaps are still substituted as D60 fills a volume's inputs.
    const methane = (await sensorCompleteness(d.deps, staff, facility, 2026)).find((s) => s.code === "М-1")!;
    expect(methane.months.find((m) => m.month === "2026-11")!.minutes.valid).toBe(23 * 60);
  });
});
