// How large a climate period's verifier's pack is (export/climate-pack.ts), read
// before it is made: whether it is made as a job where the host runs jobs.
import type { Actor, Deps } from "../context";
import { JOB_CLIMATE_PACK_METER_HOURS } from "../heavy-work";
import { getPeriodOfProject, planMeters } from "./projects";

/** Whether the period's verifier's pack is made as a job where the host runs jobs: its hours times the
 *  meters of the project's plan against JOB_CLIMATE_PACK_METER_HOURS (two reads, nothing made). Another
 *  company's project or period, or none: 404, before any job is queued. */
export async function climatePackNeedsJob(
  deps: Pick<Deps, "repos"> & { config?: Pick<Deps["config"], "climatePackJobMeterHours"> },
  actor: Pick<Actor, "company">,
  projectId: string,
  periodId: string,
): Promise<boolean> {
  const { project, record: period } = await getPeriodOfProject(deps, actor, projectId, periodId);
  return period.hours * planMeters(project).size >= (deps.config?.climatePackJobMeterHours ?? JOB_CLIMATE_PACK_METER_HOURS);
}
