// The review of a company's inventory of one year (keys.inventoryReview): one item per year.
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { InventoryReview, InventoryReviewRepository } from "../../ports";
import * as keys from "./keys";
import { strip, versionedPut } from "./items";

export function dynamoInventoryReviews(doc: DynamoDBDocumentClient, table: string): InventoryReviewRepository {
  return {
    async get(companyId, year) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.inventoryReview(companyId, year) }));
      return strip<InventoryReview>(out.Item);
    },
    async put(next, expectedVersion) {
      await versionedPut(
        doc,
        table,
        { ...keys.inventoryReview(next.company, next.year), ...next },
        expectedVersion,
        "Статус инвентаризации уже изменен другим пользователем. Обновите страницу и повторите.",
      );
    },
  };
}
