// docs/performance.md's statistics figures are written by `npm run bench -- statistics --write-docs`
// from one run; this measures the DynamoDB calls per stream record with the same code
// (tests/support/statistics-per-change.ts, the bench's mix of inserts, changes and deletes) and
// fails when the document states another count.
import { describe, expect, it } from "vitest";
import { generatedBlock } from "../support/generated-doc";
import { STATISTICS_CHANGES, measureStatisticsChanges } from "../support/statistics-per-change";

describe("the statistics' DynamoDB calls per stream record", () => {
  it("are the ones docs/performance.md's generated statistics figures state", async () => {
    const documented = (generatedBlock("statistics") ?? [])
      .map((line) => /^\s*(\d+) calculations: .* and ([\d.]+) DynamoDB calls per record/.exec(line))
      .filter((match) => match !== null)
      .map((match) => match[2]);
    expect(documented.length, "the statistics figures are written (npm run bench -- statistics --write-docs)").toBeGreaterThan(0);
    // The bench's records at its smallest size: the calls per record do not grow with the company.
    const { perRecordCalls } = await measureStatisticsChanges(100, STATISTICS_CHANGES, { inProcess: true });
    // On a difference: `npm run bench -- statistics --write-docs` writes the figures from a run.
    // The count moves by a few calls in 300 from one run to another (8.34 to 8.35 per record), on
    // the edge of one decimal's rounding: the written figure is held to within 0.1 of the measured.
    for (const calls of documented) expect(Math.abs(Number(calls) - perRecordCalls)).toBeLessThanOrEqual(0.1);
    // A count, not a time: 300 records take 12 s on a quiet machine and over 30 s on a busy one.
  }, 180_000);
});
