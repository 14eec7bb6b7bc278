import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "../adapters/dynamodb/client";
import type { StreamRecord } from "../events/table-changes";
import { startDynalite, type RunningDynalite } from "./dynalite";
import { eventQueue } from "./event-queue";
import { captureTableChanges } from "./table-stream";

const TABLE = "stream-test";
let engine: RunningDynalite;
/** Through the engine's own transport (as the local host's storage): an update answers its images. */
let doc: DynamoDBDocumentClient;
/** Over HTTP (a command beside a running server): an update's old item is read before it. */
let http: DynamoDBDocumentClient;
/** Without a stream: what the engine answers a caller. */
let plain: DynamoDBDocumentClient;
const records: StreamRecord[] = [];

beforeAll(async () => {
  engine = await startDynalite();
  doc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
  await ensureTable(doc, TABLE);
  captureTableChanges(doc, (record) => records.push(record), { imagesWithUpdates: true });
  http = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint });
  captureTableChanges(http, (record) => records.push(record));
  plain = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
});
afterAll(async () => {
  for (const client of [doc, http, plain]) client.destroy();
  await engine.close();
});

const take = () => records.splice(0, records.length);

/** A client whose calls are listed, with the stream captured as `doc`'s or as `http`'s. */
function countingClient(images: boolean): { client: DynamoDBDocumentClient; calls: string[] } {
  const calls: string[] = [];
  const client = createDocumentClient({
    tableName: TABLE,
    endpoint: engine.endpoint,
    ...(images ? { requestHandler: engine.requestHandler() } : {}),
  });
  client.middlewareStack.add((next, context) => (args) => (calls.push(context.commandName!), next(args)), { step: "initialize" });
  captureTableChanges(client, (record) => records.push(record), { imagesWithUpdates: images });
  return { client, calls };
}

const CLIENTS = [
  ["through the engine's transport", () => doc],
  ["over HTTP", () => http],
] as const;

describe("local table stream", () => {
  it("lets a batch write through only of items the handler reads none of, making no record", async () => {
    const events = { PK: "TEVENTS#c1#f1", SK: "EV#2025-01-01T00:00:00.000Z#e1" };
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...events, version: 1 } }));
    take();
    await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: [{ DeleteRequest: { Key: events } }] } }));
    expect(take()).toEqual([]);
    expect(
      (await plain.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: events.PK }, SK: { S: events.SK } } }))).Item,
    ).toBeUndefined();
    const project = { PK: "COMPANY#c1#batch", SK: "PROJECT#p1" };
    await expect(
      doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: { ...project, name: "А" } } }] } })),
    ).rejects.toThrow(/stream hands over/);
    expect(
      (await plain.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: project.PK }, SK: { S: project.SK } } }))).Item,
    ).toBeUndefined();
  });

  it.each(CLIENTS)("records inserts, modifications and removals with both images, as DynamoDB Streams does (%s)", async (via, client) => {
    const Key = { PK: `COMPANY#c1#${via}`, SK: "PROJECT#p1" };
    await client().send(new PutCommand({ TableName: TABLE, Item: { ...Key, name: "А", version: 1 } }));
    await client().send(
      new UpdateCommand({
        TableName: TABLE,
        Key,
        UpdateExpression: "SET #n = :n, version = :v",
        ExpressionAttributeNames: { "#n": "name" },
        ExpressionAttributeValues: { ":n": "Б", ":v": 2 },
      }),
    );
    await client().send(new DeleteCommand({ TableName: TABLE, Key }));
    const [insert, modify, remove] = take();
    expect(insert).toMatchObject({
      eventName: "INSERT",
      dynamodb: { Keys: { PK: { S: Key.PK }, SK: { S: "PROJECT#p1" } }, NewImage: { name: { S: "А" }, version: { N: "1" } } },
    });
    expect(insert.dynamodb.OldImage).toBeUndefined();
    expect(modify).toMatchObject({
      eventName: "MODIFY",
      dynamodb: { OldImage: { name: { S: "А" } }, NewImage: { name: { S: "Б" }, version: { N: "2" } } },
    });
    expect(remove).toMatchObject({ eventName: "REMOVE", dynamodb: { OldImage: { name: { S: "Б" } } } });
    expect(remove.dynamodb.NewImage).toBeUndefined();
    expect(new Set([insert.eventID, modify.eventID, remove.eventID]).size).toBe(3);
    expect([insert, modify, remove].map((r) => r.dynamodb.SequenceNumber)).toEqual(
      [insert, modify, remove].map((r) => r.dynamodb.SequenceNumber).sort(),
    );
  });

  it("records nothing for a failed conditional write or a write that changes nothing", async () => {
    const Item = { PK: "COMPANY#c1", SK: "PROJECT#p2", version: 1 };
    await doc.send(new PutCommand({ TableName: TABLE, Item }));
    take();
    await expect(
      doc.send(new PutCommand({ TableName: TABLE, Item, ConditionExpression: "attribute_not_exists(PK)" })),
    ).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    for (const client of [doc, http]) {
      await expect(
        client.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: { PK: Item.PK, SK: Item.SK },
            UpdateExpression: "SET version = :two",
            ConditionExpression: "version = :two",
            ExpressionAttributeValues: { ":two": 2 },
          }),
        ),
      ).rejects.toBeInstanceOf(ConditionalCheckFailedException);
      await client.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: { PK: Item.PK, SK: Item.SK },
          UpdateExpression: "SET version = :one",
          ExpressionAttributeValues: { ":one": 1 },
        }),
      );
    }
    // The old item the capture asks for stays out of the answer unless the caller asked for it.
    expect((await doc.send(new PutCommand({ TableName: TABLE, Item }))).Attributes).toBeUndefined();
    expect((await doc.send(new PutCommand({ TableName: TABLE, Item, ReturnValues: "ALL_OLD" }))).Attributes).toEqual(Item);
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: { PK: "COMPANY#c1", SK: "PROJECT#none" } }));
    expect(take()).toEqual([]);
  });

  it("makes an update's record from the update alone, and none for a year lock's counts and hold alone", async () => {
    const Key = { PK: "COMPANY#c1", SK: "INVENTORY#2024" };
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...Key, status: "draft", version: 1 } }));
    take();
    const { client: counting, calls } = countingClient(true);
    const answer = await counting.send(
      new UpdateCommand({
        TableName: TABLE,
        Key,
        UpdateExpression: "SET last_changed_by = :e ADD writes_begun :one",
        ExpressionAttributeValues: { ":e": "a@b.c", ":one": 1 },
      }),
    );
    // Nothing the caller did not ask for comes back.
    expect(answer.Attributes).toBeUndefined();
    expect(take()).toMatchObject([
      {
        eventName: "MODIFY",
        dynamodb: { OldImage: { status: { S: "draft" } }, NewImage: { last_changed_by: { S: "a@b.c" }, writes_begun: { N: "1" } } },
      },
    ]);
    // One call: the engine answers the item before and after the update with it.
    expect(calls).toEqual(["UpdateItemCommand"]);
    calls.length = 0;
    await counting.send(
      new UpdateCommand({ TableName: TABLE, Key, UpdateExpression: "ADD writes_ended :one", ExpressionAttributeValues: { ":one": 1 } }),
    );
    await counting.send(
      new UpdateCommand({
        TableName: TABLE,
        Key,
        UpdateExpression: "SET #h = :now",
        ExpressionAttributeNames: { "#h": "held_at" },
        ExpressionAttributeValues: { ":now": "2024-01-01" },
      }),
    );
    expect(take()).toEqual([]);
    expect(calls).toEqual(["UpdateItemCommand", "UpdateItemCommand"]);
    counting.destroy();
  });

  it.each(CLIENTS)(
    "makes none for a write the handler reads nothing of: a cap's counter, or a year's review whose lock alone changed (%s)",
    async (_via, client) => {
      // The room a calculation write takes on its project's lines (domain/inventory/magnitudes.ts).
      const cap = { PK: "CAP#COMPANY#c2", SK: "LINES#PROJECT#p1" };
      await client().send(new PutCommand({ TableName: TABLE, Item: { ...cap, rev: 0 } }));
      await client().send(
        new UpdateCommand({ TableName: TABLE, Key: cap, UpdateExpression: "ADD rev :one", ExpressionAttributeValues: { ":one": 1 } }),
      );
      expect(take()).toEqual([]);
      // A calculation write counted begun on its year's review (inventory-review-repository.ts, beginWrite):
      // the first by this editor changes who changed it last; the next one only the lock's counts.
      const review = { PK: "COMPANY#c2", SK: `INVENTORY#${_via === "over HTTP" ? 2023 : 2024}` };
      const begin = () =>
        client().send(
          new UpdateCommand({
            TableName: TABLE,
            Key: review,
            UpdateExpression: "SET #s = if_not_exists(#s, :draft), last_changed_by = :e, last_begun_at = :now ADD writes_begun :one",
            ExpressionAttributeNames: { "#s": "status" },
            ExpressionAttributeValues: { ":draft": "draft", ":e": "a@b.c", ":now": "2026-03-02T08:00:00.000Z", ":one": 1 },
          }),
        );
      await begin();
      expect(take()).toMatchObject([{ eventName: "INSERT", dynamodb: { NewImage: { last_changed_by: { S: "a@b.c" } } } }]);
      await begin();
      expect(take()).toEqual([]);
      expect(
        (await plain.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: review.PK }, SK: { S: review.SK } } }))).Item,
      ).toMatchObject({
        writes_begun: { N: "2" },
      });
    },
  );

  it("over HTTP, reads an update's old item before it, and the item after comes back with it", async () => {
    const Key = { PK: "COMPANY#c1", SK: "INVENTORY#2025" };
    await http.send(new PutCommand({ TableName: TABLE, Item: { ...Key, status: "draft" } }));
    take();
    const { client: counting, calls } = countingClient(false);
    const answer = await counting.send(
      new UpdateCommand({
        TableName: TABLE,
        Key,
        UpdateExpression: "SET last_changed_by = :e",
        ExpressionAttributeValues: { ":e": "a@b.c" },
      }),
    );
    expect(answer.Attributes).toBeUndefined();
    expect(take()).toMatchObject([
      { eventName: "MODIFY", dynamodb: { OldImage: { status: { S: "draft" } }, NewImage: { last_changed_by: { S: "a@b.c" } } } },
    ]);
    expect(calls.sort()).toEqual(["GetItemCommand", "UpdateItemCommand"]);
    counting.destroy();
  });

  it("answers an update exactly as the engine does without a stream, whatever the caller asks back", async () => {
    const item = { status: "draft", n: 1, tags: new Set(["a"]), map: { a: [1, "x"] } };
    const update = (PK: string, extra: Partial<UpdateCommandInput>): UpdateCommandInput => ({
      TableName: TABLE,
      Key: { PK, SK: "ITEM" },
      UpdateExpression: "SET #m.a[2] = :v, #s = :s ADD n :one, tags :t REMOVE gone",
      ExpressionAttributeNames: { "#m": "map", "#s": "status" },
      ExpressionAttributeValues: { ":v": true, ":s": "approved", ":one": 1, ":t": new Set(["b"]) },
      ReturnConsumedCapacity: "TOTAL",
      ...extra,
    });
    for (const ReturnValues of [undefined, "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"] as const) {
      // The same update of the same item, first without the stream, then with it.
      const PK = `COMPANY#rv#${ReturnValues}`;
      const fresh = () => plain.send(new PutCommand({ TableName: TABLE, Item: { PK, SK: "ITEM", ...item, gone: 1 } }));
      await fresh();
      const { $metadata: _b, ...expected } = await plain.send(new UpdateCommand(update(PK, { ReturnValues })));
      await fresh();
      const { $metadata: _a, ...answered } = await doc.send(new UpdateCommand(update(PK, { ReturnValues })));
      expect(answered, String(ReturnValues)).toEqual(expected);
      const [record] = take();
      const stored = await plain.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: PK }, SK: { S: "ITEM" } } }));
      expect(record.dynamodb.NewImage).toEqual(stored.Item);
      expect(record.dynamodb.OldImage).toMatchObject({ gone: { N: "1" }, n: { N: "1" }, tags: { SS: ["a"] } });
    }
    // A refused update fails as it does without the stream.
    const refused = (PK: string) =>
      update(PK, { UpdateExpression: "SET n = n + :s", ExpressionAttributeNames: undefined, ExpressionAttributeValues: { ":s": "x" } });
    const failure = (error: unknown) => ({ name: (error as Error).name, message: (error as Error).message });
    const want = await plain.send(new UpdateCommand(refused("COMPANY#rv#NONE"))).catch(failure);
    const got = await doc.send(new UpdateCommand(refused("COMPANY#rv#NONE"))).catch(failure);
    expect(want).toMatchObject({ name: "ValidationException" });
    expect(got).toEqual(want);
    expect(take()).toEqual([]);
  });

  it("gives an update's images as DynamoDB Streams does: binary values as bytes, nested and set values whole", async () => {
    const Key = { PK: "COMPANY#bin", SK: "ITEM" };
    const bytes = new Uint8Array([0, 1, 2, 250]);
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...Key,
          b: bytes,
          bs: new Set([bytes, new Uint8Array([7])]),
          m: { inner: bytes, list: [bytes, 1, null] },
          ns: new Set([1, 2]),
        },
      }),
    );
    const read = async () =>
      (await plain.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: Key.PK }, SK: { S: Key.SK } } }))).Item;
    const before = await read();
    take();
    await doc.send(
      new UpdateCommand({ TableName: TABLE, Key, UpdateExpression: "SET m.extra = :b", ExpressionAttributeValues: { ":b": bytes } }),
    );
    const [record] = take();
    expect(record.dynamodb.OldImage).toEqual(before);
    expect(record.dynamodb.NewImage).toEqual(await read());
    expect(record.dynamodb.NewImage!.m.M!.extra.B).toBeInstanceOf(Uint8Array);
  });

  it.each(CLIENTS)(
    "chains the images of concurrent writes to one item: each record's old image is the previous new one (%s)",
    async (via, client) => {
      const Key = { PK: `COMPANY#c1#${via}`, SK: "CALC#x#1" };
      await client().send(new PutCommand({ TableName: TABLE, Item: { ...Key, n: 0 } }));
      take();
      await Promise.all(
        Array.from({ length: 20 }, () =>
          client().send(
            new UpdateCommand({ TableName: TABLE, Key, UpdateExpression: "ADD n :one", ExpressionAttributeValues: { ":one": 1 } }),
          ),
        ),
      );
      const pairs = take().map((r) => [Number(r.dynamodb.OldImage!.n.N), Number(r.dynamodb.NewImage!.n.N)]);
      expect(pairs).toEqual(Array.from({ length: 20 }, (_, i) => [i, i + 1]));
    },
  );
  it("gives, for any mix of concurrent puts, updates and deletes, a chain of images per item ending in what is stored", async () => {
    const keys = ["COMPANY#p#1", "COMPANY#p#2", "COMPANY#p#3"];
    const op = fc.record({
      key: fc.constantFrom(...keys),
      kind: fc.constantFrom("put", "update", "delete", "create"),
      n: fc.integer({ min: 0, max: 3 }),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        round += 1;
        const pk = (key: string) => `${key}#${round}`;
        take();
        await Promise.all(
          ops.map(({ key, kind, n }) => {
            const Key = { PK: pk(key), SK: "ITEM" };
            if (kind === "put") return doc.send(new PutCommand({ TableName: TABLE, Item: { ...Key, n } }));
            if (kind === "delete") return doc.send(new DeleteCommand({ TableName: TABLE, Key }));
            if (kind === "create") {
              return doc
                .send(new PutCommand({ TableName: TABLE, Item: { ...Key, n }, ConditionExpression: "attribute_not_exists(PK)" }))
                .catch((error: unknown) => {
                  if (!(error instanceof ConditionalCheckFailedException)) throw error;
                });
            }
            return doc.send(
              new UpdateCommand({ TableName: TABLE, Key, UpdateExpression: "ADD n :n", ExpressionAttributeValues: { ":n": n + 1 } }),
            );
          }),
        );
        const recorded = take();
        for (const key of keys) {
          const chain = recorded.filter((r) => r.dynamodb.Keys.PK.S === pk(key));
          let previous: unknown;
          for (const record of chain) {
            expect(record.dynamodb.OldImage).toEqual(previous);
            previous = record.dynamodb.NewImage;
          }
          const stored = await doc.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: pk(key) }, SK: { S: "ITEM" } } }));
          expect(stored.Item).toEqual(previous);
        }
      }),
      { numRuns: 40, seed: 20261121 },
    );
  });
});

describe("local event queue", () => {
  it("is bounded: a push beyond its bound waits until the handler has taken a batch", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: number[][] = [];
    const queue = eventQueue<number>(
      async (batch) => {
        handled.push(batch);
        await gate;
      },
      { name: "bounded", batchSize: 2, windowMs: 1, maxPending: 3 },
    );
    expect(queue.push(1)).toBeUndefined();
    expect(queue.push(2)).toBeUndefined();
    const full = queue.push(3);
    expect(full).toBeInstanceOf(Promise);
    let roomed = false;
    void full!.then(() => {
      roomed = true;
    });
    // The first batch taken makes room, while its handler still works.
    await full;
    expect(roomed).toBe(true);
    expect(handled).toEqual([[1, 2]]);
    release();
    await queue.settled();
    expect(handled).toEqual([[1, 2], [3]]);
  });

  it("delivers in order, in batches, one batch at a time, and settles when all are handled", async () => {
    const batches: number[][] = [];
    let inFlight = 0;
    const queue = eventQueue<number>(
      async (batch) => {
        inFlight += 1;
        expect(inFlight).toBe(1);
        await new Promise((r) => setTimeout(r, 5));
        batches.push(batch);
        inFlight -= 1;
      },
      { name: "test", batchSize: 4, windowMs: 1 },
    );
    for (let i = 0; i < 10; i++) queue.push(i);
    await queue.settled();
    expect(batches.flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(4);
  });

  it("gathers every batch for the window, not only a burst's first: a record that comes while a batch is handled waits the window from its coming", async () => {
    vi.useFakeTimers();
    try {
      const batches: number[][] = [];
      const queue = eventQueue<number>(
        async (batch) => {
          batches.push(batch);
          await new Promise((resolve) => setTimeout(resolve, 50));
        },
        { name: "test", batchSize: 10, windowMs: 100 },
      );
      queue.push(0);
      // [0] is taken at 100 ms and handled until 150 ms; 1 comes meanwhile, 2 and 3 after.
      await vi.advanceTimersByTimeAsync(110);
      queue.push(1);
      await vi.advanceTimersByTimeAsync(50);
      queue.push(2);
      await vi.advanceTimersByTimeAsync(40);
      queue.push(3);
      await vi.advanceTimersByTimeAsync(300);
      // Taken at 210 ms, its oldest record's window: before, [1] went alone at 150 ms.
      expect(batches).toEqual([[0], [1, 2, 3]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("retries a failing batch, then drops it with an error in the log and goes on", async () => {
    const seen: number[][] = [];
    const errors: string[] = [];
    let failures = 0;
    const queue = eventQueue<number>(
      async (batch) => {
        seen.push(batch);
        if (batch.includes(1) && failures++ < 1) throw new Error("transient");
        if (batch.includes(2)) throw new Error("permanent");
      },
      { name: "test", batchSize: 1, windowMs: 1, retries: 2, log: { error: (m: string) => errors.push(m) } },
    );
    [1, 2, 3].forEach((n) => queue.push(n));
    await queue.settled();
    expect(seen).toEqual([[1], [1], [2], [2], [2], [3]]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/test: 1 event\(s\) dropped after 3 attempts: Error: permanent/);
  });

  it("tries again only the records the handler reports failed, first in the next batch, and lets the others through", async () => {
    const seen: number[][] = [];
    const errors: string[] = [];
    let failures = 0;
    const queue = eventQueue<number>(
      async (batch) => {
        seen.push(batch);
        // 2 fails once, 4 every time: the batch's other records are done.
        return batch.filter((n) => (n === 2 && failures++ < 1) || n === 4);
      },
      { name: "test", batchSize: 3, windowMs: 1, retries: 2, log: { error: (m: string) => errors.push(m) } },
    );
    [1, 2, 3, 4, 5].forEach((n) => queue.push(n));
    await queue.settled();
    expect(seen).toEqual([[1, 2, 3], [2, 4, 5], [4], [4]]);
    expect(errors).toEqual(["test: 1 event(s) dropped after 3 attempts: the handler reported them failed"]);
  });
});
