// Browser globals for unit tests that run in Node: an in-memory localStorage, JWT-shaped tokens and the
// page's clock on a day of the test's.
import { afterEach, beforeEach, vi } from "vitest";

export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => Array.from(items.keys())[index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

/** An unsigned token with the given claims; the web app only ever reads `exp`. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "HS256", typ: "JWT" })}.${encode(claims)}.signature`;
}

/** The instant the web's unit tests run at: a test runs on a day it names, never on the day it is run on
 *. */
export const TEST_NOW = Date.parse("2026-11-16T03:00:00Z");

/** The file's tests with the page's clock (Date) started at `at` and running on from it; the timers stay
 *  real. */
export function onTestClock(at = TEST_NOW): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: at, shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
