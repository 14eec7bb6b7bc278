// Reading and writing items, shared by the repositories: queries run to the end or to a page,
// key attributes stripped from what is read, optimistic locking on what is written.
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type {
  AbatementAssessment,
  ClimateProject,
  Company,
  EmissionPoint,
  Facility,
  GatewayKey,
  InventoryComment,
  InventoryVersion,
  PageRequest,
  Sensor,
  StoredCalculation,
} from "../../ports";
import { conditional, versionedPuts } from "./conditions";
import * as keys from "./keys";

export type Item = Record<string, unknown>;

// With the keys, the storage's own marks: a calculation's `inventory_write` and `inventory_year`
// (calculation-repository.ts), a project's lock on its facility (project-repository.ts).
export const KEY_ATTRIBUTES: readonly string[] = [
  "PK",
  "SK",
  "GSI1PK",
  "GSI1SK",
  "expires_at",
  "inventory_write",
  "inventory_year",
  ...keys.PROJECT_POINT_LOCK_ATTRIBUTES,
];

/** A write's own marks on a calculation (read back with its item, never carried to the next write):
 *  the write counter's number it took, and the year whose lock counted it begun (the stream ends it there). */
export type CalculationMarks = { inventory_write: number; inventory_year?: number };

/** A calculation as stored: its keys, its place in its project's list of its type and state, the
 *  record and the marks of the write that stores it (a mark the record was read with is dropped). */
export function calculationItem(c: StoredCalculation, marks: CalculationMarks): Item {
  const { inventory_write: _w, inventory_year: _y, ...rest } = c as StoredCalculation & Partial<CalculationMarks>;
  return {
    ...keys.calculation(c.company, c.type, c.id),
    ...keys.calculationInIndex(c.company, c.project, c.type, c.is_deleted ? "archived" : "active", c.created_at, c.id),
    ...rest,
    inventory_write: marks.inventory_write,
    ...(marks.inventory_year === undefined ? {} : { inventory_year: marks.inventory_year }),
  };
}

// The items of records stored as they are under their keys (both adapters write them).
export const companyItem = (c: Company) => ({ ...keys.company(c.id), ...keys.companyInIndex(c.name, c.id), ...c });
export const facilityItem = (f: Facility) => ({ ...keys.facility(f.company, f.id), ...f });
/** the security review's R12: an assessment's maps keyed by stream code (its input's options, chosen and overrides,
 *  its origins) are stored as lists of [code, value] pairs: stream codes are data, and a code
 *  «__proto__» read back as a map's key would set the read object's prototype instead (the SDK's
 *  unmarshalling assigns each key). Items written before hold maps, read as they are. */
const CODE_KEYED = ["options", "chosen", "overrides"] as const;
const asPairs = (record: object | undefined) => (record === undefined ? undefined : Object.entries(record));
const asRecord = (stored: unknown) => (Array.isArray(stored) ? Object.fromEntries(stored as [string, unknown][]) : stored);

export const abatementItem = (a: AbatementAssessment) => ({
  ...keys.abatementAssessment(a.company, a.id),
  ...a,
  input: { ...a.input, ...Object.fromEntries(CODE_KEYED.filter((k) => a.input[k] !== undefined).map((k) => [k, asPairs(a.input[k])])) },
  origins: asPairs(a.origins),
});

/** An assessment as stored, its pairs back as records (abatementItem). */
export function abatementOf(item: Item | undefined): AbatementAssessment | undefined {
  const stored = strip<AbatementAssessment>(item);
  if (!stored) return undefined;
  const input = { ...stored.input } as Record<string, unknown>;
  for (const key of CODE_KEYED) if (input[key] !== undefined) input[key] = asRecord(input[key]);
  return {
    ...stored,
    input: input as unknown as AbatementAssessment["input"],
    origins: asRecord(stored.origins) as AbatementAssessment["origins"],
  };
}
export const climateProjectItem = (p: ClimateProject) => ({ ...keys.climateProject(p.company, p.id), ...p });
export const emissionPointItem = (p: EmissionPoint) => ({ ...keys.emissionPoint(p.company, p.facility, p.id), ...p });
export const sensorItem = (s: Sensor) => ({ ...keys.sensor(s.company, s.facility, s.id), ...s });
export const gatewayKeyItem = (k: GatewayKey) => ({ ...keys.gatewayKey(k.company, k.facility, k.id), ...k });
export const inventoryVersionItem = (v: InventoryVersion) => ({ ...keys.inventoryVersion(v.company, v.year, v.version), ...v });
export const inventoryCommentItem = (c: InventoryComment) => ({ ...keys.inventoryComment(c.company, c.year, c.id), ...c });

/** The stored record without its key attributes. */
export function strip<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  const copy: Item = { ...item };
  for (const key of KEY_ATTRIBUTES) delete copy[key];
  return copy as T;
}

/** Each stored record of a query's items, without its key attributes. */
export function stripAll<T>(items: readonly Item[]): T[] {
  return items.map((item) => strip<T>(item)!);
}

/** The stored record at `key`, without its key attributes; `consistentRead` for read-your-writes. */
export async function getItem<T>(
  doc: DynamoDBDocumentClient,
  table: string,
  key: Item,
  { consistentRead = false }: { consistentRead?: boolean } = {},
): Promise<T | undefined> {
  const out = await doc.send(new GetCommand({ TableName: table, Key: key, ...(consistentRead ? { ConsistentRead: true } : {}) }));
  return strip<T>(out.Item);
}

/** A put of an item that must not exist yet: its condition fails when one is stored at its key. */
export const putNewCommand = (table: string, item: Item) =>
  new PutCommand({ TableName: table, Item: item, ConditionExpression: "attribute_not_exists(PK)" });

/** Writes a new item; Conflict with `conflict` when one is already stored at its key. */
export function putNew(doc: DynamoDBDocumentClient, table: string, item: Item, conflict: string) {
  return conditional(doc.send(putNewCommand(table, item)), conflict);
}

/** The SET clause of an update that writes each defined value of `fields` (`#f0 = :f0, …`), with its
 *  attribute names and values, and the names it writes. */
export function setClause(fields: object) {
  const record = fields as Readonly<Record<string, unknown>>;
  const written = Object.keys(record).filter((name) => record[name] !== undefined);
  return {
    written,
    clause: written.map((_, i) => `#f${i} = :f${i}`).join(", "),
    names: Object.fromEntries(written.map((name, i) => [`#f${i}`, name])),
    values: Object.fromEntries(written.map((name, i) => [`:f${i}`, record[name]])),
  };
}

/** Runs a query to the end, page by page (DynamoDB pages are at most 1 MB). */
export async function queryAll(doc: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every item of a partition, page by page. */
export function queryPartition(doc: DynamoDBDocumentClient, table: string, pk: string, { consistentRead }: { consistentRead: boolean }) {
  return queryAll(doc, {
    TableName: table,
    KeyConditionExpression: "PK = :pk",
    ExpressionAttributeValues: { ":pk": pk },
    ConsistentRead: consistentRead,
  });
}

/** What a query reads of each item it finds and which of them it keeps. */
export type Narrowing = Pick<
  QueryCommandInput,
  "FilterExpression" | "ProjectionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues"
>;

/** The query of the items of a partition whose sort key begins with the prefix's; `narrowing`
 *  keeps some of them, or some of their attributes. */
export function prefixQuery(
  table: string,
  prefix: { PK: string; SKPrefix: string },
  { consistentRead }: { consistentRead: boolean },
  narrowing: Narrowing = {},
): QueryCommandInput {
  return {
    TableName: table,
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
    ...narrowing,
    ExpressionAttributeValues: { ...narrowing.ExpressionAttributeValues, ":pk": prefix.PK, ":sk": prefix.SKPrefix },
    ConsistentRead: consistentRead,
  };
}

/** Every item of a partition whose sort key begins with the prefix's, page by page (prefixQuery). */
export function queryPrefix(
  doc: DynamoDBDocumentClient,
  table: string,
  prefix: { PK: string; SKPrefix: string },
  read: { consistentRead: boolean },
  narrowing: Narrowing = {},
): Promise<Item[]> {
  return queryAll(doc, prefixQuery(table, prefix, read, narrowing));
}

/** The last changed first, then by name (abatement assessments, climate projects). */
export const lastChangedFirst = (a: { updated_at: string; name: string }, b: { updated_at: string; name: string }) =>
  b.updated_at.localeCompare(a.updated_at) || a.name.localeCompare(b.name, "ru");

/** A company's records of one kind, a handful per company read whole (facilities, abatement
 *  assessments, climate projects): how each is stored, keyed, listed in order, and refused. Both
 *  adapters' companyRecords read it. */
export interface CompanyRecords<T> {
  readonly item: (record: T) => Item;
  readonly key: (companyId: string, id: string) => { PK: string; SK: string };
  readonly ofCompany: (companyId: string) => { PK: string; SKPrefix: string };
  readonly read: (item: Item | undefined) => T | undefined;
  readonly order: (a: T, b: T) => number;
  readonly exists: string;
  readonly conflict: string;
}

/** Created once, read by their key, listed by the company's prefix in order, replaced while the stored
 *  version is the one read. */
export function companyRecords<T>(doc: DynamoDBDocumentClient, table: string, at: CompanyRecords<T>) {
  const { create, replace } = versionedPuts(doc, table, at.item, { exists: at.exists, changed: at.conflict });
  return {
    create,
    async get(companyId: string, id: string) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: at.key(companyId, id) }));
      return at.read(out.Item);
    },
    async list(companyId: string) {
      const items = await queryPrefix(doc, table, at.ofCompany(companyId), { consistentRead: false });
      return items.map((item) => at.read(item) as T).sort(at.order);
    },
    replace,
  };
}

export async function queryCount(doc: DynamoDBDocumentClient, input: QueryCommandInput): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new QueryCommand({ ...input, Select: "COUNT", ExclusiveStartKey: start }));
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}

/** A page of a list whose `count` is kept apart (kept by the stream handler, a moment behind a
 *  write): the page is read with one item more than asked, so a page that is not followed by
 *  another ends the list and counts it exactly; one that is proves at least one more item than it
 *  shows (so the next page is always offered), and an empty one past the end at most its offset.
 *  So a list never reads all of its items to count them. */
export async function countedPage(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  page: PageRequest,
  storedCount: Promise<number>,
): Promise<{ items: Item[]; count: number }> {
  const [items, stored] = await Promise.all([queryPage(doc, input, { offset: page.offset, limit: page.limit + 1 }), storedCount]);
  return { items: items.slice(0, page.limit), count: listCount(page, items.length, stored) };
}

/** The count of a list from what a page read with one item more received, and the stored count. */
export function listCount(page: PageRequest, received: number, stored: number): number {
  if (received > page.limit) return Math.max(stored, page.offset + received);
  if (received > 0) return page.offset + received;
  return Math.min(stored, page.offset);
}

/** Offset pagination over a query: DynamoDB cannot skip, so the first `offset` items are read
 *  (keys only would need a second read per item; lists here are small enough to read whole). */
export async function queryPage(doc: DynamoDBDocumentClient, input: QueryCommandInput, page: PageRequest): Promise<Item[]> {
  const wanted = page.offset + page.limit;
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new QueryCommand({ ...input, Limit: Math.min(wanted - items.length, 1000), ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start && items.length < wanted);
  return items.slice(page.offset, wanted);
}

/** Writes the item if the stored version is still `expectedVersion` (0: only if there is none
 *  yet); otherwise Conflict with `conflict`. Optimistic locking for every versioned item. */
export function versionedPut(doc: DynamoDBDocumentClient, table: string, item: Item, expectedVersion: number, conflict: string) {
  return conditional(
    doc.send(
      new PutCommand({
        TableName: table,
        Item: item,
        // Version 0: none stored, or one stored without a step yet (a year's review that only noted its editors).
        ConditionExpression: expectedVersion === 0 ? "attribute_not_exists(PK) OR version = :v" : "attribute_exists(PK) AND version = :v",
        ExpressionAttributeValues: { ":v": expectedVersion },
      }),
    ),
    conflict,
  );
}

/** Where a partition of versioned records keeps them: its partition key, a record's key by its id,
 *  the id of a record, the conflict a stale write of it gets, and whether it is read consistently. */
export interface VersionedPartition<T, Id> {
  readonly pk: string;
  readonly key: (id: Id) => { PK: string; SK: string };
  readonly idOf: (record: T) => Id;
  readonly conflict: (record: T) => string;
  readonly consistentRead: boolean;
}

/** The repository of a partition of versioned records read whole (the normative documents, the
 *  production calendar's years): list, get, and a put under optimistic locking (versionedPut). */
export function versionedPartition<T extends object, Id>(doc: DynamoDBDocumentClient, table: string, at: VersionedPartition<T, Id>) {
  const read = { consistentRead: at.consistentRead };
  return {
    list: async () => stripAll<T>(await queryPartition(doc, table, at.pk, read)),
    get: (id: Id) => getItem<T>(doc, table, at.key(id), read),
    async put(next: T, expectedVersion: number) {
      await versionedPut(doc, table, { ...at.key(at.idOf(next)), ...next }, expectedVersion, at.conflict(next));
    },
  };
}
