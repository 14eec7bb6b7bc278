// D90: the facility's shift calendar. Kemerovo (UTC+7, no clock changes).
import { describe, expect, it } from "vitest";
import {
  calendarProblem,
  calendarText,
  handoverShiftFirst,
  handoverShifts,
  shiftAt,
  shiftFinder,
  shiftsOfDay,
  shiftStartsOn,
  shiftTitle,
  type ShiftCalendarEntry,
} from "./shift-calendar";

const ZONE = "Asia/Novokuznetsk";
const at = (day: string, hhmm: string) => Date.parse(`${day}T${hhmm}:00+07:00`);
const CALENDAR: ShiftCalendarEntry[] = [
  { valid_from: "2026-01-01", shifts: 3, first_start: "00:00" },
  { valid_from: "2026-03-02", shifts: 4, first_start: "06:00" },
];

describe("the shift calendar (D90)", () => {
  it("finds, a day's shifts made once, the shift shiftAt finds for every instant, across a calendar's change", () => {
    const find = shiftFinder(CALENDAR, ZONE);
    // Every 17 minutes from 28.02 to 04.03: the 3 × 8 h days, the change to 4 × 6 h from 06:00 and its gap.
    for (let instant = at("2026-02-28", "00:00"); instant < at("2026-03-04", "00:00"); instant += 17 * 60_000)
      expect(find(instant)).toEqual(shiftAt(CALENDAR, instant, ZONE));
    expect(find(at("2026-03-02", "03:00")).name).toBe(shiftAt(CALENDAR, at("2026-03-02", "03:00"), ZONE).name);
  });

  it("gives a day without a calendar D64's three 8-hour shifts from 00:00", () => {
    expect(shiftsOfDay(undefined, "2026-03-01", ZONE).map((s) => [s.name, s.from, s.to])).toEqual([
      ["Смена 1 (00:00–08:00)", at("2026-03-01", "00:00"), at("2026-03-01", "08:00")],
      ["Смена 2 (08:00–16:00)", at("2026-03-01", "08:00"), at("2026-03-01", "16:00")],
      ["Смена 3 (16:00–24:00)", at("2026-03-01", "16:00"), at("2026-03-02", "00:00")],
    ]);
  });

  it("reads a day with the calendar in force on it: four 6-hour shifts from 06:00 after the change", () => {
    expect(shiftStartsOn(CALENDAR, "2026-03-01")).toEqual([0, 480, 960]);
    expect(shiftStartsOn(CALENDAR, "2026-03-02")).toEqual([360, 720, 1080, 1440]);
    expect(shiftsOfDay(CALENDAR, "2026-03-03", ZONE).map((s) => [s.key, s.name, s.from, s.to])).toEqual([
      ["2026-03-03#1", "Смена 1 (06:00–12:00)", at("2026-03-03", "06:00"), at("2026-03-03", "12:00")],
      ["2026-03-03#2", "Смена 2 (12:00–18:00)", at("2026-03-03", "12:00"), at("2026-03-03", "18:00")],
      ["2026-03-03#3", "Смена 3 (18:00–24:00)", at("2026-03-03", "18:00"), at("2026-03-04", "00:00")],
      ["2026-03-03#4", "Смена 4 (00:00–06:00)", at("2026-03-04", "00:00"), at("2026-03-04", "06:00")],
    ]);
  });

  it("puts minutes before the first shift's start in the day before's last shift (D64)", () => {
    expect(shiftAt(CALENDAR, at("2026-03-04", "05:59"), ZONE).key).toBe("2026-03-03#4");
    expect(shiftAt(CALENDAR, at("2026-03-04", "06:00"), ZONE).key).toBe("2026-03-04#1");
    expect(shiftAt(CALENDAR, at("2026-03-03", "13:30"), ZONE)).toMatchObject({ key: "2026-03-03#2", number: 2, date: "2026-03-03" });
    // On the change's day: the night before still ran the old calendar's third shift to midnight; 00:00–06:00
    // of the change's day falls in none of its shifts and stays with the day before's last.
    expect(shiftAt(CALENDAR, at("2026-03-01", "23:00"), ZONE).key).toBe("2026-03-01#3");
    expect(shiftAt(CALENDAR, at("2026-03-02", "03:00"), ZONE).key).toBe("2026-03-01#3");
  });

  it("names what is wrong with a calendar and says an entry in words", () => {
    expect(calendarProblem(CALENDAR)).toBeUndefined();
    expect(calendarProblem([...CALENDAR, { valid_from: "2026-03-02", shifts: 2, first_start: "08:00" }])).toBe(
      "два изменения календаря с одного дня",
    );
    expect(calendarProblem([{ valid_from: "2026-03-02", shifts: 4, first_start: "25:00" }])).toMatch(/^начало первой смены/);
    expect(calendarText({ shifts: 4, first_start: "06:00" })).toBe("4 смены по 6 ч, первая с 06:00");
    expect(calendarText({ shifts: 2, first_start: "08:00" })).toBe("2 смены по 12 ч, первая с 08:00");
  });

  // D95: the handover's shift — the one now or the one that has just ended, named with its day.
  it("offers a handover the shift now and the one just ended, the ended one first while it is not handed over in the first half", () => {
    const TWO: ShiftCalendarEntry[] = [{ valid_from: "2026-01-01", shifts: 2, first_start: "08:00" }];
    const at1605 = at("2026-03-02", "16:05");
    const { now, ended } = handoverShifts(CALENDAR, at1605, ZONE);
    expect([shiftTitle(now), shiftTitle(ended)]).toEqual(["Смена 2 (12:00–18:00), 02.03.2026", "Смена 1 (06:00–12:00), 02.03.2026"]);
    // 2 × 12 h from 08:00: at 20:05 the day shift 08:00–20:00 has just ended.
    const late = handoverShifts(TWO, at("2026-03-02", "20:05"), ZONE);
    expect([shiftTitle(late.now), shiftTitle(late.ended)]).toEqual([
      "Смена 2 (20:00–08:00), 02.03.2026",
      "Смена 1 (08:00–20:00), 02.03.2026",
    ]);
    // Over midnight: at 07:00 of 03.03 the night shift is 02.03's second; the one ended 02.03's first.
    expect(handoverShifts(TWO, at("2026-03-03", "07:00"), ZONE).ended.key).toBe("2026-03-02#1");
    // The ended one first: at 20:05 and till 01:59 (the first half of the night shift), not handed over yet.
    expect(handoverShiftFirst(TWO, at("2026-03-02", "20:05"), ZONE, []).key).toBe("2026-03-02#1");
    expect(handoverShiftFirst(TWO, at("2026-03-03", "01:59"), ZONE, ["2026-03-01#2"]).key).toBe("2026-03-02#1");
    // Handed over already, or past the half: the shift now.
    expect(handoverShiftFirst(TWO, at("2026-03-02", "20:05"), ZONE, ["2026-03-02#1"]).key).toBe("2026-03-02#2");
    expect(handoverShiftFirst(TWO, at("2026-03-03", "02:00"), ZONE, []).key).toBe("2026-03-02#2");
    // A calendar's change: 00:00–06:00 of 02.03 runs on 01.03's third shift, after 01.03's second; the new
    // calendar's first shift (from 06:00) follows 01.03's third.
    expect(handoverShifts(CALENDAR, at("2026-03-02", "03:00"), ZONE).ended.key).toBe("2026-03-01#2");
    expect(handoverShifts(CALENDAR, at("2026-03-02", "06:10"), ZONE).ended.key).toBe("2026-03-01#3");
  });
});
