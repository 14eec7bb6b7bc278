// A facility's emission points (methodology D25): its ventilation shafts, drainage stations,
// flares, boilers and engines, each a source of its own with its measuring instrument, frequency
// and dates in service. A measured or destruction calculation belongs to one (calculations.ts);
// the kind tells its stream in the methane balance. Points are archived, never deleted: their
// calculations and history stay.
import { lineOf } from "../../contract/field-errors";
import type { Actor, Deps } from "../context";
import { Conflict, invalidAt } from "../errors";
import { firstVersion } from "../ids";
import { facilityPlace, getFacility, getOfFacility, listOfFacility, recordFacilityChange } from "./facilities";
import { frozenMessage, frozenReview } from "../inventory/freeze";
import type { EmissionPoint } from "../../ports";
import type { PointCreateInput, PointPatchInput } from "../../contract/schemas/facility";
import type { Project } from "../../contract/schemas/project";
import { EMISSION_POINT_KINDS, POINT_TYPES, burnsDrainedGas, takesPoint } from "@core/inventory";
import { patched } from "../patched";
import { withPlace } from "../caps";
import { LIMITS } from "../../contract/schemas/limits";

/** How many points one facility may have, archived ones too: a real mine has a handful, a large one
 *  a few dozen. A counter (CAP#), so parallel creates cannot pass it. */
export const MAX_POINTS_PER_FACILITY = LIMITS.inventory.pointsPerFacility;

/** Every change of a point goes to the company's change log, as a facility's (requisites-audit.ts). */
const logPoint = (deps: Deps, actor: Actor, facilityName: string, before: EmissionPoint | null, after: EmissionPoint) =>
  recordFacilityChange(
    deps,
    actor,
    facilityName,
    { ...after, label: after.name },
    {
      action: before ? "point.update" : "point.create",
      target_type: "point",
      before,
      after,
    },
  );

export const listPoints = (deps: Deps, actor: Actor, facilityId: string): Promise<EmissionPoint[]> =>
  listOfFacility(deps, actor, facilityId, deps.repos.emissionPoints);

export const getPoint = (deps: Deps, actor: Actor, facilityId: string, pointId: string): Promise<EmissionPoint> =>
  getOfFacility(deps, actor, facilityId, deps.repos.emissionPoints, pointId, "Источник выбросов не найден");

export async function createPoint(deps: Deps, actor: Actor, facilityId: string, input: PointCreateInput): Promise<EmissionPoint> {
  const facility = await getFacility(deps, actor, facilityId);
  const existing = await deps.repos.emissionPoints.listOfFacility(actor.company, facilityId);
  refuseTwin(existing, input.name);
  const point: EmissionPoint = {
    ...firstVersion(deps, actor),
    facility: facilityId,
    name: input.name,
    kind: input.kind,
    instrument: input.instrument ?? "",
    frequency: input.frequency ?? "",
    in_service_from: input.in_service_from ?? null,
    in_service_to: input.in_service_to ?? null,
    co2_content_pct: input.co2_content_pct ?? null,
    co2_content_source: input.co2_content_pct === undefined || input.co2_content_pct === null ? "" : (input.co2_content_source ?? ""),
    ...(input.meter_after_takeoff ? { meter_after_takeoff: true } : {}),
    is_active: true,
  };
  refuseTakeoffMeter(point);
  const place = facilityPlace(actor, facilityId, deps.repos.emissionPoints, {
    name: "POINTS",
    limit: MAX_POINTS_PER_FACILITY,
    refusal: `У площадки уже ${MAX_POINTS_PER_FACILITY} источников выбросов: измените ненужные вместо новых`,
  });
  await withPlace(deps, actor.company, place, () => deps.repos.emissionPoints.create(point));
  await logPoint(deps, actor, facility.name, null, point);
  return point;
}

export async function patchPoint(
  deps: Deps,
  actor: Actor,
  facilityId: string,
  pointId: string,
  patch: PointPatchInput,
): Promise<EmissionPoint> {
  const current = await getPoint(deps, actor, facilityId, pointId);
  if (patch.version !== current.version) {
    throw new Conflict("Источник выбросов был изменен другим пользователем. Обновите страницу и повторите.");
  }
  const next: EmissionPoint = {
    ...current,
    ...patched(current, patch, ["name", "kind", "instrument", "frequency", "is_active"]),
    // A date sent as null is cleared; one left out is kept.
    in_service_from: patch.in_service_from !== undefined ? patch.in_service_from : current.in_service_from,
    in_service_to: patch.in_service_to !== undefined ? patch.in_service_to : current.in_service_to,
    // a content sent as null is cleared with its source; one left out is kept.
    co2_content_pct: patch.co2_content_pct !== undefined ? patch.co2_content_pct : (current.co2_content_pct ?? null),
    co2_content_source: patch.co2_content_pct === null ? "" : (patch.co2_content_source ?? current.co2_content_source ?? ""),
    updated_at: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  // D92: sent false clears it; left out keeps it.
  if (patch.meter_after_takeoff ?? current.meter_after_takeoff) next.meter_after_takeoff = true;
  else delete next.meter_after_takeoff;
  refuseTakeoffMeter(next);
  if (next.co2_content_pct !== null && next.co2_content_pct !== undefined && !next.co2_content_source?.trim()) {
    throw invalidAt("co2_content_source", "укажите, откуда содержание CO2 (анализ проб, паспорт газа…)");
  }
  if (next.in_service_from && next.in_service_to && next.in_service_to < next.in_service_from) {
    throw invalidAt("in_service_to", "дата вывода из эксплуатации раньше даты ввода");
  }
  if (next.name !== current.name) refuseTwin(await deps.repos.emissionPoints.listOfFacility(actor.company, facilityId), next.name, pointId);
  // The kind tells the stream of the point's calculations (D25): the balance of a frozen year
  // would move with it.
  if (next.kind !== current.kind) await refuseIfInFrozenYear(deps, actor, current);
  await deps.repos.emissionPoints.replace(next, current.version);
  await logPoint(deps, actor, (await getFacility(deps, actor, facilityId)).name, current, next);
  return next;
}

/** D92: only a drainage station's meter stands before or after a take-off of its gas. */
function refuseTakeoffMeter(point: EmissionPoint): void {
  if (point.meter_after_takeoff && point.kind !== "drainage_station") {
    throw invalidAt("meter_after_takeoff", "счетчик после отбора газа указывают только для дегазационной установки");
  }
}

/** Two points of one facility under one name could not be told apart in the passport. */
function refuseTwin(points: readonly EmissionPoint[], name: string, self?: string) {
  const twin = points.find((p) => p.id !== self && p.name.toLocaleLowerCase("ru") === name.toLocaleLowerCase("ru"));
  if (twin) throw invalidAt("name", `у площадки уже есть источник «${twin.name}»`);
}

async function refuseIfInFrozenYear(deps: Deps, actor: Actor, point: EmissionPoint) {
  const projects = (await deps.repos.projects.listAllOfCompany(actor.company)).filter(
    (p) => !p.is_deleted && p.facility === point.facility,
  );
  const years = [...new Set(projects.map((p) => p.reporting_year))].sort();
  for (const year of years) {
    const review = await frozenReview(deps, actor.company, year);
    if (!review) continue;
    const calculations = await Promise.all(
      projects
        .filter((p) => p.reporting_year === year)
        .flatMap((p) => POINT_TYPES.map((t) => [p, t] as const))
        .map(([p, t]) => deps.repos.calculations.listAllByProject(actor.company, p.id, t, "active")),
    );
    if (calculations.flat().some((c) => c.point === point.id)) {
      throw new Conflict(frozenMessage(review, `вид источника «${point.name}», расчеты которого входят в этот год, изменить нельзя`));
    }
  }
}

/** D25: the point a measured or destruction calculation of a project of `facility` names, checked:
 *  a point of that facility, active unless it is the one the calculation had. Undefined: none
 *  named (the facility as a whole, as calculations stored before points existed). */
export async function calculationPoint(
  deps: Deps,
  actor: Actor,
  type: string,
  sent: unknown,
  facility: string | null | undefined,
  previous?: string,
): Promise<string | undefined> {
  if (sent === undefined) return previous;
  if (sent === null || sent === "") return undefined;
  if (!takesPoint(type)) {
    throw invalidAt("point", "источник выбросов указывают только для измеренных выбросов, факелов и сжигания каптированного газа");
  }
  if (typeof sent !== "string") throw invalidAt("point", "ожидается идентификатор источника выбросов площадки");
  if (!facility) throw invalidAt("point", "у проекта нет площадки — укажите площадку проекта, затем источник выбросов");
  const point = await deps.repos.emissionPoints.get(actor.company, facility, sent);
  if (!point) throw invalidAt("point", "источник выбросов не найден среди источников площадки проекта");
  if (!point.is_active && point.id !== previous) {
    throw invalidAt("point", `источник «${point.name}» в архиве — восстановите его на странице площадки или выберите другой`);
  }
  return point.id;
}

/** D25: the write of a calculation of `project` that names a point of the project's facility, as
 *  read: counted on the project (its lock on its facility, ports/project.ts), refused (409) when the
 *  facility has changed since, and a change of the facility cannot pass it (projects.ts). */
export async function withPointWrite<T>(deps: Deps, actor: Actor, project: Project, write: () => Promise<T>): Promise<T> {
  const projects = deps.repos.projects;
  if (!project.facility || !(await projects.beginPointWrite(actor.company, project.id, project.facility, deps.clock.now().toISOString()))) {
    throw new Conflict(
      lineOf({
        field: "point",
        message: "площадку проекта сменили, пока сохранялся расчет — обновите страницу и выберите источник выбросов площадки проекта",
      }),
    );
  }
  try {
    return await write();
  } finally {
    await projects.endPointWrite(actor.company, project.id);
  }
}

/** D35: the drainage points whose gas a flare, boiler or engine burns, checked: drainage stations of
 *  the project's facility, active unless the calculation named them already. Undefined: none named
 *  (the facility's drainage points take its gas: its one, or shared by their drained methane). */
export async function drainagePoints(
  deps: Deps,
  actor: Actor,
  type: string,
  sent: unknown,
  facility: string | null | undefined,
  previous?: readonly string[],
): Promise<string[] | undefined> {
  if (sent === undefined) return previous ? [...previous] : undefined;
  if (sent === null || (Array.isArray(sent) && sent.length === 0)) return undefined;
  if (!burnsDrainedGas(type)) {
    throw invalidAt("drainage_points", "дегазационные установки указывают только для факелов и сжигания каптированного газа");
  }
  if (!Array.isArray(sent) || sent.some((id) => typeof id !== "string")) {
    throw invalidAt("drainage_points", "ожидается список идентификаторов дегазационных установок площадки");
  }
  if (!facility) throw invalidAt("drainage_points", "у проекта нет площадки — укажите площадку проекта, затем дегазационные установки");
  const points = await deps.repos.emissionPoints.listOfFacility(actor.company, facility);
  const named = [...new Set(sent as string[])];
  for (const id of named) {
    const point = points.find((p) => p.id === id);
    if (!point) throw invalidAt("drainage_points", "дегазационная установка не найдена среди источников площадки проекта");
    if (point.kind !== "drainage_station") {
      throw invalidAt(
        "drainage_points",
        `«${point.name}» — не дегазационная установка; газ на сжигание поступает с дегазационных установок`,
      );
    }
    if (!point.is_active && !previous?.includes(id)) {
      throw invalidAt("drainage_points", `установка «${point.name}» в архиве — восстановите ее на странице площадки или выберите другую`);
    }
  }
  return named.sort();
}

/** «Вентиляционный ствол (вентилятор)» etc. */
export const pointKindLabel = (kind: EmissionPoint["kind"]) => EMISSION_POINT_KINDS[kind];
