// Readings per sensor in typed arrays (reading-columns.ts): what the consumer carries instead of
// [sensor, ms, value] tuples.
import { describe, expect, it } from "vitest";
import { ReadingColumns, columnsOf } from "./reading-columns";

describe("reading columns", () => {
  it("gathers each sensor's readings in the order read, past the arrays' first size, and empties on take", () => {
    const columns = new ReadingColumns();
    for (let i = 0; i < 1000; i++) {
      columns.add("a", 1000 - i, i / 10);
      if (i % 2 === 0) columns.add("b", i, -i);
    }
    expect(columns.length).toBe(1500);
    const [a, b] = columns.take();
    expect(a.sensor).toBe("a");
    expect(a.times).toBeInstanceOf(Float64Array);
    expect(a.times.length).toBe(1000);
    expect([a.times[0], a.times[999], a.values[999]]).toEqual([1000, 1, 99.9]);
    expect(b.sensor).toBe("b");
    expect([...b.times.subarray(0, 3)]).toEqual([0, 2, 4]);
    expect([...b.values.subarray(0, 3)]).toEqual([-0, -2, -4]);
    expect(columns.length).toBe(0);
    expect(columns.take()).toEqual([]);
  });

  it("reads a push's rows per sensor", () => {
    const read = columnsOf([
      ["s1", 3, 0.3],
      ["s2", 1, 1],
      ["s1", 2, 0.2],
    ]);
    expect(read.map((r) => [r.sensor, [...r.times], [...r.values]])).toEqual([
      ["s1", [3, 2], [0.3, 0.2]],
      ["s2", [1], [1]],
    ]);
  });
});
