// The table's change stream: (1) one audit entry per changed item (whose item, which event, the
// version before and after, which attributes changed; never their values, so no password hash or
// personal data is copied into the trail); (2) the statistics snapshot of every company whose
// projects or calculations changed. The same function runs on both hosts: in AWS the table's
// DynamoDB stream invokes functions/src/lambda/stream.ts, which calls it; locally
// functions/src/local/table-stream.ts makes the records from the writes and calls it in-process.
import { ConditionalCheckFailedException, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  STATISTICS_SOURCES,
  UNAUDITED_PREFIXES,
  auditEntry,
  companyOfPartition,
  isStatisticsItem,
} from "../adapters/dynamodb/keys";
import { refreshCompanyStatistics } from "../domain/statistics";
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

export function changedAttributes(oldImage: Image | undefined, newImage: Image | undefined): string[] {
  const names = new Set([...Object.keys(oldImage ?? {}), ...Object.keys(newImage ?? {})]);
  return [...names]
    .filter((n) => JSON.stringify(oldImage?.[n]) !== JSON.stringify(newImage?.[n]))
    .sort();
}

/** A failed write throws: Lambda retries the batch, and the conditional put makes the entries
 *  already written no-ops, so the trail is neither lost nor doubled; the failure shows in the
 *  function's Errors alarm. */
export async function auditChanges(event: StreamEvent, target: AuditTarget): Promise<number> {
  let written = 0;
  const log = target.log ?? console;
  for (const record of event.Records ?? []) {
    const { Keys, NewImage, OldImage, ApproximateCreationDateTime } = record.dynamodb;
    const pk = str(Keys, "PK") ?? "";
    const sk = str(Keys, "SK") ?? "";
    if (UNAUDITED_PREFIXES.some((prefix) => pk.startsWith(prefix)) || isStatisticsItem(sk)) continue;
    const at = new Date((ApproximateCreationDateTime ?? Date.now() / 1000) * 1000).toISOString();
    const entry = {
      event: record.eventName,
      item_pk: pk,
      item_sk: sk,
      company: str(NewImage, "company") ?? str(OldImage, "company"),
      old_version: num(OldImage, "version"),
      new_version: num(NewImage, "version"),
      changed: changedAttributes(OldImage, NewImage),
      at,
    };
    log.info(JSON.stringify({ audit: entry.event, pk, sk, old_version: entry.old_version, new_version: entry.new_version }));
    try {
      await target.doc.send(
        new PutCommand({
          TableName: target.tableName,
          Item: { ...auditEntry(at, record.eventID), ...entry },
          ConditionExpression: "attribute_not_exists(PK)",
        }),
      );
      written += 1;
    } catch (error) {
      // Already written by an earlier delivery of the same record.
      if (error instanceof ConditionalCheckFailedException) continue;
      log.error(`audit write failed for ${pk} ${sk}`);
      throw error;
    }
  }
  return written;
}

/** The companies whose statistics the records change (each once, in order of first change). */
export function companiesToRefresh(event: StreamEvent): string[] {
  const companies = new Set<string>();
  for (const record of event.Records ?? []) {
    const sk = str(record.dynamodb.Keys, "SK") ?? "";
    const company = companyOfPartition(str(record.dynamodb.Keys, "PK") ?? "");
    if (company && STATISTICS_SOURCES.some((prefix) => sk.startsWith(prefix))) companies.add(company);
  }
  return [...companies];
}

/** A failure throws, and the whole batch is delivered again: both parts are idempotent (the audit
 *  by its conditional put, the statistics by being recomputed from the table). */
export async function handleTableChanges(event: StreamEvent, target: ChangeTarget): Promise<void> {
  await auditChanges(event, target);
  for (const company of companiesToRefresh(event)) await refreshCompanyStatistics(target, company);
}
