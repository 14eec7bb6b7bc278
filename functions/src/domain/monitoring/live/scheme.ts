// D106: the section's scheme. Each section's meters in airflow order (D103, @core/air-path) from the air
// entering to the shaft's return, each with its place, its latest value and its state — norm, W/A, gassing
// (D98: an open entry of the book), questioned (an open or unanswered suspect event, D102–D105), out of
// verification (D94), silent (D65) — the junctions of fresh air and the shearer's run and position (its
// `run_status` and `shearer_position` channels). What it reads is kept, never a day of minutes folded: the
// «Мониторинг» tiles (their heads), the facility's sensor heads for the other channels, the checks' states,
// the book's open entries and the facility's events of the last week. The web draws it as SVG
// (web/src/features/monitoring/live/SchemePage.tsx); the handover prints it beside its lists.
import { MINE_RETURNS, airPaths, airflowOrderOf, type AirPathMeter } from "@core/air-path";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import { ADVISORY_NOTE, SENSOR_KINDS, type SensorKind } from "@core/monitoring";
import { STALE_INTERVALS, silenceSpan } from "@core/monitoring-events";
import { SENSOR_PLACES } from "@core/sensor-places";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { getFacility } from "../../company/facilities";
import type { schemeSchema } from "../../../contract/schemas/monitoring";
import { checkStates } from "../instruments/check-states";
import { registerAt } from "../ingest/register";
import { facilityRegister } from "../ingest/kept-register";
import { currentLiveView } from "./minute-reads";

export type Scheme = z.output<typeof schemeSchema>;
type SchemeMeter = Scheme["sections"][number]["meters"][number];

/** How far back an unanswered suspect event keeps a meter «под сомнением» on the scheme once closed. */
const QUESTION_DAYS = 1;
/** A channel without a reading for this long is silent where its tile does not judge it (D65's rule on a head
 *  with no expected interval kept: 2 intervals of a minute) [A]. */
const SILENT_AFTER_MS = (STALE_INTERVALS + 1) * MINUTE_MS;
const SHEARER_KINDS: readonly SensorKind[] = ["run_status", "shearer_position"];
const number = (v: number, digits: number) => v.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** GET v1/telemetry/scheme/: the facility's sections drawn in airflow order (D106). */
export async function facilityScheme(deps: Deps, actor: Actor, facilityId: string): Promise<Scheme> {
  const facility = await getFacility(deps, actor, facilityId);
  const now = deps.clock.now().getTime();
  const register = (await facilityRegister(deps, actor.company, facility.id)).filter((s) => s.is_active);
  const [live, head, due, book, events] = await Promise.all([
    currentLiveView(deps, actor, facility),
    deps.repos.monitoring.getLiveHead(actor.company, facility.id),
    checkStates(deps, actor.company, facility.id, now, register),
    deps.repos.gassings.list(actor.company),
    deps.repos.sensorEvents.listOfFacility(
      actor.company,
      facility.id,
      new Date(now - 7 * DAY_MS).toISOString(),
      new Date(now + MINUTE_MS).toISOString(),
    ),
  ]);
  const tileMeters = new Map(live.tiles.flatMap((t) => t.meters.map((m) => [m.sensor, m] as const)));
  const outOfVerification = new Map(due.states.filter((s) => s.out_of_verification_from).map((s) => [s.sensor, s.verification]));
  const gassingCodes = new Set(book.filter((g) => g.facility === facility.id && !g.closed).flatMap((g) => g.found?.sensors ?? []));
  const questioned = new Map<string, string>();
  for (const e of events) {
    if (e.kind !== "suspect" || !e.suspect) continue;
    const live = e.end === null || (!e.acknowledged_at && Date.parse(e.end) > now - QUESTION_DAYS * DAY_MS);
    if (!live) continue;
    for (const id of [e.sensor, e.suspect.other_sensor]) if (id && !questioned.has(id)) questioned.set(id, e.suspect.text);
  }
  const meters = register.map((sensor) => {
    const r = registerAt(sensor, now);
    return {
      id: sensor.id,
      code: r.code,
      kind: r.kind,
      place: r.place,
      section: r.section,
      working: r.working,
      airflow_order: r.airflow_order ?? null,
      fresh_air_joins: r.fresh_air_joins ?? false,
      warning: r.warning,
      alarm: r.alarm,
    };
  });
  const meterOf = (m: (typeof meters)[number]): SchemeMeter => {
    const tile = tileMeters.get(m.id);
    const kept = head?.sensors[m.id];
    const value = tile ? tile.value : kept && Number.isFinite(kept.value) ? kept.value : null;
    const at = tile ? tile.at : kept && Number.isFinite(kept.at) ? new Date(kept.at).toISOString() : null;
    const silentMinutes =
      tile !== undefined
        ? tile.stale_minutes
        : kept && Number.isFinite(kept.at) && now - kept.at >= SILENT_AFTER_MS
          ? Math.floor((now - kept.at) / MINUTE_MS)
          : null;
    const unit = SENSOR_KINDS[m.kind as SensorKind]?.unit ?? "";
    let state: SchemeMeter["state"] = "normal";
    let label = "норма";
    if (silentMinutes !== null || value === null) {
      state = "silent";
      label = silentMinutes !== null ? `нет показаний ${silenceSpan(silentMinutes)}` : "нет показаний за сутки";
    } else if (gassingCodes.has(m.code)) {
      state = "gassing";
      label = `загазирование: ${number(value, 2)} ${unit}, запись книги не закрыта`;
    } else if (tile && (tile.state === "alarm" || tile.state === "warning" || tile.state === "pre_warning")) {
      state = tile.state;
      label = tile.state_label;
    }
    return {
      sensor: m.id,
      code: m.code,
      kind: m.kind as SensorKind,
      kind_label: SENSOR_KINDS[m.kind as SensorKind]?.label ?? m.kind,
      place: m.place,
      place_label: SENSOR_PLACES[m.place],
      order: airflowOrderOf(m) ?? 0,
      fresh_air_joins: m.fresh_air_joins,
      value,
      value_text: value === null ? "—" : `${number(value, m.kind === "methane" ? 2 : 1)}${unit ? ` ${unit}` : ""}`,
      at,
      state,
      state_label: label,
      questioned: questioned.get(m.id) ?? null,
      out_of_verification: outOfVerification.get(m.id) ?? null,
    };
  };
  const onPath = meters.filter((m) => !SHEARER_KINDS.includes(m.kind as SensorKind)) as (AirPathMeter & (typeof meters)[number])[];
  const sections = airPaths(onPath).map((path) => {
    const workings = new Set(path.meters.map((m) => m.working).filter(Boolean));
    const own = (m: (typeof meters)[number]) => (m.section ? m.section === path.name : workings.has(m.working));
    const run = meters.find((m) => m.kind === "run_status" && own(m));
    const position = meters.find((m) => m.kind === "shearer_position" && own(m));
    const runValue = run ? head?.sensors[run.id]?.value : undefined;
    const positionValue = position ? head?.sensors[position.id]?.value : undefined;
    return {
      name: path.name,
      mine_returns: path.name === MINE_RETURNS,
      meters: path.meters.map(meterOf),
      shearer:
        run || position
          ? {
              run_code: run?.code ?? null,
              running: runValue === undefined || !Number.isFinite(runValue) ? null : runValue >= 0.5,
              position_code: position?.code ?? null,
              position_m: positionValue === undefined || !Number.isFinite(positionValue) ? null : positionValue,
            }
          : null,
    };
  });
  return {
    facility: facility.id,
    facility_name: facility.name,
    now: new Date(now).toISOString(),
    sections,
    advisory: ADVISORY_NOTE,
  };
}

/** A section of the scheme in one line, as the handover prints it (D106): «Комбайн КМ-1: работает, 84 м; ДМ-1
 *  0,25 % об. (норма) → ДМ-2 0,55 % об. (норма) → свежий воздух → ДМ-3 0,62 % об. (норма; под сомнением)». */
export function schemeLine(section: Scheme["sections"][number]): string {
  const shearer = section.shearer
    ? `Комбайн${section.shearer.run_code ? ` ${section.shearer.run_code}` : ""}: ${
        section.shearer.running === null ? "состояние неизвестно" : section.shearer.running ? "работает" : "стоит"
      }${section.shearer.position_m === null ? "" : `, ${number(section.shearer.position_m, 0)} м`}; `
    : "";
  const meters = section.meters.map((m) => {
    const notes = [m.state_label, ...(m.questioned ? ["под сомнением"] : []), ...(m.out_of_verification ? [m.out_of_verification] : [])];
    return `${m.fresh_air_joins ? "свежий воздух → " : ""}${m.code} ${m.value_text} (${notes.join("; ")})`;
  });
  return shearer + meters.join(" → ");
}
