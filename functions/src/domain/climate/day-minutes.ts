// A day's stored readings of a climate project's meters: what the screen's
// «Проверить расчет» folds into hours and evaluates in the browser with the core's code, as a period
// reads them (periods.ts: the same meters, поверка dates and reading). Nothing is computed or stored here.
// reading and laying out a day of each meter's minutes held the request thread 51–269
// ms under load (the loop budget): the route answers it off the request thread where the host can (the
// local host's spreadsheet threads, SpreadsheetWorker.climateRead, as a facility's minute reads).
import { zoneOf } from "@core/company-clock";
import type { ClimateDayMinutes } from "../../contract/schemas/climate";
import type { Actor, Deps } from "../context";
import type { ClimateRead } from "../../ports";
import { invalidAt } from "../errors";
import { getClimateProject } from "./projects";
import { meterOf, midnightOf, planSensors, runClimatePeriodJob } from "./periods";
import { DAY_MS, HOUR_MS } from "@core/dates";

const instantOrNull = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/** GET v1/climate-projects/{id}/minutes/?date=: the day inside the project's dates and begun. */
export async function climateDayMinutes(deps: Deps, actor: Actor, projectId: string, date: string): Promise<ClimateDayMinutes> {
  const project = await getClimateProject(deps, actor, projectId);
  const zone = zoneOf(await deps.repos.companies.get(actor.company));
  if (date < project.start) throw invalidAt("date", "день раньше начала проекта");
  if (project.end && date > project.end) throw invalidAt("date", "день позже окончания проекта");
  const start = midnightOf(date, zone);
  if (start > deps.clock.now().getTime()) throw invalidAt("date", "этот день еще не наступил");
  // A day of the company's clock as a period takes it (its zones keep no summer time).
  const end = start + DAY_MS;
  const sensors = await planSensors(deps, actor, project);
  const meters: ClimateDayMinutes["meters"] = [];
  for (const [code, sensor] of sensors) {
    const read = await meterOf(deps, sensor, start, end, zone);
    meters.push({
      code,
      kind: sensor.kind,
      valid_from_utc: instantOrNull(read.validFrom),
      valid_to_utc: instantOrNull(read.validTo),
      times: Array.from(read.times),
      values: Array.from(read.values),
    });
  }
  return {
    date,
    start_utc: new Date(start).toISOString(),
    hours: Math.round((end - start) / HOUR_MS),
    zone,
    devices: project.devices,
    e_own_sensor: project.e_own_sensor,
    meters,
  };
}

/** The answer as JSON text, computed here, in this thread: where the host's threads compute it (the
 *  local host's spreadsheet thread). A period is computed as its job computes it, with no heavy-work
 *  slot of its own: the request that sent it holds one while it waits. */
export async function climateReadAnswer(deps: Deps, actor: Actor, read: ClimateRead): Promise<string> {
  if (read.read === "climate_period") return JSON.stringify(await runClimatePeriodJob({ ...deps, runtime: undefined }, read.request));
  return JSON.stringify(await climateDayMinutes(deps, actor, read.query.project, read.query.date));
}

/** GET v1/climate-projects/{id}/minutes/ as the route sends it: JSON text, off the request thread
 *  where the host can. */
export async function climateDayMinutesText(deps: Deps, actor: Actor, project: string, date: string): Promise<string> {
  const threads = deps.spreadsheets.climateRead;
  return threads
    ? threads(actor, { read: "climate_day", query: { project, date } })
    : JSON.stringify(await climateDayMinutes(deps, actor, project, date));
}
