// Stored abatement assessments (methodology section 11, D47): a company's item, versioned, never part
// of an inventory. Each keeps its inputs, where each stream's figures came from, the §4.10
// thresholds and the GWP it was computed with, and the result as computed then: a later change of
// the dictionary never alters it (a change of the assessment itself computes it again with the
// thresholds it keeps). A stream is typed by hand or taken from an emission point's measured figure
// in a year's inventory: what of the point's methane reached the air that year (D35), so the
// assessment's CH4 is exactly the inventory's.
import { ownValue, type AbatementRequest, type AbatementStream } from "@core/abatement";
import { ABATEMENT_VERSION } from "@core/abatement";
import type { FlowThresholds } from "@core/emissions";
import type * as z from "zod";
import type {
  assessmentBodySchema,
  assessmentPatchSchema,
  assessmentStreamBodySchema,
  assessmentSummarySchema,
  streamOriginSchema,
} from "../../contract/schemas/abatement";
import type { AbatementAssessment } from "../../ports";
import type { Actor, Deps } from "../context";
import { invalidAt, NotFound } from "../errors";
import { firstVersion } from "../ids";
import { getInventoryWithCalculations, gwpOfYear } from "../inventory/year";
import { acceptedEvidenceKey, type MonthEvidence } from "../monitoring/minutes/accepted-evidence";
import { evaluateAsHeavyWork, refuseKeysNamingNoStream, thresholdsInForce } from "./evaluate";
import { DAY_MS } from "@core/dates";

export type AssessmentBody = z.output<typeof assessmentBodySchema>;
export type AssessmentPatch = z.output<typeof assessmentPatchSchema>;
type StreamBody = z.output<typeof assessmentStreamBodySchema>;
type StreamOrigin = z.output<typeof streamOriginSchema>;
export type AssessmentSummary = z.output<typeof assessmentSummarySchema>;

/** An emission point's measured methane of a year, as an assessment may take it. */
export interface InventoryStream {
  point: string;
  name: string;
  kind: "drainage" | "ventilation";
  facility: string | null;
  facility_name: string;
  /** the point's figure, t CH4 */
  t: number;
  /** what of it reached the air (drained gas less what flares, boilers and engines took) */
  to_air_t: number;
  /** the months of the year (yyyy-MM) the point's counted calculations cover, in order —
   *  an accepted month of readings covers its month — and their hours against the year's: a figure of
   *  two months is the methane of those 1 464 of 8 760 h, which an assessment takes to a year. */
  months: string[];
  hours: number;
  year_hours: number;
}

const POINT_KINDS: Readonly<Record<string, InventoryStream["kind"]>> = { drainage_station: "drainage", ventilation_shaft: "ventilation" };

/** The days of `year` the periods cover, as UTC day numbers. */
function daysOf(periods: readonly { from: string; to: string }[], year: number): Set<number> {
  const first = Date.UTC(year, 0, 1) / DAY_MS;
  const last = Date.UTC(year, 11, 31) / DAY_MS;
  const days = new Set<number>();
  for (const { from, to } of periods) {
    const a = Math.max(first, Date.parse(`${from.slice(0, 10)}T00:00:00Z`) / DAY_MS);
    const b = Math.min(last, Date.parse(`${to.slice(0, 10)}T00:00:00Z`) / DAY_MS);
    for (let day = a; day <= b; day++) days.add(day);
  }
  return days;
}

/** each accepted АГК month's calculation with the hours its minutes measured (valid and
 *  substituted, as its evidence keeps them): a month accepted with 288 of its 744 hours counts 288. A
 *  month accepted before its evidence was kept counts its days. */
async function acceptedMonthHours(deps: Deps, actor: Actor, facilities: ReadonlySet<string>): Promise<Map<string, number>> {
  const hours = new Map<string, number>();
  for (const facility of facilities) {
    for (const acceptance of await deps.repos.monitoring.acceptances(actor.company, facility)) {
      const stored = await deps.blobs.get(acceptedEvidenceKey(acceptance, "json"));
      if (!stored) continue;
      const { result } = JSON.parse(new TextDecoder().decode(stored.body)) as MonthEvidence["description"];
      hours.set(acceptance.calculation, (result.minutes.valid + result.minutes.substituted) / 60);
    }
  }
  return hours;
}

/** The year's drainage stations and ventilation shafts with their measured methane (the inventory's
 *  balance by stream, D25/D35) and the months it was measured in (the days the point's
 *  counted calculations cover; a point of the year without any, the whole year). */
export async function inventoryStreams(deps: Deps, actor: Actor, year: number): Promise<InventoryStream[]> {
  const inventory = await getInventoryWithCalculations(deps, actor, year);
  const yearDays = (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / DAY_MS;
  const facilities = new Set(inventory.balance.flatMap((row) => (row.facility ? [row.facility] : [])));
  const measuredHours = await acceptedMonthHours(deps, actor, facilities);
  return inventory.balance.flatMap((row) =>
    (row.streams ?? []).flatMap((s) => {
      const kind = ownValue(POINT_KINDS, s.kind);
      if (!kind) return [];
      const counted = inventory.calculations.filter((c) => c.counted && c.point === s.point);
      // an accepted month counts the hours its minutes measured; any other
      // calculation its days, each day once.
      const accepted = counted.filter((c) => measuredHours.has(c.id));
      const others = counted.filter((c) => !measuredHours.has(c.id));
      const days = daysOf(
        others.flatMap((c) => c.covered ?? [c.period]),
        year,
      );
      const monthDays = daysOf(
        accepted.flatMap((c) => c.covered ?? [c.period]),
        year,
      );
      const all = new Set([...days, ...monthDays]);
      const covered = all.size > 0 ? [...all].sort((a, b) => a - b) : [...daysOf([{ from: `${year}-01-01`, to: `${year}-12-31` }], year)];
      const months = [...new Set(covered.map((day) => new Date(day * DAY_MS).toISOString().slice(0, 7)))];
      const hours =
        all.size > 0
          ? days.size * 24 +
            accepted
              .filter((c) => ![...daysOf(c.covered ?? [c.period], year)].some((day) => days.has(day)))
              .reduce((sum, c) => sum + (measuredHours.get(c.id) ?? 0), 0)
          : covered.length * 24;
      return [
        {
          point: s.point,
          name: s.name,
          kind,
          facility: row.facility,
          facility_name: row.facility_name,
          t: s.t,
          to_air_t: s.to_air_t ?? s.t,
          months,
          hours,
          year_hours: yearDays * 24,
        },
      ];
    }),
  );
}

/** The body's streams with their figures: a point's from the year's inventory, the others as typed. */
async function resolveStreams(
  deps: Deps,
  actor: Actor,
  year: number | null,
  streams: readonly StreamBody[],
): Promise<{ streams: StreamBody[]; origins: Record<string, StreamOrigin> }> {
  // Stream codes are data (the security review's R12): the origins are made from entries, so a code «__proto__» is a key like any other.
  const origins: [string, StreamOrigin][] = [];
  let measured: InventoryStream[] | undefined;
  const resolved: StreamBody[] = [];
  for (const [index, stream] of streams.entries()) {
    if (!stream.point) {
      origins.push([stream.code, { source: "manual", point: null, point_name: null, facility: null, year: null, figure_t_ch4: null }]);
      resolved.push({ ...stream, point: null });
      continue;
    }
    if (year === null) throw invalidAt("year", "Укажите год: поток берёт метан из инвентаризации года");
    measured ??= await inventoryStreams(deps, actor, year);
    const figure = measured.find((m) => m.point === stream.point);
    if (!figure) {
      throw invalidAt(`streams[${index}].point`, `В инвентаризации ${year} года нет измеренного метана этой точки`);
    }
    origins.push([
      stream.code,
      {
        source: "inventory",
        point: figure.point,
        point_name: figure.name,
        facility: figure.facility,
        year,
        figure_t_ch4: figure.to_air_t,
        months: figure.months,
        hours: figure.hours,
        year_hours: figure.year_hours,
      },
    ]);
    // measured over some months, the figure is taken to a year at those months' flow.
    resolved.push({
      ...stream,
      kind: figure.kind,
      m_ch4_t: figure.to_air_t,
      m_ch4_year_share: figure.hours / figure.year_hours,
      m_ch4_hours: figure.hours,
      name: stream.name ?? figure.name,
    });
  }
  return { streams: resolved, origins: Object.fromEntries(origins) };
}

/** The assessment computed from its inputs with the thresholds it keeps; the year's GWP unless given. */
async function computed(
  deps: Deps,
  actor: Actor,
  body: Pick<AssessmentBody, "year" | "streams" | "options" | "chosen" | "params" | "overrides">,
  thresholds: FlowThresholds,
) {
  const year = body.year ?? null;
  refuseKeysNamingNoStream(body);
  const { streams, origins } = await resolveStreams(deps, actor, year, body.streams);
  const params = { ...body.params };
  if ((params.gwp_ch4 === undefined || params.gwp_ch4 === null) && year !== null) params.gwp_ch4 = (await gwpOfYear(deps, year)).gwp_ch4;
  const input = { streams, options: body.options, chosen: body.chosen, params, overrides: body.overrides };
  const result = await evaluateAsHeavyWork(deps, actor, input as unknown as AbatementRequest & { streams: AbatementStream[] }, thresholds);
  return { year, input, origins, result };
}

export async function listAssessments(deps: Deps, actor: Actor): Promise<AssessmentSummary[]> {
  return (await deps.repos.abatement.list(actor.company)).map((a) => ({
    id: a.id,
    name: a.name,
    year: a.year,
    archived: a.archived,
    updated_at: a.updated_at,
    version: a.version,
    methodology_version: a.methodology_version,
    streams: a.input.streams.length,
    er_t_co2e: a.result.totals.er_t_co2e,
    npv_rub: a.result.totals.npv_rub,
  }));
}

export async function getAssessment(deps: Deps, actor: Actor, id: string): Promise<AbatementAssessment> {
  const assessment = await deps.repos.abatement.get(actor.company, id);
  if (!assessment) throw new NotFound("Оценка не найдена");
  return assessment;
}

export async function createAssessment(deps: Deps, actor: Actor, body: AssessmentBody): Promise<AbatementAssessment> {
  const used = await thresholdsInForce(deps);
  const { year, input, origins, result } = await computed(deps, actor, body, used.values);
  const assessment: AbatementAssessment = {
    ...firstVersion(deps, actor),
    name: body.name.trim(),
    year,
    methodology_version: ABATEMENT_VERSION,
    input,
    origins,
    thresholds: { ...used.values, item_id: used.item_id, item_version: used.item_version },
    result,
    archived: false,
    created_by: actor.email,
  };
  await deps.repos.abatement.create(assessment);
  return assessment;
}

export async function patchAssessment(deps: Deps, actor: Actor, id: string, patch: AssessmentPatch): Promise<AbatementAssessment> {
  const current = await getAssessment(deps, actor, id);
  const inputs = ["year", "streams", "options", "chosen", "params", "overrides"] as const;
  let next: AbatementAssessment = {
    ...current,
    name: patch.name?.trim() ?? current.name,
    archived: patch.archived ?? current.archived,
    updated_at: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  if (inputs.some((key) => patch[key] !== undefined)) {
    const { q_boiler, q_gas_engine, q_vam_energy, q_pipeline, q_power_plant } = current.thresholds;
    const body = {
      year: patch.year !== undefined ? patch.year : current.year,
      streams: patch.streams ?? current.input.streams,
      options: patch.options ?? current.input.options,
      chosen: patch.chosen ?? current.input.chosen,
      params: patch.params ?? current.input.params,
      overrides: patch.overrides ?? current.input.overrides,
    };
    const again = await computed(deps, actor, body, { q_boiler, q_gas_engine, q_vam_energy, q_pipeline, q_power_plant });
    next = { ...next, ...again };
  }
  await deps.repos.abatement.replace(next, patch.version);
  return next;
}
