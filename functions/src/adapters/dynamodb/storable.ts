// What DynamoDB cannot hold must not surface as a 500. Found by tests/integration/fuzz.test.ts:
// - Ids come from URLs and bodies. One longer than a key can be (a sort key holds at most 1024
//   bytes, a partition key 2048) names no stored item: a read of it answers "no item" — the same
//   404 as any missing id — and a write with it is bad input.
// - Numbers: the document marshaller refuses any beyond ±2^53 (and could not read one back), and
//   DynamoDB any non-zero number smaller than 1e-130 in magnitude. A write carrying one is bad
//   input naming its field (a calculation's input, or a result the inputs drove out of range).
// - Size: an item over DynamoDB's 400 KB is bad input (what drove it there is checked earlier,
//   where the row can be named; this is the backstop), not a 500 "Item size has exceeded".
// Installed once on the document client (client.ts), before the marshaller, so every repository
// method is covered, present and future.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Invalid, invalidAt } from "../../domain/errors";

const MAX_KEY_BYTES: Record<string, number> = { PK: 2048, SK: 1024, GSI1PK: 2048, GSI1SK: 1024 };
const MAX_ITEM_BYTES = 400 * 1024;

/** An item's size as DynamoDB counts it (names and values; a number about one byte per two
 *  digits), close enough to refuse what it would refuse. */
function storedSize(value: unknown): number {
  if (typeof value === "string") return Buffer.byteLength(value);
  if (typeof value === "number") return Math.ceil(String(value).replace(/[-.]|e.*$/gi, "").length / 2) + 1;
  if (value === null || typeof value === "boolean" || value === undefined) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, item) => sum + storedSize(item), 3);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + 1 + storedSize(item), 3);
  if (typeof value === "object") {
    return Object.entries(value).reduce((sum, [name, item]) => sum + 1 + Buffer.byteLength(name) + storedSize(item), 3);
  }
  return 0;
}
const SMALLEST = 1e-130;

const oversized = (values: Record<string, unknown> | undefined, limit?: (name: string) => number | undefined) =>
  Object.entries(values ?? {}).some(
    ([name, value]) => typeof value === "string" && Buffer.byteLength(value) > (limit ? (limit(name) ?? Infinity) : 1024),
  );

function checkNumbers(value: unknown, field: string): void {
  if (typeof value === "number") {
    const size = Math.abs(value);
    if (!Number.isFinite(value) || size > Number.MAX_SAFE_INTEGER || (size !== 0 && size < SMALLEST)) {
      throw invalidAt(field, "число вне допустимого диапазона (по модулю от 1e-130 до 9e15 или 0)");
    }
  } else if (Array.isArray(value)) {
    for (const item of value) checkNumbers(item, field);
  } else if (value && typeof value === "object" && !(value instanceof Uint8Array) && !(value instanceof Set)) {
    for (const [key, item] of Object.entries(value)) checkNumbers(item, key.startsWith(":") ? field : key);
  }
}

/** Refuses, as bad input, an item DynamoDB could not hold: a key too long, over 400 KB, a number
 *  out of its range. The in-memory repositories (adapters/memory) check what they store by it too. */
export function checkStorableItem(item: Record<string, unknown>): void {
  if (oversized(item, (name) => MAX_KEY_BYTES[name])) throw new Invalid("Слишком длинный идентификатор");
  if (storedSize(item) - 3 > MAX_ITEM_BYTES) {
    throw new Invalid("Данные не помещаются в одну запись хранилища (более 400 КБ): сократите названия или разделите данные");
  }
  checkNumbers(item, "value");
}

interface Input {
  Key?: Record<string, unknown>;
  Item?: Record<string, unknown>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export function guardStorableValues(doc: DynamoDBDocumentClient): void {
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Input;
      const keyLimit = (name: string) => MAX_KEY_BYTES[name];
      switch (context.commandName) {
        case "GetItemCommand":
          if (oversized(input.Key, keyLimit)) return { output: { Item: undefined, $metadata: {} } as never, response: {} };
          break;
        case "QueryCommand":
          // Key condition values only ever hold keys here; one too long matches nothing.
          if (oversized(input.ExpressionAttributeValues)) return { output: { Items: [], Count: 0, $metadata: {} } as never, response: {} };
          break;
        case "PutItemCommand":
        case "UpdateItemCommand":
        case "DeleteItemCommand":
          if (oversized(input.Key, keyLimit)) throw new Invalid("Слишком длинный идентификатор");
          if (input.Item) checkStorableItem(input.Item);
          checkNumbers(input.ExpressionAttributeValues, "value");
          break;
      }
      return next(args);
    },
    { step: "initialize", priority: "high", name: "storableValues" },
  );
}
