// `npm test` never passes by skipping: a program a tier drives that is missing is installed by
// tests/prerequisites.sh where this user may run apt-get, stops the run with the one command to run
// where it may not, and fails the tier when vitest is run directly.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** A PATH whose `id` says the user is not root, so apt-get may not be run. */
function pathOfUnprivilegedUser(): string {
  const bin = mkdtempSync(join(tmpdir(), "not-root-"));
  writeFileSync(join(bin, "id"), "#!/bin/sh\necho 1000\n");
  chmodSync(join(bin, "id"), 0o755);
  return `${bin}:${process.env.PATH}`;
}

const prerequisites = (tiers: string[], env: Record<string, string>) =>
  spawnSync("bash", ["tests/prerequisites.sh", ...tiers], { encoding: "utf8", env: { ...process.env, ...env } });

describe("the programs the tests need", () => {
  it("stops with the one command to run when Chromium is missing and apt-get may not run", () => {
    const run = prerequisites([], { CHROMIUM_PATH: "/nonexistent/chromium", PATH: pathOfUnprivilegedUser() });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("sudo apt-get install -y chromium");
  });

  it("asks nothing for a run of the unit tier alone", () => {
    const run = prerequisites(["unit"], { CHROMIUM_PATH: "/nonexistent/chromium", PATH: pathOfUnprivilegedUser() });
    expect(run.status).toBe(0);
  });

  it("fails the browser tier run directly without Chromium instead of skipping it", () => {
    const run = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", "e2e", "tests/e2e/web-place.test.ts"], {
      encoding: "utf8",
      env: { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium" },
      timeout: 120_000,
    });
    expect(run.status).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain("sudo apt-get install -y chromium");
  }, 150_000);
});
