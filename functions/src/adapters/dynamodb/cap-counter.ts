// Caps on how many of a thing a company has (keys.cap): one conditional ADD takes a place, so
// however many writers arrive at once, no more than the limit get one. A counter of amounts (a
// project's lines, domain/inventory/magnitudes.ts) takes several amounts so, each attribute `a:{key}`
// under the limit once added, all in one update or none.
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CapCounter, StoredAmounts } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";
import { putNewCommand, queryPrefix } from "./items";

const AMOUNT = "a:";
const amountsOf = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item).flatMap(([name, value]) => (name.startsWith(AMOUNT) ? [[name.slice(AMOUNT.length), Number(value)]] : [])),
  );

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
      await unlessConditionFails(doc.send(putNewCommand(table, { ...key, taken })));
      return add(key, limit, amount);
    },
    async takeAmounts(companyId, name, amounts, limit, count) {
      const key = keys.cap(companyId, name);
      const entries = Object.entries(amounts);
      const over = entries.find(([, amount]) => amount > limit);
      if (over) return { key: over[0], held: 0 };
      const add = () =>
        unlessConditionFails(
          doc.send(
            new UpdateCommand({
              TableName: table,
              Key: key,
              UpdateExpression: `ADD ${entries.map((_, i) => `#a${i} :a${i}`).join(", ")}, rev :one`,
              // Each attribute, once added, at most the limit; a counter not made yet takes nothing.
              ConditionExpression: [
                "attribute_exists(PK)",
                ...entries.map((_, i) => `(attribute_not_exists(#a${i}) OR #a${i} <= :m${i})`),
              ].join(" AND "),
              ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#a${i}`, AMOUNT + k])),
              ExpressionAttributeValues: {
                ":one": 1,
                ...Object.fromEntries(
                  entries.flatMap(([, amount], i) => [
                    [`:a${i}`, amount],
                    [`:m${i}`, limit - amount],
                  ]),
                ),
              },
            }),
          ),
        );
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await add()) return undefined;
        const stored = await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
        if (stored.Item) {
          const held = amountsOf(stored.Item);
          const refused = entries.find(([k, amount]) => (held[k] ?? 0) + amount > limit);
          if (refused) return { key: refused[0], held: held[refused[0]] ?? 0 };
          continue; // room was given back since: try again
        }
        // No counter yet: the first starts from what exists (written once: of two writers at once,
        // one counts, the other finds it made).
        const counted = await count();
        await unlessConditionFails(
          doc.send(
            putNewCommand(table, { ...key, rev: 0, ...Object.fromEntries(Object.entries(counted).map(([k, v]) => [AMOUNT + k, v])) }),
          ),
        );
      }
      // Changed under it three times in a row: refused as full rather than taken unchecked.
      return { key: entries[0][0], held: limit };
    },
    async giveAmounts(companyId, name, amounts) {
      const entries = Object.entries(amounts);
      if (entries.length === 0) return;
      await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.cap(companyId, name),
            UpdateExpression: `ADD ${entries.map((_, i) => `#a${i} :a${i}`).join(", ")}, rev :one`,
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#a${i}`, AMOUNT + k])),
            ExpressionAttributeValues: { ":one": 1, ...Object.fromEntries(entries.map(([, amount], i) => [`:a${i}`, -amount])) },
          }),
        ),
      );
    },
    async listAmounts(companyId, prefix) {
      const key = keys.cap(companyId, prefix);
      const items = await queryPrefix(doc, table, { PK: key.PK, SKPrefix: key.SK }, { consistentRead: true });
      return items.map((item): StoredAmounts => ({ name: String(item.SK), amounts: amountsOf(item), rev: Number(item.rev ?? 0) }));
    },
    async setAmounts(companyId, name, amounts, rev) {
      return unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: {
              ...keys.cap(companyId, name),
              rev: rev + 1,
              ...Object.fromEntries(Object.entries(amounts).map(([k, v]) => [AMOUNT + k, v])),
            },
            ConditionExpression: "rev = :rev",
            ExpressionAttributeValues: { ":rev": rev },
          }),
        ),
      );
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
