// The table's stream, which dynalite lacks: every write the front door forwards is bracketed by
// consistent reads of the items it touches, and an item that changed becomes a stream record
// (INSERT / MODIFY / REMOVE, its keys, the images its stream's view type keeps) as DynamoDB Streams
// writes it. Writes are forwarded one at a time so that the images belong to their write.
import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { REGION } from "./template";

type Item = Record<string, AttributeValue>;

export interface StreamRecord {
  eventID: string;
  eventName: "INSERT" | "MODIFY" | "REMOVE";
  eventVersion: "1.1";
  eventSource: "aws:dynamodb";
  awsRegion: string;
  eventSourceARN?: string;
  dynamodb: {
    ApproximateCreationDateTime: number;
    Keys: Item;
    NewImage?: Item;
    OldImage?: Item;
    SequenceNumber: string;
    SizeBytes: number;
    StreamViewType: string;
  };
}

/** The items a write touches: [table, key] pairs. */
function touched(operation: string, body: any, keyOf: (table: string, item: Item) => Item): [string, Item][] {
  switch (operation) {
    case "PutItem":
      return [[body.TableName, keyOf(body.TableName, body.Item)]];
    case "UpdateItem":
    case "DeleteItem":
      return [[body.TableName, body.Key]];
    case "TransactWriteItems":
      return (body.TransactItems as Record<string, any>[]).flatMap((entry) => {
        const [kind, request] = Object.entries(entry)[0];
        if (kind === "ConditionCheck") return [];
        return [[request.TableName, kind === "Put" ? keyOf(request.TableName, request.Item) : request.Key] as [string, Item]];
      });
    case "BatchWriteItem":
      return Object.entries(body.RequestItems as Record<string, any[]>).flatMap(([table, requests]) =>
        requests.map((r) => [table, r.PutRequest ? keyOf(table, r.PutRequest.Item) : r.DeleteRequest.Key] as [string, Item]),
      );
    default:
      return [];
  }
}

/** A stable text of an item, to tell whether a write changed it. */
const canonical = (value: unknown): string =>
  value && typeof value === "object"
    ? Array.isArray(value)
      ? `[${value.map(canonical).join(",")}]`
      : `{${Object.keys(value)
          .sort()
          .map((k) => `${k}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(",")}}`
    : JSON.stringify(value);

export class StreamRecorder {
  /** Records not yet delivered, per table. */
  readonly pending = new Map<string, StreamRecord[]>();
  private readonly client: DynamoDBClient;
  private queue: Promise<unknown> = Promise.resolve();
  private sequence = 0;

  constructor(
    endpoint: string,
    /** Per table, its key attributes and its stream's view type (none: the table has no stream). */
    private readonly tables: Record<string, { keys: string[]; viewType?: string }>,
  ) {
    this.client = new DynamoDBClient({ endpoint, region: REGION, credentials: { accessKeyId: "stream", secretAccessKey: "stream" } });
  }

  /** Runs `forward` (the write as the function sent it) between the reads of the items it touches. */
  around(operation: string, body: any, forward: () => Promise<Response>): Promise<Response> {
    const items = touched(operation, body, (table, item) => Object.fromEntries((this.tables[table]?.keys ?? []).map((k) => [k, item[k]])));
    if (items.length === 0) return forward();
    const run = async () => {
      const read = () =>
        Promise.all(
          items.map(
            async ([table, key]) => (await this.client.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item,
          ),
        );
      const before = await read();
      const answer = await forward();
      if (answer.status !== 200) return answer;
      const after = await read();
      items.forEach(([table, key], i) => this.record(table, key, before[i], after[i]));
      return answer;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  private record(table: string, key: Item, oldImage: Item | undefined, newImage: Item | undefined): void {
    const viewType = this.tables[table]?.viewType;
    if (!viewType || canonical(oldImage) === canonical(newImage)) return;
    const images = {
      ...(newImage && viewType !== "KEYS_ONLY" && viewType !== "OLD_IMAGE" ? { NewImage: newImage } : {}),
      ...(oldImage && viewType !== "KEYS_ONLY" && viewType !== "NEW_IMAGE" ? { OldImage: oldImage } : {}),
    };
    this.sequence += 1;
    const records = this.pending.get(table) ?? [];
    records.push({
      eventID: `rehearsal-${this.sequence}`,
      eventName: !oldImage ? "INSERT" : !newImage ? "REMOVE" : "MODIFY",
      eventVersion: "1.1",
      eventSource: "aws:dynamodb",
      awsRegion: REGION,
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: key,
        ...images,
        SequenceNumber: String(this.sequence).padStart(21, "0"),
        SizeBytes: JSON.stringify([key, images]).length,
        StreamViewType: viewType,
      },
    });
    this.pending.set(table, records);
  }

  /** The records written since the last take, in order (what the event source mapping reads next). */
  take(table: string): StreamRecord[] {
    const records = this.pending.get(table) ?? [];
    this.pending.set(table, []);
    return records;
  }

  close(): void {
    this.client.destroy();
  }
}
