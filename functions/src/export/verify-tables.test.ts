// verify.py's device and sensor kinds are the core's (npm run verify-tables writes them).
import { readFileSync } from "node:fs";
import { SENSOR_KIND_NAMES } from "@core/monitoring";
import { describe, expect, it } from "vitest";
import { withVerifierTables } from "./verify-tables";

const script = readFileSync(new URL("./verify/verify.py", import.meta.url), "utf8");

describe("verify.py's tables", () => {
  it("are the core's: its device kinds and every sensor kind's D58 range", () => {
    expect(script).toBe(withVerifierTables(script));
  });

  it("hold a line for each of the core's sensor kinds", () => {
    const block = /# --- sensor kinds ---\n([\s\S]*?)# --- end of sensor kinds ---/.exec(script)?.[1] ?? "";
    expect([...block.matchAll(/^ {4}"(\w+)": \(/gm)].map((m) => m[1])).toEqual(SENSOR_KIND_NAMES);
  });
});
