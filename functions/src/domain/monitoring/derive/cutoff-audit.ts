// D104: the cut-off audit. A methane meter's minute mean at or above its cut-off setpoint (the register's
// A: the mine's АГК project) while a `run_status` channel of the same working reads 1 for two minutes or
// more after it [A] is a record «отключение не подтверждено» (the meter, the setpoint, the minutes, the
// equipment's channel). It is found where D65's events are (events.ts runs it over the same minutes it
// read for the meter), kept equal to what the minutes give while nobody answered it, answered by a person
// with a cause and confirmed by another who holds one of the gassing book's duties (four eyes, as D89:
// never the one who answered). Advisory: the mine's own АГК cuts power; the platform audits that it did.
import { isoDateIn, zoneOf } from "@core/company-clock";
import { DUTY_LABELS } from "@core/gassing-book";
import { DAY_MS, MINUTE_MS } from "@core/dates";
import { minuteMeans } from "@core/monitoring";
import { SENSOR_PLACES } from "@core/sensor-places";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, invalidAt, NotFound } from "../../errors";
import { getFacility } from "../../company/facilities";
import { initialsByEmail } from "../../person-name";
import type { CutoffRecord, Sensor } from "../../../ports";
import { LIMITS } from "../../../contract/schemas/limits";
import {
  CUTOFF_CAUSE_LABELS,
  type CutoffList,
  type CutoffView,
  type CutoffsDocument,
  type cutoffAnswerSchema,
  type cutoffConfirmSchema,
  type cutoffPeriodQuery,
} from "../../../contract/schemas/readings-audit";
import { registerAt } from "../ingest/register";
import { readingsBetween, type MinuteSource } from "../ingest/stored-readings";

const iso = (ms: number) => new Date(ms).toISOString();
/** A run channel's minute reads 1 when its mean is at least this (a 0/1 signal's minute). */
const RUNNING = 0.5;
/** The listing's longest period, days (as the instruments' records). */
const PERIOD_DAYS = LIMITS.monitoring.gassingsPeriodDays;
const WRITE_ATTEMPTS = 5;
export const CUTOFF_MISSING = "Запись об отключении не найдена";

/** One span of a meter at or above its setpoint during which the run channel read 1 long enough. */
export interface CutoffEpisode {
  start: number;
  end: number | null;
  peak: number;
  minutes: number;
  run_minutes: number;
}

/** D104 over aligned minute series (the same start, a minute each; NaN where none): each span of minutes
 *  at or above `setpoint`, with the minutes after its first one — to the minute after its last — that the
 *  run channel read 1; a span is kept when they are `least` or more. A span reaching the series' end is
 *  open (end null). */
export function cutoffEpisodes(
  series: { start: number; values: ArrayLike<number> },
  setpoint: number,
  run: ArrayLike<number>,
  least: number = LIMITS.readingsAudit.cutoffRunMinutes,
): CutoffEpisode[] {
  const out: CutoffEpisode[] = [];
  const n = series.values.length;
  const high = (m: number) => {
    const v = series.values[m];
    return !Number.isNaN(v) && v >= setpoint - 1e-9;
  };
  for (let m = 0; m < n; ) {
    if (!high(m)) {
      m++;
      continue;
    }
    const s = m;
    let peak = series.values[m];
    while (m < n && high(m)) {
      peak = Math.max(peak, series.values[m]);
      m++;
    }
    let running = 0;
    for (let k = s + 1; k <= Math.min(m, n - 1); k++) if (run[k] >= RUNNING) running++;
    if (running >= least)
      out.push({
        start: series.start + s * MINUTE_MS,
        end: m < n ? series.start + m * MINUTE_MS : null,
        peak,
        minutes: m - s,
        run_minutes: running,
      });
  }
  return out;
}

/** The run channels of `sensor`'s working at `at` (none without a working). */
export function runChannelsOf(sensor: Sensor, register: readonly Sensor[], at: number): Sensor[] {
  const working = registerAt(sensor, at).working;
  if (!working) return [];
  return register.filter((s) => {
    const r = registerAt(s, at);
    return r.kind === "run_status" && r.working === working;
  });
}

/** The record's id from what identifies it: the meter, the run channel and the first minute. */
export const cutoffId = (sensor: string, run: string, start: number) => `${sensor}.${run}.${Math.round(start / MINUTE_MS).toString(36)}`;

const sameFinding = (a: CutoffRecord, b: CutoffRecord) =>
  a.end === b.end && a.peak === b.peak && a.minutes === b.minutes && a.run_minutes === b.run_minutes && a.setpoint === b.setpoint;

/** What events.ts hands the audit of one methane meter: its minute means as read, and the span it judges. */
export interface MeterMinutes {
  sensor: Sensor;
  series: { start: number; values: ArrayLike<number> };
  from: number;
  to: number;
}

/** D104 as the detector's part: the records of `meter` starting in [from, to) made equal to what its
 *  minutes and its working's run channels give — new ones written, unanswered ones followed or removed
 *  when the minutes no longer give them; an answered record is the person's and stays as answered.
 *  `stored` is the facility's records (read once per run of the detector). Answers those written. */
export async function auditCutoffs(
  deps: Pick<Deps, "repos" | "clock">,
  meter: MeterMinutes,
  register: readonly Sensor[],
  stored: () => Promise<CutoffRecord[]>,
  minutes: MinuteSource,
): Promise<CutoffRecord[]> {
  const { sensor, series, from, to } = meter;
  const setpoint = registerAt(sensor, from).alarm;
  const runs = setpoint === null || setpoint === undefined ? [] : runChannelsOf(sensor, register, from);
  if (setpoint === null || setpoint === undefined || runs.length === 0) return [];
  const n = series.values.length;
  let anyHigh = false;
  for (let m = 0; m < n && !anyHigh; m++) anyHigh = series.values[m] >= setpoint - 1e-9;
  const kept = (await stored()).filter((r) => r.sensor === sensor.id && Date.parse(r.start) >= from && Date.parse(r.start) < to);
  if (!anyHigh && kept.length === 0) return [];
  const found: CutoffRecord[] = [];
  const now = deps.clock.now().toISOString();
  if (anyHigh) {
    for (const run of runs) {
      const { times, values } = await readingsBetween(deps, sensor.company, run, series.start, series.start + n * MINUTE_MS, minutes);
      const running = minuteMeans("run_status", times, values, series.start, n).values;
      for (const e of cutoffEpisodes(series, setpoint, running)) {
        if (e.start < from || e.start >= to) continue;
        found.push({
          company: sensor.company,
          facility: sensor.facility,
          id: cutoffId(sensor.id, run.id, e.start),
          sensor: sensor.id,
          run_sensor: run.id,
          setpoint,
          start: iso(e.start),
          end: e.end === null ? null : iso(e.end),
          peak: e.peak,
          minutes: e.minutes,
          run_minutes: e.run_minutes,
          found_at: now,
          answer: null,
          confirmation: null,
          version: 0,
        });
      }
    }
  }
  const before = new Map(kept.map((r) => [r.id, r]));
  const written: CutoffRecord[] = [];
  for (const record of found) {
    const was = before.get(record.id);
    before.delete(record.id);
    if (was && (was.answer || sameFinding(was, record))) continue;
    const next = was ? { ...record, found_at: was.found_at, version: was.version + 1 } : { ...record, version: 1 };
    try {
      await deps.repos.readingsAudit.putCutoff(next, was?.version ?? 0);
      written.push(next);
    } catch (error) {
      // Answered meanwhile: the person's record stays as answered.
      if (!(error instanceof Conflict)) throw error;
    }
  }
  for (const gone of before.values()) if (!gone.answer) await deps.repos.readingsAudit.removeCutoff(gone, gone.version);
  return written;
}

/** «отключение не подтверждено: М-1 1,40 % при уставке 1,30 %, РК-1 работал 10 мин». */
export function cutoffText(r: Pick<CutoffRecord, "peak" | "setpoint" | "run_minutes">, code: string, runCode: string): string {
  const pct = (v: number) => `${v.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`;
  return `отключение не подтверждено: ${code} ${pct(r.peak)} при уставке отключения ${pct(r.setpoint)}, ${runCode} в работе ${r.run_minutes} мин`;
}

/** A record as the API answers it. */
export function cutoffView(r: CutoffRecord, sensors: ReadonlyMap<string, Sensor>, nameOf: (email: string) => string): CutoffView {
  const meter = sensors.get(r.sensor);
  const run = sensors.get(r.run_sensor);
  const at = meter ? registerAt(meter, r.start) : undefined;
  const code = at?.code ?? "";
  const runCode = run ? registerAt(run, r.start).code : "";
  return {
    id: r.id,
    facility: r.facility,
    sensor: r.sensor,
    sensor_code: code,
    place: at?.place ? SENSOR_PLACES[at.place] : "",
    working: at?.working ?? "",
    setpoint: r.setpoint,
    start: r.start,
    end: r.end,
    peak: r.peak,
    minutes: r.minutes,
    run_sensor: r.run_sensor,
    run_code: runCode,
    run_minutes: r.run_minutes,
    text: cutoffText(r, code, runCode),
    state: r.confirmation ? "confirmed" : r.answer ? "answered" : "open",
    answer: r.answer
      ? {
          cause: r.answer.cause,
          cause_text: CUTOFF_CAUSE_LABELS[r.answer.cause],
          comment: r.answer.comment,
          by: nameOf(r.answer.by),
          at: r.answer.at,
        }
      : null,
    confirmation: r.confirmation
      ? {
          duty: r.confirmation.duty as keyof typeof DUTY_LABELS,
          duty_text: DUTY_LABELS[r.confirmation.duty as keyof typeof DUTY_LABELS] ?? r.confirmation.duty,
          by: nameOf(r.confirmation.by),
          at: r.confirmation.at,
        }
      : null,
  };
}

/** The company days a listing covers: `to` (default today), `from` (default 30 days before). */
export function periodOf(query: z.output<typeof cutoffPeriodQuery>, today: string): { from: string; to: string } {
  const to = query.to ?? today;
  const from = query.from ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString().slice(0, 10);
  if (from > to) throw invalidAt("to", "конец периода раньше начала");
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS >= PERIOD_DAYS) throw invalidAt("to", `период не длиннее ${PERIOD_DAYS} дней`);
  return { from, to };
}

/** The facility's records starting in a period of company days, newest first. */
export async function listCutoffs(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  query: z.output<typeof cutoffPeriodQuery>,
): Promise<CutoffList> {
  const facility = await getFacility(deps, actor, facilityId);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const { from, to } = periodOf(query, isoDateIn(deps.clock.now(), zone));
  const [records, sensors, nameOf] = await Promise.all([
    deps.repos.readingsAudit.cutoffsOfFacility(actor.company, facility.id),
    deps.repos.sensors.listOfFacility(actor.company, facility.id),
    initialsByEmail(deps.repos, actor.company),
  ]);
  const byId = new Map(sensors.map((s) => [s.id, s]));
  const results = records
    .filter((r) => {
      const day = isoDateIn(new Date(r.start), zone);
      return day >= from && day <= to;
    })
    .sort((a, b) => b.start.localeCompare(a.start) || a.id.localeCompare(b.id))
    .map((r) => cutoffView(r, byId, nameOf));
  return { facility: facility.id, facility_name: facility.name, from, to, results };
}

/** The records not yet confirmed (what a handover lists), oldest first. */
export async function unconfirmedCutoffs(deps: Pick<Deps, "repos">, company: string, facility: string): Promise<CutoffView[]> {
  const [records, sensors, nameOf] = await Promise.all([
    deps.repos.readingsAudit.cutoffsOfFacility(company, facility),
    deps.repos.sensors.listOfFacility(company, facility),
    initialsByEmail(deps.repos, company),
  ]);
  const byId = new Map(sensors.map((s) => [s.id, s]));
  return records.filter((r) => !r.confirmation).map((r) => cutoffView(r, byId, nameOf));
}

async function changeCutoff(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  id: string,
  change: (stored: CutoffRecord) => CutoffRecord,
): Promise<CutoffView> {
  if (actor.role === "reviewer") throw new Forbidden("Недостаточно прав: отключения разбирают сотрудники площадки, не проверяющий");
  const facility = await getFacility(deps, actor, facilityId);
  for (let attempt = 1; ; attempt++) {
    const stored = await deps.repos.readingsAudit.getCutoff(actor.company, facility.id, id);
    if (!stored) throw new NotFound(CUTOFF_MISSING);
    const next = change(stored);
    try {
      await deps.repos.readingsAudit.putCutoff(next, stored.version);
    } catch (error) {
      if (!(error instanceof Conflict) || attempt >= WRITE_ATTEMPTS) throw error;
      continue;
    }
    const sensors = new Map((await deps.repos.sensors.listOfFacility(actor.company, facility.id)).map((s) => [s.id, s]));
    return cutoffView(next, sensors, await initialsByEmail(deps.repos, actor.company));
  }
}

/** A person answers the record with its cause (once: a second answer 409). */
export function answerCutoff(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  id: string,
  input: z.output<typeof cutoffAnswerSchema>,
): Promise<CutoffView> {
  return changeCutoff(deps, actor, facilityId, id, (stored) => {
    if (stored.answer) throw new Conflict("Запись об отключении уже разобрана: ответ не изменяется");
    if (input.cause === "false_reading" && !input.comment?.trim())
      throw invalidAt("comment", "укажите, чем подтверждено, что показание ложное (замер, проверка датчика)");
    return {
      ...stored,
      answer: { cause: input.cause, comment: input.comment?.trim() ?? "", by: actor.email, at: deps.clock.now().toISOString() },
      version: stored.version + 1,
    };
  });
}

/** Another person, holding one of the gassing book's duties, confirms the answer (D89's four eyes). */
export async function confirmCutoff(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  id: string,
  input: z.output<typeof cutoffConfirmSchema>,
): Promise<CutoffView> {
  const user = await deps.repos.users.get(actor.company, actor.id);
  return changeCutoff(deps, actor, facilityId, id, (stored) => {
    if (user?.duty !== input.duty)
      throw new Forbidden(`Подтверждает ${DUTY_LABELS[input.duty]}: эта обязанность вам не назначена (её назначает администратор)`);
    if (!stored.answer) throw invalidAt("duty", "подтвердить можно только разобранную запись: сначала укажите причину");
    if (stored.answer.by === actor.email)
      throw new Forbidden("Причину указали вы: запись подтверждает другой человек (правило «четырех глаз»)");
    if (stored.confirmation) throw new Conflict("Запись об отключении уже подтверждена");
    return {
      ...stored,
      confirmation: { duty: input.duty, by: actor.email, at: deps.clock.now().toISOString() },
      version: stored.version + 1,
    };
  });
}

export const CUTOFFS_TITLE = "Отключения, не подтвержденные каналом работы оборудования";

/** The records of a period as the xlsx and the PDF print them. */
export async function cutoffsDocument(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  query: z.output<typeof cutoffPeriodQuery>,
): Promise<CutoffsDocument> {
  const list = await listCutoffs(deps, actor, facilityId, query);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  return { ...list, results: [...list.results].reverse(), zone, issued_at: deps.clock.now().toISOString() };
}
