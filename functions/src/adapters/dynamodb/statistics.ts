// The company's per-year statistics aggregates (keys.companyStatisticsYear), the count of each
// calculation list (keys.calculationListCount) and the marker of the last stream record applied per
// source item (keys.statisticsApplied). SCHEMA.md documents them.
//
// Exactly once without transactions (dynalite has none): a record's differences are ADDed to its
// year in the same UpdateItem that writes `pending:<source SK> = sequence`, conditioned on that
// attribute being older; then the source's marker takes the sequence; then the pending attribute
// is removed. A delivery cut short after the ADD finds the pending attribute and does not add
// again; one cut short after the marker finds the marker and only clears the pending attribute.
// Each write touches one small item, so a change costs the same at 100 or 100 000 calculations.
// Records of different source items delivered together (applyAll) go the same three steps in
// fewer requests: one UpdateItem per item they touch ADDs their differences summed and writes
// every one's pending attribute, conditioned on each being older, so it adds all of them or none
// (then each record goes its own way, as apply); one per item removes the pending attributes
// once the markers are written. A record that takes away from a project's sums goes its own way.
// A project's inventory sums are read with the marker and written in one update that also removes
// the keys the change brings to zero, conditioned on the revision read: no zero-valued key stays
// behind to slow the inventory's reads until the reconciliation compacts it. Such updates of one
// item are sent one at a time by a process, so records of one project handled side by side do not
// refuse each other's revision and read again.
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { StatisticsChange as Change, StatisticsRepository, StoredInventorySums } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";
import { queryPrefix } from "./items";
import { yearAttributes, listCountAttributes, sumAttributes, countedWrites, repairsThrough } from "./statistics-items";
import { yearStatisticsOf, listCountsPrefix, listCountsOf, storedSumsOf, sumsOf, zeroSums, writeCountersOf } from "./statistics-items";

const PENDING = "pending:";
/** How many records' pending attributes one update writes at most (its expressions stay short). */
const MERGED_RECORDS = 25;
/** How many keys one BatchGetItem asks for at most. */
const BATCH_GET_KEYS = 100;

/** `ADD` clause parts for the non-zero values of a difference, plus the change counter (by the
 *  number of `changes` the difference sums). */
function additionsOf(attributes: Record<string, number>, changes = 1) {
  const names: Record<string, string> = { "#rev": "rev" };
  const values: Record<string, unknown> = { ":one": changes };
  const parts = ["#rev :one"];
  for (const [attribute, value] of Object.entries(attributes)) {
    if (value === 0) continue;
    const i = parts.length;
    names[`#a${i}`] = attribute;
    values[`:a${i}`] = value;
    parts.push(`#a${i} :a${i}`);
  }
  return { names, values, clause: `ADD ${parts.join(", ")}` };
}

/** One item a stream record adds to: a year aggregate or a list count. */
interface Target {
  key: { PK: string; SK: string };
  attributes: Record<string, number>;
}

/** An inventory sums item's update: ADD for every key of the difference but those it brings to
 *  zero, which are removed, plus the change counter. */
function sumsChange(attributes: Record<string, number>, item: Record<string, unknown> | undefined) {
  const names: Record<string, string> = { "#rev": "rev" };
  const values: Record<string, unknown> = { ":one": 1 };
  const parts = ["#rev :one"];
  const removed: string[] = [];
  for (const [attribute, value] of Object.entries(attributes)) {
    if (value === 0) continue;
    const i = parts.length + removed.length;
    names[`#a${i}`] = attribute;
    if (item?.[attribute] !== undefined && Number(item[attribute]) + value === 0) removed.push(`#a${i}`);
    else {
      values[`:a${i}`] = value;
      parts.push(`#a${i} :a${i}`);
    }
  }
  return { names, values, parts, removed };
}

/** Promise.all that waits for every one before it throws the first failure: no write of a call
 *  that failed is still on its way when its caller goes on. */
async function allOf<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

export function dynamoStatistics(doc: DynamoDBDocumentClient, table: string): StatisticsRepository {
  const writeCounters = async (companyId: string) => {
    const state = await doc.send(new GetCommand({ TableName: table, Key: keys.inventoryWrites(companyId), ConsistentRead: true }));
    return writeCountersOf(state.Item);
  };
  const storedSums = async (companyId: string): Promise<StoredInventorySums[]> =>
    (await queryPrefix(doc, table, keys.inventorySumsOfCompany(companyId), { consistentRead: true })).map(storedSumsOf);
  const readItem = async (key: Target["key"]) =>
    (await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item as Record<string, unknown> | undefined;
  /** Items by key in one request, in the order of `wanted` (undefined: none stored). */
  const readItems = async (wanted: Target["key"][]): Promise<(Record<string, unknown> | undefined)[]> => {
    if (wanted.length === 0) return [];
    if (wanted.length === 1) return [await readItem(wanted[0])];
    if (wanted.length > BATCH_GET_KEYS) {
      const chunks: Target["key"][][] = [];
      for (let i = 0; i < wanted.length; i += BATCH_GET_KEYS) chunks.push(wanted.slice(i, i + BATCH_GET_KEYS));
      return (await Promise.all(chunks.map(readItems))).flat();
    }
    const found: Record<string, unknown>[] = [];
    let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
      [table]: { Keys: wanted, ConsistentRead: true },
    };
    while (request && Object.keys(request).length > 0) {
      const out = await doc.send(new BatchGetCommand({ RequestItems: request }));
      found.push(...((out.Responses?.[table] ?? []) as Record<string, unknown>[]));
      request = out.UnprocessedKeys as typeof request;
    }
    return wanted.map((key) => found.find((item) => item.PK === key.PK && item.SK === key.SK));
  };
  const clearPending = (key: Target["key"], source: string, sequence: string) =>
    unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: "REMOVE #p",
          ConditionExpression: "#p = :seq",
          ExpressionAttributeNames: { "#p": `${PENDING}${source}` },
          ExpressionAttributeValues: { ":seq": sequence },
        }),
      ),
    );

  /** Adds a reconciliation's repair to an item, only if no change was added since it was read. */
  const repairItem = (key: Target["key"], attributes: Record<string, number>, expectedRev: number | undefined, at: string) => {
    const { names, values, clause } = additionsOf(attributes);
    return unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: `${clause} SET updated_at = :at`,
          ConditionExpression: expectedRev === undefined ? "attribute_not_exists(PK)" : "#rev = :rev",
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ":at": at, ...(expectedRev === undefined ? {} : { ":rev": expectedRev }) },
        }),
      ),
    );
  };

  /** The changes that take away from one item's sums, one at a time in this process: each is
   *  conditioned on the revision it read, so side by side all but one would fail and read again.
   *  `work` is told whether it waited (what was read before it is stale then). */
  const sumsWrites = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(id: string, work: (waited: boolean) => Promise<T>): Promise<T> => {
    const previous = sumsWrites.get(id);
    const current = previous ? previous.then(() => work(true)) : work(false);
    const tail = current.catch(() => undefined);
    sumsWrites.set(id, tail);
    void tail.then(() => {
      if (sumsWrites.get(id) === tail) sumsWrites.delete(id);
    });
    return current;
  };

  const targetsOf = (companyId: string, { deltas, lists = [], inventory = [], write, ended }: Change) => {
    const others: Target[] = [
      ...deltas.map((delta) => ({ key: keys.companyStatisticsYear(companyId, delta.year), attributes: yearAttributes(delta) })),
      ...lists.map((list) => ({
        key: keys.calculationListCount(companyId, list.project, list.type),
        attributes: listCountAttributes(list),
      })),
    ];
    const inventoryTargets: Target[] = inventory.map((delta) => ({
      key: keys.inventorySums(companyId, delta.project),
      attributes: sumAttributes(delta.sums),
    }));
    // Read-your-writes: the write is counted applied only after its differences are in.
    const counted = countedWrites({ write, ended });
    const counter: Target[] = Object.keys(counted).length > 0 ? [{ key: keys.inventoryWrites(companyId), attributes: counted }] : [];
    return { others, inventoryTargets, counter };
  };

  const putMarker = (companyId: string, source: string, sequence: string) =>
    unlessConditionFails(
      doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...keys.statisticsApplied(companyId, source), sequence },
          ConditionExpression: "attribute_not_exists(#s) OR #s < :seq",
          ExpressionAttributeNames: { "#s": "sequence" },
          ExpressionAttributeValues: { ":seq": sequence },
        }),
      ),
    );

  /** Records of different source items, none applied yet as far as their markers said, each adding
   *  only: per item they touch, one update adds them all (or none, when one of them was added
   *  already: then each goes its own way); the counter after the others; each one's marker; one
   *  update per item clears their pending attributes. */
  const applyTogether = async (companyId: string, changes: Change[]): Promise<boolean[]> => {
    type Merged = { key: Target["key"]; attributes: Record<string, number>; records: number[] };
    const merge = (pick: (targets: ReturnType<typeof targetsOf>) => Target[]) => {
      const byItem = new Map<string, Merged>();
      changes.forEach((change, n) => {
        for (const target of pick(targetsOf(companyId, change))) {
          const id = `${target.key.PK}\u0000${target.key.SK}`;
          const into = byItem.get(id) ?? byItem.set(id, { key: target.key, attributes: {}, records: [] }).get(id)!;
          for (const [name, value] of Object.entries(target.attributes)) into.attributes[name] = (into.attributes[name] ?? 0) + value;
          into.records.push(n);
        }
      });
      return [...byItem.values()];
    };
    const at = changes
      .map((change) => change.at)
      .sort()
      .at(-1)!;
    const marks = (item: Merged) => {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const refs = item.records.map((n, j) => {
        names[`#p${j}`] = `${PENDING}${changes[n].source}`;
        values[`:s${j}`] = changes[n].sequence;
        return { name: `#p${j}`, value: `:s${j}` };
      });
      return { names, values, refs };
    };
    const addAll = (item: Merged) => {
      const { names, values, clause } = additionsOf(item.attributes, item.records.length);
      const pending = marks(item);
      return unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: item.key,
            UpdateExpression: `${clause} SET updated_at = :at, ${pending.refs.map((r) => `${r.name} = ${r.value}`).join(", ")}`,
            // Not yet added by an earlier delivery of any of them (then its mark = its sequence).
            ConditionExpression: pending.refs.map((r) => `(attribute_not_exists(${r.name}) OR ${r.name} < ${r.value})`).join(" AND "),
            ExpressionAttributeNames: { ...names, ...pending.names },
            ExpressionAttributeValues: { ...values, ...pending.values, ":at": at },
          }),
        ),
      );
    };
    const clearAll = async (item: Merged) => {
      const pending = marks(item);
      const cleared = await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: item.key,
            UpdateExpression: `REMOVE ${pending.refs.map((r) => r.name).join(", ")}`,
            ConditionExpression: pending.refs.map((r) => `${r.name} = ${r.value}`).join(" AND "),
            ExpressionAttributeNames: pending.names,
            ExpressionAttributeValues: pending.values,
          }),
        ),
      );
      // One of them is no longer its record's (cleared already): each on its own condition.
      if (!cleared) await allOf(item.records.map((n) => clearPending(item.key, changes[n].source, changes[n].sequence)));
    };
    const others = merge((targets) => [...targets.others, ...targets.inventoryTargets]);
    const counters = merge((targets) => targets.counter);
    const added = await allOf(others.map(addAll));
    const counted = added.every(Boolean) ? await allOf(counters.map(addAll)) : [];
    if (!added.every(Boolean) || !counted.every(Boolean)) {
      // One of them was added already by an earlier delivery: each record on its own, where each
      // item's pending attribute tells what is in it already.
      return allOf(changes.map((change) => applyOne(companyId, change)));
    }
    await allOf(changes.map((change) => putMarker(companyId, change.source, change.sequence)));
    await allOf([...others, ...counters].map(clearAll));
    return changes.map(() => true);
  };

  const applyOne = async (companyId: string, change: Change): Promise<boolean> => {
    const { source, sequence, at } = change;
    const { others, inventoryTargets, counter } = targetsOf(companyId, change);
    const targets = [...others, ...inventoryTargets];
    const marker = keys.statisticsApplied(companyId, source);
    const [seen, ...sumsItems] = await readItems([marker, ...inventoryTargets.map((target) => target.key)]);
    if (typeof seen?.sequence === "string" && seen.sequence >= sequence) {
      // Applied already; a delivery stopped before its last step may have left the pending mark.
      await Promise.all([...targets, ...counter].map((target) => clearPending(target.key, source, sequence)));
      return false;
    }
    const pending = `${PENDING}${source}`;
    // Each target item is conditioned on its own pending mark, so they are written side by side.
    const add = (target: Target) => {
      const { names, values, clause } = additionsOf(target.attributes);
      return unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: target.key,
            UpdateExpression: `${clause} SET updated_at = :at, #p = :seq`,
            // Not yet added by an earlier delivery of this record (then #p = :seq).
            ConditionExpression: "attribute_not_exists(#p) OR #p < :seq",
            ExpressionAttributeNames: { ...names, "#p": pending },
            ExpressionAttributeValues: { ...values, ":at": at, ":seq": sequence },
          }),
        ),
      );
    };
    /** A project's sums. A change that takes something away may bring a key to zero: it is
     *  removed in the same update, on the revision `item` was read at (read again when another
     *  change came in between). One that only adds commutes with the others, as plain ADDs. */
    const addSums = async (target: Target, read: Record<string, unknown> | undefined): Promise<boolean> => {
      if (Object.values(target.attributes).every((value) => value >= 0)) return add(target);
      return oneAtATime(`${target.key.PK}\u0000${target.key.SK}`, (waited) => takeAway(target, waited ? undefined : { item: read }));
    };
    const takeAway = async (target: Target, read: { item: Record<string, unknown> | undefined } | undefined): Promise<boolean> => {
      for (let item = read ? read.item : await readItem(target.key); ; item = await readItem(target.key)) {
        // Added by an earlier delivery of this record.
        if (typeof item?.[pending] === "string" && item[pending] >= sequence) return false;
        const { names, values, parts, removed } = sumsChange(target.attributes, item);
        const written = await unlessConditionFails(
          doc.send(
            new UpdateCommand({
              TableName: table,
              Key: target.key,
              UpdateExpression: `ADD ${parts.join(", ")} SET updated_at = :at, #p = :seq${removed.length ? ` REMOVE ${removed.join(", ")}` : ""}`,
              ConditionExpression: `(attribute_not_exists(#p) OR #p < :seq) AND ${item ? "#rev = :rev" : "attribute_not_exists(#rev)"}`,
              ExpressionAttributeNames: { ...names, "#p": pending },
              ExpressionAttributeValues: { ...values, ":at": at, ":seq": sequence, ...(item ? { ":rev": Number(item.rev ?? 0) } : {}) },
            }),
          ),
        );
        if (written) return true;
      }
    };
    const written = [
      ...(await Promise.all([...others.map(add), ...inventoryTargets.map((target, i) => addSums(target, sumsItems[i]))])),
      ...(await Promise.all(counter.map(add))),
    ];
    targets.push(...counter);
    const added = written.some(Boolean);
    await unlessConditionFails(
      doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...marker, sequence },
          ConditionExpression: "attribute_not_exists(#s) OR #s < :seq",
          ExpressionAttributeNames: { "#s": "sequence" },
          ExpressionAttributeValues: { ":seq": sequence },
        }),
      ),
    );
    await Promise.all(targets.map((target) => clearPending(target.key, source, sequence)));
    return added;
  };

  return {
    async years(companyId) {
      return (await queryPrefix(doc, table, keys.companyStatisticsYears(companyId), { consistentRead: true })).map(yearStatisticsOf);
    },

    async apply(companyId, change) {
      return applyOne(companyId, change);
    },

    async applyAll(companyId, changes) {
      if (changes.length <= 1) return Promise.all(changes.map((change) => applyOne(companyId, change)));
      const answers: boolean[] = new Array(changes.length).fill(false);
      // Only records that add to every project's sums they touch: taking away needs the sums read.
      const together: number[] = [];
      const alone: number[] = [];
      changes.forEach((change, i) => {
        const addsOnly = targetsOf(companyId, change).inventoryTargets.every((t) => Object.values(t.attributes).every((v) => v >= 0));
        (addsOnly ? together : alone).push(i);
      });
      const markers = await readItems(together.map((i) => keys.statisticsApplied(companyId, changes[i].source)));
      const fresh: number[] = [];
      together.forEach((i, n) => {
        const seen = markers[n]?.sequence;
        // Applied already (maybe half-way): apply clears what an earlier delivery left.
        if (typeof seen === "string" && seen >= changes[i].sequence) alone.push(i);
        else fresh.push(i);
      });
      const groups: number[][] = [];
      for (let i = 0; i < fresh.length; i += MERGED_RECORDS) groups.push(fresh.slice(i, i + MERGED_RECORDS));
      await allOf([
        ...alone.map(async (i) => {
          answers[i] = await applyOne(companyId, changes[i]);
        }),
        ...groups.map(async (group) => {
          const added = await applyTogether(
            companyId,
            group.map((i) => changes[i]),
          );
          group.forEach((i, n) => {
            answers[i] = added[n];
          });
        }),
      ]);
      return answers;
    },

    ...repairsThrough(repairItem),

    async listCounts(companyId, projectId) {
      return (await queryPrefix(doc, table, listCountsPrefix(companyId, projectId), { consistentRead: true })).map(listCountsOf);
    },

    async inventorySums(companyId, layout) {
      const state = await doc.send(new GetCommand({ TableName: table, Key: keys.inventoryWrites(companyId), ConsistentRead: true }));
      if (Number(state.Item?.layout ?? 0) !== layout) return undefined;
      if (Number(state.Item?.writes ?? 0) !== Number(state.Item?.applied ?? 0)) return undefined;
      // Read after the counters: every write they count is in these.
      const stored = await storedSums(companyId);
      // A project whose sums all came back to zero is as one that never had any.
      return new Map(stored.filter((s) => Object.keys(s.sums).length > 0).map((s) => [s.project, s.sums]));
    },

    async projectInventorySums(companyId, projectId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.inventorySums(companyId, projectId), ConsistentRead: true }));
      return out.Item ? sumsOf(out.Item) : {};
    },

    inventoryWrites: writeCounters,

    async storedInventorySums(companyId) {
      const counters = await writeCounters(companyId);
      const projects = await storedSums(companyId);
      return { projects, counters };
    },

    async compactInventorySums(companyId, project, expectedRev) {
      const key = keys.inventorySums(companyId, project);
      const out = await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
      if (!out.Item || Number(out.Item.rev ?? 0) !== expectedRev) return false;
      const zeros = zeroSums(out.Item);
      // An update expression holds at most 4 KB: a few hundred names at a time.
      for (let i = 0; i < zeros.length; i += 200) {
        const names = Object.fromEntries(zeros.slice(i, i + 200).map(([name], j) => [`#z${j}`, name]));
        const removed = await unlessConditionFails(
          doc.send(
            new UpdateCommand({
              TableName: table,
              Key: key,
              UpdateExpression: `REMOVE ${Object.keys(names).join(", ")}`,
              ConditionExpression: "#rev = :rev",
              ExpressionAttributeNames: { ...names, "#rev": "rev" },
              ExpressionAttributeValues: { ":rev": expectedRev },
            }),
          ),
        );
        if (!removed) return false;
      }
      return true;
    },

    async markInventorySumsLayout(companyId, layout) {
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.inventoryWrites(companyId),
          UpdateExpression: "SET #layout = :layout",
          ExpressionAttributeNames: { "#layout": "layout" },
          ExpressionAttributeValues: { ":layout": layout },
        }),
      );
    },

    settleInventoryWrites: (companyId, seen) =>
      unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.inventoryWrites(companyId),
            UpdateExpression: "SET writes = :applied",
            ConditionExpression: "writes = :writes AND applied = :applied",
            ExpressionAttributeValues: { ":writes": seen.writes, ":applied": seen.applied },
          }),
        ),
      ),

    async removeLegacy(companyId) {
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.legacyCompanyStatistics(companyId) }));
    },
  };
}
