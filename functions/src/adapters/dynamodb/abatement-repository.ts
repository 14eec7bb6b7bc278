// The company's abatement assessments (keys.abatementAssessment): a handful per company, read whole.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AbatementAssessment, AbatementRepository } from "../../ports";
import * as keys from "./keys";
import { abatementItem, abatementOf, type CompanyRecords, companyRecords, lastChangedFirst } from "./items";

export const ABATEMENT_CONFLICT = "Оценка была изменена другим пользователем. Обновите страницу и повторите.";

export const ASSESSMENTS: CompanyRecords<AbatementAssessment> = {
  item: abatementItem,
  key: keys.abatementAssessment,
  ofCompany: keys.abatementOfCompany,
  read: abatementOf,
  order: lastChangedFirst,
  exists: "Оценка с таким идентификатором уже существует",
  conflict: ABATEMENT_CONFLICT,
};

export const dynamoAbatement = (doc: DynamoDBDocumentClient, table: string): AbatementRepository => companyRecords(doc, table, ASSESSMENTS);
