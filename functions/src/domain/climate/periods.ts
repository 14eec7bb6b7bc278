// A climate project's monitoring periods (methodology D69–D79): [start, end) in whole
// hours of the company's clock, inside the project's dates, never overlapping another period of the
// project, at most LIMITS.climate.periodHours long. Each device's hours are built from the stored
// minutes of the meters its plan names (@core/climate-hours) and computed by the core as the stateless
// evaluation is (evaluate.ts: a heavy-work slot, off the request thread where the host can); the
// deficit carried in (D78) is the previous period's. Kept with its inputs and result: the table holds
// its bounds and totals, the blob `climate/{company}/{project}/{period}.json` its hours and figures.
// A long period (over LIMITS.climate.periodJobMeterHours: its hours × the plan's meters) is computed
// as a job where the host runs jobs (the job function in AWS, a spreadsheet thread locally): the
// request checks it and answers 202, the job computes and stores it (runClimatePeriodJob), the
// project's periods held for it until it ends.
import { FROZEN_PERIOD, PERIOD_CHANGED } from "@core/climate-approval";
import { creditsElectricity } from "@core/climate-devices";
import type { ClimateEvaluation, ClimateInputs, ClimatePeriodInput } from "@core/climate-project";
import { dateTimeText, instantOfWallTime, zoneOf } from "@core/company-clock";
import type * as z from "zod";
import type { climatePeriodBodySchema } from "../../contract/schemas/climate";
import { LIMITS } from "../../contract/schemas/limits";
import type { ClimatePeriodRecord, ClimateProject, Sensor } from "../../ports";
import type { Actor, Deps } from "../context";
import { Conflict, Invalid, invalidAt, NotFound } from "../errors";
import { newId } from "../ids";
import { readingsBetween } from "../monitoring/ingest/stored-readings";
import { batchReadings } from "../monitoring/ingest/readings";
import { russianPlural } from "@core/inventory";
import { heavyWork } from "../heavy-work";
import { exportJob } from "../export-jobs";
import type { ClimatePeriodJobRequest, ExportJobState } from "../../export/formats";
import { evaluateOnHost } from "./evaluate";
import { type MeterReadings, periodSum, planDeviceInputs } from "@core/climate-hours";
import { DAY_MS, HOUR_MS } from "@core/dates";
import { keepPeriodMinutes } from "./period-minutes";
import { getClimateProject, getPeriodOfProject, planMeters, registerByCode } from "./projects";
import { approvedSnapshot, logPeriod } from "./approvals";
import { answerOf, CLIMATE_PERIOD_NOT_FOUND, type ClimatePeriod, stepOf, storedFigures } from "./period-record";

export type ClimatePeriodBody = z.output<typeof climatePeriodBodySchema>;
/** What computes and stores a period: the API's ports, or a job's (adapters/spreadsheets/jobs.ts: no
 *  runtime and no other worker; the job holds its heavy-work slot until it ends). */
export type PeriodDeps = Pick<Deps, "repos" | "blobs" | "clock"> & Partial<Pick<Deps, "climateMath" | "runtime">>;
export { CLIMATE_PERIOD_NOT_FOUND, type ClimatePeriod } from "./period-record";

/** A whole hour or a date on the zone's clock as an instant (ms) and as written back («…T00:00»). */
function hourOf(text: string, zone: string): { at: number; wall: string } {
  const [date, time = "00:00"] = text.split("T");
  const [y, m, d] = date.split("-").map(Number);
  const hour = Number(time.slice(0, 2));
  if (m < 1 || m > 12 || d < 1 || d > 31 || hour > 23 || new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d)
    return { at: Number.NaN, wall: "" };
  return { at: instantOfWallTime(y, m, d, hour, 0, zone), wall: `${date}T${time}` };
}

/** The midnight that starts a date on the zone's clock. */
export const midnightOf = (date: string, zone: string) => hourOf(date, zone).at;

/** The meter's readings over [from, to) with its поверка dates (the register's dates in service). */
export async function meterOf(
  deps: Pick<Deps, "repos" | "clock">,
  sensor: Sensor,
  from: number,
  to: number,
  zone: string,
): Promise<MeterReadings> {
  const read = await readingsBetween(deps, sensor.company, sensor, from, to);
  return {
    kind: sensor.kind,
    times: read.times,
    values: read.values,
    validFrom: sensor.in_service_from ? midnightOf(sensor.in_service_from, zone) : Number.NEGATIVE_INFINITY,
    validTo: sensor.in_service_to ? midnightOf(sensor.in_service_to, zone) + DAY_MS : Number.POSITIVE_INFINITY,
  };
}

/** The register's sensor of each meter of the project's plan, by its code; one the register no longer
 *  holds is refused naming it. */
export async function planSensors(
  deps: Pick<Deps, "repos">,
  actor: Pick<Actor, "company">,
  project: Pick<ClimateProject, "facility" | "devices" | "e_own_sensor">,
): Promise<Map<string, Sensor>> {
  const register = await registerByCode(deps, actor, project.facility);
  const sensors = new Map<string, Sensor>();
  for (const code of planMeters(project)) {
    const sensor = register.get(code);
    if (!sensor) throw new Invalid(`Датчика «${code}» плана мониторинга больше нет в реестре площадки`);
    sensors.set(code, sensor);
  }
  return sensors;
}

/** Where a version of the period keeps its inputs and figures (the first version where periods always kept them). */
const blobKey = (p: Pick<ClimatePeriodRecord, "company" | "project" | "id" | "version">) =>
  `climate/${p.company}/${p.project}/${p.id}${p.version > 1 ? `.v${p.version}` : ""}.json`;

/** The period's bounds checked: whole hours, in order, bounded, inside the project's dates, over, and
 *  overlapping none of the project's periods; the previous period (the deficit it carries). */
function checkedBounds(
  body: ClimatePeriodBody,
  project: ClimateProject,
  periods: readonly ClimatePeriodRecord[],
  zone: string,
  now: number,
): { start: { at: number; wall: string }; end: { at: number; wall: string }; hours: number; previous: ClimatePeriodRecord | undefined } {
  const start = hourOf(body.start, zone);
  const end = hourOf(body.end, zone);
  if (Number.isNaN(start.at)) throw invalidAt("start", "такой даты нет в календаре");
  if (Number.isNaN(end.at)) throw invalidAt("end", "такой даты нет в календаре");
  if (end.at <= start.at) throw invalidAt("end", "конец периода должен быть позже начала");
  const hours = Math.round((end.at - start.at) / HOUR_MS);
  if (hours > LIMITS.climate.periodHours) {
    throw invalidAt("end", `отчетный период не длиннее ${LIMITS.climate.periodHours.toLocaleString("ru-RU")} часов (года)`);
  }
  if (start.at < midnightOf(project.start, zone)) throw invalidAt("start", "период начинается раньше начала проекта");
  if (project.end && end.at > midnightOf(project.end, zone) + DAY_MS) {
    throw invalidAt("end", "период кончается позже окончания проекта");
  }
  if (end.at > now) throw invalidAt("end", "период еще не закончился: показания его часов еще не все");
  const other = periods.find((p) => Date.parse(p.start_utc) < end.at && start.at < Date.parse(p.end_utc));
  if (other) {
    const shown = (wall: string) => dateTimeText(wall, zone);
    throw invalidAt("start", `период пересекается с периодом ${shown(other.start)} – ${shown(other.end)}`);
  }
  const previous = periods.filter((p) => Date.parse(p.end_utc) <= start.at).at(-1);
  return { start, end, hours, previous };
}

/** What a period is computed from besides its minutes: the executor's figures of the period. */
type GivenFigures = {
  e_grid_aux_mwh?: number | null;
  fuels?: ClimatePeriodInput["fuels"];
  leakage_t_co2e?: number | null;
  nmhc_pct_vol?: number | null;
  ef_grid_t_per_mwh?: number | null;
  ef_grid_source?: string | null;
};

type GivenGrid = Pick<GivenFigures, "ef_grid_t_per_mwh" | "ef_grid_source">;

/** D51, D75: whether the period credits or buys electricity — an engine with a
 *  generation meter, an own-use meter, grid electricity bought for the project's equipment. */
export function usesGridFactor(project: Pick<ClimateProject, "devices" | "e_own_sensor">, given: Pick<GivenFigures, "e_grid_aux_mwh">) {
  return (
    project.devices.some((d) => creditsElectricity(d.kind) && Boolean(d.sensors.e_gen)) ||
    Boolean(project.e_own_sensor) ||
    (given.e_grid_aux_mwh ?? 0) > 0
  );
}

/** The grid factor the period states, with its source: required where the period credits or buys
 *  electricity (400 naming the field), none otherwise (the core's parameter then moves nothing). */
function gridFactorOf(project: ClimateProject, given: GivenFigures): { ef_grid_t_per_mwh: number; ef_grid_source: string } | null {
  const value = given.ef_grid_t_per_mwh ?? null;
  const source = given.ef_grid_source?.trim() || null;
  if (value === null) {
    if (usesGridFactor(project, given)) {
      throw invalidAt(
        "period.ef_grid_t_per_mwh",
        "укажите коэффициент выбросов энергосистемы EF_grid и его источник: период зачитывает или покупает электроэнергию (D51, D75)",
      );
    }
    return null;
  }
  if (!source) throw invalidAt("period.ef_grid_source", "укажите источник EF_grid");
  return { ef_grid_t_per_mwh: value, ef_grid_source: source };
}

/** The period's devices' hours built from the stored minutes of the plan's meters and evaluated by the
 *  core: its inputs as computed (with the own-use meter's total and the deficit carried in) and result. */
async function computePeriod(
  deps: PeriodDeps,
  actor: Actor,
  project: ClimateProject,
  zone: string,
  bounds: { start: number; end: number; hours: number },
  given: GivenFigures,
  deficit: number,
): Promise<{
  period: ClimatePeriodInput;
  inputs: ClimateInputs;
  result: ClimateEvaluation;
  meters: Map<string, { sensor: Sensor; read: MeterReadings }>;
  readThrough: ClimatePeriodRecord["read_through"];
}> {
  const grid = gridFactorOf(project, given);
  const sensors = await planSensors(deps, actor, project);
  const planned = new Set([...sensors.values()].map((sensor) => sensor.id));
  const readThrough = await readingsSettled(deps, actor.company, project.facility, planned, bounds);
  // A year of minutes read and folded into hours is heavy work: the whole of it in one slot of the user
  // and the company, the core's part off the request thread where the host can. A job holds its slot.
  const { runtime } = deps;
  const inSlot = <T>(work: () => Promise<T>) => (runtime ? heavyWork({ repos: deps.repos, runtime }, actor, work) : work());
  return inSlot(async () => {
    const meters = new Map<string, { sensor: Sensor; read: MeterReadings }>();
    for (const [code, sensor] of sensors) meters.set(code, { sensor, read: await meterOf(deps, sensor, bounds.start, bounds.end, zone) });
    const read = (code: string) => meters.get(code)!.read;
    const devices = planDeviceInputs(project.devices, read, bounds.start, bounds.hours, zone);
    const e_own_mwh = project.e_own_sensor ? periodSum(read(project.e_own_sensor), bounds.start, bounds.end) : 0;
    const period: ClimatePeriodInput & GivenGrid = {
      e_own_mwh,
      e_grid_aux_mwh: given.e_grid_aux_mwh ?? 0,
      fuels: given.fuels ?? [],
      leakage_t_co2e: given.leakage_t_co2e ?? 0,
      deficit_prev_t_co2e: deficit,
      // D74: the executor's declaration from a gas analysis; the core refuses over 1 %.
      ...(given.nmhc_pct_vol !== undefined && given.nmhc_pct_vol !== null ? { nmhc_pct_vol: given.nmhc_pct_vol } : {}),
      ...(grid ?? {}),
    };
    const inputs: ClimateInputs = grid ? { params: { ef_grid_t_per_mwh: grid.ef_grid_t_per_mwh }, period, devices } : { period, devices };
    const result: ClimateEvaluation = await evaluateOnHost(deps, actor.company, inputs);
    return { period, inputs, result, meters, readThrough };
  });
}

type Computed = Awaited<ReturnType<typeof computePeriod>>;

/** What a computation writes on the period's record, a create's and a recompute's alike: its inputs
 *  as computed, its totals and carbon units, and who computed them when. */
const computedFields = ({ period, result, readThrough }: Computed, now: string, actor: Actor) => ({
  period: period as unknown as Record<string, unknown>,
  read_through: readThrough,
  rules_version: result.rules_version,
  totals: result.totals as unknown as Record<string, number>,
  carbon_units: result.totals.carbon_units,
  computed_at: now,
  computed_by: actor.email,
});

/** What a computation keeps beside the record: its figures in a blob of their own per version (the
 *  figures a concurrent approval reads stay those of the version it approves) and the readings as
 *  read, for the verifier's pack (period-minutes.ts): a later change moves neither. */
async function keepComputed(deps: PeriodDeps, record: ClimatePeriodRecord, project: ClimateProject, { inputs, result, meters }: Computed) {
  record.blob = blobKey(record);
  await deps.blobs.put(record.blob, new TextEncoder().encode(JSON.stringify({ inputs, result })), "application/json");
  await keepPeriodMinutes(deps, record, project, meters);
}

/** The deficit a period carries in (D78): the one the period before it carries out. */
const deficitBefore = (previous: ClimatePeriodRecord | undefined) => (previous ? Number(previous.totals.deficit_carried_t_co2e ?? 0) : 0);

/** How many of the facility's batches a listing looks through for ones still queued (the newest first). */
const QUEUED_LOOKUP = 500;

/** the period is computed only from readings already applied. A batch of the facility
 *  still queued with a reading of a plan's meter in the period's hours (a dispatch file's batch, whose
 *  readings are read only as it is applied, counts as one) makes the computation 409 «показания за эти
 *  часы еще применяются: N пакетов»; otherwise the newest batch of the facility applied, up to which the
 *  period read. */
async function readingsSettled(
  deps: Pick<Deps, "repos" | "blobs">,
  company: string,
  facility: string,
  planned: ReadonlySet<string>,
  bounds: { start: number; end: number },
): Promise<ClimatePeriodRecord["read_through"]> {
  const batches = await deps.repos.monitoring.batchesOfFacility(company, facility, QUEUED_LOOKUP);
  let pending = 0;
  for (const batch of batches) {
    if (batch.state !== "queued") continue;
    const rows = batch.file ? undefined : await batchReadings(deps, batch);
    if (!rows || rows.some(([sensor, t]) => planned.has(sensor) && t >= bounds.start && t < bounds.end)) pending += 1;
  }
  if (pending > 0) {
    throw new Conflict(
      `Показания за эти часы еще применяются: ${pending} ${russianPlural(pending, "пакет", "пакета", "пакетов")}. Повторите расчет, когда они будут применены`,
    );
  }
  const applied = batches.find((b) => b.state !== "queued");
  return applied ? { batch: applied.batch, received_at: applied.received_at } : null;
}

/** The period's hours times the meters of the project's plan (the own-use meter too): what it reads
 *  and folds; NaN for a bound that is no hour. */
function meterHours(project: ClimateProject, body: ClimatePeriodBody, zone: string): number {
  return ((hourOf(body.end, zone).at - hourOf(body.start, zone).at) / HOUR_MS) * planMeters(project).size;
}

/** Whether the period is computed as a job: the host runs them and it is over the request's share. */
export function computedAsJob(deps: Pick<Deps, "spreadsheets" | "config">, project: ClimateProject, body: ClimatePeriodBody, zone: string) {
  return overRequestShare(deps, meterHours(project, body, zone));
}

/** Whether `meterHours` are computed as a job: the host runs period jobs and they are over its share. */
function overRequestShare(deps: Pick<Deps, "spreadsheets" | "config">, meterHours: number): boolean {
  if (deps.spreadsheets.jobsOf?.includes("climate_period") !== true || !deps.spreadsheets.climatePeriod) return false;
  return meterHours > (deps.config.climatePeriodJobMeterHours ?? LIMITS.climate.periodJobMeterHours);
}

/** A period computed on the request (201: here, or as its JSON text where the host's threads computed
 *  it), or the job computing it (202). */
export type PeriodStarted =
  | { period: ClimatePeriod; text?: undefined; job?: undefined }
  | { text: string; period?: undefined; job?: undefined }
  | { job: ExportJobState; period?: undefined; text?: undefined };

/** a period below the job's bound computed and kept as its job would, in the host's
 *  threads where it has them (their answer's JSON text), the request waiting in its heavy-work slot: its
 *  minutes read and folded on the request thread held it 20–140 ms at load 5–12 (the loop budget).
 *  Undefined where the host has none: computed here. */
function computedInThreads(deps: Pick<Deps, "spreadsheets">, actor: Actor, request: ClimatePeriodJobRequest): Promise<string> | undefined {
  return deps.spreadsheets.climateRead?.(actor, { read: "climate_period", request });
}

const jobActor = (actor: Actor) => ({ id: actor.id, company: actor.company, email: actor.email, role: actor.role });

/** POST v1/climate-projects/{id}/periods/: the period computed from the stored minutes and kept; a long
 *  one, where the host runs jobs, checked here and computed and kept by its job. */
export async function createClimatePeriod(deps: Deps, actor: Actor, projectId: string, body: ClimatePeriodBody): Promise<PeriodStarted> {
  const project = await getClimateProject(deps, actor, projectId);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const asJob = computedAsJob(deps, project, body, zone);
  // The project's periods held for this request before they are read (as a month's acceptance is,
  // «Данные АГК» offers): two parallel creates of overlapping periods store one, the other is refused.
  // A job's hold is dated ahead: it is not taken over while the job may still wait or run.
  const now = deps.clock.now();
  const at = new Date(now.getTime() + (asJob ? PERIOD_JOB_HOLD_MS - PERIODS_CLAIM_STALE_MS : 0)).toISOString();
  const claim = { company: actor.company, project: project.id, token: newId(), at };
  if (!(await deps.repos.climateProjects.claimPeriods(claim, new Date(now.getTime() - PERIODS_CLAIM_STALE_MS).toISOString()))) {
    throw new Conflict(PERIODS_BUSY);
  }
  let handedOver = false;
  try {
    const bounds = await checkedCreate(deps, actor, project, body, zone);
    const request: ClimatePeriodJobRequest = {
      op: "climate_period",
      actor: jobActor(actor),
      project: project.id,
      claim: { token: claim.token, at: claim.at },
      body,
    };
    if (!asJob) {
      // The threads give the hold back as the job does; so does the finally below (it is the token's).
      const text = computedInThreads(deps, actor, request);
      return text ? { text: await text } : { period: await createChecked(deps, actor, project, zone, bounds, body) };
    }
    const climatePeriod = deps.spreadsheets.climatePeriod!;
    // The claim's token makes each job's request its own: nothing reuses another's job.
    const job = await exportJob(deps, actor, { op: "climate_period", project: project.id, claim: claim.token }, (ticket) =>
      climatePeriod(request, ticket),
    );
    handedOver = true;
    return { job };
  } finally {
    // A job gives the hold back when it ends (runClimatePeriodJob).
    if (!handedOver) await deps.repos.climateProjects.releasePeriods(claim);
  }
}

/** A claim on a project's periods its request never gave back (a process killed mid-way) is taken over after this. */
const PERIODS_CLAIM_STALE_MS = 10 * 60_000;
/** How long a job may hold a project's periods: the job function's 15 minutes to start and its 15 to
 *  run (adapters/spreadsheets/jobs.ts, JOB_START_WINDOW_MS and JOB_TIMEOUT_SECONDS), and five more. */
const PERIOD_JOB_HOLD_MS = 35 * 60_000;
export const PERIODS_BUSY = "Другой отчетный период этого проекта сейчас рассчитывается: дождитесь его окончания и повторите";

type Bounds = ReturnType<typeof checkedBounds>;

/** The create's checks, its project's periods held: their count and the bounds. */
async function checkedCreate(deps: PeriodDeps, actor: Actor, project: ClimateProject, body: ClimatePeriodBody, zone: string) {
  const periods = await deps.repos.climateProjects.listPeriods(actor.company, project.id);
  if (periods.length >= LIMITS.climate.periods) throw new Invalid(`У проекта уже ${LIMITS.climate.periods} отчетных периодов`);
  return checkedBounds(body, project, periods, zone, deps.clock.now().getTime());
}

/** The period's job (adapters/spreadsheets/jobs.ts; the job function in AWS, a spreadsheet thread
 *  locally): the project's periods held by the request that started it, it checks the period again,
 *  computes and stores it as the request would have, and gives the hold back however it ends. A
 *  refusal (the project changed meanwhile) fails the job with its Russian message; nothing is stored. */
export async function runClimatePeriodJob(deps: PeriodDeps, request: ClimatePeriodJobRequest): Promise<ClimatePeriod> {
  const actor: Actor = request.actor;
  if (request.recompute) {
    // A stored period computed again: checked again against what is stored now.
    const project = await getClimateProject(deps, actor, request.project);
    const record = await recomputable(deps, actor, project, request.recompute.period, request.recompute.version);
    return recomputeChecked(deps, actor, project, record, request.recompute.given);
  }
  if (!request.claim || !request.body) throw new Error("climate period job: neither a period to create nor one to recompute");
  const claim = { company: actor.company, project: request.project, ...request.claim };
  try {
    const project = await getClimateProject(deps, actor, request.project);
    const zone = zoneOf(await deps.repos.companies.get(actor.company));
    const bounds = await checkedCreate(deps, actor, project, request.body, zone);
    return await createChecked(deps, actor, project, zone, bounds, request.body);
  } finally {
    await deps.repos.climateProjects.releasePeriods(claim);
  }
}

/** The create, its project's periods held and its bounds checked: computed and kept. */
async function createChecked(
  deps: PeriodDeps,
  actor: Actor,
  project: ClimateProject,
  zone: string,
  { start, end, hours, previous }: Bounds,
  body: ClimatePeriodBody,
): Promise<ClimatePeriod> {
  const bounds = { start: start.at, end: end.at, hours };
  const computed = await computePeriod(deps, actor, project, zone, bounds, body.period ?? {}, deficitBefore(previous));
  const now = deps.clock.now().toISOString();
  const record: ClimatePeriodRecord = {
    id: newId(),
    company: actor.company,
    project: project.id,
    start: start.wall,
    end: end.wall,
    start_utc: new Date(start.at).toISOString(),
    end_utc: new Date(end.at).toISOString(),
    hours,
    ...computedFields(computed, now, actor),
    created_at: now,
    created_by: actor.email,
    version: 1,
    approval: null,
    history: [await stepOf(deps, actor, "compute")],
    readings_changed: null,
    blob: "",
  };
  await keepComputed(deps, record, project, computed);
  await deps.repos.climateProjects.createPeriod(record);
  return answerOf(record, computed.result);
}

/** The grid factor a recompute states anew: only the fields it gives (null clears one). */
const gridStated = (period: GivenGrid): GivenGrid =>
  Object.fromEntries(Object.entries(period).filter(([, v]) => v !== undefined)) as GivenGrid;

/** The stored period a recompute takes: an approved one is frozen (409), a stale version 409. */
async function recomputable(deps: PeriodDeps, actor: Actor, project: ClimateProject, id: string, version: number) {
  const record = await deps.repos.climateProjects.getPeriod(actor.company, project.id, id);
  if (!record) throw new NotFound(CLIMATE_PERIOD_NOT_FOUND);
  if (record.approval) throw new Conflict(FROZEN_PERIOD);
  if (record.version !== version) throw new Conflict(PERIOD_CHANGED);
  return record;
}

/** POST v1/climate-projects/{id}/periods/{p}/recompute/: the period computed again from the minutes
 *  stored now, with the figures the executor gave it and the deficit its previous period carries now;
 *  whoever computes it may no longer approve it. An approved period is frozen: 409. A long one, where
 *  the host runs jobs, is computed again by a job (the same request again while it waits is that job). */
export async function recomputeClimatePeriod(
  deps: Deps,
  actor: Actor,
  projectId: string,
  id: string,
  request: { version: number; period?: GivenGrid },
): Promise<PeriodStarted> {
  const project = await getClimateProject(deps, actor, projectId);
  const record = await recomputable(deps, actor, project, id, request.version);
  const given = request.period ? gridStated(request.period) : undefined;
  const recompute = { period: record.id, version: record.version, ...(given ? { given } : {}) };
  if (!overRequestShare(deps, record.hours * planMeters(project).size)) {
    const text = computedInThreads(deps, actor, { op: "climate_period", actor: jobActor(actor), project: project.id, recompute });
    return text ? { text: await text } : { period: await recomputeChecked(deps, actor, project, record, given) };
  }
  const climatePeriod = deps.spreadsheets.climatePeriod!;
  const job = await exportJob(deps, actor, { op: "climate_period", project: project.id, recompute }, (ticket) =>
    climatePeriod({ op: "climate_period", actor: jobActor(actor), project: project.id, recompute }, ticket),
  );
  return { job };
}

/** The recompute of a period found recomputable: computed, kept as its next version and logged. */
async function recomputeChecked(
  deps: PeriodDeps,
  actor: Actor,
  project: ClimateProject,
  record: ClimatePeriodRecord,
  grid?: GivenGrid,
): Promise<ClimatePeriod> {
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const periods = await deps.repos.climateProjects.listPeriods(actor.company, project.id);
  const previous = periods.filter((p) => p.end_utc <= record.start_utc && p.id !== record.id).at(-1);
  const given = { ...(record.period as GivenFigures), ...(grid ?? {}) };
  const bounds = { start: Date.parse(record.start_utc), end: Date.parse(record.end_utc), hours: record.hours };
  const computed = await computePeriod(deps, actor, project, zone, bounds, given, deficitBefore(previous));
  const next: ClimatePeriodRecord = {
    ...record,
    ...computedFields(computed, deps.clock.now().toISOString(), actor),
    version: record.version + 1,
    history: [...record.history, await stepOf(deps, actor, "recompute")],
    readings_changed: null,
  };
  await keepComputed(deps, next, project, computed);
  await deps.repos.climateProjects.replacePeriod(next, record.version);
  await logPeriod(deps, actor, project, "climate_period.recompute", record, next);
  return answerOf(next, computed.result);
}

/** GET v1/climate-projects/{id}/periods/{p}/: the period as computed then; an approved one as its
 *  approval froze it (approvals.ts). */
export async function getClimatePeriod(deps: Deps, actor: Actor, projectId: string, id: string): Promise<ClimatePeriod> {
  const { record } = await getPeriodOfProject(deps, actor, projectId, id);
  if (record.approval) {
    const snapshot = await approvedSnapshot(deps, record);
    return answerOf({ ...record, ...snapshot.period }, snapshot.result);
  }
  const stored = await storedFigures(deps, record);
  if (!stored) throw new NotFound(CLIMATE_PERIOD_NOT_FOUND);
  return answerOf(record, stored.result);
}

/** GET v1/climate-projects/{id}/periods/: the project's periods with their totals, the earliest first. */
export async function listClimatePeriods(deps: Deps, actor: Actor, projectId: string) {
  const project = await getClimateProject(deps, actor, projectId);
  return (await deps.repos.climateProjects.listPeriods(actor.company, project.id)).map(
    ({ blob: _b, company: _c, period: _p, rules_version: _r, ...summary }) => summary,
  );
}
