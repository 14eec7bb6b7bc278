// The readings a monitoring period was computed from: each meter of the plan with
// its kind, its поверка dates and instants, and its readings over the period as they were read, kept
// beside the period's result (blob `climate/{company}/{project}/{period}.minutes.json`). The
// verifier's pack (export/climate-pack.ts) is made from these, never from the readings as they stand
// at the download: a reading changed later moves neither the period nor its pack (D80, like an
// approved year, D39), and verify.py recomputes every hour from exactly the minutes the period saw.
import type { ClimatePeriodRecord, ClimateProject, Sensor } from "../../ports";
import type { Deps } from "../context";
import type { MeterReadings } from "@core/climate-hours";

/** A meter of the plan as the period read it. */
export interface PeriodMeter {
  code: string;
  kind: Sensor["kind"];
  point: string | null;
  in_service_from: string | null;
  in_service_to: string | null;
  /** [valid_from_utc, valid_to_utc): the поверка dates on the company's clock as instants; null: open. */
  valid_from_utc: string | null;
  valid_to_utc: string | null;
  /** The readings in [start, end) of the period, in the order read: ms since the epoch and values. */
  times: number[];
  values: number[];
}

/** The plan the period was computed by and its meters. */
export interface PeriodMinutes {
  plan: {
    devices: Array<Pick<ClimateProject["devices"][number], "name" | "kind" | "flow_basis" | "eta_option" | "sensors">>;
    e_own_sensor: string | null;
  };
  meters: PeriodMeter[];
}

/** Beside the figures they gave (`…/{period}.json`, a period computed again `…/{period}.v{n}.json`):
 *  each computation of the period keeps the readings it read. */
export const periodMinutesKey = (p: Pick<ClimatePeriodRecord, "blob">) => p.blob.replace(/\.json$/, ".minutes.json");

const instantOrNull = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/** Keeps the plan and each meter's readings as the period read them. */
export async function keepPeriodMinutes(
  deps: Pick<Deps, "blobs">,
  record: Pick<ClimatePeriodRecord, "blob">,
  project: Pick<ClimateProject, "devices" | "e_own_sensor">,
  meters: ReadonlyMap<string, { sensor: Sensor; read: MeterReadings }>,
): Promise<void> {
  const kept: PeriodMinutes = {
    plan: {
      devices: project.devices.map(({ name, kind, flow_basis, eta_option, sensors }) => ({ name, kind, flow_basis, eta_option, sensors })),
      e_own_sensor: project.e_own_sensor,
    },
    meters: [...meters].map(([code, { sensor, read }]) => ({
      code,
      kind: sensor.kind,
      point: sensor.point,
      in_service_from: sensor.in_service_from,
      in_service_to: sensor.in_service_to,
      valid_from_utc: instantOrNull(read.validFrom),
      valid_to_utc: instantOrNull(read.validTo),
      times: Array.from(read.times),
      values: Array.from(read.values),
    })),
  };
  await deps.blobs.put(periodMinutesKey(record), new TextEncoder().encode(JSON.stringify(kept)), "application/json");
}

/** The plan and readings a period was computed from; undefined for a period computed before they were kept. */
export async function periodMinutes(
  deps: Pick<Deps, "blobs">,
  record: Pick<ClimatePeriodRecord, "blob">,
): Promise<PeriodMinutes | undefined> {
  const stored = await deps.blobs.get(periodMinutesKey(record));
  return stored ? (JSON.parse(new TextDecoder().decode(stored.body)) as PeriodMinutes) : undefined;
}
