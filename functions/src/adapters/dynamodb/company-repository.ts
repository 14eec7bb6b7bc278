// Companies (keys.company), listed through the companies index.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Company, CompanyRepository } from "../../ports";
import * as keys from "./keys";
import { putWhere } from "./conditions";
import { companyItem, queryAll, getItem, stripAll, putNew } from "./items";
import { sameName } from "../../domain/company/look-alike";

export function dynamoCompanies(doc: DynamoDBDocumentClient, table: string): CompanyRepository {
  return {
    async create(company) {
      await putNew(doc, table, companyItem(company), "Компания с таким идентификатором уже существует");
    },
    async get(companyId) {
      return getItem<Company>(doc, table, keys.company(companyId));
    },
    async list() {
      const items = await queryAll(doc, {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.companiesIndex().GSI1PK },
      });
      return stripAll<Company>(items);
    },
    async findByName(name) {
      return (await this.list()).find((c) => sameName(c.name, name));
    },
    async replace(next, expectedVersion) {
      const changed = "Реквизиты компании уже изменены другим пользователем. Обновите страницу и повторите.";
      // Companies written before versions existed have none: they count as version 0.
      await (expectedVersion === 0
        ? putWhere(doc, table, companyItem(next), "attribute_exists(PK) AND attribute_not_exists(version)", changed)
        : putWhere(doc, table, companyItem(next), "attribute_exists(PK) AND version = :v", changed, expectedVersion));
    },
  };
}
