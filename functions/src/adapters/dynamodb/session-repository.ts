// Sign-in sessions (keys.session): the chain of refresh tokens and its reuse detection.
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Session, SessionRepository } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";
import { strip } from "./items";

export function dynamoSessions(doc: DynamoDBDocumentClient, table: string): SessionRepository {
  return {
    async start(session) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...keys.session(session.id), ...session } }));
    },
    async rotate(id, fromJti, toJti, nowSeconds, graceSeconds) {
      const rotated = await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.session(id),
            UpdateExpression: "SET #current = :to, previous = :from, rotated_at = :now",
            ConditionExpression: "#current = :from AND attribute_not_exists(revoked)",
            ExpressionAttributeNames: { "#current": "current" },
            ExpressionAttributeValues: { ":to": toJti, ":from": fromJti, ":now": nowSeconds },
          }),
        ),
      );
      if (rotated) return "rotated";
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.session(id), ConsistentRead: true }));
      const stored = strip<Session>(out.Item);
      if (!stored || stored.revoked) return "unknown";
      if (stored.previous === fromJti && nowSeconds - (stored.rotated_at ?? 0) <= graceSeconds) return "just-rotated";
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.session(id),
          UpdateExpression: "SET revoked = :yes",
          ExpressionAttributeValues: { ":yes": true },
        }),
      );
      return "reused";
    },
  };
}
