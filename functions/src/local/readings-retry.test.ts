import { describe, expect, it } from "vitest";
import { RETRIES } from "../domain/monitoring/minutes/consumer";
import { readingsRetryFirstMsFromEnv } from "./readings-retry";

describe("READINGS_RETRY_FIRST_MS", () => {
  it("shortens the consumer thread's first back-off to the ms it names, and is otherwise absent", () => {
    expect(readingsRetryFirstMsFromEnv({ READINGS_RETRY_FIRST_MS: "100" })).toBe(100);
    expect(readingsRetryFirstMsFromEnv({ READINGS_RETRY_FIRST_MS: String(RETRIES.firstMs) })).toBe(RETRIES.firstMs);
    expect(readingsRetryFirstMsFromEnv({})).toBeUndefined();
    expect(readingsRetryFirstMsFromEnv({ READINGS_RETRY_FIRST_MS: "" })).toBeUndefined();
  });

  it("is refused with NODE_ENV=production, and when it is no whole number of ms up to the production back-off", () => {
    expect(() => readingsRetryFirstMsFromEnv({ READINGS_RETRY_FIRST_MS: "100", NODE_ENV: "production" })).toThrow(/NODE_ENV=production/);
    for (const raw of ["0", "-5", "1.5", "1001", "abc"]) {
      expect(() => readingsRetryFirstMsFromEnv({ READINGS_RETRY_FIRST_MS: raw })).toThrow(/whole number of ms/);
    }
  });
});
