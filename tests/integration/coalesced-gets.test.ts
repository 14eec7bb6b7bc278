// Reads sent side by side go as one BatchGetItem (adapters/dynamodb/coalesced-gets.ts), each caller
// getting its own item, on the real dynalite engine.
import { afterAll, beforeAll, expect, it } from "vitest";
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { countCalls, type CallCounter } from "@server/adapters/dynamodb/call-count";
import { startDynalite, type RunningDynalite } from "@server/local/dynalite";

const TABLE = "coalesced-gets";
let engine: RunningDynalite;
let doc: DynamoDBDocumentClient;
let counter: CallCounter;

beforeAll(async () => {
  engine = await startDynalite();
  doc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint });
  await ensureTable(doc, TABLE);
  for (const sk of ["a", "b"]) await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: "P", SK: sk, value: sk, other: 1 } }));
  counter = countCalls(doc);
});
afterAll(async () => {
  doc.destroy();
  await engine.close();
});

const get = (sk: string, extra: Partial<GetCommand["input"]> = {}) =>
  doc.send(new GetCommand({ TableName: TABLE, Key: { PK: "P", SK: sk }, ...extra })).then((out) => out.Item);

it("answers each Get of one turn from one BatchGet, a key asked twice and a missing one included", async () => {
  counter.reset();
  const [a, b, again, missing, projected] = await Promise.all([
    get("a"),
    get("b", { ConsistentRead: true }),
    get("a"),
    get("none"),
    get("b", { ProjectionExpression: "#v", ExpressionAttributeNames: { "#v": "value" } }),
  ]);
  expect([a, b, again, missing, projected]).toEqual([
    { PK: "P", SK: "a", value: "a", other: 1 },
    { PK: "P", SK: "b", value: "b", other: 1 },
    { PK: "P", SK: "a", value: "a", other: 1 },
    undefined,
    { value: "b" },
  ]);
  // The projected one asks for other attributes: it goes apart.
  expect(counter.calls.map((c) => c.command).sort()).toEqual(["BatchGet", "Get"]);
  // Projected Gets of one turn go as one BatchGet too, each still getting its own item.
  counter.reset();
  const projection = { ProjectionExpression: "#v", ExpressionAttributeNames: { "#v": "value" } };
  const plain = { ProjectionExpression: "#o", ExpressionAttributeNames: { "#o": "other" } };
  expect(await Promise.all([get("a", projection), get("b", projection), get("none", projection)])).toEqual([
    { value: "a" },
    { value: "b" },
    undefined,
  ]);
  expect(await Promise.all([get("a", plain), get("b", plain)])).toEqual([{ other: 1 }, { other: 1 }]);
  expect(counter.calls.map((c) => c.command)).toEqual(["BatchGet", "BatchGet"]);
  // One after another, each is a Get of its own.
  counter.reset();
  expect(await get("a")).toMatchObject({ value: "a" });
  expect(await get("none")).toBeUndefined();
  expect(counter.calls.map((c) => c.command)).toEqual(["Get", "Get"]);
});
