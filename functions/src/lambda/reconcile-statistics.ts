// The daily reconciliation of the statistics (domain/inventory/statistics.ts): a schedule in the stack runs
// it; each company's drift is logged as one JSON line (CloudWatch) and repaired, unless changes
// were still coming in through the stream while it counted (then the next run repairs it). A
// company that fails, or whose sums the storage cannot hold, is logged as an error and the others
// go on.
import { createDocumentClient } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import { systemClock } from "../domain/context";
import { drifted, reconcileAllStatistics, troubled } from "../domain/inventory/statistics";
import { migrateEmissionPoints } from "../domain/company/emission-points-migration";
import { migrateSensorPlaces } from "../domain/monitoring/ingest/sensor-places-migration";
import { migrateDrainageBasis } from "../domain/monitoring/minutes/drainage-basis-migration";

const tableName = process.env.TABLE_NAME ?? "";
const doc = createDocumentClient({ tableName, region: process.env.AWS_REGION });
const repos = dynamoRepositories(doc, tableName);
/** Longer than the stream's batching window (5 s) plus a batch's handling. */
const SETTLE_MS = Number(process.env.SETTLE_SECONDS ?? 20) * 1000;

export async function handler(): Promise<{ companies: number; drifted: number; repaired: number; unsettled: number; troubled: number }> {
  if (!tableName) throw new Error("TABLE_NAME is not set (the CDK stack sets it)");
  // D25: an installation stored before emission points gets them on the first run after the deploy.
  await migrateEmissionPoints(
    { repos, clock: systemClock },
    { log: (report) => console.info(JSON.stringify({ emission_points_migrated: report })) },
  );
  // sensors stored before places get a section and a place.
  await migrateSensorPlaces(
    { repos, clock: systemClock },
    { log: (report) => console.info(JSON.stringify({ sensor_places_migrated: report })) },
  );
  // D92: drainage stations' months accepted as «чистый» before D92 are made gross.
  await migrateDrainageBasis(
    { repos, clock: systemClock },
    { log: (report) => console.info(JSON.stringify({ drainage_basis_migrated: report })) },
  );
  const reports = await reconcileAllStatistics(
    { repos, clock: systemClock },
    {
      settleMs: SETTLE_MS,
      log: (report) => {
        if (troubled(report)) console.error(JSON.stringify({ statistics_trouble: report }));
        else if (drifted(report)) console.warn(JSON.stringify({ statistics_drift: report }));
      },
    },
  );
  const summary = {
    companies: reports.length,
    drifted: reports.filter(drifted).length,
    repaired: reports.reduce((n, r) => n + r.repaired, 0),
    unsettled: reports.filter((r) => r.unsettled).length,
    troubled: reports.filter(troubled).length,
  };
  console.info(JSON.stringify({ statistics_reconciled: summary }));
  return summary;
}
