// Projects (keys.project), listed per company and state through the index.
import { GetCommand, PutCommand, type DynamoDBDocumentClient, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Page, ProjectRepository, ProjectState } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { defaultReportingYear } from "@core/gwp-in-force";
import * as keys from "./keys";
import { conditional } from "./conditions";
import { countedPage, queryAll, strip, versionedPut, type Item } from "./items";

const stateOf = (p: Project): ProjectState => (p.is_deleted ? "archived" : "active");
const projectItem = (p: Project) => ({
  ...keys.project(p.company, p.id),
  ...keys.projectInIndex(p.company, stateOf(p), p.created_at, p.id),
  ...p,
});

/** A stored project as the domain reads it: a project stored before the reporting year existed
 *  reads with its default (D12), so every reader and every answer has one. */
function projectOf(item: Item): Project {
  const project = strip<Omit<Project, "reporting_year"> & { reporting_year?: number }>(item)!;
  return { ...project, reporting_year: project.reporting_year ?? defaultReportingYear(project.end_date) };
}

export function dynamoProjects(doc: DynamoDBDocumentClient, table: string): ProjectRepository {
  return {
    async create(project) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: projectItem(project),
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Проект с таким идентификатором уже существует",
      );
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
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix },
        ConsistentRead: true,
      });
      return items.map(projectOf);
    },
    async replace(next, expectedVersion) {
      await versionedPut(
        doc,
        table,
        projectItem(next),
        expectedVersion,
        "Проект был изменен другим пользователем. Обновите страницу и повторите.",
      );
    },
  };
}
