// Comments on a company's inventory of one year (keys.inventoryComment), one item each.
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { NotFound } from "../../domain/errors";
import type { InventoryComment, InventoryCommentRepository } from "../../ports";
import * as keys from "./keys";
import { conditional, unlessConditionFails } from "./conditions";
import { queryCount, queryPage, strip } from "./items";

export function dynamoInventoryComments(doc: DynamoDBDocumentClient, table: string): InventoryCommentRepository {
  const ofYear = (companyId: string, year: number): QueryCommandInput => {
    const prefix = keys.inventoryComments(companyId, year);
    return {
      TableName: table,
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
      ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix },
      ConsistentRead: true,
    };
  };
  return {
    async add(comment) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.inventoryComment(comment.company, comment.year, comment.id), ...comment },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Комментарий с таким идентификатором уже существует",
      );
    },
    async get(companyId, year, id) {
      const out = await doc.send(
        new GetCommand({ TableName: table, Key: keys.inventoryComment(companyId, year, id), ConsistentRead: true }),
      );
      return strip<InventoryComment>(out.Item);
    },
    async list(companyId, year, page) {
      const query = { ...ofYear(companyId, year), ScanIndexForward: false };
      const [items, count] = await Promise.all([queryPage(doc, query, page), queryCount(doc, query)]);
      return { results: items.map((item) => strip<InventoryComment>(item)!), count };
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
