// A device's hours as the core takes them, from its meters' readings (D70): the segments of equal
// minutes, a proof minute 1 only when every reading proves it, a reading outside its meter's dates
// invalid, hours alike in a row one block.
import { describe, expect, it } from "vitest";
import { deviceHourBlocks, type MeterReadings } from "./climate-hours";
import { HOUR_MS } from "./dates";

const START = Date.UTC(2026, 4, 31, 17); // 2026-06-01 00:00 in Novokuznetsk
const ZONE = "Asia/Novokuznetsk";
const always = { validFrom: Number.NEGATIVE_INFINITY, validTo: Number.POSITIVE_INFINITY };

/** A reading at :30 of each minute of `hours` hours, `value(minute)` (undefined: none). */
function meter(kind: MeterReadings["kind"], hours: number, value: (m: number) => number | undefined, extra: Partial<MeterReadings> = {}) {
  const times: number[] = [];
  const values: number[] = [];
  for (let m = 0; m < hours * 60; m++) {
    const v = value(m);
    if (v === undefined) continue;
    times.push(START + m * 60_000 + 30_000);
    values.push(v);
  }
  return { kind, times, values, ...always, ...extra };
}

describe("deviceHourBlocks", () => {
  it("gives equal hours as one block and an hour's changes as its segments", () => {
    const blocks = deviceHourBlocks(
      { q: meter("flow", 3, () => 20), c: meter("methane_high", 3, (m) => (m >= 130 ? 45 : 40)), flame: meter("flame", 3, () => 1) },
      START,
      3,
      ZONE,
    );
    expect(blocks.map((b) => [b.label, b.repeat])).toEqual([
      ["2026-06-01T00..2026-06-01T01", 2],
      ["2026-06-01T02", 1],
    ]);
    expect(blocks[1].segments).toEqual([
      { from: 0, to: 10, q: 20, c: 40, flame: 1 },
      { from: 10, to: 60, q: 20, c: 45, flame: 1 },
    ]);
  });

  it("proves a minute only when its every reading is 1, and reads no minute outside the meter's dates", () => {
    const flame = meter("flame", 1, () => 1);
    // A second reading of minute 5 shows no flame.
    const proof = { ...flame, times: [...Array.from(flame.times), START + 5 * 60_000 + 45_000], values: [...Array.from(flame.values), 0] };
    const q = meter("flow", 1, () => 20, { validFrom: START + 30 * 60_000 });
    const [block] = deviceHourBlocks({ q, c: meter("methane_high", 1, () => 40), flame: proof }, START, 1, ZONE);
    expect(block.segments).toEqual([
      { from: 0, to: 5, q: null, c: 40, flame: 1 },
      { from: 5, to: 6, q: null, c: 40, flame: 0 },
      { from: 6, to: 30, q: null, c: 40, flame: 1 },
      { from: 30, to: 60, q: 20, c: 40, flame: 1 },
    ]);
  });

  it("sums an energy meter's readings per hour and leaves an hour without any null", () => {
    const e = { kind: "electricity" as const, times: [START + 10 * 60_000, START + 50 * 60_000], values: [1, 1.06], ...always };
    const blocks = deviceHourBlocks({ q: meter("flow", 2, () => 18), c: meter("methane_high", 2, () => 52), e_gen: e }, START, 2, ZONE);
    expect(blocks.map((b) => b.e_gen_mwh)).toEqual([2.06, null]);
    expect(HOUR_MS).toBe(3_600_000);
  });
});
