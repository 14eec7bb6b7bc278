// Caps on how many of a thing a company has (keys.cap): one conditional ADD takes a place, so
// however many writers arrive at once, no more than the limit get one.
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CapCounter } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";

export function dynamoCaps(doc: DynamoDBDocumentClient, table: string): CapCounter {
  const add = (key: ReturnType<typeof keys.cap>, limit: number, amount: number) =>
    unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: "ADD taken :amount",
          ConditionExpression: "taken <= :room",
          ExpressionAttributeValues: { ":amount": amount, ":room": limit - amount },
        }),
      ),
    );
  return {
    async take(companyId, name, limit, count, amount = 1) {
      const key = keys.cap(companyId, name);
      if (await add(key, limit, amount)) return true;
      // Refused: the cap is full, or has no counter yet. A first counter starts from what exists
      // (written once: of two writers at once, one counts, the other finds it made). A counter
      // found now may have been made since the refusal, by a writer beside this one: try it again.
      const stored = await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
      if (stored.Item) return add(key, limit, amount);
      const taken = await count();
      await unlessConditionFails(
        doc.send(new PutCommand({ TableName: table, Item: { ...key, taken }, ConditionExpression: "attribute_not_exists(PK)" })),
      );
      return add(key, limit, amount);
    },
    async give(companyId, name, amount = 1) {
      await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.cap(companyId, name),
            UpdateExpression: "ADD taken :minus",
            ConditionExpression: "taken >= :amount",
            ExpressionAttributeValues: { ":minus": -amount, ":amount": amount },
          }),
        ),
      );
    },
    async taken(companyId, name) {
      const stored = await doc.send(new GetCommand({ TableName: table, Key: keys.cap(companyId, name), ConsistentRead: true }));
      return Number(stored.Item?.taken ?? 0);
    },
  };
}
