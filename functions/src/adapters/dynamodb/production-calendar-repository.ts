// The production calendar's years (keys.calendarYear).
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CalendarYear, ProductionCalendarRepository } from "../../ports";
import * as keys from "./keys";
import { type VersionedPartition, versionedPartition } from "./items";
import { calendarConflict } from "../../domain/reference/production-calendar";

/** Where the calendar's years are kept (the memory adapter keeps them alike); read consistently. */
export const CALENDAR_YEARS: VersionedPartition<CalendarYear, number> = {
  pk: keys.PRODUCTION_CALENDAR_PK,
  key: keys.calendarYear,
  idOf: (year) => year.year,
  conflict: calendarConflict,
  consistentRead: true,
};

export function dynamoProductionCalendar(doc: DynamoDBDocumentClient, table: string): ProductionCalendarRepository {
  return versionedPartition(doc, table, CALENDAR_YEARS);
}
