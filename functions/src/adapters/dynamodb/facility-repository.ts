// The company's facilities (keys.facility): a handful per company, read whole.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Facility, FacilityRepository } from "../../ports";
import * as keys from "./keys";
import { type CompanyRecords, companyRecords, facilityItem } from "./items";

const FACILITY_CONFLICT = "Площадка была изменена другим пользователем. Обновите страницу и повторите.";

function facilityOf(item: Record<string, unknown> | undefined): Facility | undefined {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, ...facility } = item;
  // Facilities stored before they could be archived are active.
  return { is_active: true, ...facility } as unknown as Facility;
}

export const FACILITIES: CompanyRecords<Facility> = {
  item: facilityItem,
  key: keys.facility,
  ofCompany: keys.facilitiesOfCompany,
  read: facilityOf,
  order: (a, b) => a.name.localeCompare(b.name, "ru"),
  exists: "Площадка с таким идентификатором уже существует",
  conflict: FACILITY_CONFLICT,
};

export const dynamoFacilities = (doc: DynamoDBDocumentClient, table: string): FacilityRepository => companyRecords(doc, table, FACILITIES);
