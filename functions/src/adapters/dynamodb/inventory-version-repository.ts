// The approved versions of a company's inventory of one year (keys.inventoryVersion, D20): one
// small item per version, written once; the snapshot itself is in object storage.
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { InventoryVersion, InventoryVersionRepository } from "../../ports";
import * as keys from "./keys";
import { conditional } from "./conditions";
import { queryPrefix, strip } from "./items";

export function dynamoInventoryVersions(doc: DynamoDBDocumentClient, table: string): InventoryVersionRepository {
  return {
    async create(version) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.inventoryVersion(version.company, version.year, version.version), ...version },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Инвентаризацию уже утверждает другой пользователь. Обновите страницу и повторите.",
      );
    },
    async get(companyId, year, version) {
      const out = await doc.send(
        new GetCommand({ TableName: table, Key: keys.inventoryVersion(companyId, year, version), ConsistentRead: true }),
      );
      return strip<InventoryVersion>(out.Item);
    },
    async list(companyId, year) {
      const prefix = keys.inventoryVersions(companyId, year);
      const items = await queryPrefix(doc, table, prefix, { consistentRead: true });
      return items.map((item) => strip<InventoryVersion>(item)!);
    },
    async delete(companyId, year, version) {
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.inventoryVersion(companyId, year, version) }));
    },
  };
}
