// D102 and D103 on minute means: a meter unchanged within one step for 60 minutes beside a moving neighbour
// or 240 alone, a silence that is not a stuck meter, and less gas downstream than upstream for an hour.
import { describe, expect, it } from "vitest";
import { airwayRuns, steadyRuns, stuckRuns } from "./monitoring-suspect";

const series = (n: number, f: (k: number) => number) => Float64Array.from({ length: n }, (_, k) => f(k));
const swing = (k: number) => 0.4 + 0.1 * Math.sin(k / 6);

describe("a stuck meter (D102)", () => {
  it("is stuck after 60 minutes beside a moving neighbour, after 240 alone", () => {
    const held = series(300, (k) => (k < 90 ? 0.37 : swing(k) + 0.2));
    expect(stuckRuns(held, 0.01, [{ values: series(300, swing), step: 0.01 }])).toEqual([{ from: 0, to: 90, open: false }]);
    expect(stuckRuns(held, 0.01, [])).toEqual([]);
    expect(
      stuckRuns(
        series(300, () => 0.37),
        0.01,
        [],
      ),
    ).toEqual([{ from: 0, to: 300, open: true }]);
    // A neighbour as still as the meter does not make it stuck before 240 minutes.
    expect(stuckRuns(held, 0.01, [{ values: series(300, () => 0.9), step: 0.01 }])).toEqual([]);
  });

  it("moves within one step without ending the run; a silence of more than 10 minutes ends it", () => {
    expect(
      steadyRuns(
        series(100, (k) => 0.37 + (k % 2) * 0.01),
        0.01,
        60,
      ),
    ).toEqual([{ from: 0, to: 100, open: true }]);
    const silent = series(100, (k) => (k >= 40 && k < 55 ? Number.NaN : 0.37));
    expect(steadyRuns(silent, 0.01, 60)).toEqual([]);
  });
});

describe("less gas downstream (D103)", () => {
  it("opens after an hour below max(0,2 %, 25 % of upstream), the upstream read 10 minutes before", () => {
    const up = series(150, () => 0.9);
    const runs = airwayRuns(
      up,
      series(150, () => 0.25),
    );
    expect(runs).toHaveLength(1);
    expect(runs[0].to - runs[0].from).toBeGreaterThanOrEqual(60);
    // 0,75 under 0,9: 0,15 below, within max(0,2; 0,225): nothing.
    expect(
      airwayRuns(
        up,
        series(150, () => 0.75),
      ),
    ).toEqual([]);
    // Below for 50 minutes only: nothing.
    expect(
      airwayRuns(
        up,
        series(150, (k) => (k < 90 ? 0.9 : 0.25)),
      ),
    ).toEqual([]);
  });
});
