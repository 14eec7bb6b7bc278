// D103: the air path. Within a section the meters stand in airflow order by place — face → 10–20 m from the
// face → the longwall's return → the section's return — and then the mine's wing return → the shaft; the
// register may set another order (`airflow_order`) and mark a meter `fresh_air_joins` where fresh air
// enters before it (such a pair is not compared, D103). Pure and browser-safe: the register's list, the
// suspect checks (server) and the section's scheme (D106) order the same meters the same way.
import type { SensorPlace } from "./sensor-places";

/** A place's default position on the air path (the register's `airflow_order` when not set); null: off the
 *  mine's air (the drainage and suction lines, «другое место»). Steps of 10 leave room for the mine's own. */
export const PLACE_AIRFLOW_ORDER: Readonly<Record<SensorPlace, number | null>> = {
  intake: 0,
  face: 10,
  face_10_20m: 20,
  longwall_return: 30,
  section_return: 40,
  wing_return: 50,
  shaft: 60,
  drainage_pipeline: null,
  suction_pipeline: null,
  other: null,
};

/** The places past a section's own meters: the mine's wing return and shaft close every section's path. */
export const MINE_RETURN_PLACES: readonly SensorPlace[] = ["wing_return", "shaft"];

export interface AirPathMeter {
  readonly id: string;
  readonly code: string;
  readonly kind: string;
  readonly place: SensorPlace;
  readonly section: string;
  readonly working: string;
  readonly airflow_order?: number | null;
  readonly fresh_air_joins?: boolean;
}

/** A meter's position on its path: the register's own order, else its place's; null: not on the air path. */
export const airflowOrderOf = (m: Pick<AirPathMeter, "place" | "airflow_order">): number | null =>
  m.airflow_order ?? PLACE_AIRFLOW_ORDER[m.place];

/** The name a meter's path goes by: its section, else its working; the mine's returns without either go
 *  by «Крыло, ствол». */
export const MINE_RETURNS = "Крыло, ствол";
export const pathNameOf = (m: Pick<AirPathMeter, "section" | "working" | "place">): string =>
  m.section || m.working || (MINE_RETURN_PLACES.includes(m.place) ? MINE_RETURNS : "");

export interface AirPath<M extends AirPathMeter> {
  readonly name: string;
  /** In airflow order (ties by code). */
  readonly meters: readonly M[];
}

/** The facility's air paths, one per section (else working), each in airflow order; the meters off the air
 *  (no order) are left out. Paths by name; the mine's returns without a section last. */
export function airPaths<M extends AirPathMeter>(meters: readonly M[]): AirPath<M>[] {
  const byName = new Map<string, M[]>();
  for (const m of meters) {
    if (airflowOrderOf(m) === null) continue;
    const name = pathNameOf(m);
    if (!name) continue;
    byName.set(name, [...(byName.get(name) ?? []), m]);
  }
  return [...byName]
    .sort(([a], [b]) => (a === MINE_RETURNS ? 1 : b === MINE_RETURNS ? -1 : a.localeCompare(b, "ru")))
    .map(([name, list]) => ({
      name,
      meters: [...list].sort((a, b) => (airflowOrderOf(a) ?? 0) - (airflowOrderOf(b) ?? 0) || a.code.localeCompare(b.code, "ru")),
    }));
}

/** D103: the pairs compared on each path: each methane meter and the nearest methane meter upstream of it,
 *  unless fresh air joins before it. */
export function airwayPairs<M extends AirPathMeter>(
  meters: readonly M[],
  kinds: readonly string[] = ["methane"],
): { upstream: M; downstream: M }[] {
  const pairs: { upstream: M; downstream: M }[] = [];
  for (const path of airPaths(meters)) {
    const gas = path.meters.filter((m) => kinds.includes(m.kind));
    for (let i = 1; i < gas.length; i++) {
      // Fresh air entering anywhere between the two dilutes the downstream one: not compared.
      const between = path.meters.slice(path.meters.indexOf(gas[i - 1]) + 1, path.meters.indexOf(gas[i]) + 1);
      if (between.some((m) => m.fresh_air_joins)) continue;
      pairs.push({ upstream: gas[i - 1], downstream: gas[i] });
    }
  }
  return pairs;
}

/** D102: the meters of a meter's air path and working (itself left out): its neighbours. */
export function neighboursOf<M extends AirPathMeter>(meter: M, meters: readonly M[]): M[] {
  const path = pathNameOf(meter);
  return meters.filter(
    (m) => m.id !== meter.id && ((path !== "" && pathNameOf(m) === path) || (meter.working !== "" && m.working === meter.working)),
  );
}
