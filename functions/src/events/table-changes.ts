// The table's change stream: (1) one audit entry per changed item (whose item, which event, the
// version before and after, which attributes changed; never their values, so no password hash or
// personal data is copied into the trail); (2) the statistics of every company whose
// projects or calculations changed, by the difference each record makes to the year aggregates
// (domain/inventory/statistics.ts; applied once per record even when a batch is delivered again), and the
// inventory sums of the projects whose calculations changed (domain/inventory/sums.ts), counting
// each calculation write applied for read-your-writes. The same function runs on both hosts: in AWS the table's
// DynamoDB stream invokes functions/src/lambda/stream.ts, which calls it; locally
// functions/src/local/table-stream.ts makes the records from the writes and calls it in-process.
import { ConditionalCheckFailedException, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { STATISTICS_SOURCES, auditEntry, companyOfPartition, onlyLocksChanged, unreadByStream } from "../adapters/dynamodb/keys";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { changedAttributes, itemChange, type InventoryDelta } from "../adapters/item-change";
import type { ListCounts, StatisticsFigures, StatisticsRepository } from "../ports";
import type { Clock, Repositories } from "../ports";

/** A stream image as DynamoDB sends it: attribute → typed value ({S}, {N}, {BOOL}, …). */
type Image = Record<string, AttributeValue>;

/** One record of a DynamoDB stream (view type NEW_AND_OLD_IMAGES), the part this handler reads. */
export interface StreamRecord {
  eventID: string;
  eventName: "INSERT" | "MODIFY" | "REMOVE";
  dynamodb: {
    Keys: Image;
    NewImage?: Image;
    OldImage?: Image;
    /** Seconds since the epoch. */
    ApproximateCreationDateTime?: number;
    SequenceNumber?: string;
  };
}

export interface StreamEvent {
  Records: StreamRecord[];
}

export interface AuditTarget {
  doc: DynamoDBDocumentClient;
  tableName: string;
  log?: Pick<Console, "info" | "error">;
  /** Write a batch's audit entries together (BatchWriteItem, 25 a call; the local host) rather
   *  than each with a conditional put. An entry is made from its record alone, so a record
   *  delivered again puts the very item already stored: the trail stored is the same. */
  auditInBatches?: boolean;
}

export interface ChangeTarget extends AuditTarget {
  repos: Repositories;
  clock: Clock;
}

const str = (image: Image | undefined, name: string) => image?.[name]?.S;
const num = (image: Image | undefined, name: string) => {
  const raw = image?.[name]?.N;
  return raw === undefined ? undefined : Number(raw);
};

/** A failed write throws: the record is delivered again, and the conditional put makes an entry
 *  already written a no-op, so the trail is neither lost nor doubled; the failure shows in the
 *  function's Errors alarm. */
export async function auditChanges(event: StreamEvent, target: AuditTarget): Promise<number> {
  let written = 0;
  for (const record of event.Records ?? []) if (await auditRecord(record, target)) written += 1;
  return written;
}

/** A record's audit entry, logged, or undefined when it has none. */
function auditItemOf(record: StreamRecord, log: Pick<Console, "info">): Record<string, unknown> | undefined {
  const { Keys, NewImage, OldImage, ApproximateCreationDateTime } = record.dynamodb;
  const pk = str(Keys, "PK") ?? "";
  const sk = str(Keys, "SK") ?? "";
  if (unreadByStream(pk, sk)) return undefined;
  const changed = changedAttributes(OldImage, NewImage);
  // A year's writes counted on its review (D32), a project's on its facility (D25): no data of their own.
  if (record.eventName === "MODIFY" && onlyLocksChanged(changed)) return undefined;
  const at = new Date((ApproximateCreationDateTime ?? Date.now() / 1000) * 1000).toISOString();
  const entry = {
    event: record.eventName,
    item_pk: pk,
    item_sk: sk,
    company: str(NewImage, "company") ?? str(OldImage, "company"),
    old_version: num(OldImage, "version"),
    new_version: num(NewImage, "version"),
    changed,
    at,
  };
  log.info(JSON.stringify({ audit: entry.event, pk, sk, old_version: entry.old_version, new_version: entry.new_version }));
  return { ...auditEntry(at, record.eventID), ...entry };
}

/** Writes one record's audit entry; false when it has none or it was written already. */
async function auditRecord(record: StreamRecord, target: AuditTarget): Promise<boolean> {
  const log = target.log ?? console;
  const item = auditItemOf(record, log);
  if (!item) return false;
  try {
    await target.doc.send(new PutCommand({ TableName: target.tableName, Item: item, ConditionExpression: "attribute_not_exists(PK)" }));
    return true;
  } catch (error) {
    // Already written by an earlier delivery of the same record.
    if (error instanceof ConditionalCheckFailedException) return false;
    log.error(`audit write failed for ${item.item_pk} ${item.item_sk}`);
    throw error;
  }
}

/** BatchWriteItem's bound on the requests of one call. */
const BATCH_WRITE_LIMIT = 25;

/** Writes the audit entries of `records` in BatchWriteItem calls (AuditTarget.auditInBatches);
 *  answers the records whose entry was not written (a call that failed, or items it left
 *  unprocessed), each with its error. */
async function auditInBatches(records: StreamRecord[], target: AuditTarget): Promise<{ record: StreamRecord; error: unknown }[]> {
  const log = target.log ?? console;
  // By key: the same record twice in a batch (a delivery again) is one entry, and one request.
  const entries = new Map<string, { item: Record<string, unknown>; records: StreamRecord[] }>();
  for (const record of records) {
    const item = auditItemOf(record, log);
    if (!item) continue;
    const key = `${item.PK}\u0000${item.SK}`;
    const known = entries.get(key);
    if (known) known.records.push(record);
    else entries.set(key, { item, records: [record] });
  }
  const failures: { record: StreamRecord; error: unknown }[] = [];
  const all = [...entries.values()];
  for (let start = 0; start < all.length; start += BATCH_WRITE_LIMIT) {
    const chunk = all.slice(start, start + BATCH_WRITE_LIMIT);
    try {
      const { UnprocessedItems } = await target.doc.send(
        new BatchWriteCommand({ RequestItems: { [target.tableName]: chunk.map(({ item }) => ({ PutRequest: { Item: item } })) } }),
      );
      const left = new Set((UnprocessedItems?.[target.tableName] ?? []).map((request) => request.PutRequest?.Item?.SK));
      const error = new Error("left unprocessed by BatchWriteItem");
      for (const entry of chunk) if (left.has(entry.item.SK)) failures.push(...entry.records.map((record) => ({ record, error })));
    } catch (error) {
      failures.push(...chunk.flatMap((entry) => entry.records.map((record) => ({ record, error }))));
    }
  }
  return failures;
}

/** What a record changes in its company's statistics: the differences per year, and the source
 *  item and sequence number that make applying them idempotent. Undefined when it changes none. */
export function statisticsChange(record: StreamRecord):
  | {
      company: string;
      source: string;
      sequence?: string;
      deltas: StatisticsFigures[];
      lists: ListCounts[];
      inventory: InventoryDelta[];
      write: boolean;
      ended?: number;
    }
  | undefined {
  const { Keys, OldImage, NewImage, SequenceNumber } = record.dynamodb;
  const sk = str(Keys, "SK") ?? "";
  const company = companyOfPartition(str(Keys, "PK") ?? "");
  if (!company || !STATISTICS_SOURCES.some((prefix) => sk.startsWith(prefix))) return undefined;
  const change = itemChange(company, sk, OldImage && unmarshall(OldImage), NewImage && unmarshall(NewImage));
  if (!change) return undefined;
  // DynamoDB's sequence numbers are decimal strings of varying length: padded, they compare as text.
  return { company, source: sk, sequence: SequenceNumber?.padStart(40, "0"), ...change };
}

/** How many companies' records are applied side by side. */
const STATISTICS_CONCURRENCY = 8;

/** Adds each record's differences to its company's year aggregates and list counts: the records
 *  of one item in stream order (its sequence marker needs them so), different items side by side
 *  (their additions commute): round by round, the first record of every item, then the second of
 *  those that have one, and so on, each round's records of one company handed to the storage
 *  together (StatisticsRepository.applyAll), which adds them in a few requests per item they
 *  touch rather than a few per record. Every round finishes before a failure is thrown. */
export async function applyStatistics(event: StreamEvent, target: ChangeTarget): Promise<number> {
  const { applied, failures } = await statisticsOf(event, target);
  if (failures.length > 0) throw failures[0].error;
  return applied;
}

/** applyStatistics, telling which records failed: a record that fails and the later records of
 *  its item are left unapplied (they would find its sequence marker passed), the others applied. */
async function statisticsOf(
  event: StreamEvent,
  target: ChangeTarget,
): Promise<{ applied: number; failures: { record: StreamRecord; error: unknown }[] }> {
  const log = target.log ?? console;
  type Application = { record: StreamRecord; company: string; change: Parameters<StatisticsRepository["apply"]>[1] };
  const byItem = new Map<string, Application[]>();
  for (const record of event.Records ?? []) {
    const change = statisticsChange(record);
    if (!change) continue;
    if (!change.sequence) {
      // Without it a redelivery could not be told apart; the daily reconciliation repairs this.
      log.error(`statistics: record ${record.eventID} has no sequence number, skipped`);
      continue;
    }
    const at = new Date((record.dynamodb.ApproximateCreationDateTime ?? target.clock.now().getTime() / 1000) * 1000).toISOString();
    const item = `${change.company}#${change.source}`;
    const records = byItem.get(item) ?? byItem.set(item, []).get(item)!;
    records.push({ record, company: change.company, change: { ...change, sequence: change.sequence, at } });
  }
  let applied = 0;
  const failures: { record: StreamRecord; error: unknown }[] = [];
  const items = [...byItem.values()];
  for (let round = 0; items.length > 0; round++) {
    const byCompany = new Map<string, { item: Application[]; application: Application }[]>();
    for (const item of items) {
      const company = item[round].company;
      (byCompany.get(company) ?? byCompany.set(company, []).get(company)!).push({ item, application: item[round] });
    }
    const queue = [...byCompany.values()];
    const failed = new Set<Application[]>();
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          const added = await target.repos.statistics.applyAll(
            next[0].application.company,
            next.map(({ application }) => application.change),
          );
          applied += added.filter(Boolean).length;
          continue;
        } catch {
          // Which one failed: each on its own (what the failed call added is marked pending, not added twice).
        }
        for (const { item, application } of next) {
          try {
            if (await target.repos.statistics.apply(application.company, application.change)) applied += 1;
          } catch (error) {
            // This record and the later ones of its item (they would find its marker passed).
            failures.push(...item.slice(round).map((later) => ({ record: later.record, error })));
            failed.add(item);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(STATISTICS_CONCURRENCY, queue.length) }, worker));
    // The items with a record after this round's, unless it failed.
    const later = items.filter((item) => !failed.has(item) && item.length > round + 1);
    items.splice(0, items.length, ...later);
  }
  return { applied, failures };
}

/** The answer Lambda reads with ReportBatchItemFailures: the records to deliver again. */
export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/** Each record's audit entry and statistics; a record that fails is reported (by its sequence
 *  number, as Lambda expects for a stream) without holding back the rest of the batch. Lambda
 *  delivers again from the first one reported; both parts are idempotent (the audit by its
 *  conditional put, the statistics by the sequence number applied per item). */
export async function handleTableChanges(event: StreamEvent, target: ChangeTarget): Promise<BatchResponse> {
  const log = target.log ?? console;
  const failed = new Set<StreamRecord>();
  const auditFailed = (record: StreamRecord, error: unknown) => {
    log.error(`audit: record ${record.eventID} failed: ${(error as Error)?.message ?? error}`);
    failed.add(record);
  };
  if (target.auditInBatches) {
    for (const { record, error } of await auditInBatches(event.Records ?? [], target)) auditFailed(record, error);
  } else {
    for (const record of event.Records ?? []) {
      try {
        await auditRecord(record, target);
      } catch (error) {
        auditFailed(record, error);
      }
    }
  }
  const { failures } = await statisticsOf(event, target);
  for (const { record, error } of failures) {
    log.error(`statistics: record ${record.eventID} failed: ${(error as Error)?.message ?? error}`);
    failed.add(record);
  }
  return {
    batchItemFailures: (event.Records ?? [])
      .filter((record) => failed.has(record))
      .map((record) => ({ itemIdentifier: record.dynamodb.SequenceNumber ?? record.eventID })),
  };
}
