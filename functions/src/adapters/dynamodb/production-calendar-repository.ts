// The production calendar's years (keys.calendarYear).
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CalendarYear, ProductionCalendarRepository } from "../../ports";
import * as keys from "./keys";
import { queryPartition, strip, versionedPut } from "./items";
import { calendarConflict } from "../../domain/reference/production-calendar";

export function dynamoProductionCalendar(doc: DynamoDBDocumentClient, table: string): ProductionCalendarRepository {
  return {
    async list() {
      const items = await queryPartition(doc, table, keys.PRODUCTION_CALENDAR_PK, { consistentRead: true });
      return items.map((item) => strip<CalendarYear>(item)!);
    },
    async get(year) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.calendarYear(year), ConsistentRead: true }));
      return strip<CalendarYear>(out.Item);
    },
    async put(next, expectedVersion) {
      await versionedPut(doc, table, { ...keys.calendarYear(next.year), ...next }, expectedVersion, calendarConflict(next));
    },
  };
}
