import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configFromEnv } from "../config";
import { passwordCostFromEnv } from "./password-cost";

describe("PASSWORD_HASH_COST", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("lowers the local host's cost to the power of two it names, and is otherwise absent", () => {
    expect(passwordCostFromEnv({ PASSWORD_HASH_COST: "16" })).toBe(16);
    expect(passwordCostFromEnv({ PASSWORD_HASH_COST: "16384" })).toBe(16384);
    expect(passwordCostFromEnv({})).toBeUndefined();
    expect(passwordCostFromEnv({ PASSWORD_HASH_COST: "" })).toBeUndefined();
  });

  it("is refused with NODE_ENV=production and on Lambda", () => {
    expect(() => passwordCostFromEnv({ PASSWORD_HASH_COST: "16", NODE_ENV: "production" })).toThrow(/NODE_ENV=production/);
    expect(() => passwordCostFromEnv({ PASSWORD_HASH_COST: "16", AWS_LAMBDA_FUNCTION_NAME: "api" })).toThrow(/Lambda/);
  });

  it("is refused when it is no power of two from 2 to the production cost", () => {
    for (const raw of ["1", "0", "-16", "24", "32768", "1e3", "abc"]) {
      expect(() => passwordCostFromEnv({ PASSWORD_HASH_COST: raw })).toThrow(/power of two/);
    }
  });

  it("is never read by the configuration the AWS host is built on", () => {
    vi.stubEnv("PASSWORD_HASH_COST", "16");
    expect(configFromEnv(randomBytes(32)).passwordCost).toBeUndefined();
  });
});
