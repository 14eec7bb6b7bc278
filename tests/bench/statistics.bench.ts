// What one change costs the company statistics, at 100 and at 100 000 calculations in one company,
// on the real local engine (dynalite in memory): the stream handler adding one record's difference
// to the year aggregates (now), beside the full recount the handler used to run for every batch
// (now only the nightly reconciliation). DynamoDB calls are counted per record; the figure that must
// not grow with the company is the handler's. BENCH_STATISTICS_SIZES=100,10000 picks other sizes;
// `--write-docs` writes the figures into docs/performance.md.
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { dynamoRepositories } from "@server/adapters/dynamodb/repositories";
import * as keys from "@server/adapters/dynamodb/keys";
import { applyStatistics, type StreamRecord } from "@server/events/table-changes";
import { countCompanyStatistics, reconcileCompanyStatistics } from "@server/domain/statistics";
import { startDynalite } from "@server/local/dynalite";
import { marshall } from "@aws-sdk/util-dynamodb";
import { PERFORMANCE_DOC, writeGeneratedBlock } from "../support/generated-doc";

const SIZES = (process.env.BENCH_STATISTICS_SIZES ?? "100,100000").split(",").map(Number);
const CHANGES = 300;
const TABLE = "statistics-bench";
const COMPANY = "bench";
const TYPE = "open_mining_co2";

const calculation = (i: number, deleted = false, co2 = 10 + (i % 7)) => ({
  ...keys.calculation(COMPANY, TYPE, `k${i}`),
  id: `k${i}`,
  type: TYPE,
  project: "p1",
  company: COMPANY,
  name: `Карьер ${i}`,
  is_active: !deleted,
  is_deleted: deleted,
  version: 1,
  inputs: { volume: 100, ef: 3.149 },
  results: { res_co2: co2 },
  created_at: `${2020 + (i % 5)}-01-01T00:00:00.000Z`,
});

async function seed(doc: DynamoDBDocumentClient, count: number): Promise<void> {
  const puts: Promise<unknown>[] = [];
  for (let start = 0; start < count; start += 25) {
    const items = Array.from({ length: Math.min(25, count - start) }, (_, j) => ({ PutRequest: { Item: calculation(start + j) } }));
    puts.push(doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items } })));
    if (puts.length >= 16) await Promise.all(puts.splice(0));
  }
  await Promise.all(puts);
}

/** Inserts, result changes and soft deletes of calculations beyond the seeded ones. */
function changes(first: number): StreamRecord[] {
  const records: StreamRecord[] = [];
  let sequence = 10n ** 20n;
  const record = (eventName: StreamRecord["eventName"], i: number, before?: object, after?: object): StreamRecord => ({
    eventID: `e${records.length}`,
    eventName,
    dynamodb: {
      Keys: marshall(keys.calculation(COMPANY, TYPE, `k${i}`)),
      OldImage: before ? marshall(before) : undefined,
      NewImage: after ? marshall(after) : undefined,
      SequenceNumber: String((sequence += 1n)),
    },
  });
  for (let n = 0; records.length < CHANGES; n++) {
    const i = first + n;
    records.push(record("INSERT", i, undefined, calculation(i)));
    records.push(record("MODIFY", i, calculation(i), calculation(i, false, 99)));
    records.push(record("MODIFY", i, calculation(i, false, 99), calculation(i, true, 99)));
  }
  return records.slice(0, CHANGES);
}

export async function run(): Promise<void> {
  const title = `statistics per change (${CHANGES} stream records, batches of 100), dynalite in memory`;
  console.log(title);
  const rows: string[] = [];
  let perRecordAtSmallest: number | undefined;
  for (const size of SIZES) {
    const engine = await startDynalite();
    const doc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint });
    let calls = 0;
    doc.middlewareStack.add((next) => (args) => ((calls += 1), next(args)), { step: "initialize", name: "countCalls" });
    try {
      await ensureTable(doc, TABLE);
      const repos = dynamoRepositories(doc, TABLE);
      await seed(doc, size);
      const clock = { now: () => new Date() };
      // The aggregates start from a reconciliation, as after a deploy.
      await reconcileCompanyStatistics({ repos, clock }, COMPANY);

      calls = 0;
      const recountStarted = performance.now();
      await countCompanyStatistics(repos, COMPANY);
      const recountMs = performance.now() - recountStarted;
      const recountCalls = calls;

      const batches = async (records: StreamRecord[]) => {
        for (let i = 0; i < records.length; i += 100) {
          await applyStatistics(
            { Records: records.slice(i, i + 100) },
            { doc, tableName: TABLE, repos, clock, log: { info() {}, error() {} } },
          );
        }
      };
      // Warm-up on other calculations (each is inserted, changed and deleted: the sum stays).
      await batches(changes(size + 1_000_000));
      const records = changes(size);
      calls = 0;
      const started = performance.now();
      await batches(records);
      const perRecordMs = (performance.now() - started) / records.length;
      const perRecordCalls = calls / records.length;
      perRecordAtSmallest ??= perRecordMs;
      const report = await reconcileCompanyStatistics({ repos, clock }, COMPANY, { repair: false });
      if (report.drift.length > 0) throw new Error(`drift after the bench's changes: ${JSON.stringify(report.drift)}`);
      rows.push(
        `  ${String(size).padStart(7)} calculations: ${perRecordMs.toFixed(2)} ms and ${perRecordCalls.toFixed(1)} DynamoDB calls per record ` +
          `(${(perRecordMs / perRecordAtSmallest).toFixed(2)}× the ${SIZES[0]} figure); ` +
          `the full recount it replaces: ${recountMs.toFixed(0)} ms, ${recountCalls} calls per batch`,
      );
      console.log(rows.at(-1));
    } finally {
      doc.destroy();
      await engine.close();
    }
  }
  if (process.argv.includes("--write-docs")) {
    writeGeneratedBlock("statistics", [title, ...rows]);
    console.log(`  written to ${PERFORMANCE_DOC}`);
  }
}
