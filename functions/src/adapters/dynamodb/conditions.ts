// What a failed condition expression means to a write: a conflict the user sees (409), or simply
// "not done" for the caller to act on.
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Conflict } from "../../domain/errors";

/** The write's result, or a Conflict with `conflictDetail` when its condition failed. */
export async function conditional<T>(write: Promise<T>, conflictDetail: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new Conflict(conflictDetail);
    throw error;
  }
}

/** Whether the write happened: false when its condition failed. */
export async function unlessConditionFails(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Puts `item` where `condition` holds (`version`: the `:v` it names, where it names one); a Conflict
 *  with `conflictDetail` where it does not. */
export async function putWhere(
  doc: DynamoDBDocumentClient,
  table: string,
  item: Record<string, unknown>,
  condition: string,
  conflictDetail: string,
  version?: number,
): Promise<void> {
  const values = version === undefined ? undefined : { ":v": version };
  await conditional(
    doc.send(new PutCommand({ TableName: table, Item: item, ConditionExpression: condition, ExpressionAttributeValues: values })),
    conflictDetail,
  );
}

/** Puts `item` where the stored version is still `expectedVersion` (0: where there is no item yet);
 *  the caller says what a failed condition means (`conditional`, `unlessConditionFails`). */
export function putAtVersion(doc: DynamoDBDocumentClient, table: string, item: Record<string, unknown>, expectedVersion: number) {
  return doc.send(
    new PutCommand({
      TableName: table,
      Item: item,
      ...(expectedVersion === 0
        ? { ConditionExpression: "attribute_not_exists(PK)" }
        : { ConditionExpression: "version = :v", ExpressionAttributeValues: { ":v": expectedVersion } }),
    }),
  );
}

/** A kind of item written whole with a version: `create` refused (Conflict `exists`) when its key is
 *  taken, `replace` refused (Conflict `changed`) unless the stored version is still `expectedVersion`. */
export function versionedPuts<T>(
  doc: DynamoDBDocumentClient,
  table: string,
  itemOf: (value: T) => Record<string, unknown>,
  conflicts: { exists: string; changed: string },
) {
  return {
    create: (value: T): Promise<void> => putWhere(doc, table, itemOf(value), "attribute_not_exists(PK)", conflicts.exists),
    replace: (next: T, expectedVersion: number): Promise<void> =>
      putWhere(doc, table, itemOf(next), "attribute_exists(PK) AND version = :v", conflicts.changed, expectedVersion),
  };
}

/** A claim a request holds on some work (`token` its own id, `at` the instant it was taken). */
interface Claim {
  token: string;
  at: string;
}

/** Takes the claim kept in the item at `key`: written when the key is free or the claim there is older
 *  than `staleBefore` (its request never released it); false when another request holds it. */
export function takeClaim(doc: DynamoDBDocumentClient, table: string, key: Record<string, string>, claim: Claim, staleBefore: string) {
  return unlessConditionFails(
    doc.send(
      new PutCommand({
        TableName: table,
        Item: { ...key, ...claim },
        ConditionExpression: "attribute_not_exists(PK) OR #at < :stale",
        ExpressionAttributeNames: { "#at": "at" },
        ExpressionAttributeValues: { ":stale": staleBefore },
      }),
    ),
  );
}

/** Gives the claim at `key` back, only while it is still this one (a later request may have taken it over). */
export async function releaseClaim(doc: DynamoDBDocumentClient, table: string, key: Record<string, string>, claim: Claim): Promise<void> {
  await unlessConditionFails(
    doc.send(
      new DeleteCommand({
        TableName: table,
        Key: key,
        ConditionExpression: "#token = :token",
        ExpressionAttributeNames: { "#token": "token" },
        ExpressionAttributeValues: { ":token": claim.token },
      }),
    ),
  );
}
