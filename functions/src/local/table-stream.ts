// DynamoDB Streams for dynalite, which has none. Every single-item write sent through the document
// client (PutItem, UpdateItem, DeleteItem: the repositories use no transactional writes, and batch
// writes only of items the handler reads none of, checked below) becomes the record DynamoDB would put on the table's stream (view NEW_AND_OLD_IMAGES), handed to
// `onRecord` once the write has succeeded. A put or delete returns the old item with the write
// itself (ReturnValues ALL_OLD) and a put's new item is what it wrote. An update, on an engine of
// this process (`imagesWithUpdates`: its transports, dynalite-port.ts), comes back with the item
// before and after it as the engine read and wrote them under the item's lock (dynalite-engine.ts):
// one call, as the caller sent it, answered as DynamoDB would. On an engine reached over HTTP (a
// command beside a running server), its old item is read before it and its new one comes back
// with it (ReturnValues ALL_NEW). Writes of one item are serialised in this process, so their
// records come in write order and no other write of the item falls between an update and its read.
// Like DynamoDB, a write that changes nothing (and a failed conditional write) makes no record.
// The items whose records the handler reads none of (keys.unreadByStream: the statistics' own items,
// such as the inventory's write counter a calculation write takes, the caps' counters, such as the
// project's lines it takes, a mine's packed readings) make none either, nor does an update of a year
// lock's counts and hold alone: the handler skips both, so those writes ask for no images. Nor does
// a modification that, by its images, changed a lock's attributes alone (the year's review a
// calculation write counts begun, its other attributes set as they were): the handler would skip
// it, and the records it makes cross to the handler's thread.
import { GetItemCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { MARSHALL_OPTIONS } from "../adapters/dynamodb/client";
import { newId } from "../domain/ids";
import { changedAttributes } from "../adapters/item-change";
import type { StreamRecord } from "../events/table-changes";
import { LOCK_ATTRIBUTES, onlyLocksChanged, unreadByStream } from "../adapters/dynamodb/keys";
import type { EngineItem } from "./dynalite-answer";
import { ITEM_IMAGES_HEADER, itemImagesOf } from "./dynalite-port";

type Image = Record<string, AttributeValue>;

interface BatchInput {
  RequestItems?: Record<string, { PutRequest?: { Item?: Record<string, unknown> }; DeleteRequest?: { Key?: Record<string, unknown> } }[]>;
}

interface WriteInput {
  TableName?: string;
  Key?: Record<string, unknown>;
  Item?: Record<string, unknown>;
  ReturnValues?: string;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

const UPDATE_WORDS = new Set(["SET", "ADD", "REMOVE", "DELETE", "if_not_exists", "list_append"]);

/** An update that changes only a lock's attributes (keys.LOCK_ATTRIBUTES: a year's, a project's): its
 *  record would change no data the handler keeps (the audit and the statistics skip it), so it is
 *  made without reading the item's images. */
export function onlyLockAttributes(input: WriteInput): boolean {
  const names = (input.UpdateExpression ?? "").replace(/:[A-Za-z0-9_]+/g, " ").match(/#?[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  const attributes = names.filter((name) => !UPDATE_WORDS.has(name)).map((name) => input.ExpressionAttributeNames?.[name] ?? name);
  return attributes.length > 0 && attributes.every((name) => LOCK_ATTRIBUTES.includes(name));
}

// At the initialize step the document client has not marshalled the input yet, nor will the
// output be marshalled when it comes back (lib-dynamodb converts both next to the serialiser).
const image = (item: Record<string, unknown> | undefined): Image | undefined =>
  item ? (marshall(item, MARSHALL_OPTIONS) as Image) : undefined;

type EngineValue = EngineItem[string];

/** Base64 as the SDK decodes it: a Uint8Array (on Buffer's memory, as the SDK's own). */
const bytes = (base64: string): Uint8Array => {
  const buffer = Buffer.from(base64, "base64");
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};

/** A value as the SDK reads it off the wire: the engine keeps a binary value as its base64. */
function fromEngine(value: EngineValue): AttributeValue {
  if (typeof value.B === "string") return { B: bytes(value.B) };
  if (Array.isArray(value.BS)) return { BS: value.BS.map(bytes) };
  if (value.M) return { M: fromEngineItem(value.M as EngineItem) };
  if (Array.isArray(value.L)) return { L: value.L.map(fromEngine) };
  return value as unknown as AttributeValue;
}

/** An image as DynamoDB Streams would give it, from the item as the engine keeps it. */
function fromEngineItem(item: EngineItem): Image {
  const image: Image = {};
  for (const name of Object.keys(item)) image[name] = fromEngine(item[name]);
  return image;
}

export interface CaptureOptions {
  /** The client reaches an engine of this process (dynalite-port.ts), which answers an update
   *  with its images: no read before it. */
  imagesWithUpdates?: boolean;
}

/** Set on a call's context when its update asks the engine for its images. */
const ASK_IMAGES = Symbol("localItemImages");

/** `onRecord` may answer a promise (its queue is full): the write answers once it resolves. */
export function captureTableChanges(
  doc: DynamoDBDocumentClient,
  onRecord: (record: StreamRecord) => unknown,
  options: CaptureOptions = {},
): void {
  const locks = new Map<string, Promise<unknown>>();
  // Sequence numbers grow across restarts too (the statistics remember the last one applied per
  // item): microseconds of the clock, or one more than the last when the clock has not moved on.
  let sequence = 0n;
  const nextSequence = () => {
    const now = BigInt(Date.now()) * 1000n;
    sequence = now > sequence ? now : sequence + 1n;
    return String(sequence).padStart(21, "0");
  };

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

  /** Hands the record on; a promise when its queue is full (the write answers once there is room). */
  const emit = (key: Image, before: Image | undefined, after: Image | undefined) => {
    // An item made or removed always changes; only a modification is compared attribute by attribute.
    if (!before && !after) return undefined;
    if (before && after && onlyLocksChanged(changedAttributes(before, after))) return undefined;
    const SequenceNumber = nextSequence();
    const handed = onRecord({
      eventID: newId(),
      eventName: !before ? "INSERT" : !after ? "REMOVE" : "MODIFY",
      dynamodb: {
        Keys: key,
        OldImage: before,
        NewImage: after,
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        SequenceNumber,
      },
    });
    return handed instanceof Promise ? handed : undefined;
  };

  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName;
      // A batch's writes make no records here: one of an item the handler reads would be lost.
      if (command === "BatchWriteItemCommand") {
        const requests = Object.values((args.input as BatchInput).RequestItems ?? {}).flat();
        for (const request of requests) {
          const { PK, SK } = request.PutRequest?.Item ?? request.DeleteRequest?.Key ?? {};
          if (typeof PK !== "string" || typeof SK !== "string" || !unreadByStream(PK, SK))
            throw new Error(`a batch write of ${String(PK)} ${String(SK)}, an item the table's stream hands over`);
        }
        return next(args);
      }
      if (command !== "PutItemCommand" && command !== "UpdateItemCommand" && command !== "DeleteItemCommand") return next(args);
      const input = args.input as WriteInput;
      const source = input.Key ?? input.Item ?? {};
      const [pk, sk, tableName] = [source.PK, source.SK, input.TableName];
      if (typeof pk !== "string" || typeof sk !== "string" || !tableName || unreadByStream(pk, sk)) return next(args);
      const key: Image = { PK: { S: pk }, SK: { S: sk } };
      return serialised(`${tableName}\u0000${pk}\u0000${sk}`, async () => {
        if (command === "UpdateItemCommand") {
          // A year's write counted begun or ended, or held (D32): a change the handler skips.
          if (onlyLockAttributes(input)) return next(args);
          if (options.imagesWithUpdates) {
            (context as { [ASK_IMAGES]?: boolean })[ASK_IMAGES] = true;
            const result = await next(args);
            const images = itemImagesOf(result.response);
            if (!images) throw new Error("the local engine answered an update without the item's images");
            // Compared as the engine gave them: a change of a lock alone is not converted to be dropped.
            if (images.before && onlyLocksChanged(changedAttributes(images.before, images.after))) return result;
            await emit(key, images.before && fromEngineItem(images.before), fromEngineItem(images.after));
            return result;
          }
          const before = await readImage(tableName, key);
          // The item after the update comes back with it, unless the caller asked for another view.
          if (input.ReturnValues === undefined || input.ReturnValues === "NONE") {
            const result = await next({ ...args, input: { ...input, ReturnValues: "ALL_NEW" } });
            const output = result.output as { Attributes?: Record<string, unknown> };
            await emit(key, before, image(output.Attributes));
            delete output.Attributes;
            return result;
          }
          const result = await next(args);
          await emit(key, before, await readImage(tableName, key));
          return result;
        }
        const result = await next({ ...args, input: { ...input, ReturnValues: "ALL_OLD" } });
        const output = result.output as { Attributes?: Record<string, unknown> };
        const before = image(output.Attributes);
        if (input.ReturnValues !== "ALL_OLD") delete output.Attributes;
        await emit(key, before, command === "PutItemCommand" ? image(input.Item) : undefined);
        return result;
      });
    },
    // After the storable-values guard (high priority), so refused writes never get here.
    { step: "initialize", priority: "low", name: "localTableStream" },
  );
  if (!options.imagesWithUpdates) return;
  doc.middlewareStack.add(
    (next, context) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if ((context as { [ASK_IMAGES]?: boolean })[ASK_IMAGES] && request.headers) request.headers[ITEM_IMAGES_HEADER] = "1";
      return next(args);
    },
    { step: "build", name: "localItemImages" },
  );
}
