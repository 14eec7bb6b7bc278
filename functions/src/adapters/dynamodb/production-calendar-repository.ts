// The production calendar's years (keys.calendarYear).
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CalendarYear, ProductionCalendarRepository } from "../../ports";
import * as keys from "./keys";
import { queryAll, strip, versionedPut } from "./items";

export function dynamoProductionCalendar(doc: DynamoDBDocumentClient, table: string): ProductionCalendarRepository {
  return {
    async list() {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.PRODUCTION_CALENDAR_PK },
        ConsistentRead: true,
      });
      return items.map((item) => strip<CalendarYear>(item)!);
    },
    async get(year) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.calendarYear(year), ConsistentRead: true }));
      return strip<CalendarYear>(out.Item);
    },
    async put(next, expectedVersion) {
      await versionedPut(
        doc,
        table,
        { ...keys.calendarYear(next.year), ...next },
        expectedVersion,
        next.version === 1
          ? `Производственный календарь на ${next.year} год уже есть`
          : "Календарь уже изменен другим пользователем. Обновите страницу и повторите.",
      );
    },
  };
}
