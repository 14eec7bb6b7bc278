// A company's own factors (keys.ownFactor, methodology D107): one item each, written once.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { OwnFactor, OwnFactorRepository } from "../../ports";
import * as keys from "./keys";
import { putNew, queryPrefix, stripAll } from "./items";

export function dynamoOwnFactors(doc: DynamoDBDocumentClient, table: string): OwnFactorRepository {
  return {
    async add(factor) {
      await putNew(
        doc,
        table,
        { ...keys.ownFactor(factor.company, factor.id), ...factor },
        "Коэффициент с таким идентификатором уже существует",
      );
    },
    async list(companyId) {
      return stripAll<OwnFactor>(await queryPrefix(doc, table, keys.ownFactorsOfCompany(companyId), { consistentRead: true }));
    },
  };
}
