// A company's webhooks (keys.webhook), each one's deliveries in a partition of its own sorted by the
// event's start (keys.webhookDelivery), and the pending ones' marks in one queue by when they are due
// (keys.webhookQueued), as the readings' batches are queued: a delivery made before a stop is sent
// after the start.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { WebhookRecord, WebhookDeliveryRecord, WebhookQueued, WebhookRepository } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";
import { getItem, putNew, queryAll, queryPrefix, strip, stripAll } from "./items";

/** A pending delivery's mark in the queue, with what the sender needs to find the delivery. */
export const queuedMark = (d: Pick<WebhookDeliveryRecord, "company" | "webhook" | "sort" | "next_at">) => ({
  ...keys.webhookQueued(d.next_at, d.company, d.webhook, d.sort),
  company: d.company,
  webhook: d.webhook,
  sort: d.sort,
  next_at: d.next_at,
});

export function dynamoWebhooks(doc: DynamoDBDocumentClient, table: string): WebhookRepository {
  const put = (Item: Record<string, unknown>) => doc.send(new PutCommand({ TableName: table, Item }));
  const remove = (Key: Record<string, unknown>) => doc.send(new DeleteCommand({ TableName: table, Key }));
  return {
    async create(hook) {
      await putNew(doc, table, { ...keys.webhook(hook.company, hook.id), ...hook }, "Вебхук с таким идентификатором уже существует");
    },
    async list(companyId) {
      return stripAll<WebhookRecord>(await queryPrefix(doc, table, keys.webhooksOfCompany(companyId), { consistentRead: true }));
    },
    get: (companyId, id) => getItem<WebhookRecord>(doc, table, keys.webhook(companyId, id)),
    async remove(companyId, id) {
      const pending = (
        await queryAll(doc, {
          TableName: table,
          KeyConditionExpression: "PK = :pk",
          ExpressionAttributeValues: { ":pk": keys.webhookDeliveriesPk(companyId, id) },
          ConsistentRead: true,
        })
      ).map((item) => strip<WebhookDeliveryRecord>(item)!);
      await remove(keys.webhook(companyId, id));
      for (const d of pending) {
        if (d.state === "pending") await remove(keys.webhookQueued(d.next_at, d.company, d.webhook, d.sort));
        await remove(keys.webhookDelivery(companyId, id, d.sort));
      }
    },
    async createDelivery(delivery) {
      const key = keys.webhookDelivery(delivery.company, delivery.webhook, delivery.sort);
      if ((await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item) return false;
      // The mark first: a mark without its delivery is dropped when it comes due; a delivery without
      // its mark would never be sent.
      await put(queuedMark(delivery));
      return unlessConditionFails(
        doc.send(new PutCommand({ TableName: table, Item: { ...key, ...delivery }, ConditionExpression: "attribute_not_exists(PK)" })),
      );
    },
    getDelivery: (companyId, webhook, sort) => getItem<WebhookDeliveryRecord>(doc, table, keys.webhookDelivery(companyId, webhook, sort)),
    async updateDelivery(next, previous) {
      if (next.state === "pending" && next.next_at !== previous.next_at) await put(queuedMark(next));
      const written = await unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.webhookDelivery(next.company, next.webhook, next.sort), ...next, version: previous.version + 1 },
            ConditionExpression: "version = :v",
            ExpressionAttributeValues: { ":v": previous.version },
          }),
        ),
      );
      if (written && (next.state !== "pending" || next.next_at !== previous.next_at))
        await remove(keys.webhookQueued(previous.next_at, previous.company, previous.webhook, previous.sort));
      return written;
    },
    async deliveries(companyId, webhook, limit) {
      const out = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "PK = :pk",
          ExpressionAttributeValues: { ":pk": keys.webhookDeliveriesPk(companyId, webhook) },
          ScanIndexForward: false,
          Limit: limit,
          ConsistentRead: true,
        }),
      );
      return stripAll<WebhookDeliveryRecord>(out.Items ?? []);
    },
    async due(now, limit, after) {
      const out = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "PK = :pk AND SK <= :now",
          // «{now}#» sorts after every mark due at `now` exactly.
          ExpressionAttributeValues: { ":pk": keys.WEBHOOK_QUEUE_PK, ":now": `${now}#\uffff` },
          ConsistentRead: true,
          Limit: limit,
          ...(after ? { ExclusiveStartKey: keys.webhookQueued(after.next_at, after.company, after.webhook, after.sort) } : {}),
        }),
      );
      return (out.Items ?? []).map((item) => ({
        company: String(item.company),
        webhook: String(item.webhook),
        sort: String(item.sort),
        next_at: String(item.next_at),
      })) satisfies WebhookQueued[];
    },
    async dropQueued(mark) {
      await remove(keys.webhookQueued(mark.next_at, mark.company, mark.webhook, mark.sort));
    },
  };
}
