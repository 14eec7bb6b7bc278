// The chance of reaching the limit judged against the base rate (probability.ts):
// a chance worse than the base rate is marked unreliable, a better one reliable, and the
// reliability table equals a count written here row by row.
import { describe, expect, it } from "vitest";
import {
  backtest,
  calibrationProbability,
  PROBABILITY_CHECK_ROWS,
  probabilityCheck,
  shareAtLimit,
  signedPair,
  underForecastNote,
  unreliableNote,
  windowMaxTargets,
} from "./index";

/** A seeded uniform draw in [0, 1). */
function draws(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** `n` facts, a tenth of them at 1,2 % (at the limit) and the rest at 0,6 %, drawn independently. */
function facts(n: number, seed: number) {
  const next = draws(seed);
  return Float64Array.from({ length: n }, () => (next() < 0.1 ? 1.2 : 0.6));
}

describe("the chance of reaching the limit against the base rate", () => {
  const n = 2_000;
  const targets = facts(n, 99);

  it("a chance that knows nothing of the facts (drawn in 0–0,6) scores worse than the base rate and is marked unreliable", () => {
    const next = draws(7);
    const p = Float64Array.from(targets, () => next() * 0.6);
    const check = probabilityCheck(p, targets, 1, 0.1)!;
    expect(check.rows).toBe(n);
    expect(check.base_source).toBe("calibration");
    expect(check.brier).toBeGreaterThan(check.base_brier);
    expect(check.skill).toBeLessThan(0);
    expect(check.reliable).toBe(false);
    expect(check.sentence).toContain("не точнее доли таких случаев в калибровке");
    expect(check.sentence).toContain("как риск не показывается");
    expect(check.gain?.holds).toBe(false);
    expect(unreliableNote(check)).toMatch(
      /^Вероятность превышения не показывается: разность Brier с долей \+\d,\d+…\+\d,\d+ \(90 %, бутстреп по \d+ сут\.\) не ниже нуля\.$/,
    );
  });

  it("a chance that follows the facts (0,95 where the limit was reached, 0,03 elsewhere, with noise) is better and shown", () => {
    const next = draws(11);
    const p = Float64Array.from(targets, (y) => Math.min(1, Math.max(0, (y >= 1 ? 0.95 : 0.03) + (next() - 0.5) * 0.06)));
    const check = probabilityCheck(p, targets, 1, 0.1)!;
    expect(check.brier).toBeLessThan(check.base_brier);
    expect(check.skill).toBeGreaterThan(0.5);
    expect(check.gain?.holds).toBe(true);
    expect(check.reliable).toBe(true);
    expect(check.sentence).toMatch(/^Вероятность \(текущее значение от 1 %\) точнее доли таких случаев в калибровке: Brier /);
  });

  it("D108 (b): one Brier score below the base rate is not enough — a bootstrap interval crossing zero keeps the chance off", () => {
    // Seven days of 10-minute rows; the chance is the base rate nudged a little towards the fact on a few rows only:
    // its Brier is below the base rate's, by too little for the days' spread.
    const step = 10 * 60_000;
    const rows = 7 * 144;
    const facts7 = facts(rows, 41);
    const time = Float64Array.from(facts7, (_, i) => i * step);
    // Four days it leans towards the fact by 0,03, three days away from it by as much: below the base rate in all.
    const p = Float64Array.from(facts7, (y, i) => {
      const towards = Math.floor(i / 144) < 4 ? 1 : -1;
      return 0.1 + towards * (y >= 1 ? 0.03 : -0.03);
    });
    const check = probabilityCheck(p, facts7, 1, 0.1, { time })!;
    expect(check.brier).toBeLessThan(check.base_brier);
    expect(check.gain?.lo).toBeLessThan(0);
    expect(check.gain?.hi).toBeGreaterThanOrEqual(0);
    expect(check.gain?.blocks).toBe(7);
    expect(check.gain?.holds).toBe(false);
    expect(check.reliable).toBe(false);
    expect(check.sentence).toContain("бутстреп по 7 сут.");
    // Seeded: the same rows give the same interval.
    expect(probabilityCheck(p, facts7, 1, 0.1, { time })!.gain).toEqual(check.gain);
  });

  it("D108 (b): a reliability bin that strays from its mean chance (predicted 0,146, observed 0,012) keeps it off", () => {
    // Rows that never reach the limit given 0,146; those that do given 0,95: Brier far below the base rate's.
    const next = draws(51);
    const y = Float64Array.from({ length: 3000 }, () => (next() < 0.1 ? 1.2 : 0.5));
    const p = Float64Array.from(y, (v, i) => (v >= 1 ? 0.95 : i % 40 === 0 ? 0.012 : 0.146));
    const check = probabilityCheck(p, y, 1, 0.1)!;
    expect(check.gain?.holds).toBe(true);
    const bin = check.table[1];
    expect(bin.mean_p).toBeGreaterThan(0.14);
    expect(bin.observed).toBe(0);
    expect(bin.holds).toBe(false);
    expect(check.reliable).toBe(false);
    expect(check.sentence).toMatch(/в строках с вероятностью 0,1–0,2 предсказано 0,146, сбылось 0,000/);
  });

  it("D108 (a): the window's maximum — the largest fact after a row up to its horizon, NaN where the row at the horizon is missing", () => {
    const step = 10 * 60_000;
    const values = [0.5, 0.6, 1.3, 0.7, Number.NaN, 0.4, 0.2, 0.9];
    const time = values.map((_, i) => i * step);
    const w = windowMaxTargets(values, time, 3 * step);
    // Row 1's window ends at row 4, not measured; row 5's beyond the rows.
    expect(Array.from(w.subarray(0, 5))).toEqual([1.3, Number.NaN, 0.7, 0.4, 0.9]);
    expect(Number.isNaN(w[5])).toBe(true);
    expect(Array.from(windowMaxTargets(values, time, 0).subarray(0, 4))).toEqual([0.5, 0.6, 1.3, 0.7]);
    // Row 4 at +3 steps is row 7 (0,9): measured, the window holds 0,4, 0,2 and 0,9.
    expect(w[4]).toBe(0.9);
  });

  it("the Brier scores and the reliability table equal a computation row by row", () => {
    const next = draws(5);
    const p = Float64Array.from(targets, (y, i) =>
      i % 17 === 0 ? Number.NaN : i % 101 === 0 ? 1 : Math.min(1, (y >= 1 ? 0.4 : 0.1) + next() * 0.5),
    );
    const measured = Float64Array.from(targets, (y, i) => (i % 23 === 0 ? Number.NaN : y));
    const check = probabilityCheck(p, measured, 1, 0.08)!;
    let rows = 0;
    let events = 0;
    let brier = 0;
    let baseBrier = 0;
    const bins: Array<{ rows: number; p: number; hit: number }> = [];
    for (let b = 0; b < 10; b++) bins.push({ rows: 0, p: 0, hit: 0 });
    for (let i = 0; i < n; i++) {
      if (Number.isNaN(p[i]) || Number.isNaN(measured[i])) continue;
      const o = measured[i] >= 1 ? 1 : 0;
      rows++;
      events += o;
      brier += (p[i] - o) * (p[i] - o);
      baseBrier += (0.08 - o) * (0.08 - o);
      // Bins [0; 0,1), [0,1; 0,2) … [0,9; 1]: found by walking the edges.
      let b = 0;
      while (b < 9 && p[i] >= (b + 1) / 10) b++;
      bins[b].rows++;
      bins[b].p += p[i];
      bins[b].hit += o;
    }
    expect(check.rows).toBe(rows);
    expect(check.events).toBe(events);
    expect(check.brier).toBeCloseTo(brier / rows, 12);
    expect(check.base_brier).toBeCloseTo(baseBrier / rows, 12);
    expect(check.skill).toBeCloseTo(1 - brier / baseBrier, 12);
    expect(check.table).toHaveLength(10);
    check.table.forEach((bin, b) => {
      expect(bin.from).toBeCloseTo(b / 10, 12);
      expect(bin.to).toBeCloseTo((b + 1) / 10, 12);
      expect(bin.rows).toBe(bins[b].rows);
      if (bins[b].rows === 0) {
        expect(bin.mean_p).toBeNull();
        expect(bin.observed).toBeNull();
      } else {
        expect(bin.mean_p).toBeCloseTo(bins[b].p / bins[b].rows, 12);
        expect(bin.observed).toBeCloseTo(bins[b].hit / bins[b].rows, 12);
      }
    });
    // A chance of exactly 1 is in the last bin.
    expect(check.table[9].rows).toBeGreaterThan(0);
    expect(check.table.reduce((s, bin) => s + bin.rows, 0)).toBe(rows);
  });

  it("without the calibration's base rate the scored rows' own share is the bar; with too few rows it is too early to say", () => {
    const p = new Float64Array(n).fill(0.3);
    const own = probabilityCheck(p, targets, 1)!;
    expect(own.base_source).toBe("history");
    expect(own.base_rate).toBeCloseTo(shareAtLimit(targets, 1)!, 12);
    expect(own.reliable).toBe(false);
    const few = probabilityCheck(p.subarray(0, PROBABILITY_CHECK_ROWS - 1), targets.subarray(0, PROBABILITY_CHECK_ROWS - 1), 1, 0.1)!;
    expect(few.reliable).toBeNull();
    expect(few.sentence).toMatch(
      /^О вероятности \(текущее значение от 1 %\) судить рано: строк с фактом 199, из них с событием \d+; нужно не меньше 200 и 20/,
    );
    // No fact at the limit: any chance above 0 loses to a base rate near 0, which says nothing of it.
    const calm = probabilityCheck(new Float64Array(n).fill(0.001), new Float64Array(n).fill(0.5), 1, 0.0006)!;
    expect(calm.brier).toBeGreaterThan(calm.base_brier);
    expect(calm.events).toBe(0);
    expect(calm.reliable).toBeNull();
    expect(probabilityCheck([Number.NaN], [1], 1)).toBeNull();
  });

  it("D108 (a): the back-test scores each row's chance against the window's maximum of the hour it was given for", () => {
    const step = 10 * 60_000;
    const time = Float64Array.from(targets, (_, i) => i * step);
    const next = draws(3);
    const p = Float64Array.from(targets, () => next());
    // 1 h ahead: the row issued at t − 1 h gave the chance that any fact in (t − 1 h, t] reaches the limit.
    const check = backtest({ measured: targets, predicted: targets, pExceed: p, baseRate: 0.1, time, timeKind: "datetime", horizon: 60 });
    const issued = Float64Array.from(targets, (_, i) => (i >= 6 ? p[i - 6] : Number.NaN));
    const windowMax = Float64Array.from(targets, (_, i) => (i >= 6 ? Math.max(...Array.from(targets.subarray(i - 5, i + 1))) : Number.NaN));
    const direct = probabilityCheck(issued, windowMax, 1, 0.1)!;
    expect(check.probability?.rows).toBe(direct.rows);
    expect(check.probability?.events).toBe(direct.events);
    // Six chances in ten of an hour holding a fact at 1,2 %: far more events than the single minute's tenth.
    expect(direct.events).toBeGreaterThan(2 * probabilityCheck(issued, targets, 1, 0.1)!.events);
    expect(check.probability?.brier).toBeCloseTo(direct.brier, 12);
    expect(check.probability?.event).toBe("window_max");
    expect(check.probability?.sentence).toContain("хотя бы одна минута от 1 % за 1 ч вперёд");
    expect(backtest({ measured: targets, predicted: targets }).probability).toBeNull();
  });
});

describe("the check a calibration stores", () => {
  it("scores the later half's chances from the earlier half's calibration against the earlier half's share at the limit", () => {
    const n = 1_200;
    const next = draws(21);
    // A forecast that tracks the facts with noise: its chance beats the base rate.
    const predicted = Float64Array.from({ length: n }, () => 0.4 + next() * 0.8);
    const targets = Float64Array.from(predicted, (f) => f + (next() - 0.5) * 0.2);
    const check = calibrationProbability(predicted, targets, 1)!;
    expect(check.rows).toBe(n / 2);
    expect(check.base_source).toBe("calibration");
    expect(check.base_rate).toBeCloseTo(shareAtLimit(targets.subarray(0, n / 2), 1)!, 12);
    expect(check.reliable).toBe(true);
    // A forecast that knows nothing of the facts: its chance is no better.
    const blind = Float64Array.from({ length: n }, () => 0.4 + next() * 0.8);
    expect(calibrationProbability(blind, targets, 1)?.reliable).toBe(false);
  });
});

// D108, item f: no figure that says nothing — «+0,0000…+0,0000 %» beside a real interval, «занижает на 0,00 %».
describe("texts that say something", () => {
  it("gives an interval as many digits as tell its ends apart, and says no under-forecast that rounds to nothing", () => {
    expect(signedPair(-0.0124, 0.0066, 4)).toBe("−0,0124…+0,0066");
    expect(signedPair(0.00001234, 0.00004567, 4)).toBe("+0,000012…+0,000046");
    expect(signedPair(-0.0003, 0.0021)).toBe("−0,0003…+0,0021");
    expect(underForecastNote(-0.004)).toBeNull();
    expect(underForecastNote(-0.0049)).toBeNull();
    expect(underForecastNote(-0.76)).toBe("У предела прогноз занижает: в среднем на 0,76 %; ориентир — тренд, не потолок");
  });
});
