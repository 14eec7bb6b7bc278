import { afterEach, describe, expect, it } from "vitest";
import { displayDate, displayDateTime, displayWrittenTime, setCompanyZone } from "./dates";

afterEach(() => setCompanyZone(undefined));

describe("displayDate", () => {
  it("shows a plain date as ДД.ММ.ГГГГ, as written", () => {
    expect(displayDate("2024-03-01")).toBe("01.03.2024");
  });

  it("shows a timestamp as the company's calendar date", () => {
    // 01:24 on 26.11 in Kemerovo (the default zone) is 25.11 in UTC and in Moscow.
    expect(displayDate("2026-11-25T18:24:00.000Z")).toBe("26.11.2026");
    setCompanyZone("Europe/Moscow");
    expect(displayDate("2026-11-25T18:24:00.000Z")).toBe("25.11.2026");
  });

  it("shows nothing for a missing value", () => {
    expect(displayDate(null)).toBe("");
    expect(displayDate("")).toBe("");
  });
});

describe("displayDateTime", () => {
  it("shows a timestamp as the company's ДД.ММ.ГГГГ ЧЧ:ММ", () => {
    expect(displayDateTime("2026-11-25T18:24:00.000Z")).toBe("26.11.2026 01:24");
  });

  it("shows nothing for a missing value and an unreadable one as given", () => {
    expect(displayDateTime(undefined)).toBe("");
    expect(displayDateTime("не дата")).toBe("не дата");
  });
});

describe("displayWrittenTime", () => {
  it("shows a history's time as written, whatever the company's zone", () => {
    setCompanyZone("Asia/Novokuznetsk");
    expect(displayWrittenTime("2025-10-20T00:00:00.000Z")).toBe("20.10.2025 00:00");
    expect(displayWrittenTime("2025-12-31T23:50:00.000Z")).toBe("31.12.2025 23:50");
  });
});
