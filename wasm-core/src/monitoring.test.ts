import { describe, expect, it } from "vitest";
import vectors from "../../tests/fixtures/monitoring/methodology-section-12.json";
import { instantOfWallTime } from "./company-clock";
import {
  Flag,
  GAS_KINDS,
  inRange,
  LEVEL_KINDS,
  METHANE_KINDS,
  MinuteState,
  SENSOR_KIND_NAMES,
  SENSOR_KINDS,
  type SensorKind,
  acceptedMonthChanged,
  flagQuality,
  minuteMeans,
  pointVolume,
  rollUp,
  sensorMinutes,
  shiftName,
  substitute,
  validMeans,
  type Substituted,
} from "./monitoring";
import { MINUTE_MS } from "./dates";

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
const start = Date.UTC(2026, 2, 1, 0, 0);

/** One reading per minute (at :30 s) of the values given; NaN leaves the minute without a reading. */
function readingsOf(values: number[]): { times: number[]; values: number[] } {
  const times: number[] = [];
  const out: number[] = [];
  values.forEach((value, m) => {
    if (Number.isNaN(value)) return;
    times.push(start + m * MINUTE_MS + 30_000);
    out.push(value);
  });
  return { times, values: out };
}

function minutesOf(kind: Parameters<typeof sensorMinutes>[0], values: number[]): Substituted {
  const r = readingsOf(values);
  return sensorMinutes(kind, r.times, r.values, start, values.length);
}

function spans(count: number, parts: { from: number; to: number; value: number }[]): number[] {
  const out = new Array<number>(count).fill(Number.NaN);
  for (const p of parts) for (let m = p.from; m <= p.to; m++) out[m] = p.value;
  return out;
}

describe("section 12's worked examples", () => {
  it("a ventilation hour with a gap: 3 252 m³ CH4, 2,172336 t, 10 minutes substituted at 0,45 %", () => {
    const v = vectors.ventilation_hour_with_gap;
    const ch4 = minutesOf("methane", spans(v.minutes, v.ch4));
    expect(ch4.values[v.gap.from]).toBeCloseTo(v.substitute, 12);
    expect(ch4.values[v.gap.to]).toBeCloseTo(v.substitute, 12);
    const flow = minutesOf("flow", new Array(v.minutes).fill(v.flow_m3_min));
    const result = pointVolume({ flow, ch4 });
    expect(result.volume_thousand_m3).toBeCloseTo(v.volume_thousand_m3, 9);
    expect(result.ch4_m3).toBeCloseTo(v.ch4_m3, 9);
    expect(round(result.ef_ch4, v.ef_ch4.decimals)).toBe(v.ef_ch4.value);
    expect(round(result.ch4_t, v.ch4_t.decimals)).toBe(v.ch4_t.value);
    expect(result.minutes).toEqual({ expected: v.minutes, valid: v.valid, substituted: v.substituted, missing: 0 });
    expect(result.completeness).toBe(v.completeness);
    expect(result.longest_gap_min).toBe(v.longest_gap_min);
  });

  it("a drainage hour at actual conditions is brought to 20 °C and 101,325 kPa: 1 716,92 m³, 37 %, 0,424355 t", () => {
    const v = vectors.drainage_hour_at_actual_conditions;
    const constant = (kind: Parameters<typeof sensorMinutes>[0], value: number) => minutesOf(kind, new Array(v.minutes).fill(value));
    const result = pointVolume({
      flow: constant("flow", v.flow_m3_min),
      ch4: minutesOf("methane_high", spans(v.minutes, v.ch4)),
      conditions: "actual",
      pressure: constant("pressure", v.pressure_kpa),
      temperature: constant("temperature", v.temperature_c),
    });
    expect(round(result.volume_m3 / v.minutes, v.q_std_m3_min.decimals)).toBe(v.q_std_m3_min.value);
    expect(round(result.volume_m3, v.volume_m3.decimals)).toBe(v.volume_m3.value);
    expect(round(result.ch4_m3, v.ch4_m3.decimals)).toBe(v.ch4_m3.value);
    expect(round(result.ef_ch4, v.ef_ch4.decimals)).toBe(v.ef_ch4.value);
    expect(round(result.ch4_t, v.ch4_t.decimals)).toBe(v.ch4_t.value);
  });

  it("a gap with nothing before takes the first value after: 7 minutes substituted at 0,50 %", () => {
    const v = vectors.gap_with_nothing_before;
    const values = new Array(60).fill(v.value);
    for (let m = 0; m < v.first_reading_minute; m++) values[m] = Number.NaN;
    const ch4 = minutesOf("methane", values);
    expect(ch4.substituted).toBe(v.substituted);
    expect([...ch4.values.slice(0, v.first_reading_minute)]).toEqual(new Array(v.first_reading_minute).fill(v.value));
    expect([...ch4.state.slice(0, v.first_reading_minute)]).toEqual(new Array(v.first_reading_minute).fill(MinuteState.SUBSTITUTED));
  });

  it("a gap of 26 h is not substituted: a 30-day month is 96,39 % complete", () => {
    const v = vectors.long_gap;
    const monthStart = Date.UTC(2026, 3, 1);
    const minutes = v.month_days * 1440;
    const from = ((v.gap_from.day - 1) * 24 + v.gap_from.hour) * 60;
    const to = ((v.gap_to.day - 1) * 24 + v.gap_to.hour) * 60;
    expect(to - from).toBe(v.gap_minutes);
    const times: number[] = [];
    const values: number[] = [];
    for (let m = 0; m < minutes; m++) {
      if (m >= from && m < to) continue;
      times.push(monthStart + m * MINUTE_MS);
      values.push(0.4 + (m % 7) * 0.01);
    }
    const ch4 = sensorMinutes("methane", times, values, monthStart, minutes);
    expect(ch4.missing).toBe(v.gap_minutes);
    expect(ch4.substituted).toBe(0);
    expect(ch4.longestGap).toBe(v.gap_minutes);
    const flow = sensorMinutes("flow", times, new Array(times.length).fill(9000), monthStart, minutes);
    const result = pointVolume({ flow, ch4 });
    expect(result.minutes.missing).toBe(v.gap_minutes);
    expect(round(result.completeness, v.completeness.decimals)).toBe(v.completeness.value);
  });
});

describe("readings to minutes (D59) and quality (D58)", () => {
  it("takes the mean of a minute's valid readings and leaves out those outside the physical range", () => {
    const times = [start + 1_000, start + 20_000, start + 40_000, start + MINUTE_MS + 5_000];
    const series = minuteMeans("methane", times, [0.4, 0.6, 7, -1], start, 3);
    expect(series.values[0]).toBeCloseTo(0.5, 12);
    expect(series.flags[0]).toBe(Flag.OK);
    expect(series.flags[1]).toBe(Flag.RANGE);
    expect(series.flags[2]).toBe(Flag.NONE);
  });

  it("gives the same minutes whatever order the readings come in", () => {
    const times: number[] = [];
    const values: number[] = [];
    for (let i = 0; i < 600; i++) {
      times.push(start + i * 7_000);
      values.push(0.3 + ((i * 37) % 11) / 100);
    }
    const forward = sensorMinutes("methane", times, values, start, 80);
    const backward = sensorMinutes("methane", [...times].reverse(), [...values].reverse(), start, 80);
    expect([...backward.values]).toEqual([...forward.values]);
  });

  it("flags a jump of more than 1 % CH4 in a minute and substitutes it", () => {
    const ch4 = minutesOf("methane", [0.5, 0.5, 2.0, 0.5, 0.5]);
    expect([...ch4.state]).toEqual([0, 0, MinuteState.SUBSTITUTED, MinuteState.SUBSTITUTED, 0]);
    expect(ch4.values[2]).toBeCloseTo(0.5, 12);
  });

  it("flags 60 identical minutes as stuck only while the paired flow changes", () => {
    const flat = new Array(70).fill(0.42);
    const r = readingsOf(flat);
    const steady = new Float64Array(70).fill(1000);
    const varying = Float64Array.from({ length: 70 }, (_, m) => 1000 + m);
    const withSteady = flagQuality("methane", minuteMeans("methane", r.times, r.values, start, 70), { paired: steady });
    expect(withSteady.flags.every((f) => f === Flag.OK)).toBe(true);
    const withVarying = flagQuality("methane", minuteMeans("methane", r.times, r.values, start, 70), { paired: varying });
    expect(withVarying.flags.every((f) => f === Flag.STUCK)).toBe(true);
    const short = flagQuality("methane", minuteMeans("methane", r.times.slice(0, 59), r.values.slice(0, 59), start, 59), {
      paired: varying,
    });
    expect(short.flags.every((f) => f === Flag.OK)).toBe(true);
  });
});

describe("substitution (D60)", () => {
  it("takes the last value before a gap at the end of the data, and substitutes exactly 24 h but not 24 h and a minute", () => {
    const tail = minutesOf("methane", [0.3, 0.4, Number.NaN, Number.NaN]);
    expect([...tail.values]).toEqual([0.3, 0.4, 0.4, 0.4]);
    for (const [gap, substituted] of [
      [1440, 1440],
      [1441, 0],
    ]) {
      const values = [0.3, ...new Array(gap).fill(Number.NaN), 0.5];
      const series = minutesOf("methane", values);
      expect(series.substituted).toBe(substituted);
      expect(series.missing).toBe(gap - substituted);
    }
  });

  it("leaves every minute missing when there is no valid value at all", () => {
    const none = substitute({ start, values: new Float64Array(5).fill(Number.NaN), flags: new Uint8Array(5).fill(Flag.NONE) });
    expect(none.missing).toBe(5);
    expect(none.longestGap).toBe(5);
  });
});

describe("a month with gaps, a stuck sensor and a late correction (D58–D61)", () => {
  // An independent computation: each minute by hand, in plain loops over arrays of numbers.
  const minutes = 31 * 1440;
  const monthStart = Date.UTC(2026, 2, 1) - 7 * 3_600_000; // 01.03.2026 00:00 in Kemerovo
  const area = 14.5;
  const velocity = (m: number) => 2 + Math.sin(m / 300) * 0.4 + (m % 13) * 0.002;
  const content = (m: number) => 0.35 + Math.cos(m / 500) * 0.1 + (m % 17) * 0.001;
  const gaps = [
    [100, 140],
    [5_000, 5_000 + 2_000],
    [20_000, 20_030],
  ];
  const stuck = [30_000, 30_075];
  const inGap = (m: number) => gaps.some(([a, b]) => m >= a && m < b);

  function readings(corrected: boolean) {
    const times: number[] = [];
    const values: number[] = [];
    for (let m = 0; m < minutes; m++) {
      if (inGap(m)) continue;
      times.push(monthStart + m * MINUTE_MS + 15_000);
      let value = m >= stuck[0] && m < stuck[1] ? 0.41 : content(m);
      if (corrected && m === 40_000) value = 0.9;
      values.push(value);
    }
    return { times, values };
  }

  function independent(corrected: boolean): { v: number; vch4: number; valid: number; substituted: number } {
    const c: number[] = [];
    for (let m = 0; m < minutes; m++) {
      const bad = inGap(m) || (m >= stuck[0] && m < stuck[1]);
      c.push(bad ? Number.NaN : corrected && m === 40_000 ? 0.9 : content(m));
    }
    // 0.9 jumps more than 1 % from its neighbours? No (0,35 → 0,9 is 0,55): it stays valid.
    const filled = [...c];
    let substituted = 0;
    for (let m = 0; m < minutes; m++) {
      if (!Number.isNaN(c[m])) continue;
      let end = m;
      while (end < minutes && Number.isNaN(c[end])) end++;
      const length = end - m;
      if (length <= 1440) {
        const before = m > 0 ? c[m - 1] : Number.NaN;
        const after = end < minutes ? c[end] : Number.NaN;
        const fill = Number.isNaN(before) ? after : Number.isNaN(after) ? before : (before + after) / 2;
        for (let k = m; k < end; k++) filled[k] = fill;
        substituted += length;
      }
      m = end - 1;
    }
    let v = 0;
    let vch4 = 0;
    let valid = 0;
    for (let m = 0; m < minutes; m++) {
      if (inGap(m) && gaps.some(([a, b]) => m >= a && m < b && b - a > 1440)) continue;
      const q = velocity(m) * area * 60;
      v += q;
      vch4 += (q * filled[m]) / 100;
      if (!Number.isNaN(c[m]) && !inGap(m)) valid++;
    }
    return { v, vch4, valid, substituted };
  }

  function computed(corrected: boolean, reverse = false) {
    const r = readings(corrected);
    const times = reverse ? [...r.times].reverse() : r.times;
    const values = reverse ? [...r.values].reverse() : r.values;
    // The anemometer reads every minute; only the methane meter has gaps.
    const vTimes = Array.from({ length: minutes }, (_, m) => monthStart + m * MINUTE_MS + 10_000);
    const vValues = Array.from({ length: minutes }, (_, m) => velocity(m));
    const vel = sensorMinutes("air_velocity", vTimes, vValues, monthStart, minutes);
    const paired = Float64Array.from(vel.values);
    const ch4 = sensorMinutes("methane", times, values, monthStart, minutes, { paired });
    return { result: pointVolume({ velocity: vel, area_m2: area, ch4 }), ch4 };
  }

  it("equals the independent computation to 1e-9 relative, in any order, and a correction moves it", () => {
    for (const corrected of [false, true]) {
      const expected = independent(corrected);
      const { result, ch4 } = computed(corrected);
      expect(ch4.substituted).toBe(expected.substituted);
      expect(Math.abs(result.volume_m3 - expected.v) / expected.v).toBeLessThan(1e-9);
      expect(Math.abs(result.ch4_m3 - expected.vch4) / expected.vch4).toBeLessThan(1e-9);
      const reversed = computed(corrected, true).result;
      expect(reversed).toEqual(result);
    }
    const before = computed(false).result;
    const after = computed(true).result;
    expect(after.ch4_t).not.toBe(before.ch4_t);
    expect(acceptedMonthChanged(before.ch4_t, after.ch4_t)).toBe(false); // one minute of a month: < 0,1 %
    expect(acceptedMonthChanged(before.ch4_t, before.ch4_t * 1.0011)).toBe(true);
    expect(acceptedMonthChanged(before.ch4_t, before.ch4_t * 1.0009)).toBe(false);
  });
});

describe("roll-ups on the company's clock (D64)", () => {
  it("puts minutes into local hours, three 8-hour shifts from 00:00, days and the month, with minutes above the levels", () => {
    const zone = "Asia/Novokuznetsk";
    const from = instantOfWallTime(2026, 3, 1, 0, 0, zone);
    expect(from).toBe(Date.UTC(2026, 1, 28, 17, 0));
    const minutes = 2 * 1440;
    const values = Float64Array.from({ length: minutes }, (_, m) => (m < 60 ? 1.2 : m < 120 ? 0.92 : 0.5));
    const state = new Uint8Array(minutes);
    state[minutes - 1] = MinuteState.MISSING;
    state[minutes - 2] = MinuteState.SUBSTITUTED;
    const r = rollUp({ start: from, values, state }, zone, { warning: 1.0, alarm: 1.5 });
    expect(r.months.map((b) => b.key)).toEqual(["2026-03"]);
    expect(r.days.map((b) => b.key)).toEqual(["2026-03-01", "2026-03-02"]);
    expect(r.shifts.map((b) => b.key)).toEqual([
      "2026-03-01#1",
      "2026-03-01#2",
      "2026-03-01#3",
      "2026-03-02#1",
      "2026-03-02#2",
      "2026-03-02#3",
    ]);
    expect(r.hours).toHaveLength(48);
    const first = r.hours[0];
    expect(first.key).toBe("2026-03-01T00");
    expect([first.count, first.min, first.max, first.above_pre_warning, first.above_warning, first.above_alarm]).toEqual([
      60, 1.2, 1.2, 60, 60, 0,
    ]);
    expect(r.hours[1].above_pre_warning).toBe(60);
    expect(r.hours[1].above_warning).toBe(0);
    const month = r.months[0];
    expect(month.count).toBe(minutes - 1);
    expect(month.substituted).toBe(1);
    expect(month.mean).toBeCloseTo((60 * 1.2 + 60 * 0.92 + (minutes - 121) * 0.5) / (minutes - 1), 12);
    expect(r.shifts[0].count).toBe(480);
  });

  it("counts the minutes before a facility's first shift in the day before's last one", () => {
    const zone = "Europe/Moscow";
    const from = instantOfWallTime(2026, 3, 2, 0, 0, zone);
    const values = new Float64Array(8 * 60).fill(0.3);
    const r = rollUp({ start: from, values, state: new Uint8Array(values.length) }, zone, {}, [420, 1140]);
    expect(r.shifts.map((b) => [b.key, b.count])).toEqual([
      ["2026-03-01#2", 420],
      ["2026-03-02#1", 60],
    ]);
  });
});

// the АГК operator's journal takes the mean of the valid minute means only.
describe("validMeans", () => {
  it("averages a span's valid minutes, leaving out flagged and missing ones and those outside the series", () => {
    const values = Float64Array.from([1, 2, Number.NaN, 4, 10, 6]);
    const flags = Uint8Array.from([Flag.OK, Flag.OK, Flag.NONE, Flag.OK, Flag.JUMP, Flag.OK]);
    const series = { start: 60 * MINUTE_MS, values, flags };
    const edge = (m: number) => (60 + m) * MINUTE_MS;
    expect(validMeans(series, [edge(-5), edge(2), edge(6), edge(10)])).toEqual([
      { mean: 1.5, valid: 2 },
      { mean: 5, valid: 2 },
      { mean: null, valid: 0 },
    ]);
  });
});

// the third shift read «16:00–00:00» in the files and «16:00–24:00» on the journal.
it("names a shift one way, the last ending at 24:00 of its day", () => {
  expect([1, 2, 3].map((n) => shiftName(n))).toEqual(["Смена 1 (00:00–08:00)", "Смена 2 (08:00–16:00)", "Смена 3 (16:00–24:00)"]);
  expect(shiftName(2, [360, 1080])).toBe("Смена 2 (18:00–06:00)");
});

describe("a sensor kind's spec", () => {
  it("gives an example reading within the kind's range, and words no other kind claims", () => {
    const claimed = new Map<string, string>();
    for (const kind of SENSOR_KIND_NAMES) {
      const spec = SENSOR_KINDS[kind];
      expect(inRange(kind, spec.example), kind).toBe(true);
      for (const word of [spec.label, ...spec.words].map((w) => w.toLowerCase())) {
        expect(claimed.get(word) ?? kind, `«${word}»`).toBe(kind);
        claimed.set(word, kind);
      }
    }
  });

  it("is where the kinds' sets come from", () => {
    const where = (test: (kind: SensorKind) => boolean) => SENSOR_KIND_NAMES.filter(test);
    expect([...METHANE_KINDS]).toEqual(where((k) => SENSOR_KINDS[k].gas === "methane"));
    expect([...GAS_KINDS]).toEqual(where((k) => SENSOR_KINDS[k].gas !== null));
    expect([...LEVEL_KINDS]).toEqual(where((k) => SENSOR_KINDS[k].levels));
    expect([...METHANE_KINDS]).toEqual(["methane", "methane_high"]);
    expect([...LEVEL_KINDS]).toEqual(["methane", "methane_high", "carbon_monoxide", "carbon_dioxide"]);
  });
});
