// The company's facilities (keys.facility): a handful per company, read whole.
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Facility, FacilityRepository } from "../../ports";
import * as keys from "./keys";
import { versionedPuts } from "./conditions";
import { facilityItem, queryPrefix } from "./items";

const CONFLICT = "Площадка была изменена другим пользователем. Обновите страницу и повторите.";

function facilityOf(item: Record<string, unknown> | undefined): Facility | undefined {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, ...facility } = item;
  // Facilities stored before they could be archived are active.
  return { is_active: true, ...facility } as unknown as Facility;
}

export function dynamoFacilities(doc: DynamoDBDocumentClient, table: string): FacilityRepository {
  const { create, replace } = versionedPuts(doc, table, facilityItem, {
    exists: "Площадка с таким идентификатором уже существует",
    changed: CONFLICT,
  });
  return {
    create,
    async get(companyId, facilityId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.facility(companyId, facilityId) }));
      return facilityOf(out.Item);
    },
    async list(companyId) {
      const prefix = keys.facilitiesOfCompany(companyId);
      const items = await queryPrefix(doc, table, prefix, { consistentRead: false });
      const facilities = items.map((item) => facilityOf(item)!);
      return facilities.sort((a, b) => a.name.localeCompare(b.name, "ru"));
    },
    replace,
  };
}
