// the unit tests run on a day they name, never on the day they are run on. The readings'
// layout is chosen by the date (minute items while a day is open), so a test on the system clock covered
// one path or the other as the calendar went. A domain test hands its clock to memoryDomain (a parameter it
// must give); the web's tests start the page's clock at a day of theirs (web/src/testing/fakes.ts
// onTestClock). Read from the source text: no unit test file reads the system clock, neither by Date.now
// nor by a Date made without an argument. The integration tier's files beside the code (they start
// processes that stamp the real time: OpenSSL's signing time, a server's watchdog) are not the unit tier's.
import { globSync, readFileSync } from "node:fs";
import { matchesGlob, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PROCESS_TESTS } from "../../tests/support/process-tests";

const ROOT = resolve(import.meta.dirname, "../..");
const SYSTEM_CLOCK = /\bDate\.now\(\)|\bnew Date\(\s*\)/g;

const unitTestFiles = () =>
  globSync(["functions/src/**/*.test.ts", "web/src/**/*.test.{ts,tsx}", "wasm-core/src/**/*.test.ts"], { cwd: ROOT }).filter(
    (file) => !PROCESS_TESTS.some((pattern) => matchesGlob(file, pattern)),
  );

describe("the unit tests' clock", () => {
  it("finds the unit tier's test files, the web's component tests among them", () => {
    const files = unitTestFiles();
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain("web/src/features/monitoring/minutes/AgkDataPage.test.tsx");
    expect(files).toContain("functions/src/domain/monitoring/derive/journal.test.ts");
    expect(files).not.toContain("functions/src/adapters/signing/gost-verifiers.test.ts");
  });

  it("is never the system's: no unit test file reads it", () => {
    const readers = unitTestFiles().flatMap((file) =>
      [...readFileSync(resolve(ROOT, file), "utf8").matchAll(SYSTEM_CLOCK)].map((match) => `${file}: ${match[0]}`),
    );
    expect(readers).toEqual([]);
  });
});
