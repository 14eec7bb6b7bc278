// The review of a company's inventory of one year (keys.inventoryReview): one item per year.
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { InventoryReview, InventoryReviewRepository } from "../../ports";
import * as keys from "./keys";
import { queryAll, strip, versionedPut } from "./items";

export function dynamoInventoryReviews(doc: DynamoDBDocumentClient, table: string): InventoryReviewRepository {
  // changed_by is stored as a string set, so that noting an editor twice keeps one.
  const read = (item: Record<string, unknown> | undefined) => {
    const review = strip<InventoryReview & { changed_by?: Iterable<string> }>(item);
    return review?.changed_by ? { ...review, changed_by: [...review.changed_by].sort() } : review;
  };
  return {
    async get(companyId, year) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.inventoryReview(companyId, year) }));
      return read(out.Item);
    },
    async listOfCompany(companyId) {
      const { PK } = keys.inventoryReview(companyId, 0);
      // The years' comments share the prefix; only a review has a status.
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :prefix)",
        FilterExpression: "attribute_exists(#s)",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":pk": PK, ":prefix": "INVENTORY#" },
      });
      return items.map((item) => read(item) as InventoryReview);
    },
    async put(next, expectedVersion) {
      const { changed_by, ...rest } = next;
      await versionedPut(
        doc,
        table,
        { ...keys.inventoryReview(next.company, next.year), ...rest, ...(changed_by?.length ? { changed_by: new Set(changed_by) } : {}) },
        expectedVersion,
        "Статус инвентаризации уже изменен другим пользователем. Обновите страницу и повторите.",
      );
    },
    async noteChange(companyId, year, email, now) {
      // A year without a review gets its draft here (version 0, as one never stored reads).
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.inventoryReview(companyId, year),
          UpdateExpression:
            "SET company = if_not_exists(company, :c), #y = if_not_exists(#y, :y), #s = if_not_exists(#s, :draft), " +
            "history = if_not_exists(history, :none), comments = if_not_exists(comments, :none), " +
            "updated_at = if_not_exists(updated_at, :now), version = if_not_exists(version, :zero), last_changed_by = :e " +
            "ADD changed_by :set",
          ExpressionAttributeNames: { "#y": "year", "#s": "status" },
          ExpressionAttributeValues: {
            ":c": companyId,
            ":y": year,
            ":draft": "draft",
            ":none": [],
            ":now": now,
            ":zero": 0,
            ":e": email,
            ":set": new Set([email]),
          },
        }),
      );
    },
  };
}
