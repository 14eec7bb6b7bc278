// A climate project's monitoring periods (methodology D69–D79, issue 89 item 2): [start, end) in whole
// hours of the company's clock, inside the project's dates, never overlapping another period of the
// project, at most LIMITS.climate.periodHours long. Each device's hours are built from the stored
// minutes of the meters its plan names (period-hours.ts) and computed by the core as the stateless
// evaluation is (evaluate.ts: a heavy-work slot, off the request thread where the host can); the
// deficit carried in (D78) is the previous period's. Kept with its inputs and result: the table holds
// its bounds and totals, the blob `climate/{company}/{project}/{period}.json` its hours and figures.
import type { ClimateEvaluation, ClimateHourBlock, ClimateInputs } from "@core/climate-project";
import { dateTimeText, instantOfWallTime, zoneOf } from "@core/company-clock";
import type * as z from "zod";
import type { climatePeriodBodySchema, climatePeriodSchema } from "../../contract/schemas/climate-project";
import { fieldMessage } from "../../contract/field-errors";
import { LIMITS } from "../../contract/schemas/limits";
import type { ClimatePeriodRecord, ClimateProject, Sensor } from "../../ports";
import type { Actor, Deps } from "../context";
import { Invalid, NotFound } from "../errors";
import { newId } from "../ids";
import { readingsBetween } from "../monitoring/days/days";
import { heavyWork } from "../heavy-work";
import { evaluateOnHost } from "./evaluate";
import { deviceHourBlocks, HOUR_MS, type DeviceMeters, type MeterReadings, periodSum } from "./period-hours";
import { keepPeriodMinutes } from "./period-minutes";
import { getClimateProject, registerByCode } from "./projects";

export type ClimatePeriodBody = z.output<typeof climatePeriodBodySchema>;
export type ClimatePeriod = z.output<typeof climatePeriodSchema>;

export const CLIMATE_PERIOD_NOT_FOUND = "Отчетный период не найден";
const DAY_MS = 86_400_000;

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
const midnightOf = (date: string, zone: string) => hourOf(date, zone).at;

/** The meter's readings over [from, to) with its поверка dates (the register's dates in service). */
async function meterOf(deps: Deps, sensor: Sensor, from: number, to: number, zone: string): Promise<MeterReadings> {
  const read = await readingsBetween(deps, sensor.company, sensor.id, from, to);
  return {
    kind: sensor.kind,
    times: read.times,
    values: read.values,
    validFrom: sensor.in_service_from ? midnightOf(sensor.in_service_from, zone) : Number.NEGATIVE_INFINITY,
    validTo: sensor.in_service_to ? midnightOf(sensor.in_service_to, zone) + DAY_MS : Number.POSITIVE_INFINITY,
  };
}

const blobKey = (p: Pick<ClimatePeriodRecord, "company" | "project" | "id">) => `climate/${p.company}/${p.project}/${p.id}.json`;

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
  if (Number.isNaN(start.at)) throw new Invalid(fieldMessage("start", "такой даты нет в календаре"));
  if (Number.isNaN(end.at)) throw new Invalid(fieldMessage("end", "такой даты нет в календаре"));
  if (end.at <= start.at) throw new Invalid(fieldMessage("end", "конец периода должен быть позже начала"));
  const hours = Math.round((end.at - start.at) / HOUR_MS);
  if (hours > LIMITS.climate.periodHours) {
    throw new Invalid(fieldMessage("end", `отчетный период не длиннее ${LIMITS.climate.periodHours.toLocaleString("ru-RU")} часов (года)`));
  }
  if (start.at < midnightOf(project.start, zone)) throw new Invalid(fieldMessage("start", "период начинается раньше начала проекта"));
  if (project.end && end.at > midnightOf(project.end, zone) + DAY_MS) {
    throw new Invalid(fieldMessage("end", "период кончается позже окончания проекта"));
  }
  if (end.at > now) throw new Invalid(fieldMessage("end", "период еще не закончился: показания его часов еще не все"));
  const other = periods.find((p) => Date.parse(p.start_utc) < end.at && start.at < Date.parse(p.end_utc));
  if (other) {
    const shown = (wall: string) => dateTimeText(wall, zone);
    throw new Invalid(fieldMessage("start", `период пересекается с периодом ${shown(other.start)} – ${shown(other.end)}`));
  }
  const previous = periods.filter((p) => Date.parse(p.end_utc) <= start.at).at(-1);
  return { start, end, hours, previous };
}

/** POST v1/climate-projects/{id}/periods/: the period computed from the stored minutes and kept. */
export async function createClimatePeriod(deps: Deps, actor: Actor, projectId: string, body: ClimatePeriodBody): Promise<ClimatePeriod> {
  const project = await getClimateProject(deps, actor, projectId);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  const periods = await deps.repos.climateProjects.listPeriods(actor.company, project.id);
  if (periods.length >= LIMITS.climate.periods) throw new Invalid(`У проекта уже ${LIMITS.climate.periods} отчетных периодов`);
  const { start, end, hours, previous } = checkedBounds(body, project, periods, zone, deps.clock.now().getTime());
  const register = await registerByCode(deps, actor, project.facility);
  const sensorOf = (code: string) => {
    const sensor = register.get(code);
    if (!sensor) throw new Invalid(`Датчика «${code}» плана мониторинга больше нет в реестре площадки`);
    return sensor;
  };
  // A year of minutes read and folded into hours is heavy work: the whole of it in one slot of the user
  // and the company, the core's part off the request thread where the host can.
  const { period, inputs, result, meters } = await heavyWork(deps, actor, async () => {
    const meters = new Map<string, { sensor: Sensor; read: MeterReadings }>();
    const meter = async (code: string) => {
      if (!meters.has(code)) {
        const sensor = sensorOf(code);
        meters.set(code, { sensor, read: await meterOf(deps, sensor, start.at, end.at, zone) });
      }
      return meters.get(code)!.read;
    };
    const devices: ClimateInputs["devices"][number][] = [];
    for (const device of project.devices) {
      const bound: DeviceMeters = {};
      for (const [channel, code] of Object.entries(device.sensors)) if (code) bound[channel as keyof DeviceMeters] = await meter(code);
      const hoursOf: ClimateHourBlock[] = deviceHourBlocks(bound, start.at, hours, zone);
      devices.push({ id: device.name, kind: device.kind, flow_basis: device.flow_basis, eta_option: device.eta_option, hours: hoursOf });
    }
    const deficit = previous ? Number(previous.totals.deficit_carried_t_co2e ?? 0) : 0;
    const e_own_mwh = project.e_own_sensor ? periodSum(await meter(project.e_own_sensor), start.at, end.at) : 0;
    const period = {
      e_own_mwh,
      e_grid_aux_mwh: body.period?.e_grid_aux_mwh ?? 0,
      fuels: body.period?.fuels ?? [],
      leakage_t_co2e: body.period?.leakage_t_co2e ?? 0,
      deficit_prev_t_co2e: deficit,
    };
    const inputs: ClimateInputs = { period, devices };
    const result: ClimateEvaluation = await evaluateOnHost(deps, actor.company, inputs);
    return { period, inputs, result, meters };
  });
  const record: ClimatePeriodRecord = {
    id: newId(),
    company: actor.company,
    project: project.id,
    start: start.wall,
    end: end.wall,
    start_utc: new Date(start.at).toISOString(),
    end_utc: new Date(end.at).toISOString(),
    hours,
    period,
    rules_version: result.rules_version,
    totals: result.totals as unknown as Record<string, number>,
    carbon_units: result.totals.carbon_units,
    created_at: deps.clock.now().toISOString(),
    created_by: actor.email,
    blob: "",
  };
  record.blob = blobKey(record);
  await deps.blobs.put(record.blob, new TextEncoder().encode(JSON.stringify({ inputs, result })), "application/json");
  // The readings as read, for the verifier's pack (period-minutes.ts): a later change moves neither.
  await keepPeriodMinutes(deps, record, project, meters);
  await deps.repos.climateProjects.createPeriod(record);
  return answerOf(record, result);
}

function answerOf(record: ClimatePeriodRecord, result: ClimateEvaluation): ClimatePeriod {
  const { blob: _blob, ...kept } = record;
  return { ...result, ...kept } as unknown as ClimatePeriod;
}

/** GET v1/climate-projects/{id}/periods/{p}/: the period as computed then. */
export async function getClimatePeriod(deps: Deps, actor: Actor, projectId: string, id: string): Promise<ClimatePeriod> {
  const project = await getClimateProject(deps, actor, projectId);
  const record = await deps.repos.climateProjects.getPeriod(actor.company, project.id, id);
  const stored = record && (await deps.blobs.get(record.blob));
  if (!record || !stored) throw new NotFound(CLIMATE_PERIOD_NOT_FOUND);
  const { result } = JSON.parse(new TextDecoder().decode(stored.body)) as { result: ClimateEvaluation };
  return answerOf(record, result);
}

/** GET v1/climate-projects/{id}/periods/: the project's periods with their totals, the earliest first. */
export async function listClimatePeriods(deps: Deps, actor: Actor, projectId: string) {
  const project = await getClimateProject(deps, actor, projectId);
  return (await deps.repos.climateProjects.listPeriods(actor.company, project.id)).map(
    ({ blob: _b, company: _c, period: _p, rules_version: _r, ...summary }) => summary,
  );
}
