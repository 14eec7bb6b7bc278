// Users (keys.user) and the e-mail lookup item that keeps e-mails unique across companies.
import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { User, UserRepository } from "../../ports";
import * as keys from "./keys";
import { conditional, unlessConditionFails } from "./conditions";
import { queryCount, queryPrefix, getItem, setClause, stripAll, putNew } from "./items";
import { normaliseEmail } from "../../domain/company/users";

// A new password, (de)activation or role ends every session of the user: the same write bumps
// the generation its tokens must carry.
const SESSION_ENDING_FIELDS = ["password_hash", "is_active", "role"];

/** Another change of the password (or of the sessions) came first. */
const PASSWORD_CHANGED = "Пароль уже изменен в другом окне или сеансе: войдите снова";

export function dynamoUsers(doc: DynamoDBDocumentClient, table: string): UserRepository {
  /** SET the given attributes of an existing user (undefined ones are left as they are). */
  async function setUserFields(
    companyId: string,
    userId: string,
    fields: Record<string, unknown>,
    expectedGeneration?: number,
    conflict = "Пользователь не найден",
  ): Promise<void> {
    const set = setClause(fields);
    if (set.written.length === 0) return;
    const endSessions = set.written.some((n) => SESSION_ENDING_FIELDS.includes(n));
    await conditional(
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.user(companyId, userId),
          UpdateExpression: `SET ${set.clause}` + (endSessions ? " ADD session_generation :one" : ""),
          // A user stored before generations counted has none: the same as 0.
          ConditionExpression:
            expectedGeneration === undefined
              ? "attribute_exists(PK)"
              : "attribute_exists(PK) AND (session_generation = :generation OR (attribute_not_exists(session_generation) AND :generation = :zero))",
          ExpressionAttributeNames: set.names,
          ExpressionAttributeValues: {
            ...set.values,
            ...(endSessions ? { ":one": 1 } : {}),
            ...(expectedGeneration === undefined ? {} : { ":generation": expectedGeneration, ":zero": 0 }),
          },
        }),
      ),
      conflict,
    );
  }

  return {
    async create(user) {
      const lookup = keys.emailLookup(user.email);
      await putNew(doc, table, { ...lookup, company: user.company, user: user.id }, "Пользователь с таким e-mail уже существует");
      try {
        await putNew(
          doc,
          table,
          { ...keys.user(user.company, user.id), ...user, email: normaliseEmail(user.email) },
          "Пользователь с таким идентификатором уже существует",
        );
      } catch (error) {
        await doc.send(new DeleteCommand({ TableName: table, Key: lookup }));
        throw error;
      }
    },
    async revokeSession(companyId, userId, sessionId, untilSeconds, expired) {
      const key = keys.user(companyId, userId);
      const gone = expired.filter((id) => id !== sessionId);
      const names = { "#r": "revoked_sessions", "#s": sessionId, ...Object.fromEntries(gone.map((id, i) => [`#x${i}`, id])) };
      const remove = gone.length > 0 ? ` REMOVE ${gone.map((_, i) => `#r.#x${i}`).join(", ")}` : "";
      // Into the map when there is one; otherwise the map is created (a race for it retries once).
      for (let attempt = 0; attempt < 2; attempt++) {
        const added = await unlessConditionFails(
          doc.send(
            new UpdateCommand({
              TableName: table,
              Key: key,
              UpdateExpression: `SET #r.#s = :until${remove}`,
              ConditionExpression: "attribute_exists(#r)",
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: { ":until": untilSeconds },
            }),
          ),
        );
        if (added) return;
        const created = await unlessConditionFails(
          doc.send(
            new UpdateCommand({
              TableName: table,
              Key: key,
              UpdateExpression: "SET #r = :map",
              ConditionExpression: "attribute_exists(PK) AND attribute_not_exists(#r)",
              ExpressionAttributeNames: { "#r": "revoked_sessions" },
              ExpressionAttributeValues: { ":map": { [sessionId]: untilSeconds } },
            }),
          ),
        );
        if (created) return;
      }
    },
    async get(companyId, userId) {
      return getItem<User>(doc, table, keys.user(companyId, userId));
    },
    async findByEmail(email) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.emailLookup(email) }));
      if (!out.Item) return undefined;
      return this.get(String(out.Item.company), String(out.Item.user));
    },
    async listByCompany(companyId) {
      const prefix = keys.usersOfCompany(companyId);
      const items = await queryPrefix(doc, table, prefix, { consistentRead: false });
      return stripAll<User>(items);
    },
    setPasswordHash(companyId, userId, passwordHash, expectedGeneration) {
      return setUserFields(companyId, userId, { password_hash: passwordHash }, expectedGeneration, PASSWORD_CHANGED);
    },
    setActive(companyId, userId, isActive) {
      return setUserFields(companyId, userId, { is_active: isActive });
    },
    update(companyId, userId, fields) {
      return setUserFields(companyId, userId, fields);
    },
    async move(user, toCompanyId) {
      const moved: User = { ...user, company: toCompanyId };
      await putNew(doc, table, { ...keys.user(toCompanyId, user.id), ...moved }, "Пользователь уже есть в этой компании");
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
}
