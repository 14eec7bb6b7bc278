// Issue 99: the dispatcher's registrations of gassings (keys.gassingRegistration): a few a month per
// company, listed by the start of their gassing.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { GassingRegistration, GassingRegistrationRepository } from "../../ports";
import * as keys from "./keys";
import { type CompanyRecords, companyRecords, strip } from "./items";

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
