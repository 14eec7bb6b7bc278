import { defineConfig } from "vitest/config";
import { pathAliases } from "./path-aliases";

// One test run for everything, in four tiers (vitest projects): unit tests sit next to their code;
// integration (the API on the real local DynamoDB engine), e2e (a real Chromium against web/dist)
// and infra (the CDK stack, the Lambda hosts, cdk-nag) live in tests/ by kind. `npm test` runs all
// four; `npm run test:unit` the first alone. Browser files are slower and share the machine's two
// cores, hence the longer timeouts.
const shared = { testTimeout: 30_000, hookTimeout: 60_000 };
const exclude = ["**/node_modules/**", "web/dist/**", "cdk.out/**"];
// The programs a tier drives (Chromium, LibreOffice, pdftotext) fail it when missing, never skip it.
const REQUIRED_PROGRAMS = "tests/support/required-programs.ts";
const PROCESS_TESTS = ["functions/src/local/**/*.test.ts", "wasm-core/src/gbdt/cli.test.ts", "functions/src/export/xls-writer.test.ts"];

export default defineConfig({
  resolve: { alias: pathAliases() },
  test: {
    pool: "forks",
    maxWorkers: 2,
    // The servers the tests start log only their 5xx requests (docs/operations.md).
    env: { REQUEST_LOG: "errors" },
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: "unit",
          include: ["functions/**/*.test.ts", "wasm-core/**/*.test.ts", "web/src/**/*.test.{ts,tsx}"],
          // Tests that start processes: the local host's servers on the local DynamoDB engine, the
          // GBDT command line, LibreOffice reading the xls export back.
          exclude: [...exclude, ...PROCESS_TESTS],
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: "integration",
          include: ["tests/integration/**/*.test.ts", ...PROCESS_TESTS],
          exclude,
          globalSetup: [REQUIRED_PROGRAMS],
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts", "tests/web/**/*.test.ts"],
          exclude,
          globalSetup: [REQUIRED_PROGRAMS],
          // A page reloads, signs in again and fetches before it shows a list: on a loaded machine
          // that takes longer than expect.poll's default second.
          expect: { poll: { timeout: 15_000 } },
          // A real browser on two shared cores now and then misses a frame; a failure that
          // happens twice is still a failure.
          retry: 1,
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: "infra",
          include: ["infra/**/*.test.ts", "tests/infra/**/*.test.ts", "tests/rehearsal/**/*.test.ts"],
          exclude,
        },
      },
    ],
  },
});
