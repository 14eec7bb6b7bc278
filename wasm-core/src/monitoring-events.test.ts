import { describe, expect, it } from "vitest";
import { Flag, MinuteState, everyMinuteMeans, flagQuality, minuteMeans, rollUp, shiftOf, shiftSpan, type MinuteSeries } from "./monitoring";
import { MINUTE_MS } from "./dates";
import {
  EVENT_LEVEL_LABELS,
  eventId,
  faultEvents,
  faultText,
  gassings,
  levelEvents,
  levelValues,
  parseEventId,
  sensorGassings,
  silenceSpan,
  chanceShown,
  staleEvents,
  staleText,
  thresholdEvents,
  type EventLevel,
  type ThresholdEvent,
} from "./monitoring-events";

const DAY = Date.UTC(2026, 2, 1);
const LEVELS = { warning: 1, alarm: 2 };

/** A seeded generator (mulberry32), so a failing day can be made again. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A day of one methane meter's minutes (NaN: no reading): a background of 0,3–0,7 % with a crossing
 *  of each level, a flapping stretch, a short and a long gap, and a gap inside an event. */
function generatedDay(seed: number): number[] {
  const next = random(seed);
  const day = Array.from({ length: 1440 }, () => 0.3 + 0.4 * next());
  const set = (from: number, to: number, value: (m: number) => number) => {
    for (let m = from; m <= to; m++) day[m] = value(m);
  };
  const shift = Math.floor(next() * 20);
  set(100 + shift, 111 + shift, () => 0.92 + 0.05 * next()); // 0,9·W only
  set(300 + shift, 340 + shift, (m) => 1.05 + 0.01 * (m % 7)); // W
  set(310 + shift, 315 + shift, () => 2.05 + 0.1 * next()); // A inside W
  set(500, 560, (m) => (m % 2 === 0 ? 1.1 : 0.8)); // flapping: one below at a time
  set(600, 603, () => 1.3);
  set(604, 605, () => 0.5); // two below: closes
  set(606, 608, () => 1.4); // a new event
  set(700, 700, () => Number.NaN); // a minute without a reading: not stale
  set(800, 829, () => Number.NaN); // 30 minutes: stale
  set(900, 905, () => 1.2);
  set(906, 915, () => Number.NaN); // a gap inside an event neither closes nor counts
  set(916, 920, () => 1.25);
  set(1430, 1439, () => Number.NaN); // the day ends without readings: stale, open
  return day;
}

function seriesOf(values: number[], start = DAY): MinuteSeries {
  const times: number[] = [];
  const readings: number[] = [];
  values.forEach((v, m) => {
    if (!Number.isNaN(v)) {
      times.push(start + m * MINUTE_MS + 20_000);
      readings.push(v);
    }
  });
  return minuteMeans("methane", times, readings, start, values.length);
}

/** The independent computation: the minutes at or above the level, grouped into one event while fewer
 *  than 2 valid minutes below lie between two of them. */
function expectedEvents(values: number[], threshold: number): { start: number; end: number | null; above: number; peak: number }[] {
  const valid = values.map((v, m) => ({ v, m })).filter(({ v }) => !Number.isNaN(v));
  const out: { start: number; end: number | null; above: number; peak: number }[] = [];
  let group: { v: number; m: number }[] = [];
  const flush = (closedBy: number | null) => {
    if (group.length === 0) return;
    out.push({ start: group[0].m, end: closedBy, above: group.length, peak: Math.max(...group.map((g) => g.v)) });
    group = [];
  };
  for (let i = 0; i < valid.length; i++) {
    if (valid[i].v < threshold) continue;
    if (group.length > 0) {
      const last = valid.findIndex((x) => x.m === group[group.length - 1].m);
      const belowBetween = i - last - 1;
      if (belowBetween >= 2) flush(valid[last + 1].m);
    }
    group.push(valid[i]);
  }
  if (group.length > 0) {
    const last = valid.findIndex((x) => x.m === group[group.length - 1].m);
    flush(last + 2 < valid.length ? valid[last + 1].m : null);
  }
  return out;
}

describe("D65 threshold events", () => {
  for (const seed of [1, 7, 42, 2026]) {
    it(`equal the independent computation at each level on generated day ${seed}`, () => {
      const values = generatedDay(seed);
      const series = seriesOf(values);
      const events = thresholdEvents(series, LEVELS);
      for (const { level, value } of levelValues(LEVELS)) {
        const got = events.filter((e) => e.level === level);
        const want = expectedEvents(values, value);
        expect(got.length, level).toBeGreaterThan(0);
        expect(
          got.map((e) => ({ start: e.start, end: e.end, above: e.minutes_above, peak: e.peak })),
          level,
        ).toEqual(
          want.map((w) => ({
            start: DAY + w.start * MINUTE_MS,
            end: w.end === null ? null : DAY + w.end * MINUTE_MS,
            above: w.above,
            peak: w.peak,
          })),
        );
        // The minutes above of the events are the roll-up's minutes above the same level (D64).
        const day = rollUp({ start: series.start, values: series.values, state: stateOf(series) }, "UTC", LEVELS).days[0];
        const rolled = { pre_warning: day.above_pre_warning, warning: day.above_warning, alarm: day.above_alarm }[level];
        expect(
          got.reduce((s, e) => s + e.minutes_above, 0),
          level,
        ).toBe(rolled);
      }
    });
  }

  it("keeps a flapping sensor's stretch as one event, and two minutes below close it", () => {
    const values = generatedDay(3);
    const warning = thresholdEvents(seriesOf(values), LEVELS).filter((e) => e.level === "warning");
    const flapping = warning.find((e) => e.start === DAY + 500 * MINUTE_MS) as ThresholdEvent;
    expect(flapping.end).toBe(DAY + 561 * MINUTE_MS);
    expect(flapping.minutes_above).toBe(31);
    expect(flapping.peak).toBe(1.1);
    const closed = warning.find((e) => e.start === DAY + 600 * MINUTE_MS) as ThresholdEvent;
    expect(closed.end).toBe(DAY + 604 * MINUTE_MS);
    expect(warning.find((e) => e.start === DAY + 606 * MINUTE_MS)?.peak).toBe(1.4);
    // A gap inside an event neither closes it nor counts as minutes above.
    const gapped = warning.find((e) => e.start === DAY + 900 * MINUTE_MS) as ThresholdEvent;
    expect(gapped.minutes_above).toBe(11);
    expect(gapped.end).toBe(DAY + 921 * MINUTE_MS);
  });

  it("nests the alarm in the warning in the pre-warning, with its peak and when", () => {
    const values = Array.from({ length: 30 }, (_, m) => (m >= 5 && m < 20 ? (m >= 10 && m < 13 ? 2 + m / 100 : 1.5) : 0.2));
    const events = thresholdEvents(seriesOf(values), LEVELS);
    expect(events.map((e) => [e.level, (e.start - DAY) / MINUTE_MS, ((e.end as number) - DAY) / MINUTE_MS, e.minutes_above])).toEqual([
      ["pre_warning", 5, 20, 15],
      ["warning", 5, 20, 15],
      ["alarm", 10, 13, 3],
    ]);
    expect(events[2].peak).toBe(2.12);
    expect(events[2].peak_at).toBe(DAY + 12 * MINUTE_MS);
    expect(events[0].threshold).toBe(0.9);
  });

  it("leaves an event open at the series' end, and one minute below does not close it", () => {
    const events = levelEvents(seriesOf([0.1, 1.2, 1.3, 0.5]), "warning", 1);
    expect(events).toEqual([
      {
        kind: "threshold",
        level: "warning",
        threshold: 1,
        start: DAY + MINUTE_MS,
        end: null,
        peak: 1.3,
        peak_at: DAY + 2 * MINUTE_MS,
        minutes_above: 2,
      },
    ]);
  });

  it("has no events for a sensor without levels, and a flagged minute is no reading above", () => {
    expect(thresholdEvents(seriesOf([3, 3, 3]), {})).toEqual([]);
    const series = seriesOf([0.1, 1.5, 1.5, 0.1, 0.1]);
    series.flags[1] = Flag.JUMP;
    expect(levelEvents(series, "warning", 1).map((e) => [(e.start - DAY) / MINUTE_MS, e.minutes_above])).toEqual([[2, 1]]);
  });

  it("is the same however often the same minutes are read: same events, same ids", () => {
    const values = generatedDay(9);
    const once = thresholdEvents(seriesOf(values), LEVELS).map((e) => eventId("s1", "threshold", e.level, e.start));
    const twice = thresholdEvents(seriesOf([...values]), LEVELS).map((e) => eventId("s1", "threshold", e.level, e.start));
    expect(twice).toEqual(once);
    expect(new Set(once).size).toBe(once.length);
  });
});

describe("D65 stale channels", () => {
  it("opens after 2 intervals without a reading, and is open while none came back", () => {
    const stale = staleEvents(seriesOf(generatedDay(5)));
    expect(stale.map((e) => [(e.start - DAY) / MINUTE_MS, e.end === null ? null : (e.end - DAY) / MINUTE_MS, e.minutes])).toEqual([
      [800, 830, 30],
      [906, 916, 10],
      [1430, null, 10],
    ]);
  });

  it("counts an out-of-range reading as a reading, and a longer interval needs longer gaps", () => {
    const series = seriesOf([0.5, Number.NaN, Number.NaN, Number.NaN, 9, Number.NaN, Number.NaN, 0.5]);
    expect(series.flags[4]).toBe(Flag.RANGE);
    expect(staleEvents(series).map((e) => e.minutes)).toEqual([3, 2]);
    expect(staleEvents(series, 1.5).map((e) => e.minutes)).toEqual([3]);
    expect(staleEvents(seriesOf([Number.NaN, Number.NaN, 1]))).toEqual([]);
    expect(staleEvents(seriesOf([Number.NaN, Number.NaN, 1]), 1, 2, true)).toHaveLength(1);
  });

  // A channel silent for months read «нет данных 390 826 мин»: past the hour its span is hours, past the day days.
  it("tells a silence in minutes, then hours, then days", () => {
    expect(staleText(59)).toBe("нет данных 59 мин");
    expect([60, 95, 1439, 1440, 1561, 390_826].map(silenceSpan)).toEqual([
      "1 ч",
      "1 ч 35 мин",
      "23 ч 59 мин",
      "1 сут",
      "1 сут 2 ч",
      "271 сут 9 ч",
    ]);
    expect(silenceSpan(1_440_000)).toBe("1\u00a0000 сут");
  });

  // D96: one rule for the chance shown, read by the tile and by the handover's list (it was written twice).
  it("shows a forecast's chance only where it was judged reliable", () => {
    expect(chanceShown({ p_exceed: 0.5, probability: { reliable: true } })).toBe(0.5);
    expect(chanceShown({ p_exceed: 0, probability: { reliable: true } })).toBe(0);
    expect(chanceShown({ p_exceed: 0.9, probability: { reliable: false } })).toBeNull();
    expect(chanceShown({ p_exceed: 0.9, probability: { reliable: null } })).toBeNull();
    // Stored before reliability was judged.
    expect(chanceShown({ p_exceed: 0.9 })).toBeNull();
    expect(chanceShown({ p_exceed: 0.9, probability: null })).toBeNull();
    expect(chanceShown({ p_exceed: null, probability: { reliable: true } })).toBeNull();
  });
});

// a reading out of the meter's range and a jump were set aside for the volumes, yet
// opened no event.
describe("sensor faults", () => {
  const N = Number.NaN;
  it("opens at a minute set aside (out of range, a jump) and closes after 2 valid minutes, apart from the levels", () => {
    // 0,4 %; 4,5 % on a 0–4 % meter for 3 minutes; 0,4 %; a 2,3 % spike for one minute (a jump up, then down); 0,4 %.
    const values = [0.4, 0.4, 4.5, 4.5, 4.5, 0.4, 0.4, 0.4, 0.4, 2.3, 0.4, 0.4, 0.4];
    const series = flagQuality("methane", seriesOf(values));
    expect([...series.flags]).toEqual([0, 0, Flag.RANGE, Flag.RANGE, Flag.RANGE, 0, 0, 0, 0, Flag.JUMP, Flag.JUMP, 0, 0]);
    const faults = faultEvents(series);
    expect(
      faults.map((e) => [(e.start - DAY) / MINUTE_MS, e.end === null ? null : (e.end - DAY) / MINUTE_MS, e.range_minutes, e.jump_minutes]),
    ).toEqual([
      [2, 5, 3, 0],
      [9, 11, 0, 2],
    ]);
    expect(faults.map(faultText)).toEqual(["вне диапазона датчика 3 мин", "скачки больше допустимого 2 мин"]);
    // Neither is a level's crossing: W = 1, A = 2 open nothing.
    expect(thresholdEvents(series, LEVELS)).toEqual([]);
  });

  it("is open while no 2 valid minutes followed; a minute without a reading neither extends nor closes it", () => {
    const series = flagQuality("methane", seriesOf([0.4, 5, N, 0.4, N, 6, 0.4]));
    expect(faultEvents(series).map((e) => [(e.start - DAY) / MINUTE_MS, e.end, e.range_minutes])).toEqual([[1, null, 2]]);
    expect(faultEvents(flagQuality("methane", seriesOf([0.4, 0.5, 0.4])))).toEqual([]);
  });
});

describe("event ids", () => {
  it("read back to what they were made of", () => {
    const start = DAY + 123 * MINUTE_MS;
    for (const [kind, level] of [
      ["threshold", "alarm"],
      ["stale", null],
      ["forecast", "warning"],
      ["fault", null],
    ] as const) {
      const id = eventId("0196f0a2-7c1d-7000-8000-000000000001", kind, level as EventLevel | null, start);
      expect(parseEventId(id)).toEqual({ sensor: "0196f0a2-7c1d-7000-8000-000000000001", kind, level, start });
    }
    // A forecast event's id carries its horizon: two horizons opening at the same minute stay apart.
    const opened = DAY + 5 * 60_000;
    const at30 = eventId("m7", "forecast", "alarm", opened, 30);
    expect(at30).not.toBe(eventId("m7", "forecast", "alarm", opened, 60));
    expect(parseEventId(at30)).toEqual({ sensor: "m7", kind: "forecast", level: "alarm", start: opened });
    expect(parseEventId("../x")).toBeUndefined();
  });
});

describe("D64 shifts on the company's clock", () => {
  // 17:00 UTC is 00:00 of the next day at UTC+7 (its first shift) and 20:00 at UTC+3 (the day's third).
  const cases: [string, number, string][] = [
    ["Asia/Novokuznetsk", Date.UTC(2026, 2, 1, 17, 0), "2026-03-02#1"],
    ["Asia/Novokuznetsk", Date.UTC(2026, 2, 1, 16, 59), "2026-03-01#3"],
    ["Asia/Novokuznetsk", Date.UTC(2026, 2, 1, 1, 0), "2026-03-01#2"],
    ["Europe/Moscow", Date.UTC(2026, 2, 1, 17, 0), "2026-03-01#3"],
    ["Europe/Moscow", Date.UTC(2026, 2, 1, 21, 0), "2026-03-02#1"],
    ["Europe/Moscow", Date.UTC(2026, 2, 1, 2, 0), "2026-03-01#1"],
  ];
  for (const [zone, instant, key] of cases) {
    it(`${new Date(instant).toISOString()} is shift ${key} at ${zone}`, () => {
      expect(shiftOf(instant, zone)).toBe(key);
      const span = shiftSpan(key, zone) as { from: number; to: number };
      expect(instant).toBeGreaterThanOrEqual(span.from);
      expect(instant).toBeLessThan(span.to);
      expect(span.to - span.from).toBe(8 * 3_600_000);
    });
  }

  it("puts each event in the shift its roll-up bucket has, at UTC+7 and UTC+3", () => {
    const values = generatedDay(11);
    const series = seriesOf(values);
    for (const zone of ["Asia/Novokuznetsk", "Europe/Moscow"]) {
      const shifts = rollUp({ start: series.start, values: series.values, state: stateOf(series) }, zone, LEVELS).shifts;
      for (const e of thresholdEvents(series, LEVELS)) {
        const key = shiftOf(e.start, zone);
        const bucket = shifts.find((b) => b.key === key);
        expect(bucket, `${zone} ${key}`).toBeDefined();
        expect(bucket?.max).toBeGreaterThanOrEqual(e.threshold);
      }
    }
    // With a late-night shift: a facility whose shifts start at 06:00, 14:00 and 22:00.
    expect(shiftOf(Date.UTC(2026, 2, 1, 22, 30), "Asia/Novokuznetsk", [360, 840, 1320])).toBe("2026-03-01#3");
    expect(shiftSpan("2026-03-01#3", "Asia/Novokuznetsk", [360, 840, 1320])).toEqual({
      from: Date.UTC(2026, 2, 1, 15, 0),
      to: Date.UTC(2026, 2, 1, 23, 0),
    });
    expect(shiftSpan("2026-03-01#4", "Europe/Moscow")).toBeUndefined();
  });
});

/** The valid minutes as VALID, the others MISSING: rollUp over exactly the minutes events read. */
function stateOf(series: MinuteSeries): Uint8Array {
  return Uint8Array.from(series.flags, (f, m) =>
    f === Flag.OK && !Number.isNaN(series.values[m]) ? MinuteState.VALID : MinuteState.MISSING,
  );
}

// gassings as the safety rules count them, from the sensors' exceedances of their limits.
describe("gassings", () => {
  const at = (m: number) => m * MINUTE_MS;
  const g = (code: string, working: string, start: number, end: number | null, max: number, section = "") => ({
    sensor: code.toLowerCase(),
    code,
    working,
    section,
    start: at(start),
    end: end === null ? null : at(end),
    max,
    max_at: at(start),
    limit: 1,
    sudden: false,
    over_span: null,
  });

  it("takes overlapping exceedances of one working as one general gassing, through a chain too", () => {
    const found = gassings([g("М-1", "Лава", 0, 10, 1.2), g("М-2", "Лава", 9, 20, 1.5), g("М-3", "Лава", 19, 25, 1.1)]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ start: 0, end: at(25), max: 1.5, kind: "общее", working: "Лава" });
    expect(found[0].sensors.map((s) => s.code)).toEqual(["М-1", "М-2", "М-3"]);
  });

  it("takes the meters of the workings of one extraction section above the norm at once as one general gassing", () => {
    const section = "Выемочный участок 12-3";
    const found = gassings([
      g("М-З", "Лава 12-3", 0, 10, 1.2, section),
      g("М-И", "Вентиляционный штрек 12-3", 4, 12, 1.4, section),
      g("М-5", "Штрек 5", 4, 12, 1.1, "Штрек 5"),
    ]);
    expect(found.map((x) => [x.sensors.map((s) => s.code).join(","), x.kind, x.section, x.working])).toEqual([
      ["М-З,М-И", "общее", section, "Вентиляционный штрек 12-3, Лава 12-3"],
      ["М-5", "местное", "Штрек 5", "Штрек 5"],
    ]);
  });

  it("keeps apart exceedances that only touch, of other workings, of no working, and one sensor's twice", () => {
    const found = gassings([
      g("М-1", "Лава", 0, 10, 1.2),
      g("М-2", "Лава", 10, 20, 1.5),
      g("М-3", "Штрек", 5, 8, 1.1),
      g("М-4", "", 5, 8, 1.1),
      g("М-5", "", 6, 9, 1.1),
      g("М-6", "Уклон", 30, 35, 1.1),
      g("М-6", "Уклон", 34, null, 1.3),
    ]);
    expect(found.map((x) => [x.sensors.map((s) => s.code).join(","), x.kind, x.start / MINUTE_MS])).toEqual([
      ["М-1", "местное", 0],
      ["М-4", "местное", 5],
      ["М-3", "местное", 5],
      ["М-5", "местное", 6],
      ["М-2", "местное", 10],
      ["М-6", "местное", 30],
    ]);
    // One sensor's overlapping runs are one local gassing, open while the last is.
    expect(found.at(-1)).toMatchObject({ end: null, max: 1.3 });
  });

  it("finds a sensor's runs at its limit by D65's rule", () => {
    const values = Float64Array.from([0.5, 1.0, 1.2, 0.9, 1.1, 0.8, 0.7, 0.5]);
    const series = { start: 0, values, flags: new Uint8Array(values.length) };
    expect(sensorGassings(series, { id: "s", code: "М-1", working: "Лава", section: "" }, 1)).toEqual([
      {
        sensor: "s",
        code: "М-1",
        working: "Лава",
        section: "",
        start: at(1),
        end: at(5),
        max: 1.2,
        max_at: at(2),
        limit: 1,
        sudden: false,
        over_span: null,
      },
    ]);
  });

  // D88: the book reads every reading. A face meter 0,50 → 4,50 % for 6 minutes: D58 sets each of
  // those minutes aside (past the 0–4 % span; the first a jump too), so the valid minutes gave no gassing at
  // all, only «неисправность датчика»; read every reading, they give one gassing, its maximum past the span,
  // marked for its onset.
  it("opens and extends a gassing with minutes D58 sets aside, marked, its maximum past the span (D88)", () => {
    const minutes = [0.5, 0.5, 4.5, 4.5, 4.5, 4.6, 4.5, 4.5, 0.5, 0.5, 0.5];
    const times = minutes.flatMap((_, m) => [at(m) + 10_000, at(m) + 40_000]);
    const values = minutes.flatMap((v) => [v, v]);
    const sensor = { id: "s", code: "З-1", working: "Забой 8", section: "" };
    const valid = flagQuality("methane", minuteMeans("methane", times, values, 0, minutes.length));
    expect(sensorGassings(valid, sensor, 1, 4)).toEqual([]);
    const every = everyMinuteMeans("methane", times, values, 0, minutes.length);
    const found = sensorGassings(every, sensor, 1, 4);
    expect(found).toMatchObject([{ start: at(2), end: at(8), max: 4.6, max_at: at(5), sudden: true, over_span: 4 }]);
    expect(gassings(found)).toMatchObject([{ sudden: true, over_span: 4, max: 4.6 }]);
    // A rise within the step and the span is no mark.
    const slow = [0.5, 0.9, 1.2, 1.4, 1.1, 0.6, 0.5];
    const calm = everyMinuteMeans(
      "methane",
      slow.map((_, m) => at(m) + 10_000),
      slow,
      0,
      slow.length,
    );
    expect(sensorGassings(calm, sensor, 1, 4)).toMatchObject([{ start: at(2), end: at(5), sudden: false, over_span: null }]);
  });
});

// «Предупредительный» was W in the register and 0,9·W on «События», the shift report
// and the acknowledgement dialog.
it("names each level with one word, the register's: W «Предупредительный», A «Аварийный», 0,9·W only near W", () => {
  expect(EVENT_LEVEL_LABELS).toEqual({
    pre_warning: "Близко к предупредительному (0,9·W)",
    warning: "Предупредительный (W)",
    alarm: "Аварийный (A)",
  });
});
