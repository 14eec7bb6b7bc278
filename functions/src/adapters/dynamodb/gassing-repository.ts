// the dispatcher's registrations of gassings (keys.gassingRegistration): a few a month per
// company, listed by the start of their gassing; and the confirmed editions of the permissible methane
// concentrations (keys.methaneLimitEdition).
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type {
  GassingRegistration,
  GassingRegistrationRepository,
  StoredMethaneLimitEdition,
  MethaneLimitEditionRepository,
} from "../../ports";
import * as keys from "./keys";
import { type CompanyRecords, companyRecords, putNew, queryAll, strip, stripAll } from "./items";

export const GASSINGS: CompanyRecords<GassingRegistration> = {
  item: (r) => ({ ...keys.gassingRegistration(r.company, r.id), ...r }),
  key: keys.gassingRegistration,
  ofCompany: keys.gassingRegistrationsOfCompany,
  read: (item) => strip<GassingRegistration>(item),
  order: (a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id),
  exists: "Загазирование уже зарегистрировано: обновите страницу",
  conflict: "Регистрацию загазирования только что изменили: обновите страницу и повторите",
};

export const dynamoGassings = (doc: DynamoDBDocumentClient, table: string): GassingRegistrationRepository =>
  companyRecords(doc, table, GASSINGS);

export const METHANE_LIMIT_EDITION_EXISTS = "Редакция с этой даты уже подтверждена";

/** the confirmed editions of the permissible methane concentrations (keys.methaneLimitEdition). */
export const dynamoMethaneLimits = (doc: DynamoDBDocumentClient, table: string): MethaneLimitEditionRepository => ({
  async list() {
    const items = await queryAll(doc, {
      TableName: table,
      KeyConditionExpression: "PK = :pk",
      ExpressionAttributeValues: { ":pk": keys.METHANE_LIMITS_PK },
      ConsistentRead: true,
    });
    return stripAll<StoredMethaneLimitEdition>(items);
  },
  async create(edition) {
    await putNew(doc, table, { ...keys.methaneLimitEdition(edition.valid_from), ...edition }, METHANE_LIMIT_EDITION_EXISTS);
  },
});
