import { describe, expect, it } from "vitest";
import { MAX_GRAPH_POINTS, thinnedPositions } from "./downsample";

// A level line with noise, a 10-row peak and a 1-row dip on the second line.
const N = 52_560;
const first = Array.from({ length: N }, (_, i) => 0.5 + ((i * 7919) % 97) / 1000);
const second = first.map((v) => v - 0.01);
first.slice(30_000, 30_010).forEach((_, k) => {
  first[30_000 + k] = 1.2 + k / 100;
});
second[41_000] = 0.05;

describe("thinnedPositions", () => {
  it("keeps a short series whole", () => {
    expect(thinnedPositions(5, [(i) => i])).toEqual([0, 1, 2, 3, 4]);
  });

  it("sends each bucket's lowest and highest of every line, in row order, within the bound", () => {
    const kept = thinnedPositions(N, [(i) => first[i], (i) => second[i]]);
    expect(kept.length).toBeLessThanOrEqual(MAX_GRAPH_POINTS);
    expect(kept.length).toBeGreaterThan(MAX_GRAPH_POINTS / 4);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    // The peak's top and the dip are drawn at their height.
    expect(Math.max(...kept.map((i) => first[i]))).toBe(Math.max(...first));
    expect(kept).toContain(41_000);
    // Every bucket of consecutive rows is represented: no gap wider than two buckets.
    const gaps = kept.slice(1).map((p, k) => p - kept[k]);
    expect(Math.max(...gaps)).toBeLessThan((2 * N) / (MAX_GRAPH_POINTS / 4));
  });

  it("keeps every row at or above a warning level while they are at most half the bound", () => {
    const kept = thinnedPositions(N, [(i) => first[i]], MAX_GRAPH_POINTS, (i) => first[i] >= 1);
    for (let k = 0; k < 10; k++) expect(kept).toContain(30_000 + k);
    expect(kept.length).toBeLessThanOrEqual(MAX_GRAPH_POINTS);
  });

  it("falls back to the buckets' extremes when too many rows are at the warning level, staying within the bound", () => {
    const kept = thinnedPositions(N, [(i) => first[i]], MAX_GRAPH_POINTS, () => true);
    expect(kept.length).toBeLessThanOrEqual(MAX_GRAPH_POINTS);
    expect(Math.max(...kept.map((i) => first[i]))).toBe(Math.max(...first));
  });

  it("skips values that are not numbers (rows without a measured value)", () => {
    const kept = thinnedPositions(N, [(i) => (i % 2 === 0 ? null : first[i])], 100);
    expect(kept.every((i) => i % 2 === 1)).toBe(true);
  });
});
