import { describe, expect, it } from "vitest";
import { displayDate, displayDateTime } from "./dates";

describe("displayDate", () => {
  it("shows a plain date as stored", () => {
    expect(displayDate("2024-03-01")).toBe("2024-03-01");
  });

  it("shows a timestamp as yyyy-MM-dd", () => {
    expect(displayDate("2024-03-01T10:20:30")).toBe("2024-03-01");
  });

  it("shows nothing for a missing value", () => {
    expect(displayDate(null)).toBe("");
    expect(displayDate("")).toBe("");
  });
});

describe("displayDateTime", () => {
  it("shows a timestamp as local yyyy-MM-dd HH:mm", () => {
    expect(displayDateTime("2024-03-01T10:20:30")).toBe("2024-03-01 10:20");
  });

  it("shows nothing for a missing value and an unreadable one as given", () => {
    expect(displayDateTime(undefined)).toBe("");
    expect(displayDateTime("не дата")).toBe("не дата");
  });
});
