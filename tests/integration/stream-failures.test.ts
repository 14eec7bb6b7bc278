// The table's stream handler with a record that fails (events/table-changes.ts): it names that
// record, and the later ones of the same item, in its partial batch response, applies the others,
// and the records named come out right when delivered again — on the real dynalite engine.
import { afterAll, beforeAll, expect, it } from "vitest";
import { PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { dynamoRepositories } from "@server/adapters/dynamodb/repositories";
import { startDynalite, type RunningDynalite } from "@server/local/dynalite";
import { captureTableChanges } from "@server/local/table-stream";
import { auditChanges, handleTableChanges, type StreamRecord } from "@server/events/table-changes";
import { countInventorySums, reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import { INVENTORY_SUMS_LAYOUT } from "@server/domain/inventory/sums";
import type { Repositories } from "@server/ports";

const TABLE = "stream-failures";
const COMPANY = "c1";
let engine: RunningDynalite;
let writer: DynamoDBDocumentClient;
let handlerDoc: DynamoDBDocumentClient;
let repos: Repositories;
const records: StreamRecord[] = [];
/** The handler's calls that mention this text fail. */
let failing: string | undefined;
/** The handler's calls, by command. */
const sent: string[] = [];
/** The requests a BatchWriteItem of the handler answers it left unprocessed (the first n). */
let unprocessed = 0;

beforeAll(async () => {
  engine = await startDynalite();
  writer = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint });
  handlerDoc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint });
  await ensureTable(writer, TABLE);
  captureTableChanges(writer, (record) => records.push(record));
  handlerDoc.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName!);
      if (failing && JSON.stringify(args.input).includes(failing)) throw new Error("injected failure");
      const result = await next(args);
      const requests = (args.input as { RequestItems?: Record<string, unknown[]> }).RequestItems?.[TABLE];
      if (unprocessed && requests)
        Object.assign(result.output as object, { UnprocessedItems: { [TABLE]: requests.slice(0, unprocessed) } });
      return result;
    },
    { step: "initialize", name: "faults" },
  );
  repos = dynamoRepositories(handlerDoc, TABLE);
});
afterAll(async () => {
  writer.destroy();
  handlerDoc.destroy();
  await engine.close();
});

const calculation = (id: string, volume: number) => ({
  PK: `COMPANY#${COMPANY}`,
  SK: `CALC#underground_emission_ch4#${id}`,
  id,
  type: "underground_emission_ch4",
  // Named, as every stored calculation is: one without a name is damaged and kept only as an «x:» mark.
  name: `Расчет ${id}`,
  project: "p1",
  company: COMPANY,
  is_deleted: false,
  version: 1,
  inventory_role: "primary",
  created_at: "2025-03-01T00:00:00.000Z",
  inputs: { volume, ef: 18 },
  results: { res_ch4: volume / 1000, res_co2e: (volume / 1000) * 28 },
});

const target = () => ({
  doc: handlerDoc,
  tableName: TABLE,
  repos,
  clock: { now: () => new Date() },
  log: { info() {}, error() {} },
});

it("reports the failed record and the later ones of its item, applies the others, and is right once they are delivered again", async () => {
  await writer.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        PK: `COMPANY#${COMPANY}`,
        SK: "PROJECT#p1",
        id: "p1",
        name: "Шахта",
        is_deleted: false,
        version: 1,
        created_at: "2025-03-01T00:00:00.000Z",
        start_date: "2025-01-01",
        end_date: "2025-12-31",
      },
    }),
  );
  await writer.send(new PutCommand({ TableName: TABLE, Item: calculation("a", 1000) }));
  await writer.send(new PutCommand({ TableName: TABLE, Item: calculation("b", 2000) }));
  await writer.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: { PK: `COMPANY#${COMPANY}`, SK: "CALC#underground_emission_ch4#a" },
      UpdateExpression: "SET is_deleted = :yes, version = :two",
      ExpressionAttributeValues: { ":yes": true, ":two": 2 },
    }),
  );
  const sequenceOf = (record: StreamRecord) => record.dynamodb.SequenceNumber;
  const ofA = records.filter((r) => r.dynamodb.Keys.SK.S?.endsWith("#a")).map(sequenceOf);
  expect(ofA).toHaveLength(2);

  failing = "underground_emission_ch4#a";
  const first = await handleTableChanges({ Records: records }, target());
  expect(first.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(ofA);
  // The project and b are in: b counted, a not yet.
  const sums = await repos.statistics.storedInventorySums(COMPANY);
  expect(sums.projects.map((p) => p.sums["c:3|1.B.1.a.i.1|CH4"])).toEqual([1]);

  failing = undefined;
  const again = await handleTableChanges({ Records: records.filter((r) => ofA.includes(sequenceOf(r))) }, target());
  expect(again.batchItemFailures).toEqual([]);
  const report = await reconcileCompanyStatistics({ repos, clock: { now: () => new Date() } }, COMPANY, { repair: false });
  expect(report).toMatchObject({ drift: [], lists: [], unsettled: false });
  await repos.statistics.markInventorySumsLayout(COMPANY, INVENTORY_SUMS_LAYOUT);
  const kept = await repos.statistics.inventorySums(COMPANY, INVENTORY_SUMS_LAYOUT);
  expect(Object.fromEntries(kept!)).toEqual(Object.fromEntries(await countInventorySums(repos, COMPANY)));
  // a archived: what it added came back to zero and is gone, not kept as zeros.
  const [project] = (await repos.statistics.storedInventorySums(COMPANY)).projects;
  expect(project.zeros).toBe(0);
});

it("on the local host, writes a batch's audit entries in calls of 25: the items written one by one, the same when delivered again, and names the records whose entries failed", async () => {
  records.length = 0;
  for (let i = 0; i < 30; i++) {
    await writer.send(new PutCommand({ TableName: TABLE, Item: { PK: "COMPANY#c2", SK: `NOTE#${i}`, company: "c2", version: 1 } }));
  }
  const batch = [...records];
  const ids = new Set(batch.map((record) => record.eventID));
  const trail = async (tableName: string) =>
    ((await handlerDoc.send(new ScanCommand({ TableName: tableName }))).Items ?? [])
      .filter((item) => ids.has(String(item.SK).split("#").pop() ?? ""))
      .sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
  // Entry by entry (a conditional put each, as in AWS), into a table of its own.
  const each = `${TABLE}-each`;
  await ensureTable(handlerDoc, each);
  await auditChanges({ Records: batch }, { doc: handlerDoc, tableName: each, log: { info() {}, error() {} } });
  const expected = await trail(each);
  expect(expected).toHaveLength(30);

  const local = () => ({ ...target(), auditInBatches: true });
  sent.length = 0;
  expect((await handleTableChanges({ Records: batch }, local())).batchItemFailures).toEqual([]);
  expect(sent).toEqual(["BatchWriteItemCommand", "BatchWriteItemCommand"]);
  expect(await trail(TABLE)).toEqual(expected);
  // Delivered again: the same items.
  expect((await handleTableChanges({ Records: batch }, local())).batchItemFailures).toEqual([]);
  expect(await trail(TABLE)).toEqual(expected);

  const sequences = batch.map((record) => ({ itemIdentifier: record.dynamodb.SequenceNumber }));
  // A call that fails names its 25 records; items left unprocessed, theirs.
  failing = "NOTE#0";
  expect((await handleTableChanges({ Records: batch }, local())).batchItemFailures).toEqual(sequences.slice(0, 25));
  failing = undefined;
  unprocessed = 2;
  expect((await handleTableChanges({ Records: batch }, local())).batchItemFailures).toEqual([
    ...sequences.slice(0, 2),
    ...sequences.slice(25, 27),
  ]);
  unprocessed = 0;
  expect(await trail(TABLE)).toEqual(expected);
});
