import { describe, expect, it } from "vitest";
import { DEFAULT_TIME_ZONE, TIME_ZONES, dateText, dateTimeText, isoDateIn, wallTimeIn, zoneOf } from "./company-clock";

describe("the company's clock", () => {
  // 01:24 on 26.11 in Kemerovo is still 25.11 in UTC and in Moscow.
  const approved = "2026-11-25T18:24:00.000Z";

  it("prints an instant as the zone's calendar date and time", () => {
    expect(dateText(approved, "Asia/Novokuznetsk")).toBe("26.11.2026");
    expect(dateTimeText(approved, "Asia/Novokuznetsk")).toBe("26.11.2026 01:24");
    expect(dateText(approved, "Europe/Moscow")).toBe("25.11.2026");
    expect(dateTimeText(new Date(approved), "Europe/Moscow")).toBe("25.11.2026 21:24");
    expect(isoDateIn(approved, "Asia/Novokuznetsk")).toBe("2026-11-26");
    expect(wallTimeIn(approved, "Asia/Novokuznetsk")).toBe("2026-11-26T01:24");
  });

  it("prints a plain date and a time written without a zone as written, whatever the zone", () => {
    for (const { zone } of TIME_ZONES) {
      expect(dateText("2025-01-01", zone)).toBe("01.01.2025");
      expect(dateTimeText("2025-10-20T00:00:00", zone)).toBe("20.10.2025 00:00");
      expect(dateTimeText("2025-12-31 23:50", zone)).toBe("31.12.2025 23:50");
    }
  });

  it("leaves nothing for no value, and text it cannot read as it is", () => {
    expect(dateText(undefined, DEFAULT_TIME_ZONE)).toBe("");
    expect(dateTimeText(null, DEFAULT_TIME_ZONE)).toBe("");
    expect(dateText("вчера", DEFAULT_TIME_ZONE)).toBe("вчера");
  });

  it("takes the company's zone, the Kuzbass's for a company stored before it had one", () => {
    expect(zoneOf({ time_zone: "Asia/Irkutsk" })).toBe("Asia/Irkutsk");
    expect(zoneOf({})).toBe("Asia/Novokuznetsk");
    expect(TIME_ZONES.map((z) => z.zone)).toContain(DEFAULT_TIME_ZONE);
    // Every zone of the list is one this runtime knows.
    for (const { zone } of TIME_ZONES) expect(() => dateText(approved, zone)).not.toThrow();
  });
});
