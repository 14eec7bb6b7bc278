import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is a version-7 UUID", () => {
    expect(newId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("increases strictly, also within one millisecond", () => {
    const frozen = Date.parse("2026-11-16T03:00:00Z");
    vi.spyOn(Date, "now").mockReturnValue(frozen);
    const ids = Array.from({ length: 2000 }, () => newId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
