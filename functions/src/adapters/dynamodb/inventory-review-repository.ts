// The review of a company's inventory of one year (keys.inventoryReview): one item per year. The
// item is also the year's lock (D32, domain/inventory/freeze.ts): a write that may reach the year is counted
// on it by one conditional update (refused while the year is frozen or an approval holds its
// writes) and counted again when it ends (a calculation write by the table's stream once stored, on
// the inventory's counter item, keys.yearWritesEnded); a freezing step holds the writes and waits until both
// counts agree. The counts and the hold are the item's own attributes, which no review write
// touches: a review is written by an update of its fields, never a whole-item put.
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { FROZEN_STATUSES } from "@core/inventory";
import { inventoryReviewSchema } from "../../contract/schemas/answers";
import type { InventoryReview, InventoryReviewRepository } from "../../ports";
import * as keys from "./keys";
import { conditional, unlessConditionFails } from "./conditions";
import { queryAll, setClause, strip } from "./items";

const LOCK = keys.INVENTORY_LOCK_ATTRIBUTES;
/** Every field a review may have; one absent from a review written is removed from the item
 *  (`frozen`: the calculations kept before D20). */
const REVIEW_FIELDS = [...Object.keys(inventoryReviewSchema.shape), "frozen"];
const CONFLICT = "Статус инвентаризации уже изменен другим пользователем. Обновите страницу и повторите.";

export function dynamoInventoryReviews(doc: DynamoDBDocumentClient, table: string): InventoryReviewRepository {
  // changed_by is stored as a string set, so that noting an editor twice keeps one.
  const read = (item: Record<string, unknown> | undefined) => {
    // An item holding only the lock's attributes is no review yet.
    if (!item?.status) return undefined;
    for (const name of LOCK) delete item[name];
    const review = strip<InventoryReview & { changed_by?: Iterable<string> }>(item);
    return review?.changed_by ? { ...review, changed_by: [...review.changed_by].sort() } : review;
  };
  /** The year's calculation writes the table's stream counted ended (events/table-changes.ts). */
  const streamEnded = async (companyId: string, year: number) => {
    const out = await doc.send(
      new GetCommand({
        TableName: table,
        Key: keys.inventoryWrites(companyId),
        ConsistentRead: true,
        ProjectionExpression: "#e",
        ExpressionAttributeNames: { "#e": keys.yearWritesEnded(year) },
      }),
    );
    return Number(out.Item?.[keys.yearWritesEnded(year)] ?? 0);
  };
  const update = (companyId: string, year: number, rest: Omit<ConstructorParameters<typeof UpdateCommand>[0], "TableName" | "Key">) =>
    doc.send(new UpdateCommand({ TableName: table, Key: keys.inventoryReview(companyId, year), ...rest }));
  /** An update of the year's item that is done only where its condition holds: whether it was. */
  const updateWhere = (companyId: string, year: number, rest: Parameters<typeof update>[2]) =>
    unlessConditionFails(update(companyId, year, rest));
  return {
    async get(companyId, year) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.inventoryReview(companyId, year) }));
      return read(out.Item);
    },
    async listOfCompany(companyId) {
      const { PK } = keys.inventoryReview(companyId, 0);
      // The years' comments share the prefix; only a review has a status.
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :prefix)",
        FilterExpression: "attribute_exists(#s)",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":pk": PK, ":prefix": "INVENTORY#" },
      });
      return items.map((item) => read(item) as InventoryReview);
    },
    async put(next, expectedVersion) {
      const { changed_by, ...fields } = next;
      const values: Record<string, unknown> = { ...fields, ...(changed_by?.length ? { changed_by: new Set(changed_by) } : {}) };
      const set = setClause(values);
      // The hold of a freezing step ends with the review it writes.
      const removed = [...REVIEW_FIELDS.filter((name) => !set.written.includes(name)), "held_at"];
      await conditional(
        update(next.company, next.year, {
          UpdateExpression: `SET ${set.clause} REMOVE ${removed.map((_, i) => `#r${i}`).join(", ")}`,
          // Version 0: none stored, or one stored without a step yet (a year whose writes only noted their editors).
          ConditionExpression: expectedVersion === 0 ? "attribute_not_exists(#version) OR #version = :expected" : "#version = :expected",
          ExpressionAttributeNames: {
            ...set.names,
            ...Object.fromEntries(removed.map((name, i) => [`#r${i}`, name])),
            "#version": "version",
          },
          ExpressionAttributeValues: { ":expected": expectedVersion, ...set.values },
        }),
        CONFLICT,
      );
    },
    async beginWrite(companyId, year, email, now, staleBefore) {
      const frozen = Object.fromEntries(FROZEN_STATUSES.map((status, i) => [`:frozen${i}`, status]));
      // A year without a review gets its draft here (version 0, as one never stored reads).
      return updateWhere(companyId, year, {
        UpdateExpression:
          "SET company = if_not_exists(company, :c), #y = if_not_exists(#y, :y), #s = if_not_exists(#s, :draft), " +
          "history = if_not_exists(history, :none), comments = if_not_exists(comments, :none), " +
          "updated_at = if_not_exists(updated_at, :now), version = if_not_exists(version, :zero), last_changed_by = :e, " +
          "last_begun_at = :now ADD changed_by :set, writes_begun :one",
        ConditionExpression:
          `(attribute_not_exists(#s) OR NOT (#s IN (${Object.keys(frozen).join(", ")}))) AND ` +
          "(attribute_not_exists(held_at) OR held_at < :stale)",
        ExpressionAttributeNames: { "#y": "year", "#s": "status" },
        ExpressionAttributeValues: {
          ...frozen,
          ":c": companyId,
          ":y": year,
          ":draft": "draft",
          ":none": [],
          ":now": now,
          ":zero": 0,
          ":one": 1,
          ":e": email,
          ":set": new Set([email]),
          ":stale": staleBefore,
        },
      });
    },
    async endWrite(companyId, year) {
      await update(companyId, year, {
        UpdateExpression: "ADD writes_ended :one",
        ConditionExpression: "attribute_exists(writes_begun)",
        ExpressionAttributeValues: { ":one": 1 },
      });
    },
    async holdWrites(companyId, year, now, staleBefore) {
      return updateWhere(companyId, year, {
        UpdateExpression: "SET held_at = :now",
        ConditionExpression: "attribute_not_exists(held_at) OR held_at < :stale",
        ExpressionAttributeValues: { ":now": now, ":stale": staleBefore },
      });
    },
    async writeCounts(companyId, year) {
      const [out, byStream] = await Promise.all([
        doc.send(
          new GetCommand({
            TableName: table,
            Key: keys.inventoryReview(companyId, year),
            ConsistentRead: true,
            ProjectionExpression: "writes_begun, writes_ended, last_begun_at",
          }),
        ),
        streamEnded(companyId, year),
      ]);
      const item = out.Item ?? {};
      return {
        begun: Number(item.writes_begun ?? 0),
        ended: Number(item.writes_ended ?? 0) + byStream,
        ...(typeof item.last_begun_at === "string" ? { last_begun_at: item.last_begun_at } : {}),
      };
    },
    async settleAbandoned(companyId, year, begun) {
      // The writes the stream ended are counted on the inventory's counter item.
      const ended = begun - (await streamEnded(companyId, year));
      await updateWhere(companyId, year, {
        UpdateExpression: "SET writes_ended = :ended",
        ConditionExpression: "writes_begun = :begun",
        ExpressionAttributeValues: { ":begun": begun, ":ended": ended },
      });
    },
    async releaseWrites(companyId, year) {
      await update(companyId, year, { UpdateExpression: "REMOVE held_at" });
    },
  };
}
