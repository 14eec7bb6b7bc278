// Reads sent side by side go to DynamoDB as one request: the GetItems a request starts in the same
// turn of the event loop (its project and the dictionaries' change counter, say) are sent as one
// BatchGetItem, so they cost one round trip, not one each. Gets that differ in projection are sent
// apart; a group with one strongly consistent Get reads all its keys so (a stronger read than the
// others asked for); a key asked for twice is read once.
import { BatchGetCommand, GetCommand, type DynamoDBDocumentClient, type GetCommandInput } from "@aws-sdk/lib-dynamodb";

type Key = Record<string, unknown>;

interface Waiting {
  input: GetCommandInput;
  resolve: (output: { Item?: Record<string, unknown> }) => void;
  reject: (error: unknown) => void;
}

/** BatchGetItem takes at most this many keys. */
const BATCH_KEYS = 100;

const keyOf = (key: Key | undefined) => JSON.stringify([key?.PK, key?.SK]);

/** A projected batch must also return the key attributes, or its items cannot be told apart; they
 *  are taken out again before a caller sees its item (no projection of the product names them). */
const KEY_NAMES = { "#coalescedPK": "PK", "#coalescedSK": "SK" };
const withoutKeys = (item: Record<string, unknown> | undefined) => {
  if (!item) return item;
  const { PK: _pk, SK: _sk, ...rest } = item;
  return rest;
};

export function coalesceGets(doc: DynamoDBDocumentClient): void {
  const send = doc.send.bind(doc) as (command: unknown) => Promise<unknown>;
  let waiting: Waiting[] | undefined;

  async function sendGroup(group: Waiting[]): Promise<void> {
    const input = { ...group[0].input, ConsistentRead: group.some((w) => w.input.ConsistentRead) || undefined };
    const keys = [...new Map(group.map((w) => [keyOf(w.input.Key), w.input.Key!])).values()];
    if (keys.length === 1) {
      const output = (await send(new GetCommand(input))) as { Item?: Record<string, unknown> };
      for (const w of group) w.resolve(output);
      return;
    }
    const found = new Map<string, Record<string, unknown>>();
    for (let start = 0; start < keys.length; start += BATCH_KEYS) {
      let request: Record<string, { Keys: Key[] }> | undefined = {
        [input.TableName!]: {
          Keys: keys.slice(start, start + BATCH_KEYS),
          ...(input.ConsistentRead ? { ConsistentRead: true } : {}),
          ...(input.ProjectionExpression
            ? {
                ProjectionExpression: `${input.ProjectionExpression}, ${Object.keys(KEY_NAMES).join(", ")}`,
                ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...KEY_NAMES },
              }
            : {}),
        },
      };
      // Keys DynamoDB did not get to (throttling) are asked for again.
      while (request && Object.keys(request).length > 0) {
        const out = (await send(new BatchGetCommand({ RequestItems: request }))) as {
          Responses?: Record<string, Record<string, unknown>[]>;
          UnprocessedKeys?: typeof request;
        };
        for (const item of out.Responses?.[input.TableName!] ?? []) found.set(keyOf(item), item);
        request = out.UnprocessedKeys;
      }
    }
    const projected = input.ProjectionExpression !== undefined;
    for (const w of group) {
      const item = found.get(keyOf(w.input.Key));
      w.resolve({ Item: projected ? withoutKeys(item) : item });
    }
  }

  function flush(): void {
    const all = waiting ?? [];
    waiting = undefined;
    const groups = new Map<string, Waiting[]>();
    for (const w of all) {
      const { TableName, ProjectionExpression, ExpressionAttributeNames } = w.input;
      const group = JSON.stringify([TableName, ProjectionExpression ?? null, ExpressionAttributeNames ?? null]);
      groups.set(group, [...(groups.get(group) ?? []), w]);
    }
    for (const group of groups.values()) {
      sendGroup(group).catch((error) => {
        for (const w of group) w.reject(error);
      });
    }
  }

  doc.send = ((command: unknown, ...rest: unknown[]) => {
    if (!(command instanceof GetCommand) || rest.length > 0) return (send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    return new Promise<unknown>((resolve, reject) => {
      if (!waiting) {
        waiting = [];
        queueMicrotask(flush);
      }
      waiting.push({ input: command.input, resolve, reject });
    });
  }) as typeof doc.send;
}
