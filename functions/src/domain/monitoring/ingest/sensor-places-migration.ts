// on an existing installation: the sensor registers stored before a sensor had a
// section and a place get them, once per company, on start (local/server.ts) and by the daily
// reconciliation (lambda/reconcile-statistics.ts). Every entry of a sensor's register, the past ones too
// (a past month is read with them), gets its section from its working and its place from what it was
// (`placeOfStoredSensor`: a channel of no working its point's own place); it keeps its point only where
// that place measures the point — a longwall's meter named the ventilation shaft's point no longer gives
// the shaft's month. Each sensor moved is in the company's change log, by «система».
import { placeMeasures, placeOfStoredSensor } from "@core/sensor-places";
import type { Deps } from "../../context";
import { Conflict } from "../../errors";
import type { EmissionPoint, Sensor } from "../../../ports";
import { logSensor } from "./register";
import { migrateEachCompany } from "../../company/emission-points-migration";

export const SENSOR_PLACES_MIGRATION = "sensor-places";
/** Who the change log names for a change the platform made (shown «система»). */
const PLATFORM = { id: "system", email: "system" } as const;

export interface SensorPlacesReport {
  company: string;
  /** Sensors given a section and place. */
  sensors: number;
  /** Of them, those whose point was taken away (their place does not measure it). */
  points_cleared: number;
  /** Sensors changed meanwhile (the next run takes them); the company is not marked done. */
  conflicts: number;
}

type Entry = Pick<Sensor, "kind" | "working" | "point" | "section" | "place">;

/** An entry stored before places existed, with its section, place and the point it still measures. */
function placed<T extends Entry>(entry: T, points: ReadonlyMap<string, EmissionPoint>): T {
  if ((entry as Partial<Entry>).place !== undefined) return entry;
  const point = entry.point ? points.get(entry.point) : undefined;
  const place = placeOfStoredSensor(entry.kind, entry.working, point?.kind);
  return {
    ...entry,
    section: entry.working,
    place,
    point: point && placeMeasures(place, point.kind) ? entry.point : null,
  };
}

/** Migrates every company not yet migrated; a company that fails is reported, the others go on. */
export const migrateSensorPlaces = (
  deps: Pick<Deps, "repos" | "clock">,
  options: { log?: (report: SensorPlacesReport | { company: string; failed: string }) => void } = {},
): Promise<SensorPlacesReport[]> => migrateEachCompany(deps, SENSOR_PLACES_MIGRATION, migrateCompanySensors, options);

export async function migrateCompanySensors(deps: Pick<Deps, "repos" | "clock">, companyId: string): Promise<SensorPlacesReport> {
  const now = deps.clock.now().toISOString();
  const report: SensorPlacesReport = { company: companyId, sensors: 0, points_cleared: 0, conflicts: 0 };
  for (const facility of await deps.repos.facilities.list(companyId)) {
    const points = new Map((await deps.repos.emissionPoints.listOfFacility(companyId, facility.id)).map((p) => [p.id, p]));
    for (const sensor of await deps.repos.sensors.listOfFacility(companyId, facility.id)) {
      const revisions = sensor.revisions.map((r) => placed(r, points));
      const stored = (sensor as Partial<Entry>).place === undefined || revisions.some((r, i) => r !== sensor.revisions[i]);
      if (!stored) continue;
      const moved: Sensor = { ...placed(sensor, points), revisions, updated_at: now, version: sensor.version + 1 };
      try {
        await deps.repos.sensors.replace(moved, sensor.version);
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
        report.conflicts += 1;
        continue;
      }
      report.sensors += 1;
      if (sensor.point && !moved.point) report.points_cleared += 1;
      await logSensor(deps, PLATFORM, facility.name, "sensor.places", sensor, moved);
    }
  }
  if (report.conflicts === 0) await deps.repos.migrations.markDone(companyId, SENSOR_PLACES_MIGRATION, now);
  return report;
}
