// A monitoring period's report on implementation over the API (methodology 13.4, D80):
// GET …/periods/{p}/report/ reads its sections (report-content.ts) from the period as computed, the
// project, the company's requisites and the facility's register, dated on the company's clock; PATCH
// writes the executor's hand-written fields with the version read (a stale one is 409), each change
// in the company's change log. Another company's project or period is 404, as everywhere.
import { dateTimeText, zoneOf } from "@core/company-clock";
import type * as z from "zod";
import type { climateReportPatchSchema } from "../../contract/schemas/climate-report";
import type { ClimateReportHand } from "../../ports";
import { recordChange } from "../audit";
import type { Actor, Deps } from "../context";
import { Conflict, NotFound } from "../errors";
import { getClimatePeriod } from "./periods";
import { getClimateProject, registerByCode } from "./projects";
import { type ClimateReport, type ClimateReportSources, climateReportContent } from "./report-content";

export type ClimateReportPatch = z.output<typeof climateReportPatchSchema>;

export const FROZEN_REPORT =
  "Период утвержден: отчет о реализации заморожен вместе с ним. Чтобы изменить отчет, проверяющий сначала отзывает утверждение с указанием причины";

/** Everything the report of a period is built from, read for `actor`'s company (404 otherwise);
 *  `issued` is now on the host's clock. The verifier's pack builds its report from the same. */
export async function climateReportSources(deps: Deps, actor: Actor, projectId: string, periodId: string): Promise<ClimateReportSources> {
  const project = await getClimateProject(deps, actor, projectId);
  const period = await getClimatePeriod(deps, actor, project.id, periodId);
  const [company, facility, points, sensors, hand] = await Promise.all([
    deps.repos.companies.get(actor.company),
    deps.repos.facilities.get(actor.company, project.facility),
    deps.repos.emissionPoints.listOfFacility(actor.company, project.facility),
    registerByCode(deps, actor, project.facility),
    deps.repos.climateProjects.getReportHand(actor.company, project.id, period.id),
  ]);
  if (!company) throw new NotFound("Компания не найдена");
  return { project, period, hand, company, zone: zoneOf(company), facility, points, sensors, issued: deps.clock.now() };
}

/** GET v1/climate-projects/{id}/periods/{p}/report/: the sections with their filled and hand-written state. */
export async function getClimateReport(deps: Deps, actor: Actor, projectId: string, periodId: string): Promise<ClimateReport> {
  return climateReportContent(await climateReportSources(deps, actor, projectId, periodId));
}

/** PATCH v1/climate-projects/{id}/periods/{p}/report/: the fields given written, the others kept. */
export async function patchClimateReport(
  deps: Deps,
  actor: Actor,
  projectId: string,
  periodId: string,
  patch: ClimateReportPatch,
): Promise<ClimateReport> {
  const sources = await climateReportSources(deps, actor, projectId, periodId);
  // An approved period is frozen with its report (D80): its pack is the same bytes on every download.
  if (sources.period.approval) throw new Conflict(FROZEN_REPORT);
  const current = sources.hand;
  const given = Object.fromEntries(Object.entries(patch.fields).filter(([, text]) => text !== undefined)) as Record<string, string>;
  const next: ClimateReportHand = {
    company: actor.company,
    project: sources.project.id,
    period: sources.period.id,
    fields: { ...(current?.fields ?? {}), ...given },
    version: (current?.version ?? 0) + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  await deps.repos.climateProjects.putReportHand(next, patch.version);
  const changed = Object.keys(given).filter((key) => (current?.fields[key] ?? "") !== given[key]);
  if (changed.length > 0) {
    const pick = (fields: Record<string, string> | undefined) => Object.fromEntries(changed.map((key) => [key, fields?.[key] ?? ""]));
    await recordChange(
      deps,
      actor,
      {
        action: current ? "climate_report.update" : "climate_report.create",
        target_type: "climate_report",
        target_id: `${sources.project.id}/${sources.period.id}`,
        target_label: `«${sources.project.name}», ${dateTimeText(sources.period.start, sources.zone)} – ${dateTimeText(sources.period.end, sources.zone)}`,
        before: current ? pick(current.fields) : null,
        after: pick(next.fields),
      },
      actor.company,
    );
  }
  return climateReportContent({ ...sources, hand: next });
}
