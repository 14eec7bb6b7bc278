// Dictionary items (keys.dictionaryItem) and the history of their versions.
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DictionaryItemVersion, DictionaryRepository } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";
import { queryAll, strip, versionedPut } from "./items";

export function dynamoDictionaries(doc: DynamoDBDocumentClient, table: string): DictionaryRepository {
  return {
    async seed(item) {
      const created = await unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.dictionaryItem(item.dictionary, item.id), ...item },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
      );
      if (!created) return false;
      await doc.send(
        new PutCommand({ TableName: table, Item: { ...keys.dictionaryItemVersion(item.dictionary, item.id, item.version), ...item } }),
      );
      return true;
    },
    async list(dictionary) {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.dictionaryItems(dictionary).PK },
      });
      return items.map((item) => strip<DictionaryItemVersion>(item)!);
    },
    async get(dictionary, id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.dictionaryItem(dictionary, id) }));
      return strip<DictionaryItemVersion>(out.Item);
    },
    async history(dictionary, id) {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.dictionaryItemVersions(dictionary, id).PK },
      });
      return items.map((item) => strip<DictionaryItemVersion>(item)!);
    },
    async putVersion(next) {
      await versionedPut(
        doc,
        table,
        { ...keys.dictionaryItem(next.dictionary, next.id), ...next },
        next.version - 1,
        "Коэффициент уже изменен другим пользователем. Обновите страницу и повторите.",
      );
      await doc.send(
        new PutCommand({ TableName: table, Item: { ...keys.dictionaryItemVersion(next.dictionary, next.id, next.version), ...next } }),
      );
    },
  };
}
