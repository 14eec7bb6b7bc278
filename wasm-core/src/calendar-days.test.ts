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

  it("refuses a day of another year, a day listed twice or in both lists, and a weekday made working", () => {
    const problems = calendarDayProblems(2027, {
      days_off: ["2027-01-01", "2027-01-01", "2028-01-03", "2027-02-30", "2027-11-06"],
      working_days: ["2027-11-06", "2027-11-03"],
    });
    expect(problems).toEqual([
      { list: "days_off", message: "01.01.2027 указан дважды" },
      { list: "days_off", message: "03.01.2028 не относится к 2027 году" },
      { list: "days_off", message: "«2027-02-30» — не дата ГГГГ-ММ-ДД" },
      { list: "working_days", message: "06.11.2027 указан и среди нерабочих, и среди рабочих выходных дней" },
      { list: "working_days", message: "03.11.2027 — среда: будний день и так рабочий" },
    ]);
    expect(calendarDayProblems(2027, { days_off: ["2027-01-01"], working_days: ["2027-11-06"] })).toEqual([]);
  });
});
