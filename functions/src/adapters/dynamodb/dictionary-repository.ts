// Dictionary items (keys.dictionaryItem) and the history of their versions. The current items are
// kept in the process: every change bumps a counter (keys.dictionariesVersion) after writing the
// item, and a list is served from memory only while the counter is the one it was read at, so a
// change made by another process is seen by the next request here.
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DictionaryItemVersion, DictionaryRepository } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";
import { queryPartition, versionedPut, getItem, stripAll, putNewCommand } from "./items";

/** A backstop for a change whose counter bump was lost (the process died between the two
 *  writes): no list is served from memory for longer than this. */
const CACHE_MAX_AGE_MS = 60_000;

interface Cached {
  counter: number;
  readAt: number;
  items: readonly DictionaryItemVersion[];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The versions read, with each item's current one should its history not hold it yet; by id and
 *  version. */
export function withCurrent(versions: DictionaryItemVersion[], current: readonly DictionaryItemVersion[]): DictionaryItemVersion[] {
  const held = new Set(versions.map((v) => `${v.id}|${v.version}`));
  return [...versions, ...current.filter((item) => !held.has(`${item.id}|${item.version}`))].sort(
    (a, b) => a.id - b.id || a.version - b.version,
  );
}

export function dynamoDictionaries(doc: DynamoDBDocumentClient, table: string): DictionaryRepository {
  const cache = new Map<string, Cached>();
  const versionsCache = new Map<string, Cached>();

  async function readCounter(): Promise<number> {
    const out = await doc.send(new GetCommand({ TableName: table, Key: keys.dictionariesVersion(), ConsistentRead: true }));
    return (out.Item?.counter as number | undefined) ?? 0;
  }

  async function bumpCounter(): Promise<void> {
    await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.dictionariesVersion(),
        UpdateExpression: "ADD #counter :one",
        ExpressionAttributeNames: { "#counter": "counter" },
        ExpressionAttributeValues: { ":one": 1 },
      }),
    );
  }

  /** The dictionary's current items as of `counter`: from memory, or read (consistently, so that
   *  an item written before the counter's bump is seen) and kept. Shared, hence frozen. */
  async function listAt(dictionary: string, counter: number): Promise<DictionaryItemVersion[]> {
    const kept = cache.get(dictionary);
    if (kept && kept.counter === counter && Date.now() - kept.readAt < CACHE_MAX_AGE_MS) return [...kept.items];
    const readAt = Date.now();
    const items = await queryPartition(doc, table, keys.dictionaryItems(dictionary).PK, { consistentRead: true });
    const current = deepFreeze(stripAll<DictionaryItemVersion>(items));
    cache.set(dictionary, { counter, readAt, items: current });
    return [...current];
  }

  /** Every version of the dictionary's items as of `counter`, kept like listAt: a version is
   *  written before the counter's bump, so a read at the bumped counter holds it. */
  async function versionsAt(dictionary: string, counter: number): Promise<DictionaryItemVersion[]> {
    const kept = versionsCache.get(dictionary);
    if (kept && kept.counter === counter && Date.now() - kept.readAt < CACHE_MAX_AGE_MS) return [...kept.items];
    const readAt = Date.now();
    const current = await listAt(dictionary, counter);
    const read = await Promise.all(
      current.map((item) => queryPartition(doc, table, keys.dictionaryItemVersions(dictionary, item.id).PK, { consistentRead: true })),
    );
    const all = deepFreeze(withCurrent(stripAll<DictionaryItemVersion>(read.flat()), current));
    versionsCache.set(dictionary, { counter, readAt, items: all });
    return [...all];
  }

  const repository: DictionaryRepository = {
    async seed(items) {
      const written = await Promise.all(
        items.map(async (item) => {
          const created = await unlessConditionFails(
            doc.send(putNewCommand(table, { ...keys.dictionaryItem(item.dictionary, item.id), ...item })),
          );
          if (!created) return 0;
          await doc.send(
            new PutCommand({ TableName: table, Item: { ...keys.dictionaryItemVersion(item.dictionary, item.id, item.version), ...item } }),
          );
          return 1;
        }),
      );
      const count = written.reduce<number>((sum, one) => sum + one, 0);
      // One bump for the whole seed: a list read meanwhile is read again at the next request.
      if (count > 0) await bumpCounter();
      return count;
    },
    async list(dictionary) {
      return listAt(dictionary, await readCounter());
    },
    changeCount: readCounter,
    forOneRequest() {
      // Read at once, so that it overlaps the request's other reads (its project, say); a failure
      // surfaces at the first list.
      const counter = readCounter();
      counter.catch(() => {});
      const once: DictionaryRepository = {
        ...repository,
        list: async (dictionary) => listAt(dictionary, await counter),
        versions: async (dictionary) => versionsAt(dictionary, await counter),
        forOneRequest: () => once,
      };
      return once;
    },
    async get(dictionary, id) {
      return getItem<DictionaryItemVersion>(doc, table, keys.dictionaryItem(dictionary, id));
    },
    async history(dictionary, id) {
      const items = await queryPartition(doc, table, keys.dictionaryItemVersions(dictionary, id).PK, { consistentRead: false });
      return stripAll<DictionaryItemVersion>(items);
    },
    async versions(dictionary) {
      return versionsAt(dictionary, await readCounter());
    },
    async putVersion(next) {
      await versionedPut(
        doc,
        table,
        { ...keys.dictionaryItem(next.dictionary, next.id), ...next },
        next.version - 1,
        "Коэффициент уже изменен другим пользователем. Обновите страницу и повторите.",
      );
      await doc.send(
        new PutCommand({ TableName: table, Item: { ...keys.dictionaryItemVersion(next.dictionary, next.id, next.version), ...next } }),
      );
      await bumpCounter();
    },
  };
  return repository;
}
