// The local engine leaves no read open once a query has answered: dynalite never closes a query's
// value stream, and the store's iterator beneath held its read transaction, so SQLite's WAL could
// not be checkpointed and grew with every write (77 MB after a first start's seeding, its database
// 16 KB). Now the store gives an iterator's read back once its range is read and closes it when the
// stream is destroyed (packages/dynalite/db/sqlite-level.mts), and dynalite-engine.ts destroys a
// query's streams when it answers (a paged query no longer reads the rest of its range).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, it } from "vitest";
import { BatchWriteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { startDynalite } from "@server/local/dynalite";
import { DATA_FILE } from "dynalite/db/sqlite-level.mts";

const TABLE = "read-views";
const dir = mkdtempSync(join(tmpdir(), "fugitive-read-views-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("ends every read once its query answered, paged or whole, so the WAL can be checkpointed and reset", async () => {
  const engine = await startDynalite({ path: dir });
  const doc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
  try {
    await ensureTable(doc, TABLE);
    for (let start = 0; start < 200; start += 25) {
      const items = Array.from({ length: 25 }, (_, i) => ({
        PK: "P",
        SK: String(start + i).padStart(4, "0"),
        GSI1PK: "L",
        GSI1SK: String(i),
      }));
      await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } }));
    }
    const query = (input: Record<string, unknown>) => doc.send(new QueryCommand({ TableName: TABLE, ...input } as never));
    const page = await query({ KeyConditionExpression: "PK = :p", ExpressionAttributeValues: { ":p": "P" }, Limit: 5 });
    expect(page.Items).toHaveLength(5);
    const whole = await query({ KeyConditionExpression: "PK = :p", ExpressionAttributeValues: { ":p": "P" } });
    expect(whole.Items).toHaveLength(200);
    const listed = await query({
      IndexName: "GSI1",
      KeyConditionExpression: "GSI1PK = :l",
      ExpressionAttributeValues: { ":l": "L" },
      Limit: 3,
    });
    expect(listed.Items).toHaveLength(3);

    // Another connection checkpoints the WAL whole and resets it: refused (busy) while a read is open.
    const outside = new DatabaseSync(join(dir, DATA_FILE));
    try {
      expect(outside.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get()).toMatchObject({ busy: 0 });
    } finally {
      outside.close();
    }
    expect(statSync(join(dir, `${DATA_FILE}-wal`)).size).toBe(0);
  } finally {
    doc.destroy();
    await engine.close();
  }
});
