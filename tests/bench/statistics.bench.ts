// What one change costs the company statistics, at 100 and at 100 000 calculations in one company,
// on the real local engine (dynalite in memory): the stream handler adding one record's difference
// to the year aggregates (now), beside the full recount the handler used to run for every batch
// (now only the nightly reconciliation). DynamoDB calls are counted per record; the figure that must
// not grow with the company is the handler's. BENCH_STATISTICS_SIZES=100,10000 picks other sizes;
// `--write-docs` writes the figures into docs/performance.md (tests/support/statistics-per-change.ts).
import { PERFORMANCE_DOC, writeGeneratedBlock } from "../support/generated-doc";
import { STATISTICS_CHANGES as CHANGES, measureStatisticsChanges } from "../support/statistics-per-change";

const SIZES = (process.env.BENCH_STATISTICS_SIZES ?? "100,100000").split(",").map(Number);

export async function run(): Promise<void> {
  const title = `statistics per change (${CHANGES} stream records, batches of 100), dynalite in memory`;
  console.log(title);
  const rows: string[] = [];
  let perRecordAtSmallest: number | undefined;
  for (const size of SIZES) {
    const { perRecordMs, perRecordCalls, recountMs, recountCalls } = await measureStatisticsChanges(size, CHANGES);
    perRecordAtSmallest ??= perRecordMs;
    rows.push(
      `  ${String(size).padStart(7)} calculations: ${perRecordMs.toFixed(2)} ms and ${perRecordCalls.toFixed(1)} DynamoDB calls per record ` +
        `(${(perRecordMs / perRecordAtSmallest).toFixed(2)}× the ${SIZES[0]} figure); ` +
        `the full recount it replaces: ${recountMs.toFixed(0)} ms, ${recountCalls} calls per batch`,
    );
    console.log(rows.at(-1));
  }
  if (process.argv.includes("--write-docs")) {
    writeGeneratedBlock("statistics", [title, ...rows]);
    console.log(`  written to ${PERFORMANCE_DOC}`);
  }
}
