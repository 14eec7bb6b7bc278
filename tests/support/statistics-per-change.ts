// What one change costs the company statistics on the real local engine (dynalite in memory), measured
// in one place: `npm run bench -- statistics` prints it (and with `--write-docs` writes it into
// docs/performance.md), tests/integration/statistics-calls.test.ts fails when the document's calls
// per record differ from a run's.
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { dynamoRepositories } from "@server/adapters/dynamodb/repositories";
import * as keys from "@server/adapters/dynamodb/keys";
import { applyStatistics, type StreamRecord } from "@server/events/table-changes";
import { countCompanyStatistics, reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import { startDynalite } from "@server/local/dynalite";
import { marshall } from "@aws-sdk/util-dynamodb";

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
function changes(first: number, count: number): StreamRecord[] {
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
  for (let n = 0; records.length < count; n++) {
    const i = first + n;
    records.push(record("INSERT", i, undefined, calculation(i)));
    records.push(record("MODIFY", i, calculation(i), calculation(i, false, 99)));
    records.push(record("MODIFY", i, calculation(i, false, 99), calculation(i, true, 99)));
  }
  return records.slice(0, count);
}

/** How many stream records the bench applies (and the test, for the same calls per record). */
export const STATISTICS_CHANGES = 300;

export interface StatisticsFigures {
  perRecordMs: number;
  perRecordCalls: number;
  recountMs: number;
  recountCalls: number;
}

/** `count` stream records (inserts, result changes and soft deletes, in batches of 100) applied to
 *  the statistics of a company of `size` calculations: time and DynamoDB calls per record, and the
 *  full recount's. The bench's client calls the engine over HTTP, as its documented times were
 *  measured; with `inProcess` (the test, which counts calls only) it reaches the engine without
 *  HTTP (local/dynalite-port.ts): the same calls for less CPU. */
export async function measureStatisticsChanges(size: number, count: number, { inProcess = false } = {}): Promise<StatisticsFigures> {
  const engine = await startDynalite();
  const doc = createDocumentClient({
    tableName: TABLE,
    endpoint: engine.endpoint,
    ...(inProcess ? { requestHandler: engine.requestHandler() } : {}),
  });
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
    await batches(changes(size + 1_000_000, count));
    const records = changes(size, count);
    calls = 0;
    const started = performance.now();
    await batches(records);
    const perRecordMs = (performance.now() - started) / records.length;
    const perRecordCalls = calls / records.length;
    const report = await reconcileCompanyStatistics({ repos, clock }, COMPANY, { repair: false });
    if (report.drift.length > 0) throw new Error(`drift after the changes: ${JSON.stringify(report.drift)}`);
    return { perRecordMs, perRecordCalls, recountMs, recountCalls };
  } finally {
    doc.destroy();
    await engine.close();
  }
}
