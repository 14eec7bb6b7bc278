// a facility's coal output in the year, entered once and offered to every calculation
// that takes coal production (coal handling, the Tier 1 estimate, an open pit's mining). It is kept
// with the year's review, as the coal processed is, so it freezes with the year (D20). Changing it
// updates the calculations the user chose through the calculation's own edit path: their totals,
// the year's freeze and the review's editors behave as any edit.
import { PRODUCTION_TYPES, type CalculationType } from "@core/registry";
import { COAL_UNITS } from "@core/types/fields";
import { recordChange } from "../audit";
import type { Actor, Deps } from "../context";
import { Conflict, invalidAt, NotFound } from "../errors";
import { patchCalculation } from "./calculations";
import { roleOf } from "@core/inventory";
import type { StoredCalculation, InventoryReview } from "../../ports";
import type * as z from "zod";
import type { coalOutputSchema } from "../../contract/routes/inventory";
import type { Project } from "../../contract/schemas/project";
import { frozenMessage } from "../inventory/freeze";
import { getReview, isFrozen } from "../inventory/review";
import { withFacilityFigure } from "../inventory/activity";

/** A production calculation of the facility-year, as the change's question lists it. */
export interface ProductionCalculation {
  id: string;
  type: CalculationType;
  name: string;
  project: string;
  project_name: string;
  /** Its coal production, t. */
  volume_t: number;
  inventory_role: "primary" | "alternative";
}

/** The route's answer (contract/routes/inventory.ts coalOutputSchema), its calculations typed. */
export type CoalOutputAnswer = Omit<z.output<typeof coalOutputSchema>, "calculations"> & { calculations: ProductionCalculation[] };

export interface CoalOutputRequest {
  facility: string;
  /** t; null clears the figure. */
  t: number | null;
  /** The review's version the user saw. */
  version: number;
  /** The calculations (ids) whose production becomes `t`. */
  follow?: string[];
}

async function facilityOf(deps: Deps, actor: Actor, id: string) {
  const facility = await deps.repos.facilities.get(actor.company, id);
  if (!facility) throw new NotFound("Площадка не найдена");
  return facility;
}

/** The facility's production calculations of the year (the active ones of its projects of that year). */
async function productionCalculations(deps: Deps, actor: Actor, facility: string, year: number) {
  const projects = (await deps.repos.projects.listAllOfCompany(actor.company)).filter(
    (p) => !p.is_deleted && p.facility === facility && p.reporting_year === year,
  );
  const read = await Promise.all(
    projects.flatMap((project) =>
      PRODUCTION_TYPES.map(async (type) =>
        (await deps.repos.calculations.listAllByProject(actor.company, project.id, type, "active")).map((calculation) => ({
          calculation,
          project,
        })),
      ),
    ),
  );
  return read.flat();
}

const rowOf = ({ calculation, project }: { calculation: StoredCalculation; project: Project }): ProductionCalculation => ({
  id: calculation.id,
  type: calculation.type as CalculationType,
  name: calculation.name,
  project: project.id,
  project_name: project.name,
  volume_t: Number(calculation.inputs.volume ?? 0),
  inventory_role: roleOf(calculation) ?? "primary",
});

const outputOf = (review: InventoryReview, facility: string) => review.coal_output?.find((row) => row.facility === facility)?.t ?? null;

/** The facility's coal output of the year and its production calculations. */
export async function getCoalOutput(deps: Deps, actor: Actor, year: number, facilityId: string): Promise<CoalOutputAnswer> {
  const [review, , calculations] = await Promise.all([
    getReview(deps, actor.company, year),
    facilityOf(deps, actor, facilityId),
    productionCalculations(deps, actor, facilityId, year),
  ]);
  return {
    facility: facilityId,
    year,
    t: outputOf(review, facilityId),
    calculations: calculations.map(rowOf).sort((a, b) => a.name.localeCompare(b.name, "ru") || a.id.localeCompare(b.id)),
  };
}

/** The unit a calculation's production was typed in keeps it: 3 100 t typed in «тыс. т» stays «3,1 тыс. т». */
function enteredAs(calculation: StoredCalculation, t: number) {
  const unit = calculation.entered?.volume?.unit;
  const power = COAL_UNITS.find((u) => u.unit === unit)?.power;
  return unit && power ? { entered: { volume: { value: t / 10 ** power, unit } } } : {};
}

/** Sets (or clears) the facility's coal output of the year; the calculations in `follow` take it as their production. */
export async function setCoalOutput(
  deps: Deps,
  actor: Actor,
  year: number,
  request: CoalOutputRequest,
): Promise<{ review: InventoryReview; updated: string[] }> {
  const [current, facility] = await Promise.all([getReview(deps, actor.company, year), facilityOf(deps, actor, request.facility)]);
  if (isFrozen(current)) throw new Conflict(frozenMessage(current, "добычу угля изменить нельзя"));
  if (request.version !== current.version) {
    throw new Conflict("Инвентаризацию года только что изменил другой пользователь: обновите страницу и повторите");
  }
  const follow = [...new Set(request.follow ?? [])];
  if (follow.length > 0 && request.t === null) throw invalidAt("follow", "пустую добычу угля нельзя перенести в расчеты");
  const own = new Map((await productionCalculations(deps, actor, facility.id, year)).map((row) => [row.calculation.id, row]));
  const unknown = follow.find((id) => !own.has(id));
  if (unknown !== undefined) throw invalidAt("follow", `расчет ${unknown} не относится к добыче угля площадки за ${year} год`);
  const before = outputOf(current, facility.id);
  // The calculations first, each through its own edit: a refusal leaves the figure as it was.
  const updated: string[] = [];
  for (const id of follow) {
    const { calculation } = own.get(id)!;
    if (calculation.inputs.volume === request.t) continue;
    await patchCalculation(
      deps,
      actor,
      calculation.type,
      calculation.id,
      { values: { volume: request.t!, ...enteredAs(calculation, request.t!) } },
      calculation,
    );
    updated.push(id);
  }
  // The edits noted their editor on the review: its figure is written over the review as it is now.
  const latest = updated.length > 0 ? await getReview(deps, actor.company, year) : current;
  const next = withFacilityFigure(deps, actor, latest, "coal_output", facility.id, request.t);
  await deps.repos.inventoryReviews.put(next, latest.version);
  await recordChange(
    deps,
    actor,
    {
      action: "coal_output.set",
      target_type: "coal_output",
      target_id: facility.id,
      target_label: `Добыча угля: «${facility.name}», ${year} год`,
      before: { year, t: before },
      after: { year, t: request.t, calculations: updated },
    },
    actor.company,
  );
  return { review: next, updated };
}
