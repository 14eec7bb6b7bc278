// The company's per-year statistics aggregates (keys.companyStatisticsYear) and the marker of the
// last stream record applied per source item (keys.statisticsApplied). SCHEMA.md documents both.
//
// Exactly once without transactions (dynalite has none): a record's differences are ADDed to its
// year in the same UpdateItem that writes `pending:<source SK> = sequence`, conditioned on that
// attribute being older; then the source's marker takes the sequence; then the pending attribute
// is removed. A delivery cut short after the ADD finds the pending attribute and does not add
// again; one cut short after the marker finds the marker and only clears the pending attribute.
// Each write touches one small item, so a change costs the same at 100 or 100 000 calculations.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { StatisticsFigures, StatisticsRepository, YearStatistics } from "../../ports";
import * as keys from "./keys";
import { unlessConditionFails } from "./conditions";

const CALC = "calc:";
const PENDING = "pending:";
const YEAR_PREFIX = keys.companyStatisticsYears("").SKPrefix;

/** `ADD` clause parts for the non-zero figures of a difference, plus the change counter. */
function additions(delta: StatisticsFigures) {
  const names: Record<string, string> = { "#rev": "rev" };
  const values: Record<string, unknown> = { ":one": 1 };
  const parts = ["#rev :one"];
  const add = (attribute: string, value: number) => {
    if (value === 0) return;
    const i = parts.length;
    names[`#a${i}`] = attribute;
    values[`:a${i}`] = value;
    parts.push(`#a${i} :a${i}`);
  };
  add("projects_active", delta.projects_active);
  add("projects_archived", delta.projects_archived);
  add("total_co2e", delta.total_co2e);
  for (const [type, count] of Object.entries(delta.calculations)) add(`${CALC}${type}`, count);
  return { names, values, clause: `ADD ${parts.join(", ")}` };
}

export function dynamoStatistics(doc: DynamoDBDocumentClient, table: string): StatisticsRepository {
  const clearPending = (companyId: string, year: string, source: string, sequence: string) =>
    unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.companyStatisticsYear(companyId, year),
          UpdateExpression: "REMOVE #p",
          ConditionExpression: "#p = :seq",
          ExpressionAttributeNames: { "#p": `${PENDING}${source}` },
          ExpressionAttributeValues: { ":seq": sequence },
        }),
      ),
    );

  return {
    async years(companyId) {
      const prefix = keys.companyStatisticsYears(companyId);
      const items: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await doc.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
            ExpressionAttributeValues: { ":pk": prefix.PK, ":sk": prefix.SKPrefix },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        items.push(...((out.Items ?? []) as Record<string, unknown>[]));
        start = out.LastEvaluatedKey;
      } while (start);
      return items.map((item): YearStatistics => {
        const calculations: Record<string, number> = {};
        for (const [name, value] of Object.entries(item)) {
          if (name.startsWith(CALC)) calculations[name.slice(CALC.length)] = Number(value);
        }
        return {
          year: String(item.SK).slice(YEAR_PREFIX.length),
          projects_active: Number(item.projects_active ?? 0),
          projects_archived: Number(item.projects_archived ?? 0),
          calculations,
          total_co2e: Number(item.total_co2e ?? 0),
          rev: Number(item.rev ?? 0),
          updated_at: String(item.updated_at ?? ""),
        };
      });
    },

    async apply(companyId, { source, sequence, deltas, at }) {
      const marker = keys.statisticsApplied(companyId, source);
      const seen = await doc.send(new GetCommand({ TableName: table, Key: marker, ConsistentRead: true }));
      if (typeof seen.Item?.sequence === "string" && seen.Item.sequence >= sequence) {
        // Applied already; a delivery stopped before its last step may have left the pending mark.
        for (const delta of deltas) await clearPending(companyId, delta.year, source, sequence);
        return false;
      }
      let added = false;
      for (const delta of deltas) {
        const { names, values, clause } = additions(delta);
        added =
          (await unlessConditionFails(
            doc.send(
              new UpdateCommand({
                TableName: table,
                Key: keys.companyStatisticsYear(companyId, delta.year),
                UpdateExpression: `${clause} SET updated_at = :at, #p = :seq`,
                // Not yet added by an earlier delivery of this record (then #p = :seq).
                ConditionExpression: "attribute_not_exists(#p) OR #p < :seq",
                ExpressionAttributeNames: { ...names, "#p": `${PENDING}${source}` },
                ExpressionAttributeValues: { ...values, ":at": at, ":seq": sequence },
              }),
            ),
          )) || added;
      }
      await unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...marker, sequence },
            ConditionExpression: "attribute_not_exists(#s) OR #s < :seq",
            ExpressionAttributeNames: { "#s": "sequence" },
            ExpressionAttributeValues: { ":seq": sequence },
          }),
        ),
      );
      for (const delta of deltas) await clearPending(companyId, delta.year, source, sequence);
      return added;
    },

    async repair(companyId, delta, expectedRev, at) {
      const { names, values, clause } = additions(delta);
      return unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.companyStatisticsYear(companyId, delta.year),
            UpdateExpression: `${clause} SET updated_at = :at`,
            ConditionExpression: expectedRev === undefined ? "attribute_not_exists(PK)" : "#rev = :rev",
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ...values, ":at": at, ...(expectedRev === undefined ? {} : { ":rev": expectedRev }) },
          }),
        ),
      );
    },

    async removeLegacy(companyId) {
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.legacyCompanyStatistics(companyId) }));
    },
  };
}
