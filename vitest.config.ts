import { defineConfig } from "vitest/config";

// One test run for everything: unit tests sit next to their code, the rest live in tests/ by kind.
// Browser end-to-end files are slower and share the machine's two cores, hence the longer timeouts.
export default defineConfig({
  test: {
    include: [
      "functions/**/*.test.ts",
      "wasm-core/**/*.test.ts",
      "web/src/**/*.test.{ts,tsx}",
      "infra/**/*.test.ts",
      "tests/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "web/dist/**", "cdk.out/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
