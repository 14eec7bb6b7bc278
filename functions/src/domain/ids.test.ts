import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("is a version-7 UUID", () => {
    expect(newId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("increases strictly, also within one millisecond", () => {
    const ids = Array.from({ length: 2000 }, () => newId(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
