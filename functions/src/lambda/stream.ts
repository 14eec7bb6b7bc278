// DynamoDB stream of the table: one audit entry per changed item (who's item, which event, the
// version before and after, which attributes changed; never their values, so no password hash or
// personal data is copied into the trail).
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient } from "../adapters/dynamodb/client";
import { UNAUDITED_PREFIXES, auditEntry } from "../adapters/dynamodb/keys";

/** A stream image as DynamoDB sends it: attribute → typed value ({S}, {N}, {BOOL}, …). */
type Image = Record<string, Record<string, unknown>>;

/** The part of a DynamoDB stream event this handler reads. */
export interface StreamEvent {
  Records: Array<{
    eventID: string;
    eventName: "INSERT" | "MODIFY" | "REMOVE";
    dynamodb: {
      Keys: Image;
      NewImage?: Image;
      OldImage?: Image;
      /** Seconds since the epoch. */
      ApproximateCreationDateTime?: number;
    };
  }>;
}

export interface AuditTarget {
  doc: DynamoDBDocumentClient;
  tableName: string;
  log?: Pick<Console, "info" | "error">;
}

const str = (image: Image | undefined, name: string) => image?.[name]?.S as string | undefined;
const num = (image: Image | undefined, name: string) => {
  const raw = image?.[name]?.N as string | undefined;
  return raw === undefined ? undefined : Number(raw);
};

function changedAttributes(oldImage: Image | undefined, newImage: Image | undefined): string[] {
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
    if (UNAUDITED_PREFIXES.some((prefix) => pk.startsWith(prefix))) continue;
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

const tableName = process.env.TABLE_NAME ?? "";
const doc = createDocumentClient({ tableName, region: process.env.AWS_REGION });

export async function handler(event: StreamEvent): Promise<void> {
  if (!tableName) throw new Error("TABLE_NAME is not set (the CDK stack sets it)");
  await auditChanges(event, { doc, tableName });
}
