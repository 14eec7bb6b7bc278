// Companies (keys.company), listed through the companies index.
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Company, CompanyRepository } from "../../ports";
import * as keys from "./keys";
import { conditional } from "./conditions";
import { queryAll, strip } from "./items";
import { sameName } from "../../domain/company/look-alike";

export function dynamoCompanies(doc: DynamoDBDocumentClient, table: string): CompanyRepository {
  return {
    async create(company) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.company(company.id), ...keys.companyInIndex(company.name, company.id), ...company },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Компания с таким идентификатором уже существует",
      );
    },
    async get(companyId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.company(companyId) }));
      return strip<Company>(out.Item);
    },
    async list() {
      const items = await queryAll(doc, {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.companiesIndex().GSI1PK },
      });
      return items.map((item) => strip<Company>(item)!);
    },
    async findByName(name) {
      return (await this.list()).find((c) => sameName(c.name, name));
    },
    async replace(next, expectedVersion) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.company(next.id), ...keys.companyInIndex(next.name, next.id), ...next },
            // Companies written before versions existed have none: they count as version 0.
            ConditionExpression:
              expectedVersion === 0 ? "attribute_exists(PK) AND attribute_not_exists(version)" : "attribute_exists(PK) AND version = :v",
            ExpressionAttributeValues: expectedVersion === 0 ? undefined : { ":v": expectedVersion },
          }),
        ),
        "Реквизиты компании уже изменены другим пользователем. Обновите страницу и повторите.",
      );
    },
  };
}
