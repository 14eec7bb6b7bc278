import { describe, expect, it } from "vitest";
import { calendarDayProblems, typedDayList, typedDays } from "./calendar-days";

describe("a year of the production calendar", () => {
  it("reads days as typed: ДД.ММ.ГГГГ or ISO, separated by commas, spaces or new lines", () => {
    expect(typedDays("04.01.2027, 01.01.2027\n2027-01-05;  ")).toEqual({ days: ["2027-01-01", "2027-01-04", "2027-01-05"], problems: [] });
    expect(typedDays("01.01.2027, 32.01.2027, 1.1").problems).toEqual([
      "«32.01.2027» — не дата: введите ДД.ММ.ГГГГ",
      "«1.1» — не дата: введите ДД.ММ.ГГГГ",
    ]);
    expect(typedDayList(["2027-01-01", "2027-01-04"])).toBe("01.01.2027, 04.01.2027");
  });

  it("refuses a day of another year, a day listed twice or in both lists, a weekday made working and a weekend day made off", () => {
    const problems = calendarDayProblems(2027, {
      days_off: ["2027-01-01", "2027-01-01", "2028-01-03", "2027-02-30", "2027-11-05", "2027-01-02"],
      working_days: ["2027-11-05", "2027-11-03"],
    });
    expect(problems).toEqual([
      { list: "days_off", message: "01.01.2027 указан дважды" },
      { list: "days_off", message: "03.01.2028 не относится к 2027 году" },
      { list: "days_off", message: "«2027-02-30» — не дата ГГГГ-ММ-ДД" },
      { list: "days_off", message: "02.01.2027 — суббота: выходной и так нерабочий" },
      { list: "working_days", message: "05.11.2027 указан и среди нерабочих, и среди рабочих выходных дней" },
      { list: "working_days", message: "03.11.2027 — среда: будний день и так рабочий" },
    ]);
    expect(calendarDayProblems(2027, { days_off: ["2027-01-01"], working_days: ["2027-11-06"] })).toEqual([]);
  });

  it("refuses a year with no working day left, and takes one whose only working day is a Saturday made working", () => {
    const weekdays: string[] = [];
    for (let t = Date.UTC(2027, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) {
      const day = new Date(t);
      if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) weekdays.push(day.toISOString().slice(0, 10));
    }
    expect(calendarDayProblems(2027, { days_off: weekdays, working_days: [] })).toEqual([
      { list: "days_off", message: "в 2027 году не остается ни одного рабочего дня" },
    ]);
    expect(calendarDayProblems(2027, { days_off: weekdays, working_days: ["2027-11-06"] })).toEqual([]);
    expect(calendarDayProblems(2027, { days_off: weekdays.slice(1), working_days: [] })).toEqual([]);
  });
});
