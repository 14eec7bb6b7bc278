// The company's climate projects (keys.climateProject): a handful per company, read whole.
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ClimatePeriodRecord, ClimateProject, ClimateProjectRepository, ClimateReportHand } from "../../ports";
import * as keys from "./keys";
import { conditional, versionedPuts } from "./conditions";
import { climateProjectItem, putNew, queryPrefix, strip } from "./items";

export const CLIMATE_PROJECT_CONFLICT = "Климатический проект был изменен другим пользователем. Обновите страницу и повторите.";
export const CLIMATE_PROJECT_EXISTS = "Климатический проект с таким идентификатором уже существует";

/** The last changed first, then by name. */
export const CLIMATE_PERIOD_EXISTS = "Отчетный период с таким идентификатором уже существует";

/** A stale version of a report's hand-written fields. */
export const CLIMATE_REPORT_CONFLICT = "Отчет о реализации был изменен другим пользователем. Обновите страницу и повторите.";
export const climateReportHandItem = (r: ClimateReportHand) => ({ ...keys.climateReportHand(r.company, r.project, r.period), ...r });

export const climatePeriodItem = (p: ClimatePeriodRecord) => ({ ...keys.climatePeriod(p.company, p.project, p.id), ...p });
/** The earliest first. */
export const periodsInOrder = (a: ClimatePeriodRecord, b: ClimatePeriodRecord) => a.start_utc.localeCompare(b.start_utc);

export const projectsByChange = (a: ClimateProject, b: ClimateProject) =>
  b.updated_at.localeCompare(a.updated_at) || a.name.localeCompare(b.name, "ru");

export function dynamoClimateProjects(doc: DynamoDBDocumentClient, table: string): ClimateProjectRepository {
  const { create, replace } = versionedPuts(doc, table, climateProjectItem, {
    exists: CLIMATE_PROJECT_EXISTS,
    changed: CLIMATE_PROJECT_CONFLICT,
  });
  return {
    create,
    async get(companyId, id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.climateProject(companyId, id) }));
      return strip<ClimateProject>(out.Item);
    },
    async list(companyId) {
      const items = await queryPrefix(doc, table, keys.climateProjectsOfCompany(companyId), { consistentRead: false });
      return items.map((item) => strip<ClimateProject>(item) as ClimateProject).sort(projectsByChange);
    },
    replace,
    async createPeriod(period) {
      await putNew(doc, table, climatePeriodItem(period), CLIMATE_PERIOD_EXISTS);
    },
    async getPeriod(companyId, project, id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.climatePeriod(companyId, project, id) }));
      return strip<ClimatePeriodRecord>(out.Item);
    },
    async listPeriods(companyId, project) {
      const items = await queryPrefix(doc, table, keys.climatePeriodsOfProject(companyId, project), { consistentRead: true });
      return items.map((item) => strip<ClimatePeriodRecord>(item) as ClimatePeriodRecord).sort(periodsInOrder);
    },
    async getReportHand(companyId, project, period) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.climateReportHand(companyId, project, period) }));
      return strip<ClimateReportHand>(out.Item);
    },
    async putReportHand(next, expectedVersion) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: climateReportHandItem(next),
            ...(expectedVersion === 0
              ? { ConditionExpression: "attribute_not_exists(PK)" }
              : { ConditionExpression: "attribute_exists(PK) AND version = :v", ExpressionAttributeValues: { ":v": expectedVersion } }),
          }),
        ),
        CLIMATE_REPORT_CONFLICT,
      );
    },
  };
}
