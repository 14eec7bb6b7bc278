// DynamoDB Streams for dynalite, which has none. Every single-item write sent through the document
// client (PutItem, UpdateItem, DeleteItem: the repositories use no batch or transactional writes)
// becomes the record DynamoDB would put on the table's stream (view NEW_AND_OLD_IMAGES), handed to
// `onRecord` once the write has succeeded. The item is read before and after the write under a
// per-item lock, so two writes of one item in this process cannot interleave between the reads.
// Like DynamoDB, a write that changes nothing (and a failed conditional write) makes no record.
import { GetItemCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { newId } from "../domain/ids";
import { changedAttributes, type StreamRecord } from "../lambda/stream";

const WRITES = new Set(["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand"]);

type Image = Record<string, AttributeValue>;

interface WriteInput {
  TableName?: string;
  Key?: Record<string, unknown>;
  Item?: Record<string, unknown>;
}

/** A key attribute as a string, whether the document client has marshalled it yet or not. */
const keyString = (value: unknown): string | undefined =>
  typeof value === "string" ? value : ((value as { S?: string } | undefined)?.S ?? undefined);

export function captureTableChanges(doc: DynamoDBDocumentClient, onRecord: (record: StreamRecord) => void): void {
  const locks = new Map<string, Promise<unknown>>();
  let sequence = 0;

  const readImage = async (tableName: string, key: Image): Promise<Image | undefined> =>
    (await doc.send(new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

  /** Runs `work` after every earlier write of the same item has finished. */
  const serialised = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const previous = locks.get(id) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    locks.set(id, tail);
    void tail.then(() => {
      if (locks.get(id) === tail) locks.delete(id);
    });
    return current;
  };

  doc.middlewareStack.add(
    (next, context) => async (args) => {
      if (!WRITES.has(context.commandName ?? "")) return next(args);
      const input = args.input as WriteInput;
      const source = input.Key ?? input.Item ?? {};
      const pk = keyString(source.PK);
      const sk = keyString(source.SK);
      const tableName = input.TableName;
      if (pk === undefined || sk === undefined || !tableName) return next(args);
      const key: Image = { PK: { S: pk }, SK: { S: sk } };
      return serialised(`${tableName}\u0000${pk}\u0000${sk}`, async () => {
        const before = await readImage(tableName, key);
        const result = await next(args);
        const after = await readImage(tableName, key);
        if ((before || after) && changedAttributes(before, after).length > 0) {
          sequence += 1;
          onRecord({
            eventID: newId(),
            eventName: !before ? "INSERT" : !after ? "REMOVE" : "MODIFY",
            dynamodb: {
              Keys: key,
              OldImage: before,
              NewImage: after,
              ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
              SequenceNumber: String(sequence).padStart(21, "0"),
            },
          });
        }
        return result;
      });
    },
    // After the storable-values guard (high priority), so refused writes never get here.
    { step: "initialize", priority: "low", name: "localTableStream" },
  );
}
