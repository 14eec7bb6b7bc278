// The approved versions of a company's inventory of one year (keys.inventoryVersion, D20): one
// small item per version, written once; the snapshot itself is in object storage.
import { DeleteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { InventoryVersion, InventoryVersionRepository } from "../../ports";
import * as keys from "./keys";
import { inventoryVersionItem, queryPrefix, getItem, stripAll, putNew } from "./items";

export function dynamoInventoryVersions(doc: DynamoDBDocumentClient, table: string): InventoryVersionRepository {
  return {
    async create(version) {
      await putNew(
        doc,
        table,
        inventoryVersionItem(version),
        "Инвентаризацию уже утверждает другой пользователь. Обновите страницу и повторите.",
      );
    },
    async get(companyId, year, version) {
      return getItem<InventoryVersion>(doc, table, keys.inventoryVersion(companyId, year, version), { consistentRead: true });
    },
    async list(companyId, year) {
      const prefix = keys.inventoryVersions(companyId, year);
      const items = await queryPrefix(doc, table, prefix, { consistentRead: true });
      return stripAll<InventoryVersion>(items);
    },
    async delete(companyId, year, version) {
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.inventoryVersion(companyId, year, version) }));
    },
  };
}
