// Projects (keys.project), listed per company and state through the index. The item is also the
// project's lock on its facility (D25, as a year's review is the year's, D32): a calculation write
// naming an emission point of the facility is counted begun on it by one update conditioned on the
// facility, and ended after; a change of the facility waits for none in flight, checks that no
// calculation names a point, and is written only if none has begun since. So a point of one
// facility never lands in a project of another, without a transaction (the local engine has none).
// The counts are the item's own attributes, which a project write keeps: it is an update of the
// project's fields, never a whole-item put.
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { Conflict } from "../../domain/errors";
import type { Page, ProjectRepository, ProjectState } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { defaultReportingYear } from "@core/gwp-in-force";
import * as keys from "./keys";
import { conditional, unlessConditionFails } from "./conditions";
import { countedPage, type Item, queryAll, queryPrefix, setClause, strip, putNew } from "./items";

export const PROJECT_CONFLICT = "Проект был изменен другим пользователем. Обновите страницу и повторите.";
export const POINT_WRITE_IN_FLIGHT =
  "В проекте сейчас сохраняют расчет с источником выбросов: площадку проекта можно сменить через несколько секунд — повторите";

const stateOf = (p: Project): ProjectState => (p.is_deleted ? "archived" : "active");
export const projectItem = (p: Project) => ({
  ...keys.project(p.company, p.id),
  ...keys.projectInIndex(p.company, stateOf(p), p.created_at, p.id),
  ...p,
});

/** A stored project as the domain reads it: a project stored before the reporting year existed
 *  reads with its default (D12), so every reader and every answer has one. */
export function projectOf(item: Item): Project {
  const project = strip<Omit<Project, "reporting_year"> & { reporting_year?: number }>(item)!;
  return { ...project, reporting_year: project.reporting_year ?? defaultReportingYear(project.end_date) };
}

export function dynamoProjects(doc: DynamoDBDocumentClient, table: string): ProjectRepository {
  return {
    async create(project) {
      await putNew(doc, table, projectItem(project), "Проект с таким идентификатором уже существует");
    },
    async get(companyId, projectId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.project(companyId, projectId) }));
      return out.Item && projectOf(out.Item);
    },
    async list(companyId, state, page): Promise<Page<Project>> {
      const query: QueryCommandInput = {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.projectsIndex(companyId, state).GSI1PK },
        ScanIndexForward: false,
      };
      // The count from the company's year statistics (a few small items, kept by the stream
      // handler), never a COUNT query over all of its projects.
      const years = keys.companyStatisticsYears(companyId);
      const figure = state === "active" ? "projects_active" : "projects_archived";
      const stored = queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ProjectionExpression: "#n",
        ExpressionAttributeNames: { "#n": figure },
        ExpressionAttributeValues: { ":pk": years.PK, ":sk": years.SKPrefix },
      }).then((found) => found.reduce((sum, item) => sum + Number(item[figure] ?? 0), 0));
      const { items, count } = await countedPage(doc, query, page, stored);
      return { results: items.map(projectOf), count };
    },
    async listAllOfCompany(companyId) {
      const prefix = keys.projectsOfCompany(companyId);
      const items = await queryPrefix(doc, table, prefix, { consistentRead: true });
      return items.map(projectOf);
    },
    async replace(next, expectedVersion) {
      await conditional(doc.send(fieldsUpdate(table, next, expectedVersion)), PROJECT_CONFLICT);
    },
    async beginPointWrite(companyId, projectId, facility, now) {
      return unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.project(companyId, projectId),
            UpdateExpression: "SET point_write_at = :now ADD point_writes_begun :one",
            ConditionExpression: "attribute_exists(PK) AND #facility = :facility",
            ExpressionAttributeNames: { "#facility": "facility" },
            ExpressionAttributeValues: { ":now": now, ":one": 1, ":facility": facility },
          }),
        ),
      );
    },
    async endPointWrite(companyId, projectId) {
      await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.project(companyId, projectId),
            UpdateExpression: "ADD point_writes_ended :one",
            ConditionExpression: "attribute_exists(point_writes_begun)",
            ExpressionAttributeValues: { ":one": 1 },
          }),
        ),
      );
    },
    async replaceFacility(next, expectedVersion, staleBefore, check) {
      const out = await doc.send(
        new GetCommand({
          TableName: table,
          Key: keys.project(next.company, next.id),
          ConsistentRead: true,
          ProjectionExpression: "version, point_writes_begun, point_writes_ended, point_write_at",
        }),
      );
      const lock = out.Item;
      if (!lock || lock.version !== expectedVersion) throw new Conflict(PROJECT_CONFLICT);
      const begun = Number(lock.point_writes_begun ?? 0);
      if (begun > Number(lock.point_writes_ended ?? 0) && String(lock.point_write_at) >= staleBefore) {
        throw new Conflict(POINT_WRITE_IN_FLIGHT);
      }
      await check();
      const since = lock.point_writes_begun === undefined ? "attribute_not_exists(point_writes_begun)" : "point_writes_begun = :begun";
      await conditional(
        doc.send(fieldsUpdate(table, next, expectedVersion, since, lock.point_writes_begun === undefined ? {} : { ":begun": begun })),
        PROJECT_CONFLICT,
      );
    },
  };
}

/** The update that writes the project's fields (and index keys) if its stored version is still
 *  `expectedVersion` and `condition` holds: the lock's counts stay as they are. */
function fieldsUpdate(table: string, next: Project, expectedVersion: number, condition?: string, values: Item = {}) {
  const { PK: _pk, SK: _sk, ...fields } = projectItem(next);
  const set = setClause(fields);
  return new UpdateCommand({
    TableName: table,
    Key: keys.project(next.company, next.id),
    UpdateExpression: `SET ${set.clause}`,
    ConditionExpression: `attribute_exists(PK) AND #version = :expected${condition ? ` AND ${condition}` : ""}`,
    ExpressionAttributeNames: { "#version": "version", ...set.names },
    ExpressionAttributeValues: { ...values, ":expected": expectedVersion, ...set.values },
  });
}
