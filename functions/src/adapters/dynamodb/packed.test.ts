import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { marshall } from "@aws-sdk/util-dynamodb";
import { dayItem, dayOf, liveHeadItem, liveHeadOf, minuteItem, minuteOf } from "./monitoring-repository";
import { packIds, packOffsets, packValues, unpackIds, unpackOffsets, unpackValues } from "./packed";
import type { LiveHead, MinuteReadings, SensorDay } from "../../ports";

const bitsOf = (values: Float64Array) => Array.from(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
const roundTrip = (values: Float64Array) => unpackValues(packValues(values));

/** A double any way: a decimal of a few places, one a unit or two off it, or any 64 bits at all. */
const anyDouble = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }).chain((n) => fc.integer({ min: 0, max: 8 }).map((k) => n / 10 ** k)),
  fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100 + 0.1),
  fc.double(),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((bits) => new Float64Array(new BigUint64Array([bits]).buffer)[0]),
);

describe("packed values", () => {
  it("read back to the bit, whatever they are", () => {
    fc.assert(
      fc.property(fc.array(anyDouble, { maxLength: 200 }), (list) => {
        const values = Float64Array.from(list);
        expect(bitsOf(roundTrip(values))).toEqual(bitsOf(values));
      }),
      { numRuns: 500 },
    );
  });

  it("keep NaN's bits, −0, the huge and the tiny", () => {
    const odd = new Float64Array([Number.NaN, -0, 0, 1e308, -1e308, 5e-324, Number.MIN_VALUE, Infinity, -Infinity, 0.1 + 0.2, 0.3]);
    new BigUint64Array(odd.buffer)[0] = 0x7ff8_0000_dead_beefn;
    expect(bitsOf(roundTrip(odd))).toEqual(bitsOf(odd));
    expect(Object.is(roundTrip(new Float64Array([-0]))[0], -0)).toBe(true);
  });

  it("take a byte or two a reading of a gas analyser's decimals, and no more than raw otherwise", () => {
    const day = Float64Array.from({ length: 1440 }, (_, m) => 0.3 + (m % 40) / 100);
    expect(packValues(day).length).toBeLessThan(1440 * 2);
    const noise = Float64Array.from({ length: 1440 }, () => Math.random());
    expect(packValues(noise).length).toBeLessThanOrEqual(1440 * 8 + 1);
    expect(bitsOf(roundTrip(noise))).toEqual(bitsOf(noise));
  });
});

describe("packed offsets", () => {
  it("read back exactly, a reading a minute a byte each", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 86_399_999 }), { maxLength: 300 }), (list) => {
        const offsets = Uint32Array.from(list).sort();
        expect(Array.from(unpackOffsets(packOffsets(offsets)))).toEqual(Array.from(offsets));
      }),
    );
    const minutes = Uint32Array.from({ length: 1440 }, (_, m) => m * 60_000);
    expect(packOffsets(minutes).length).toBeLessThan(1440 + 8);
  });
});

describe("packed ids", () => {
  it("take 16 bytes a UUID and read back, and leave other ids alone", () => {
    fc.assert(
      fc.property(fc.array(fc.uuid(), { maxLength: 20 }), (ids) => {
        expect(unpackIds(packIds(ids)!)).toEqual(ids);
      }),
    );
    expect(packIds(["s1", "0192f0c4-8a3e-7c4b-9d2f-1a2b3c4d5e6f"])).toBeUndefined();
    expect(packIds(["0192F0C4-8A3E-7C4B-9D2F-1A2B3C4D5E6F"])).toBeUndefined();
  });
});

const SENSOR = "0192f0c4-8a3e-7c4b-9d2f-1a2b3c4d5e6f";

describe("minute and day items", () => {
  it("a minute reads back as written, packed or with ids that are not UUIDs", () => {
    const minute: MinuteReadings = {
      company: "c1",
      facility: "f1",
      day: "2026-11-27",
      minute: "12:34",
      sensors: [SENSOR, "0192f0c4-8a3e-7c4b-9d2f-1a2b3c4d5e70"],
      sensor: Uint16Array.from([0, 1]),
      offsets: Uint16Array.from([0, 0]),
      values: Float64Array.from([0.35, 0.1 + 0.2]),
      batch: Uint16Array.from([0, 0]),
      batches: [{ key: "2026-11-27T12:35:05.000Z#b1", counts: [2, 0, 0] }],
      corrections: [],
      version: 3,
    };
    const item = minuteItem(minute);
    expect(item).not.toHaveProperty("s");
    expect(item).not.toHaveProperty("t");
    expect(item).not.toHaveProperty("b");
    expect(minuteOf(item)).toEqual(minute);
    const varied = {
      ...minute,
      sensors: ["s-1", "s-2"],
      sensor: Uint16Array.from([0, 0, 1]),
      offsets: Uint16Array.from([0, 30_000, 59_999]),
      values: Float64Array.from([1, 2, Number.NaN]),
      batch: Uint16Array.from([0, 1, 1]),
    };
    expect(minuteOf(minuteItem(varied))).toEqual(varied);
  });

  it("a minute and a day written unpacked, before packed.ts, read as they did", () => {
    const bytes = (a: Uint16Array | Uint32Array | Float64Array) => new Uint8Array(a.buffer);
    const oldMinute = {
      company: "c1",
      facility: "f1",
      day: "2026-11-27",
      minute: "00:01",
      sensors: [SENSOR],
      s: bytes(Uint16Array.from([0])),
      t: bytes(Uint16Array.from([500])),
      v: bytes(Float64Array.from([0.42])),
      b: bytes(Uint16Array.from([0])),
      batches: [],
      corrections: [],
      version: 1,
    };
    const read = minuteOf(oldMinute);
    expect(Array.from(read.offsets)).toEqual([500]);
    expect(Array.from(read.values)).toEqual([0.42]);
    expect(read.sensors).toEqual([SENSOR]);
    const oldDay = {
      company: "c1",
      sensor: SENSOR,
      day: "2026-11-27",
      t: bytes(Uint32Array.from([0, 60_000])),
      v: bytes(Float64Array.from([1.5, -0])),
      applied: { b1: [2, 0, 0] },
      corrections: [],
      version: 2,
    };
    const day = dayOf(oldDay);
    expect(Array.from(day.offsets)).toEqual([0, 60_000]);
    expect(bitsOf(day.values)).toEqual(bitsOf(Float64Array.from([1.5, -0])));
  });

  it("a day reads back as written, in a few KB for a day of minute readings", () => {
    const day: SensorDay = {
      company: "c1",
      sensor: SENSOR,
      day: "2026-11-27",
      offsets: Uint32Array.from({ length: 1440 }, (_, m) => m * 60_000),
      values: Float64Array.from({ length: 1440 }, (_, m) => 0.3 + (m % 40) / 100),
      applied: { b1: [1440, 0, 0] },
      corrections: [],
      compacted: true,
      version: 4,
    };
    const item = dayItem(day);
    expect(item.pt.length + item.pv.length).toBeLessThan(4096);
    expect(dayOf(item)).toEqual(day);
  });
});

/** An item's bytes as the engine keeps it: its DynamoDB JSON, binaries in base64. */
const storedBytes = (item: Record<string, unknown>) =>
  JSON.stringify(marshall(item), (_, value) => (value instanceof Uint8Array ? Buffer.from(value).toString("base64") : value)).length;

describe("a facility's live heads as stored", () => {
  // the item is rewritten at each of the facility's pushes; its gaps as a list of numbers made
  // a 150-sensor mine's 76 KB, the largest part of what a reading wrote late in the day.
  const head: LiveHead = {
    company: "c1",
    facility: "f1",
    sensors: Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [
        `0199a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, "0")}`,
        {
          at: Date.UTC(2026, 10, 28, 23, 44) + i * 7,
          value: 0.41 + i / 1000,
          gaps: Array.from({ length: 30 }, (_, k) => (k === 12 ? 120_000 : 60_000 + (i % 3))),
        },
      ]),
    ),
    version: 7,
  };

  it("keeps a 150-sensor mine's heads in under 30 KB, and reads them back as they were", () => {
    const item = liveHeadItem(head);
    expect(storedBytes(item)).toBeLessThan(30 * 1024);
    expect(liveHeadOf(item)).toEqual(head);
  });

  it("reads a head stored before, its gaps a list of numbers", () => {
    expect(liveHeadOf({ ...head, PK: "p", SK: "LIVEHEAD" })).toEqual(head);
  });
});
