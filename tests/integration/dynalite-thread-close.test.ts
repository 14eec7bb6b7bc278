// The local engine's thread closes its store only once the requests it is answering are answered: a
// query still reading its values when the store (then LevelDB) closed threw «Iterator is not open: cannot read after
// close()» in the thread, which took the thread down and failed the server's close (a full run's
// `npm start` stopped by a signal, with a background read in flight). A request sent once the close
// has begun fails as a refused connection would.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { BatchWriteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { startDynalite } from "@server/local/dynalite";

const TABLE = "thread-close";
const ITEMS = 2_000;
const READERS = 8;
const dir = mkdtempSync(join(tmpdir(), "fugitive-thread-close-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("answers the queries in flight before it closes its store, and refuses what comes after", async () => {
  const engine = await startDynalite({ path: dir, thread: true });
  const doc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
  await ensureTable(doc, TABLE);
  const filler = "x".repeat(400);
  for (let start = 0; start < ITEMS; start += 25) {
    const items = Array.from({ length: 25 }, (_, i) => ({ PK: "P", SK: String(start + i).padStart(6, "0"), filler }));
    await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } }));
  }
  const query = () =>
    doc.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: "PK = :p", ExpressionAttributeValues: { ":p": "P" } }));

  // Readers that query again as each answer comes, until the engine refuses them.
  let answered = 0;
  let busy: () => void;
  const allBusy = new Promise<void>((done) => (busy = done));
  const reader = async () => {
    const counts: (number | undefined)[] = [];
    for (;;) {
      try {
        counts.push((await query()).Items?.length);
      } catch (error) {
        return { counts, refused: String(error) };
      }
      if (++answered === READERS) busy();
    }
  };
  const readers = Array.from({ length: READERS }, reader);
  await allBusy;
  // Closed while the readers' next queries are on their way or being read.
  await expect(engine.close()).resolves.toBeUndefined();
  const ends = await Promise.all(readers);
  for (const { counts, refused } of ends) {
    // A page holds up to 1 MB: each answer has every item (2 000 of about 0,4 KB).
    expect(counts.length).toBeGreaterThan(0);
    expect(counts).toEqual(Array(counts.length).fill(ITEMS));
    expect(refused).toMatch(/dynalite thread unreachable/);
  }
  doc.destroy();

  // The folder opens again with everything written.
  const again = await startDynalite({ path: dir, thread: true });
  const reopened = createDocumentClient({ tableName: TABLE, endpoint: again.endpoint, requestHandler: again.requestHandler() });
  try {
    const { Count } = await reopened.send(
      new QueryCommand({ TableName: TABLE, KeyConditionExpression: "PK = :p", ExpressionAttributeValues: { ":p": "P" }, Select: "COUNT" }),
    );
    expect(Count).toBe(ITEMS);
  } finally {
    reopened.destroy();
    await again.close();
  }
});
