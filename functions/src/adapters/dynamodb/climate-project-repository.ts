// The company's climate projects (keys.climateProject): a handful per company, read whole.
import { PERIOD_CHANGED } from "@core/climate-approval";
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ClimatePeriodRecord, ClimateProject, ClimateProjectRepository, ClimateReportHand } from "../../ports";
import * as keys from "./keys";
import { putWhere, releaseClaim, takeClaim } from "./conditions";
import { climateProjectItem, type CompanyRecords, companyRecords, lastChangedFirst, putNew, queryPrefix, strip } from "./items";

export const CLIMATE_PROJECT_CONFLICT = "Климатический проект был изменен другим пользователем. Обновите страницу и повторите.";
export const CLIMATE_PROJECT_EXISTS = "Климатический проект с таким идентификатором уже существует";

export const CLIMATE_PERIOD_EXISTS = "Отчетный период с таким идентификатором уже существует";

/** A stale version of a report's hand-written fields. */
export const CLIMATE_REPORT_CONFLICT = "Отчет о реализации был изменен другим пользователем. Обновите страницу и повторите.";
export const climateReportHandItem = (r: ClimateReportHand) => ({ ...keys.climateReportHand(r.company, r.project, r.period), ...r });
export const CLIMATE_PERIOD_CONFLICT = PERIOD_CHANGED;

export const climatePeriodItem = (p: ClimatePeriodRecord) => ({ ...keys.climatePeriod(p.company, p.project, p.id), ...p });

/** A stored period as the domain reads it: one stored before approvals is version 1,
 *  computed by its creator, not approved, with no history and no flag. */
export function climatePeriodOf(item: Record<string, unknown> | undefined): ClimatePeriodRecord | undefined {
  const stored = strip<ClimatePeriodRecord>(item);
  if (!stored) return undefined;
  return {
    ...stored,
    computed_at: stored.computed_at ?? stored.created_at,
    computed_by: stored.computed_by ?? stored.created_by,
    version: stored.version ?? 1,
    approval: stored.approval ?? null,
    history: stored.history ?? [],
    readings_changed: stored.readings_changed ?? null,
  };
}

/** The condition of a period's replace: its version still `expected` (version 1: also one stored
 *  before periods had a version). */
export const periodVersionCondition = (expected: number) =>
  expected === 1 ? "attribute_exists(PK) AND (attribute_not_exists(version) OR version = :v)" : "attribute_exists(PK) AND version = :v";
/** The earliest first. */
export const periodsInOrder = (a: ClimatePeriodRecord, b: ClimatePeriodRecord) => a.start_utc.localeCompare(b.start_utc);

export const CLIMATE_PROJECTS: CompanyRecords<ClimateProject> = {
  item: climateProjectItem,
  key: keys.climateProject,
  ofCompany: keys.climateProjectsOfCompany,
  read: strip<ClimateProject>,
  order: lastChangedFirst,
  exists: CLIMATE_PROJECT_EXISTS,
  conflict: CLIMATE_PROJECT_CONFLICT,
};

export function dynamoClimateProjects(doc: DynamoDBDocumentClient, table: string): ClimateProjectRepository {
  return {
    ...companyRecords(doc, table, CLIMATE_PROJECTS),
    async createPeriod(period) {
      await putNew(doc, table, climatePeriodItem(period), CLIMATE_PERIOD_EXISTS);
    },
    async getPeriod(companyId, project, id) {
      const out = await doc.send(
        new GetCommand({ TableName: table, Key: keys.climatePeriod(companyId, project, id), ConsistentRead: true }),
      );
      return climatePeriodOf(out.Item);
    },
    async listPeriods(companyId, project) {
      const items = await queryPrefix(doc, table, keys.climatePeriodsOfProject(companyId, project), { consistentRead: true });
      return items.map((item) => climatePeriodOf(item) as ClimatePeriodRecord).sort(periodsInOrder);
    },
    async replacePeriod(next, expectedVersion) {
      await putWhere(
        doc,
        table,
        climatePeriodItem(next),
        periodVersionCondition(expectedVersion),
        CLIMATE_PERIOD_CONFLICT,
        expectedVersion,
      );
    },
    claimPeriods(claim, staleBefore) {
      return takeClaim(doc, table, keys.climatePeriodsClaim(claim.company, claim.project), claim, staleBefore);
    },
    releasePeriods(claim) {
      return releaseClaim(doc, table, keys.climatePeriodsClaim(claim.company, claim.project), claim);
    },
    async getReportHand(companyId, project, period) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.climateReportHand(companyId, project, period) }));
      return strip<ClimateReportHand>(out.Item);
    },
    async putReportHand(next, expectedVersion) {
      const item = climateReportHandItem(next);
      await (expectedVersion === 0
        ? putWhere(doc, table, item, "attribute_not_exists(PK)", CLIMATE_REPORT_CONFLICT)
        : putWhere(doc, table, item, "attribute_exists(PK) AND version = :v", CLIMATE_REPORT_CONFLICT, expectedVersion));
    },
  };
}
