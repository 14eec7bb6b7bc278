// Issue 114, item 1 (D87): a methane meter's gassing limit is the norm of where it hangs — never its kind
// (0–4 % or high-range) nor the register's W/A, which are alarms. A new user's mine on the in-memory
// repositories, each meter in a working of its own, readings 10:00–10:10 of 02.03.2026 (UTC+7) at a
// level of its own and 0,20 % around: a wing-return meter at 0,80 % is a gassing at 0,75 %; a high-range
// meter at a face at 2,5 % is one at 1 %; a face meter with A 1,5 % at 1,2 % is one at 1 %; one with
// A 0,9 % at 0,95 % is an alarm, not a gassing; an intake meter at 0,6 % is one at 0,5 %; the drainage
// line at 40 % and the suction line at 3,0 % are none.
import { beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/monitoring";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import type { Actor } from "../../context";
import { drainReadings } from "../minutes/consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { listGassings, operatorJournal, type Journal } from "./journal";

/** 00:00 of 02.03.2026 at UTC+7. */
const DAY = Date.UTC(2026, 2, 1, 17, 0);
const local = (h: number, m = 0) => DAY + (h * 60 + m) * MINUTE_MS;
const iso = (t: number) => new Date(t).toISOString();

/** Each meter: its register and its level 10:00–10:09 (0,20 % before and after; the lines their own). */
const MINE = [
  { body: { code: "Ш-1", kind: "methane", working: "Вентиляционный штрек крыла", place: "wing_return" }, level: 0.8, base: 0.2 },
  { body: { code: "ВК-1", kind: "methane_high", working: "Забой 7", place: "face" }, level: 2.5, base: 0.2 },
  { body: { code: "З-1", kind: "methane", working: "Забой 8", place: "face", warning: 1, alarm: 1.5 }, level: 1.2, base: 0.2 },
  { body: { code: "З-2", kind: "methane", working: "Забой 9", place: "face", warning: 0.8, alarm: 0.9 }, level: 0.95, base: 0.2 },
  { body: { code: "П-1", kind: "methane", working: "Конвейерный штрек", place: "intake" }, level: 0.6, base: 0.2 },
  { body: { code: "Д-1", kind: "methane_high", working: "", place: "drainage_pipeline" }, level: 40, base: 35 },
  { body: { code: "Г-1", kind: "methane_high", working: "Газоотсос 3", place: "suction_pipeline" }, level: 3, base: 2 },
] as const;

let d: MemoryDomain;
let staff: Actor;
let facility: string;
let journal: Journal;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-03-03T03:00:00Z"));
  staff = await d.actor("ООО «Новая шахта»");
  facility = (await d.facility(staff, { name: "Шахта «Газовая»", kind: "underground_mine" })).id;
  for (const { body, level, base } of MINE) {
    await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)));
    const readings = Array.from({ length: 60 }, (_, i) => 9 * 60 + 40 + i).flatMap((m) => {
      const value = m >= 10 * 60 && m < 10 * 60 + 10 ? level : base;
      return [0, 30].map((s) => ({ sensor: body.code, t: iso(local(0, m) + s * 1000), value }));
    });
    await storeBatch(d.deps, staff.company, facility, { json: { readings } });
  }
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
  journal = await operatorJournal(d.deps, staff, { facility, date: "2026-03-02" });
});

describe("the norm by the meter's place (D87)", () => {
  it("reads each methane meter against its place's row, never its kind or its W/A", () => {
    const limits = Object.fromEntries(journal.sensors.map((s) => [s.code, [s.limit, s.limit_source?.by, s.limit_source?.place]]));
    expect(limits).toEqual({
      "Ш-1": [0.75, "place", "wing_outgoing"],
      "ВК-1": [1, "place", "working"],
      "З-1": [1, "place", "working"],
      "З-2": [1, "place", "working"],
      "П-1": [0.5, "place", "intake"],
      "Г-1": [3.5, "place", "suction_pipeline"],
    });
    // A degassing line's meter is no gassing's and not the journal's.
    expect(journal.sensors.map((s) => s.code)).not.toContain("Д-1");
  });

  it("opens a gassing at the norm: the wing's return at 0,80 %, the face's high-range meter at 2,5 %, the face at 1,2 % past its A of 1,5 %, the intake at 0,6 %", async () => {
    const found = (await listGassings(d.deps, staff, { facility, from: "2026-03-02", to: "2026-03-02" })).results;
    expect(Object.fromEntries(found.map((g) => [g.sensors.join(", "), [g.limits, g.start, g.end, g.kind]]))).toEqual({
      "ВК-1": [[1], iso(local(10)), iso(local(10, 10)), "местное"],
      "З-1": [[1], iso(local(10)), iso(local(10, 10)), "местное"],
      "П-1": [[0.5], iso(local(10)), iso(local(10, 10)), "местное"],
      "Ш-1": [[0.75], iso(local(10)), iso(local(10, 10)), "местное"],
    });
    // З-2 at 0,95 % is past its A of 0,9 % (an alarm, D65) and below the face's 1 %: no gassing.
    expect(found.flatMap((g) => g.sensors)).not.toContain("З-2");
    // The suction line at 3,0 % is under its 3,5 %; the drainage line at 40 % is no gassing at all.
    expect(found.flatMap((g) => g.sensors)).not.toContain("Г-1");
    expect(found.flatMap((g) => g.sensors)).not.toContain("Д-1");
  });
});
