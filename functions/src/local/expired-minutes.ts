// DynamoDB's TTL removes a facility's minute items (and the marks beside them) once their
// `expires_at` has passed, some days after their day is compacted; dynalite has no TTL, so the local
// host removes them itself, with its hourly compaction. One Query a facility and day (an empty
// partition is a seek), for the days whose items may have expired since the last start.
import { DeleteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Repositories } from "../ports";
import * as keys from "../adapters/dynamodb/keys";
import { queryAll } from "../adapters/dynamodb/items";
import { movedMarkExpiry } from "../adapters/dynamodb/monitoring-repository";
import { utcDay } from "../domain/monitoring/ingest/stored-readings";
import { DAY_MS } from "@core/dates";

/** How many days past the newest expired one are looked at: a host stopped for longer leaves the
 *  minutes of the days it slept through before it (a few MB a facility-day). */
const EXPIRED_DAYS_LOOKED_AT = 60;

/** Removes the facilities' minute items whose expiry has passed, each facility-day's compacted first
 *  where it is not yet (`compactFirst`: a host stopped for longer than the minutes are kept, whose days
 *  the compaction's look back no longer reaches, keeps their readings); answers how many. */
export async function removeExpiredMinutes(
  doc: DynamoDBDocumentClient,
  table: string,
  repos: Pick<Repositories, "companies" | "facilities">,
  now: number,
  compactFirst: (company: string, facility: string, day: string) => Promise<unknown>,
): Promise<number> {
  const nowSeconds = Math.floor(now / 1000);
  const days: string[] = [];
  for (let back = 0; days.length < EXPIRED_DAYS_LOOKED_AT; back++) {
    const day = utcDay(now - back * DAY_MS);
    if (movedMarkExpiry(day) < nowSeconds) days.push(day);
  }
  let removed = 0;
  for (const company of await repos.companies.list())
    for (const facility of await repos.facilities.list(company.id))
      for (const day of days) {
        const expired = await queryAll(doc, {
          TableName: table,
          KeyConditionExpression: "PK = :pk",
          FilterExpression: "expires_at < :now",
          ExpressionAttributeValues: { ":pk": keys.facilityMinutesOfDay(company.id, facility.id, day), ":now": nowSeconds },
          ProjectionExpression: "PK, SK",
        });
        if (expired.length > 0) await compactFirst(company.id, facility.id, day);
        for (const key of expired) await doc.send(new DeleteCommand({ TableName: table, Key: { PK: key.PK, SK: key.SK } }));
        removed += expired.length;
      }
  return removed;
}
