// D58–D62 per sensor on the in-memory repositories, with section 12's worked examples pushed as readings:
// the ventilation hour's methane meter has its 10-minute gap substituted by the mean of 0,44 and 0,46
// (0,45 %), the hours around it «нет данных» (longer than 24 h); a sensor whose first value arrives at
// 00:07 has minutes 00:00–00:06 take it (the first after, 7 substituted); the long gap of 26 h is not
// substituted and the 30-day month's completeness is (43 200 − 1 560) / 43 200 = 96,39 %; a day minute by
// minute carries the flags of a jump and a value out of range and its levels W, A and 0,9·W.
import { beforeAll, describe, expect, it } from "vitest";
import { instantOfWallTime, isoDateIn } from "@core/company-clock";
import { Flag, MinuteState } from "@core/monitoring";
import { MINUTE_MS } from "@core/dates";
import vectors from "../../../../../tests/fixtures/monitoring/methodology-section-12.json";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { readingsStored } from "../../../../../tests/support/reading-layout";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import type { Clock, Sensor } from "../../../ports";
import { drainReadings } from "./consumer";
import { monitoringIdle } from "../live/forecaster";
import { storeBatch } from "../ingest/readings";
import { createSensor } from "../ingest/register";
import { sensorCompleteness, sensorDay, sensorGaps } from "./sensor-data";

interface Read {
  d: MemoryDomain;
  staff: Actor;
  other: Actor;
  facility: string;
  sensors: Record<string, Sensor>;
}
let d: MemoryDomain;
let staff: Actor;
let other: Actor;
let facility: string;
let sensors: Record<string, Sensor> = {};

// the months read back from either layout. At 01:00 of 01.05 in Kemerovo April is
// over and its last two UTC days still take minutes (the facility's minute items), the days before in
// day items: М-26's April is read from both. Months later every reading is in the sensors' day items.
// The day of May with a jump is pushed on the closed day alone (on the open day it has not come).
const LAYOUTS = [
  { day: "an open day (the facility's minute items)", clock: clockAt("2026-04-30T18:00:00Z"), open: true },
  { day: "a closed day (the sensors' day items)", clock: clockAt("2026-11-16T03:00:00Z"), open: false },
];
const reads = new Map<boolean, Read>();
const readOn = (open: boolean) => ({ d, staff, other, facility, sensors } = reads.get(open)!);

const ZONE = "Asia/Novokuznetsk";
const at = (month: number, day: number, hour: number, minute = 0) => instantOfWallTime(2026, month, day, hour, minute, ZONE);
const iso = (t: number) => new Date(t).toISOString();

async function push(readings: { sensor: string; t: number; value: number }[]) {
  for (let i = 0; i < readings.length; i += 10_000) {
    const body = { readings: readings.slice(i, i + 10_000).map((r) => ({ ...r, t: iso(r.t) })) };
    await storeBatch(d.deps, staff.company, facility, { json: body });
  }
  void drainReadings(d.deps);
  await monitoringIdle(d.deps);
}

async function sensorsOn(clock: Clock, open: boolean): Promise<Read> {
  sensors = {};
  d = await memoryDomain(clock);
  staff = await d.actor("ООО «Пропуски АГК»");
  other = await d.actor("ООО «Чужие пропуски»");
  facility = (await d.facility(staff, { name: "Шахта «Пропуск»", kind: "underground_mine" })).id;
  const point = async (name: string, kind: string) =>
    (await d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name, kind })))).id;
  const shaft = await point("Вентиляционный ствол", "ventilation_shaft");
  const section = await point("Участок 2", "other");
  const sensor = async (code: string, kind: string, on: string, extra: Record<string, unknown> = {}) =>
    (sensors[code] = await d.write(() =>
      createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, { code, kind, point: on, ...extra })),
    ));
  await sensor("Q-В", "flow", shaft);
  await sensor("М-В", "methane", shaft, { warning: 1, alarm: 1.5, in_service_from: "2026-01-01" });
  await sensor("М-7", "methane", section, { in_service_from: "2026-02-01", in_service_to: "2026-02-28" });
  await sensor("М-26", "methane", section, { in_service_from: "2026-04-01", in_service_to: "2026-04-30" });
  await sensor("М-J", "methane", section, { warning: 1, alarm: 1.5, in_service_from: "2026-05-10", in_service_to: "2026-05-10" });
  // Registered on the clock's day, no date put in service: never read, and read from 15 March 10:00 for an
  // hour (an export back-filled).
  await sensor("М-Н", "methane", section);
  await sensor("М-Э", "methane", section);

  const v = vectors.ventilation_hour_with_gap;
  const readings: { sensor: string; t: number; value: number }[] = [];
  for (let m = 0; m < v.minutes; m++) {
    const t = at(3, 15, 10) + m * MINUTE_MS;
    readings.push({ sensor: "Q-В", t, value: v.flow_m3_min });
    const c = v.ch4.find((p) => m >= p.from && m <= p.to);
    if (c) readings.push({ sensor: "М-В", t, value: c.value });
    readings.push({ sensor: "М-Э", t, value: 0.4 });
  }
  // A gap with nothing before: the first value of February at 00:07, then an hour.
  const first = vectors.gap_with_nothing_before;
  for (let m = first.first_reading_minute; m < 60; m++)
    readings.push({ sensor: "М-7", t: at(2, 1, 0) + m * MINUTE_MS, value: first.value });
  // The long gap: April every minute but the 3rd 10:00 to the 4th 12:00.
  const gapFrom = at(4, 3, 10);
  const gapTo = at(4, 4, 12);
  const april = at(4, 1, 0);
  const may = at(5, 1, 0);
  for (let t = april; t < may; t += MINUTE_MS) if (t < gapFrom || t >= gapTo) readings.push({ sensor: "М-26", t, value: 0.5 });
  // A day with a jump and a value out of range (a 0–4 % meter reading 5 %).
  if (!open)
    for (const [minute, value] of [
      [0, 0.5],
      [1, 2],
      [2, 0.5],
      [3, 5],
    ])
      readings.push({ sensor: "М-J", t: at(5, 10, 10, minute), value });
  await push(readings);
  return { d, staff, other, facility, sensors };
}

beforeAll(async () => {
  for (const { clock, open } of LAYOUTS) reads.set(open, await sensorsOn(clock, open));
}, 120_000);

describe.each(LAYOUTS)("on $day", ({ open }) => {
  beforeAll(() => {
    readOn(open);
  });

  it(`keeps April's last UTC day in the ${open ? "minute" : "day"} items`, async () => {
    // М-26's minutes of it: April ends at 17:00 UTC at UTC+7.
    const stored = await readingsStored(d.deps.repos, staff.company, facility, "2026-04-30");
    expect(stored).toEqual(open ? { minuteItems: 1020, dayItems: 0 } : { minuteItems: 0, dayItems: 1020 });
  });

  describe("a sensor's gaps and substitutions (D60)", () => {
    it("substitutes the ventilation hour's 10 minutes by the mean of 0,44 and 0,46, the hours around it without data", async () => {
      const v = vectors.ventilation_hour_with_gap;
      const month = await sensorGaps(d.deps, staff, facility, sensors["М-В"].id, { month: "2026-03" });
      expect(month.sensor).toMatchObject({ code: "М-В", unit: "% об.", point_name: "Вентиляционный ствол" });
      expect(month.minutes).toEqual({ expected: 31 * 1440, valid: v.valid, substituted: v.substituted, missing: 31 * 1440 - 60 });
      expect(month.count).toBe(3);
      const [before, hour, after] = month.gaps;
      expect(before).toMatchObject({ start: iso(at(3, 1, 0)), end: iso(at(3, 15, 10)), state: "missing", rule: "too_long", value: null });
      expect(hour).toMatchObject({
        start: iso(at(3, 15, 10, v.gap.from)),
        end: iso(at(3, 15, 10, v.gap.to + 1)),
        minutes: 10,
        state: "substituted",
        rule: "mean",
        before: 0.44,
        after: 0.46,
        flags: { none: 10, range: 0, stuck: 0, jump: 0 },
      });
      expect(hour.value).toBeCloseTo(v.substitute, 12);
      expect(after).toMatchObject({ start: iso(at(3, 15, 11)), end: iso(at(4, 1, 0)), state: "missing", rule: "too_long" });
      // A page of them.
      const page = await sensorGaps(d.deps, staff, facility, sensors["М-В"].id, { month: "2026-03", limit: 1, offset: 1 });
      expect(page.gaps.map((g) => g.rule)).toEqual(["mean"]);
      expect(page.count).toBe(3);
    });

    it("gives minutes before the first value the first after, 7 substituted", async () => {
      const first = vectors.gap_with_nothing_before;
      const month = await sensorGaps(d.deps, staff, facility, sensors["М-7"].id, { month: "2026-02" });
      expect(month.gaps[0]).toMatchObject({
        start: iso(at(2, 1, 0)),
        minutes: first.substituted,
        state: "substituted",
        rule: "first_after",
        before: null,
        after: first.value,
        value: first.value,
      });
      expect(month.minutes.substituted).toBe(first.substituted);
      expect(month.minutes.expected).toBe(28 * 1440);
    });

    it("leaves a 26-hour gap without data: the 30-day month is 96,39 % complete", async () => {
      const long = vectors.long_gap;
      const month = await sensorGaps(d.deps, staff, facility, sensors["М-26"].id, { month: "2026-04" });
      expect(month.gaps).toEqual([
        {
          start: iso(at(4, long.gap_from.day, long.gap_from.hour)),
          end: iso(at(4, long.gap_to.day, long.gap_to.hour)),
          minutes: long.gap_minutes,
          state: "missing",
          rule: "too_long",
          before: 0.5,
          after: 0.5,
          value: null,
          flags: { none: long.gap_minutes, range: 0, stuck: 0, jump: 0 },
        },
      ]);
      expect(Number(month.completeness.toFixed(long.completeness.decimals))).toBe(long.completeness.value);
      expect(month.completeness).toBe((43_200 - 1_560) / 43_200);
    });

    it("refuses a month the sensor was not in service in, and is another company's 404", async () => {
      await expect(sensorGaps(d.deps, staff, facility, sensors["М-26"].id, { month: "2026-03" })).rejects.toThrow(
        "Датчик «М-26» не был в эксплуатации в 03.2026",
      );
      await expect(sensorGaps(d.deps, other, facility, sensors["М-В"].id, { month: "2026-03" })).rejects.toThrow("Площадка не найдена");
    });
  });

  describe("completeness by sensor and month (D62)", () => {
    it("counts each sensor's months in service only", async () => {
      const year = await sensorCompleteness(d.deps, staff, facility, 2026);
      const byCode = new Map(year.map((s) => [s.code, s]));
      expect(byCode.get("М-26")!.months.map((m) => m.month)).toEqual(["2026-04"]);
      expect(byCode.get("М-26")!.months[0].completeness).toBe((43_200 - 1_560) / 43_200);
      expect(byCode.get("М-7")!.months[0]).toMatchObject({ month: "2026-02", minutes: { expected: 40_320, valid: 53, substituted: 7 } });
      const march = byCode.get("М-В")!.months.find((m) => m.month === "2026-03")!;
      expect(march).toMatchObject({ minutes: { valid: 50, substituted: 10 }, longest_gap_min: 16 * 1440 + 13 * 60 });
      expect(byCode.get("Q-В")!.months.find((m) => m.month === "2026-03")!.minutes.valid).toBe(60);
    });

    // a sensor without a date put in service was 0 % in every month of the year before
    // it was registered (М-Н: January to its month); its service now begins on the day of its first reading
    // (М-Э: its export back-filled from 15 March), every month after in service, and a month before both is
    // no month of service («—»).
    it("shows no month before a sensor's service began: registered, or first read", async () => {
      const year = await sensorCompleteness(d.deps, staff, facility, 2026);
      const byCode = new Map(year.map((s) => [s.code, s]));
      const now = d.deps.clock.now();
      const today = isoDateIn(now, ZONE);
      const month = Number(today.slice(5, 7));
      const fresh = byCode.get("М-Н")!.months;
      expect(fresh.map((m) => m.month)).toEqual([today.slice(0, 7)]);
      const sinceMidnight = Math.floor((now.getTime() - at(month, Number(today.slice(8, 10)), 0)) / MINUTE_MS);
      expect(fresh[0]).toMatchObject({ minutes: { expected: sinceMidnight, valid: 0 }, completeness: 0 });
      const vent = byCode.get("М-Э")!.months;
      // Its service began in March: every later month is in service whole, read or not (0 %, never «—»).
      const served = Array.from({ length: month - 2 }, (_, k) => `2026-${String(k + 3).padStart(2, "0")}`);
      expect(vent.map((m) => m.month)).toEqual(served);
      expect(vent[1]).toMatchObject({ month: "2026-04", minutes: { expected: 30 * 1440, valid: 0 }, completeness: 0 });
      // From 15 March 00:00: the 10 hours before the first reading a gap at the start (the first value after,
      // D60), the rest of the month after the hour without data.
      expect(vent[0].minutes).toEqual({ expected: 17 * 1440, valid: 60, substituted: 600, missing: 17 * 1440 - 660 });
      // The month's gaps say the same as its cell; a month before the service began is refused as one out of it.
      const gaps = await sensorGaps(d.deps, staff, facility, sensors["М-Э"].id, { month: "2026-03" });
      expect(gaps.minutes).toEqual(vent[0].minutes);
      expect(gaps.completeness).toBe(vent[0].completeness);
      expect((await sensorGaps(d.deps, staff, facility, sensors["М-Э"].id, { month: "2026-04" })).minutes).toEqual(vent[1].minutes);
      await expect(sensorGaps(d.deps, staff, facility, sensors["М-Н"].id, { month: "2026-02" })).rejects.toThrow(
        "Датчик «М-Н» не был в эксплуатации в 02.2026",
      );
    });
  });
});

describe("a sensor's day (D58, D64)", () => {
  beforeAll(() => {
    readOn(false);
  });

  it("gives the ventilation hour minute by minute with the substitute, the levels and the day's mean", async () => {
    const day = await sensorDay(d.deps, staff, facility, sensors["М-В"].id, "2026-03-15");
    expect(day.start).toBe(iso(at(3, 15, 0)));
    expect(day.value).toHaveLength(1440);
    expect(day.levels).toEqual({ pre_warning: 0.9, warning: 1, alarm: 1.5 });
    expect([day.value[600], day.flag[600], day.state[600]]).toEqual([0.44, Flag.OK, MinuteState.VALID]);
    expect([day.value[620], day.flag[620], day.state[620]]).toEqual([null, Flag.NONE, MinuteState.SUBSTITUTED]);
    expect(day.used[620]).toBeCloseTo(0.45, 12);
    expect([day.used[0], day.state[0]]).toEqual([null, MinuteState.MISSING]);
    expect(day.summary.minutes).toEqual({ expected: 1440, valid: 50, substituted: 10, missing: 1380 });
    // the mean with the substituted minutes, and the journal's of the valid ones alone.
    expect(day.summary.mean_with_substituted).toBeCloseTo(0.451667, 6);
    const valid = day.value.filter((v, i) => v !== null && day.state[i] === MinuteState.VALID) as number[];
    expect(day.summary.mean_valid).toBeCloseTo(valid.reduce((sum, v) => sum + v, 0) / valid.length, 12);
    expect(day.summary.mean_valid).toBeCloseTo(0.452, 6);
    expect(day.summary).toMatchObject({ min: 0.44, max: 0.46, above_pre_warning: 0, above_warning: 0, above_alarm: 0 });
  });

  it("flags a jump and a value out of range as missing, keeping the jump's value", async () => {
    const day = await sensorDay(d.deps, staff, facility, sensors["М-J"].id, "2026-05-10");
    const ten = 600;
    expect(day.flag.slice(ten, ten + 4)).toEqual([Flag.OK, Flag.JUMP, Flag.JUMP, Flag.RANGE]);
    expect(day.value.slice(ten, ten + 4)).toEqual([0.5, 2, 0.5, null]);
    expect(day.summary.flagged).toEqual({ range: 1, stuck: 0, jump: 2 });
    // The jump and the out-of-range minutes take the valid 0,5 before them (the last before).
    expect(day.used.slice(ten, ten + 4)).toEqual([0.5, 0.5, 0.5, 0.5]);
  });

  it("refuses a day not yet come and one out of service", async () => {
    await expect(sensorDay(d.deps, staff, facility, sensors["М-В"].id, "2099-01-01")).rejects.toThrow("еще не наступил");
    await expect(sensorDay(d.deps, staff, facility, sensors["М-J"].id, "2026-05-11")).rejects.toThrow(
      "Датчик «М-J» не был в эксплуатации 11.05.2026",
    );
  });
});
