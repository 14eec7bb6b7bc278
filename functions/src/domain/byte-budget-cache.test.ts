import { describe, expect, it } from "vitest";
import { byteBudgetCache } from "./byte-budget-cache";

describe("a cache with a byte budget", () => {
  it("holds at most its budget, giving up the least recently used first", async () => {
    const cache = byteBudgetCache<string>(100);
    const made: string[] = [];
    const make = (key: string, bytes: number) => async () => {
      made.push(key);
      return { value: key, bytes };
    };
    await cache.get("a", make("a", 40));
    await cache.get("b", make("b", 40));
    // «a» used again: «b» is now the least recently used.
    expect(await cache.get("a", make("a", 40))).toBe("a");
    await cache.get("c", make("c", 40));
    expect(cache.bytes()).toBe(80);
    expect(cache.size()).toBe(2);
    await cache.get("a", make("a", 40));
    await cache.get("b", make("b", 40));
    expect(made).toEqual(["a", "b", "c", "b"]);
    // One larger than the budget is kept alone while it is the last made.
    await cache.get("big", make("big", 150));
    expect(cache.size()).toBe(1);
    expect(cache.bytes()).toBe(150);
  });

  it("shares one making among callers at once, and forgets one that failed", async () => {
    const cache = byteBudgetCache<number>(100);
    let calls = 0;
    const make = async () => {
      calls += 1;
      return { value: 7, bytes: 10 };
    };
    expect(await Promise.all([cache.get("k", make), cache.get("k", make)])).toEqual([7, 7]);
    expect(calls).toBe(1);
    await expect(cache.get("bad", () => Promise.reject(new Error("gone")))).rejects.toThrow("gone");
    expect(cache.size()).toBe(1);
    expect(await cache.get("bad", async () => ({ value: 1, bytes: 5 }))).toBe(1);
  });
});
