// The company's abatement assessments (keys.abatementAssessment): a handful per company, read whole.
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AbatementAssessment, AbatementRepository } from "../../ports";
import * as keys from "./keys";
import { versionedPuts } from "./conditions";
import { abatementItem, abatementOf, queryPrefix } from "./items";

export const ABATEMENT_CONFLICT = "Оценка была изменена другим пользователем. Обновите страницу и повторите.";

/** The last changed first, then by name. */
export const byChange = (a: AbatementAssessment, b: AbatementAssessment) =>
  b.updated_at.localeCompare(a.updated_at) || a.name.localeCompare(b.name, "ru");

export function dynamoAbatement(doc: DynamoDBDocumentClient, table: string): AbatementRepository {
  const { create, replace } = versionedPuts(doc, table, abatementItem, {
    exists: "Оценка с таким идентификатором уже существует",
    changed: ABATEMENT_CONFLICT,
  });
  return {
    create,
    async get(companyId, id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.abatementAssessment(companyId, id) }));
      return abatementOf(out.Item);
    },
    async list(companyId) {
      const items = await queryPrefix(doc, table, keys.abatementOfCompany(companyId), { consistentRead: false });
      return items.map((item) => abatementOf(item) as AbatementAssessment).sort(byChange);
    },
    replace,
  };
}
