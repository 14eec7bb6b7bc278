// Budgets of attempts (sign-in, ...) per key and time window (keys.attemptWindow).
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AttemptCounter } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";

// A sliding window approximated from two fixed ones: the previous window's count weighs by the
// share of it still inside the sliding window, so crossing a boundary does not reset the budget.
export function dynamoAttempts(doc: DynamoDBDocumentClient, table: string): AttemptCounter {
  return {
    async reserve(key, windowSeconds, limit) {
      const now = Date.now() / 1000;
      const start = windowStart(windowSeconds, now);
      const previous = await doc.send(
        new GetCommand({ TableName: table, Key: keys.attemptWindow(key, start - windowSeconds), ProjectionExpression: "attempts" }),
      );
      const stillInside = 1 - (now - start) / windowSeconds;
      // This attempt fits while previous × stillInside + current + 1 ≤ limit.
      const room = limit - 1 - Number(previous.Item?.attempts ?? 0) * stillInside;
      if (room < 0) return undefined;
      const reserved = await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.attemptWindow(key, start),
            UpdateExpression: "ADD attempts :one SET expires_at = :exp",
            ConditionExpression: "attribute_not_exists(attempts) OR attempts <= :room",
            ExpressionAttributeValues: { ":one": 1, ":exp": start + 2 * windowSeconds, ":room": room },
          }),
        ),
      );
      return reserved ? { key, windowStart: start } : undefined;
    },
    async release({ key, windowStart: start }) {
      // Never below zero: a window that expired meanwhile has nothing to give back.
      await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.attemptWindow(key, start),
            UpdateExpression: "ADD attempts :minusOne",
            ConditionExpression: "attempts > :zero",
            ExpressionAttributeValues: { ":minusOne": -1, ":zero": 0 },
          }),
        ),
      );
    },
  };
}

function windowStart(windowSeconds: number, nowSeconds: number): number {
  const now = Math.floor(nowSeconds);
  return now - (now % windowSeconds);
}
