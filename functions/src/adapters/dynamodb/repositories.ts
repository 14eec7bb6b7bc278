// DynamoDB implementations of the repository ports. Keys come from keys.ts only.
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from "@aws-sdk/lib-dynamodb";
import type {
  AttemptCounter,
  Calculation,
  CalculationRepository,
  DictionaryItemVersion,
  DictionaryRepository,
  ForecastModelRepository,
  ForecastModelVersion,
  Company,
  CompanyRepository,
  Page,
  PageRequest,
  ProjectRepository,
  AuditTrailRepository,
  AuditTrailEntry,
  ProjectState,
  Repositories,
  User,
  UserRepository,
  AdminAuditEntry,
  AdminAuditRepository,
  DocumentRepository,
  MediaItem,
  MediaRepository,
  NormativeDocument,
  Session,
  SessionRepository,
} from "../../ports";
import type { Project } from "../../schemas/project";
import * as keys from "./keys";
import { conditional, unlessConditionFails } from "./conditions";
import { dynamoStatistics } from "./statistics";
import { normaliseEmail } from "../../domain/users";

type Item = Record<string, unknown>;

const KEY_ATTRIBUTES = ["PK", "SK", "GSI1PK", "GSI1SK", "expires_at"];

function strip<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  const copy: Item = { ...item };
  for (const key of KEY_ATTRIBUTES) delete copy[key];
  return copy as T;
}

/** Runs a query to the end, page by page (DynamoDB pages are at most 1 MB). */
async function queryAll(doc: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

async function queryCount(doc: DynamoDBDocumentClient, input: QueryCommandInput): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new QueryCommand({ ...input, Select: "COUNT", ExclusiveStartKey: start }));
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}

/** Offset pagination over a query: DynamoDB cannot skip, so the first `offset` items are read
 *  (keys only would need a second read per item; lists here are small enough to read whole). */
async function queryPage(doc: DynamoDBDocumentClient, input: QueryCommandInput, page: PageRequest): Promise<Item[]> {
  const wanted = page.offset + page.limit;
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({ ...input, Limit: Math.min(wanted - items.length, 1000), ExclusiveStartKey: start }),
    );
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start && items.length < wanted);
  return items.slice(page.offset, wanted);
}

export function dynamoRepositories(doc: DynamoDBDocumentClient, table: string): Repositories {
  /** Writes the item if the stored version is still `expectedVersion` (0: only if there is none
   *  yet); otherwise Conflict with `conflict`. Optimistic locking for every versioned item. */
  const versionedPut = (item: Record<string, unknown>, expectedVersion: number, conflict: string) =>
    conditional(
      doc.send(
        new PutCommand({
          TableName: table,
          Item: item,
          ConditionExpression: expectedVersion === 0 ? "attribute_not_exists(PK)" : "attribute_exists(PK) AND version = :v",
          ExpressionAttributeValues: expectedVersion === 0 ? undefined : { ":v": expectedVersion },
        }),
      ),
      conflict,
    );

  const companies: CompanyRepository = {
    async create(company) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.company(company.id), ...keys.companyInIndex(company.name, company.id), ...company },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Компания с таким идентификатором уже существует",
      );
    },
    async get(companyId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.company(companyId) }));
      return strip<Company>(out.Item);
    },
    async list() {
      const items = await queryAll(doc, {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.companiesIndex().GSI1PK },
      });
      return items.map((item) => strip<Company>(item)!);
    },
    async findByName(name) {
      const wanted = name.trim().toLocaleLowerCase("ru");
      return (await this.list()).find((c) => c.name.trim().toLocaleLowerCase("ru") === wanted);
    },
    async replace(next, expectedVersion) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.company(next.id), ...keys.companyInIndex(next.name, next.id), ...next },
            // Companies written before versions existed have none: they count as version 0.
            ConditionExpression:
              expectedVersion === 0 ? "attribute_exists(PK) AND attribute_not_exists(version)" : "attribute_exists(PK) AND version = :v",
            ExpressionAttributeValues: expectedVersion === 0 ? undefined : { ":v": expectedVersion },
          }),
        ),
        "Реквизиты компании уже изменены другим пользователем. Обновите страницу и повторите.",
      );
    },
  };

  /** SET the given attributes of an existing user (undefined ones are left as they are). */
  // A new password, (de)activation or role ends every session of the user: the same write bumps
  // the generation its tokens must carry.
  const SESSION_ENDING_FIELDS = ["password_hash", "is_active", "role"];
  async function setUserFields(companyId: string, userId: string, fields: Record<string, unknown>): Promise<void> {
    const names = Object.keys(fields).filter((k) => fields[k] !== undefined);
    if (names.length === 0) return;
    const endSessions = names.some((n) => SESSION_ENDING_FIELDS.includes(n));
    await conditional(
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.user(companyId, userId),
          UpdateExpression:
            `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(", ")}` + (endSessions ? " ADD session_generation :one" : ""),
          ConditionExpression: "attribute_exists(PK)",
          ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
          ExpressionAttributeValues: {
            ...Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n]])),
            ...(endSessions ? { ":one": 1 } : {}),
          },
        }),
      ),
      "Пользователь не найден",
    );
  }

  const users: UserRepository = {
    async create(user) {
      const lookup = keys.emailLookup(user.email);
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...lookup, company: user.company, user: user.id },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Пользователь с таким e-mail уже существует",
      );
      try {
        await conditional(
          doc.send(
            new PutCommand({
              TableName: table,
              Item: { ...keys.user(user.company, user.id), ...user, email: normaliseEmail(user.email) },
              ConditionExpression: "attribute_not_exists(PK)",
            }),
          ),
          "Пользователь с таким идентификатором уже существует",
        );
      } catch (error) {
        await doc.send(new DeleteCommand({ TableName: table, Key: lookup }));
        throw error;
      }
    },
    async get(companyId, userId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.user(companyId, userId) }));
      return strip<User>(out.Item);
    },
    async findByEmail(email) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.emailLookup(email) }));
      if (!out.Item) return undefined;
      return this.get(String(out.Item.company), String(out.Item.user));
    },
    async listByCompany(companyId) {
      const prefix = keys.usersOfCompany(companyId);
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix },
      });
      return items.map((item) => strip<User>(item)!);
    },
    setPasswordHash(companyId, userId, passwordHash) {
      return setUserFields(companyId, userId, { password_hash: passwordHash });
    },
    setActive(companyId, userId, isActive) {
      return setUserFields(companyId, userId, { is_active: isActive });
    },
    update(companyId, userId, fields) {
      return setUserFields(companyId, userId, fields);
    },
    async move(user, toCompanyId) {
      const moved: User = { ...user, company: toCompanyId };
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.user(toCompanyId, user.id), ...moved },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Пользователь уже есть в этой компании",
      );
      await conditional(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.emailLookup(user.email),
            UpdateExpression: "SET company = :to",
            ConditionExpression: "company = :from AND #u = :user",
            ExpressionAttributeNames: { "#u": "user" },
            ExpressionAttributeValues: { ":to": toCompanyId, ":from": user.company, ":user": user.id },
          }),
        ),
        "Пользователь был изменен одновременно. Обновите страницу и повторите.",
      );
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.user(user.company, user.id) }));
      return moved;
    },
    async countAuthored(companyId, userId, email) {
      const pk = keys.usersOfCompany(companyId).PK;
      const count = (skPrefix: string, filter: string, values: Record<string, unknown>) =>
        queryCount(doc, {
          TableName: table,
          KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
          FilterExpression: filter,
          ExpressionAttributeNames: filter.includes("#u") ? { "#u": "user" } : undefined,
          ExpressionAttributeValues: { ":pk": pk, ":sk": skPrefix, ...values },
        });
      const [projects, calculations] = await Promise.all([
        count(keys.projectsOfCompany(companyId).SKPrefix, "#u = :id", { ":id": userId }),
        count(keys.calculationsOfCompany(companyId).SKPrefix, "created_by = :email OR created_by = :id", {
          ":email": normaliseEmail(email),
          ":id": userId,
        }),
      ]);
      return { projects, calculations };
    },
  };

  const stateOf = (p: Project): ProjectState => (p.is_deleted ? "archived" : "active");
  const projectItem = (p: Project) => ({
    ...keys.project(p.company, p.id),
    ...keys.projectInIndex(p.company, stateOf(p), p.created_at, p.id),
    ...p,
  });

  const projects: ProjectRepository = {
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
      return strip<Project>(out.Item);
    },
    async list(companyId, state, page): Promise<Page<Project>> {
      const query: QueryCommandInput = {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.projectsIndex(companyId, state).GSI1PK },
        ScanIndexForward: false,
      };
      const [items, count] = await Promise.all([queryPage(doc, query, page), queryCount(doc, query)]);
      return { results: items.map((item) => strip<Project>(item)!), count };
    },
    async listAllOfCompany(companyId) {
      const prefix = keys.projectsOfCompany(companyId);
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix },
        ConsistentRead: true,
      });
      return items.map((item) => strip<Project>(item)!);
    },
    async replace(next, expectedVersion) {
      await versionedPut(projectItem(next), expectedVersion, "Проект был изменен другим пользователем. Обновите страницу и повторите.");
    },
  };

  const sessions: SessionRepository = {
    async start(session) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...keys.session(session.id), ...session } }));
    },
    async rotate(id, fromJti, toJti, nowSeconds, graceSeconds) {
      const rotated = await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.session(id),
            UpdateExpression: "SET #current = :to, previous = :from, rotated_at = :now",
            ConditionExpression: "#current = :from AND attribute_not_exists(revoked)",
            ExpressionAttributeNames: { "#current": "current" },
            ExpressionAttributeValues: { ":to": toJti, ":from": fromJti, ":now": nowSeconds },
          }),
        ),
      );
      if (rotated) return "rotated";
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.session(id), ConsistentRead: true }));
      const stored = strip<Session>(out.Item);
      if (!stored || stored.revoked) return "unknown";
      if (stored.previous === fromJti && nowSeconds - (stored.rotated_at ?? 0) <= graceSeconds) return "just-rotated";
      await doc.send(
        new UpdateCommand({ TableName: table, Key: keys.session(id), UpdateExpression: "SET revoked = :yes", ExpressionAttributeValues: { ":yes": true } }),
      );
      return "reused";
    },
  };

  // A sliding window approximated from two fixed ones: the previous window's count weighs by the
  // share of it still inside the sliding window, so crossing a boundary does not reset the budget.
  const attempts: AttemptCounter = {
    async reserve(key, windowSeconds, limit) {
      const now = Date.now() / 1000;
      const start = windowStart(windowSeconds, now);
      const previous = await doc.send(
        new GetCommand({ TableName: table, Key: keys.attemptWindow(key, start - windowSeconds), ProjectionExpression: "attempts" }),
      );
      const stillInside = 1 - (now - start) / windowSeconds;
      // This attempt fits while previous × stillInside + current + 1 ≤ limit.
      const room = limit - 1 - Number(previous.Item?.attempts ?? 0) * stillInside;
      if (room < 0) return undefined;
      const reserved = await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.attemptWindow(key, start),
            UpdateExpression: "ADD attempts :one SET expires_at = :exp",
            ConditionExpression: "attribute_not_exists(attempts) OR attempts <= :room",
            ExpressionAttributeValues: { ":one": 1, ":exp": start + 2 * windowSeconds, ":room": room },
          }),
        ),
      );
      return reserved ? { key, windowStart: start } : undefined;
    },
    async release({ key, windowStart: start }) {
      // Never below zero: a window that expired meanwhile has nothing to give back.
      await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.attemptWindow(key, start),
            UpdateExpression: "ADD attempts :minusOne",
            ConditionExpression: "attempts > :zero",
            ExpressionAttributeValues: { ":minusOne": -1, ":zero": 0 },
          }),
        ),
      );
    },
  };

  const dictionaries: DictionaryRepository = {
    async seed(item) {
      const created = await unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.dictionaryItem(item.dictionary, item.id), ...item },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
      );
      if (!created) return false;
      await doc.send(
        new PutCommand({ TableName: table, Item: { ...keys.dictionaryItemVersion(item.dictionary, item.id, item.version), ...item } }),
      );
      return true;
    },
    async list(dictionary) {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.dictionaryItems(dictionary).PK },
      });
      return items.map((item) => strip<DictionaryItemVersion>(item)!);
    },
    async get(dictionary, id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.dictionaryItem(dictionary, id) }));
      return strip<DictionaryItemVersion>(out.Item);
    },
    async history(dictionary, id) {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.dictionaryItemVersions(dictionary, id).PK },
      });
      return items.map((item) => strip<DictionaryItemVersion>(item)!);
    },
    async putVersion(next) {
      await versionedPut(
        { ...keys.dictionaryItem(next.dictionary, next.id), ...next },
        next.version - 1,
        "Коэффициент уже изменен другим пользователем. Обновите страницу и повторите.",
      );
      await doc.send(
        new PutCommand({ TableName: table, Item: { ...keys.dictionaryItemVersion(next.dictionary, next.id, next.version), ...next } }),
      );
    },
  };

  const calcState = (c: Calculation): ProjectState => (c.is_deleted ? "archived" : "active");
  const calculationItem = (c: Calculation) => ({
    ...keys.calculation(c.company, c.type, c.id),
    ...keys.calculationInIndex(c.company, c.project, c.type, calcState(c), c.created_at, c.id),
    ...c,
  });

  const calculations: CalculationRepository = {
    async create(calculation) {
      await conditional(
        doc.send(new PutCommand({ TableName: table, Item: calculationItem(calculation), ConditionExpression: "attribute_not_exists(PK)" })),
        "Расчет с таким идентификатором уже существует",
      );
    },
    async get(companyId, type, calculationId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.calculation(companyId, type, calculationId) }));
      return strip<Calculation>(out.Item);
    },
    async list(companyId, projectId, type, state, page) {
      const query: QueryCommandInput = {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.calculationsIndex(companyId, projectId, type, state).GSI1PK },
        ScanIndexForward: false,
      };
      const [items, count] = await Promise.all([queryPage(doc, query, page), queryCount(doc, query)]);
      return { results: items.map((item) => strip<Calculation>(item)!), count };
    },
    async listAllByProject(companyId, projectId, type, state) {
      const items = await queryAll(doc, {
        TableName: table,
        IndexName: keys.GSI1,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.calculationsIndex(companyId, projectId, type, state).GSI1PK },
        ScanIndexForward: true,
      });
      return items.map((item) => strip<Calculation>(item)!);
    },
    async listActiveByCompany(companyId) {
      const prefix = keys.calculationsOfCompany(companyId);
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        FilterExpression: "is_deleted = :no",
        // What the statistics add up, not the inputs and coefficients of each calculation.
        ProjectionExpression: "#type, results, created_at",
        ExpressionAttributeNames: { "#type": "type" },
        ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix, ":no": false },
        ConsistentRead: true,
      });
      return items.map((item) => strip<Calculation>(item)!);
    },
    async blobKeysOfCompany(companyId) {
      const prefix = keys.calculationsOfCompany(companyId);
      // Every calculation, deleted ones too: their files stay while their items do.
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ProjectionExpression: "#file.#key, #results.#data",
        ExpressionAttributeNames: { "#file": "file", "#key": "key", "#results": "results", "#data": "data_key" },
        ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix },
        ConsistentRead: true,
      });
      const found = items.flatMap((item) => [
        (item.file as { key?: unknown } | undefined)?.key,
        (item.results as { data_key?: unknown } | undefined)?.data_key,
      ]);
      return new Set(found.filter((key): key is string => typeof key === "string"));
    },
    async replace(next, expectedVersion) {
      await versionedPut(calculationItem(next), expectedVersion, "Расчет был изменен другим пользователем. Обновите страницу и повторите.");
    },
  };

  const forecastModels: ForecastModelRepository = {
    async list(method) {
      const prefix = keys.forecastModels(method);
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix },
      });
      return items.map((item) => strip<ForecastModelVersion>(item)!).sort((a, b) => a.version - b.version);
    },
    async get(method, id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.forecastModel(method, id) }));
      return strip<ForecastModelVersion>(out.Item);
    },
    async create(model) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.forecastModelVersion(model.method, model.version), id: model.id },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Другая модель была загружена одновременно. Повторите загрузку.",
      );
      await doc.send(new PutCommand({ TableName: table, Item: { ...keys.forecastModel(model.method, model.id), ...model } }));
    },
    async activate(method, id) {
      // Activate first, then deactivate the rest: a crash in between leaves two active versions,
      // which readers resolve by taking the newest active one, never none.
      await conditional(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.forecastModel(method, id),
            UpdateExpression: "SET is_active = :yes",
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeValues: { ":yes": true },
          }),
        ),
        "Модель не найдена",
      );
      for (const other of await this.list(method)) {
        if (other.id === id || !other.is_active) continue;
        await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.forecastModel(method, other.id),
            UpdateExpression: "SET is_active = :no",
            ExpressionAttributeValues: { ":no": false },
          }),
        );
      }
    },
  };

  const adminAudit: AdminAuditRepository = {
    async add(entry) {
      await conditional(
        doc.send(
          new PutCommand({
            TableName: table,
            // before/after as JSON text: any shape, empty strings and nulls kept exactly as they were.
            Item: {
              ...keys.adminAuditEntry(entry.at, entry.id),
              ...entry,
              before: JSON.stringify(entry.before ?? null),
              after: JSON.stringify(entry.after ?? null),
            },
            ConditionExpression: "attribute_not_exists(PK)",
          }),
        ),
        "Запись журнала с таким идентификатором уже существует",
      );
    },
    async list(page) {
      const query: QueryCommandInput = {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.ADMIN_AUDIT_PK },
        ScanIndexForward: false,
      };
      const [items, count] = await Promise.all([queryPage(doc, query, page), queryCount(doc, query)]);
      const results = items.map((item) => {
        const entry = strip<AdminAuditEntry & { before: string; after: string }>(item)!;
        return { ...entry, before: JSON.parse(entry.before), after: JSON.parse(entry.after) } as AdminAuditEntry;
      });
      return { results, count };
    },
  };

  /** Puts an item created (expectedVersion 0) or replacing the stored version. */
  const documents: DocumentRepository = {
    async list() {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.DOCUMENTS_PK },
      });
      return items.map((item) => strip<NormativeDocument>(item)!);
    },
    async get(id) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.normativeDocument(id) }));
      return strip<NormativeDocument>(out.Item);
    },
    async put(next, expectedVersion) {
      await versionedPut(
        { ...keys.normativeDocument(next.id), ...next },
        expectedVersion,
        "Документ уже изменен другим пользователем. Обновите страницу и повторите.",
      );
    },
  };

  const statistics = dynamoStatistics(doc, table);

  const auditTrail: AuditTrailRepository = {
    async day(day) {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.auditDay(day).PK },
      });
      return items.map((item) => strip<AuditTrailEntry>(item)!);
    },
  };

  const media: MediaRepository = {
    async get(kind) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.mediaItem(kind) }));
      return strip<MediaItem>(out.Item);
    },
    async put(next, expectedVersion) {
      await versionedPut(
        { ...keys.mediaItem(next.kind), ...next },
        expectedVersion,
        "Видео уже заменено другим пользователем. Обновите страницу и повторите.",
      );
    },
  };

  return { companies, users, projects, statistics, auditTrail, attempts, sessions, dictionaries, calculations, forecastModels, adminAudit, documents, media };
}

function windowStart(windowSeconds: number, nowSeconds: number): number {
  const now = Math.floor(nowSeconds);
  return now - (now % windowSeconds);
}
