import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { pathAliases } from "./path-aliases";
import { PROCESS_TESTS } from "./tests/support/process-tests";

// One test run for everything, in four tiers (vitest projects): unit tests sit next to their code;
// integration (the API on the real local DynamoDB engine), e2e (a real Chromium against web/dist)
// and infra (the CDK stack, the Lambda hosts, cdk-nag) live in tests/ by kind. `npm test` runs all
// four; `npm run test:unit` the first alone. Browser files are slower and share the machine's two
// cores, hence the longer timeouts.
// A fifth tier, deep, exists only under TEST_DEPTH=deep (`npm run test:deep`): the *.deep.test.ts
// files and the hostile-input, property and load files at full strength (tests/support/depth.ts).
// Every tier's temporary files live under one folder the run removes at its end.
const TEMP_ROOT = "tests/support/temp-root.ts";
const shared = { testTimeout: 30_000, hookTimeout: 60_000, globalSetup: [TEMP_ROOT] };
const exclude = ["**/node_modules/**", "web/dist/**", "cdk.out/**", "**/*.deep.test.ts"];
// The unit tier is two projects, `unit` (Node) and `unit-dom` (the component tests, happy-dom), each on
// one worker that runs all its files: vitest keeps a worker only while the next queued file is of its
// project and environment, so one project of both environments on two workers started four (both in
// happy-dom, then both again in Node: React, antd and happy-dom imported twice, ~5 s of CPU a start). A
// project of one worker (maxWorkers 1, isolate false) is given all its files at once; the two run one
// after the other, as projects of one worker share a group of one (sequence.groupOrder 0), and the other
// tiers, on two workers, run after them (groupOrder 1). The files share their worker's module graph
// (each module imported once per worker, not once per file: that was two thirds of the tier's CPU
// time); a file that stubs a global or spies on one restores it after each test (vi.unstubAllGlobals,
// vi.restoreAllMocks). Every unit file gets the setup (dom-setup.ts: the cores' browser entries read
// from wasm-core/build; the window's globals in happy-dom).
const unitTier = {
  ...shared,
  setupFiles: ["web/src/testing/dom-setup.ts"],
  isolate: false,
  maxWorkers: 1,
  sequence: { groupOrder: 0 },
};
// The unit files whose checks are statistical, on data generated at scale, run in the deep tier only
// (`npm run test:deep`): the drifting longwalls' interval coverage (4 s of CPU, a twenty-fifth of the
// unit tier; tests/integration/forecast-drift-intervals.test.ts keeps the intervals' use through the API).
const DEEP_UNIT_TESTS = ["wasm-core/src/gbdt/intervals.test.ts"];
/** The tiers on two workers run after the unit tier's projects of one. */
const afterUnit = { sequence: { groupOrder: 1 } };
const DEEP = process.env.TEST_DEPTH === "deep";
// `npm run test:fast` (TEST_FAST=1), the loop for most changes: the unit tier and the service tests,
// the integration files on the in-process API of tests/support/harness.ts, but for the slowest: those
// at scale, and those that read files back with LibreOffice, run verify.py file after file or ask the
// real XGBoost (`npm test`'s integration tier runs them all).
const FAST = process.env.TEST_FAST === "1";
const SLOW_SERVICE_TESTS = [
  "abatement-assessments",
  "auth",
  "climate-pack",
  "climate-report",
  "climate-signatures",
  "dictionaries",
  "direct-uploads",
  "export",
  "forecast-direct-upload",
  "forecast-named-features",
  "fuzz",
  "gassy-mine",
  "inventory",
  "inventory-checks-size",
  "inventory-large-approval",
  "inventory-sums",
  "inventory-trend",
  "inventory-versions",
  "measured-vs-estimated",
  "projects",
  "spreadsheet-safety",
  "readings-pack",
  "templates-excel",
  "verification-pack",
  "verification-pack-forgeries",
];
// A service test calls the harness's createHarness or createFreshHarness; tape's harness.createHarness
// (sqlite-level-suite.test.ts, the local engine's store against abstract-level's suite: no API) is not one.
const serviceTests = () =>
  readdirSync("tests/integration")
    .filter((file) => file.endsWith(".test.ts") && !SLOW_SERVICE_TESTS.includes(file.replace(/\.test\.ts$/, "")))
    .map((file) => `tests/integration/${file}`)
    .filter((path) => /(?<![.\w])create(Fresh)?Harness\(/.test(readFileSync(path, "utf8")));
// The files whose size tests/support/depth.ts (or TEST_DEPTH itself) sets: smaller in the unit and
// integration tiers, whole in deep.
const SIZED_TESTS = [
  "wasm-core/src/gbdt/quickscorer.test.ts",
  "functions/src/files/xlsx-reader.test.ts",
  "tests/integration/fuzz.test.ts",
  "tests/integration/statistics-incremental.test.ts",
  "tests/integration/heavy-work.test.ts",
  "tests/integration/inventory-large-approval.test.ts",
  "tests/integration/crash-writes.test.ts",
  "tests/integration/readings-crash.test.ts",
  "tests/integration/loop-budget.test.ts",
  "tests/integration/spreadsheet-safety.test.ts",
  "tests/integration/junk-tokens.test.ts",
];
// The programs a tier drives (Chromium, LibreOffice, pdftotext) fail it when missing, never skip it.
const REQUIRED_PROGRAMS = "tests/support/required-programs.ts";
// Vitest's order (the longest files of the last run first), with a project's files next to each other:
// a worker that shares its module graph between files (isolate: false) is kept only while the next
// queued file is of its project, and every new worker imports the modules again.
class ProjectSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const groups = new Map<string, TestSpecification[]>();
    for (const spec of sorted) {
      const group = groups.get(spec.project.name);
      if (group) group.push(spec);
      else groups.set(spec.project.name, [spec]);
    }
    return [...groups.values()].flat();
  }
}

export default defineConfig({
  // Node resolves "antd" to its CommonJS build (antd/lib) and the web app's lazy imports of
  // "antd/es/table", "antd/es/select" and the like to the ES build: two copies of antd in the component
  // tests, the lazy ones outside the page's ConfigProvider (its locale, its theme without runtime
  // styles and motion), building their styles at run time. Vite's browser build has one copy; so do
  // the tests, antd/lib: the calculation dialog's and page's tests took 30.4-33.5 s of CPU instead of
  // 35.5-37.3 s (three interleaved runs).
  resolve: { alias: { ...pathAliases(), "antd/es": "antd/lib" } },
  test: {
    pool: "forks",
    maxWorkers: 2,
    sequence: { sequencer: ProjectSequencer },
    // Each module as transformed for the tests is kept on disk (node_modules/.experimental-vitest-cache),
    // keyed by its content, the config and the coverage setting: a run after the first transforms only
    // what changed (it was a sixth of the unit tier's CPU).
    experimental: { fsModuleCache: true },
    // The servers the tests start log only their 5xx requests (docs/operations.md) and pace no user's
    // requests (a test sends hundreds in a row; request-pace.test.ts and forecast-full-read.deep.test.ts
    // set the pace they show, and the browser tier keeps npm start's). Node keeps the
    // bytecode it compiles for the packages a worker loads (React, antd, happy-dom, the AWS SDK) on disk,
    // and the next worker, or a Node the tests start, loads them from it: a sixth less CPU to load them.
    // The local hosts and the harness hash new passwords at scrypt N=16 instead of 16384
    // (functions/src/local/password-cost.ts): each user made and each sign-in cost ~50 ms of CPU at
    // the production cost, which passwords.test.ts and the infra tier's Lambda hosts keep.
    env: {
      PASSWORD_HASH_COST: "16",
      REQUEST_LOG: "errors",
      USER_REQUEST_BURST: "1000000",
      USER_REQUESTS_PER_SECOND: "1000000",
      NODE_COMPILE_CACHE: resolve("node_modules/.cache/node-compile-cache"),
    },
    // `npm run coverage`: line and branch coverage of the product's code by the unit tier, and the
    // floor it may not fall below (docs/testing.md records the figures per tier).
    coverage: {
      provider: "v8",
      include: ["functions/src/**/*.ts", "wasm-core/src/**/*.ts", "web/src/**/*.{ts,tsx}"],
      exclude: ["**/*.test.ts", "**/*.test.tsx", "**/*.d.ts"],
      reporter: ["text-summary", "json-summary"],
      reportsDirectory: "coverage",
      // The unit tier's reach when the floor was last raised; raise it as unit tests move in, never lower it.
      thresholds: { lines: 56, statements: 55, branches: 47, functions: 51 },
    },
    projects: [
      {
        extends: true,
        test: {
          ...unitTier,
          name: "unit",
          include: ["functions/**/*.test.ts", "wasm-core/**/*.test.ts", "web/src/**/*.test.ts"],
          // Tests that start processes: the local host's servers on the local DynamoDB engine, the
          // GBDT command line, LibreOffice reading the xls export back, OpenSSL signing and checking КЭП.
          exclude: [...exclude, ...PROCESS_TESTS, ...DEEP_UNIT_TESTS],
        },
      },
      {
        extends: true,
        test: {
          ...unitTier,
          // The web app's component tests, in happy-dom: the worker sets it up once, for all its files
          // (one window). In jsdom the component files took 55-60 s of CPU instead of 40-45 s (three
          // interleaved runs), with the same assertions.
          name: "unit-dom",
          include: ["web/src/**/*.test.tsx"],
          environment: "happy-dom",
          exclude,
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          ...afterUnit,
          name: "integration",
          include: ["tests/integration/**/*.test.ts", ...PROCESS_TESTS],
          exclude,
          globalSetup: [TEMP_ROOT, REQUIRED_PROGRAMS],
          // The local servers start their first spreadsheet thread with the first export or large
          // upload instead of at start: most files never render one, and loading the thread's code
          // was 2.3 s of each start's 4 s of CPU.
          env: { SPREADSHEET_THREAD_AT_START: "0" },
          // The files share their worker's module graph: the server's modules are imported once per
          // worker instead of once per file, and the files on tests/support/harness.ts share the
          // worker's seeded table, each in companies of its own.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          ...afterUnit,
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts", "tests/web/**/*.test.ts"],
          exclude,
          // The browser drives the server at the pace npm start keeps (10 at once, then 30 a second
          // per user), so the screens are shown to work within it, and its routes in app threads as
          // npm start runs them (local/app-threads.ts).
          env: { USER_REQUEST_BURST: "10", USER_REQUESTS_PER_SECOND: "30", APP_THREADS: "2" },
          globalSetup: [TEMP_ROOT, REQUIRED_PROGRAMS],
          // As in integration, the files share their worker's modules: the server's are imported
          // once per worker, one server started (each file in a company of its own on it,
          // tests/support/server.ts) and one Chromium launched (tests/support/web-page.ts).
          isolate: false,
          // A page reloads, signs in again and fetches before it shows a list: on a loaded machine
          // that takes longer than expect.poll's default second.
          // No retry: a test that passes on its second run is a test that can fail, and a retry hides
          // it (a missed frame is waited for by expect.poll, not run again).
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          ...afterUnit,
          name: "infra",
          include: ["infra/**/*.test.ts", "tests/infra/**/*.test.ts", "tests/rehearsal/**/*.test.ts"],
          exclude,
          // Each file imports its modules afresh: the AWS-hosted job and training files keep state in the
          // server's modules (a job's slots, the Lambda client's mock) that one file left behind and the
          // next read (training-jobs, after another file in its worker, answered a queued job's status 404).
          isolate: true,
        },
      },
      ...(DEEP
        ? [
            {
              extends: true as const,
              test: {
                ...shared,
                ...afterUnit,
                name: "deep",
                include: ["**/*.deep.test.ts", ...SIZED_TESTS, ...DEEP_UNIT_TESTS],
                exclude: exclude.filter((pattern) => pattern !== "**/*.deep.test.ts"),
                globalSetup: [TEMP_ROOT, REQUIRED_PROGRAMS],
              },
            },
          ]
        : []),
      ...(FAST
        ? [{ extends: true as const, test: { ...shared, ...afterUnit, name: "fast", include: serviceTests(), exclude, isolate: false } }]
        : []),
    ],
  },
});
