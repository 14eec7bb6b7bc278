// Comments on a company's inventory of one year (keys.inventoryComment), one item each.
import { DeleteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { NotFound } from "../../domain/errors";
import type { InventoryComment, InventoryCommentRepository } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";
import { inventoryCommentItem, prefixQuery, queryCount, queryPage, getItem, stripAll, putNew } from "./items";

export function dynamoInventoryComments(doc: DynamoDBDocumentClient, table: string): InventoryCommentRepository {
  const ofYear = (companyId: string, year: number) => prefixQuery(table, keys.inventoryComments(companyId, year), { consistentRead: true });
  return {
    async add(comment) {
      await putNew(doc, table, inventoryCommentItem(comment), "Комментарий с таким идентификатором уже существует");
    },
    async get(companyId, year, id) {
      return getItem<InventoryComment>(doc, table, keys.inventoryComment(companyId, year, id), { consistentRead: true });
    },
    async list(companyId, year, page) {
      const query = { ...ofYear(companyId, year), ScanIndexForward: false };
      const [items, count] = await Promise.all([queryPage(doc, query, page), queryCount(doc, query)]);
      return { results: stripAll<InventoryComment>(items), count };
    },
    count: (companyId, year) => queryCount(doc, ofYear(companyId, year)),
    async remove(companyId, year, id) {
      const removed = await unlessConditionFails(
        doc.send(
          new DeleteCommand({
            TableName: table,
            Key: keys.inventoryComment(companyId, year, id),
            ConditionExpression: "attribute_exists(PK)",
          }),
        ),
      );
      if (!removed) throw new NotFound("Комментарий не найден");
    },
  };
}
