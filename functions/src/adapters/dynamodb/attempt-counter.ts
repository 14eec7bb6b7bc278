// Budgets of attempts (sign-in, ...) per key and time window (keys.attemptWindow).
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AttemptCounter } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";

// A sliding window approximated from two fixed ones: the previous window's count weighs by the
// share of it still inside the sliding window, so crossing a boundary does not reset the budget.
export function dynamoAttempts(doc: DynamoDBDocumentClient, table: string): AttemptCounter {
  const count = async (key: string, start: number) => {
    const item = await doc.send(
      new GetCommand({ TableName: table, Key: keys.attemptWindow(key, start), ProjectionExpression: "attempts" }),
    );
    return Number(item.Item?.attempts ?? 0);
  };
  return {
    async reserve(key, windowSeconds, limit) {
      const now = Date.now() / 1000;
      const start = windowStart(windowSeconds, now);
      const previous = await count(key, start - windowSeconds);
      const stillInside = 1 - (now - start) / windowSeconds;
      // This attempt fits while previous × stillInside + current + 1 ≤ limit.
      const room = limit - 1 - previous * stillInside;
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
    async retryAfterSeconds(key, windowSeconds, limit) {
      const now = Date.now() / 1000;
      const start = windowStart(windowSeconds, now);
      const [previous, current] = await Promise.all([count(key, start - windowSeconds), count(key, start)]);
      return secondsUntilRoom({ previous, current, limit, windowSeconds, now });
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

/** Seconds from `now` until the budget admits one more attempt, if no other comes meanwhile: the
 *  previous window's count sliding out of this one, or, when this window is full, this one's
 *  sliding out of the next. At least 1. */
export function secondsUntilRoom(counts: { previous: number; current: number; limit: number; windowSeconds: number; now: number }): number {
  const { previous, current, limit, windowSeconds, now } = counts;
  const start = windowStart(windowSeconds, now);
  // previous × (1 − f) + current + 1 ≤ limit, f the share of this window gone by …
  const thisWindow = previous > 0 ? 1 - (limit - 1 - current) / previous : 0;
  // … or current × (1 − f) + 1 ≤ limit in the next one.
  const at =
    current + 1 <= limit
      ? start + Math.max(0, thisWindow) * windowSeconds
      : start + windowSeconds + Math.max(0, 1 - (limit - 1) / current) * windowSeconds;
  return Math.max(1, Math.ceil(at - now));
}
