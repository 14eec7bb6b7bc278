// What a project's totals count (D18), read from the store: the core's one rule (whatCounts) applied
// to a project's active calculations of every type. The uncertainty model, the exports' «Итоги»
// and the infographics all sum what this returns and say what it left out.
import { CALCULATION_TYPES, type CalculationType } from "@core/registry";
import { leftOutSummary, whatCounts, type Countable, type Counting } from "@core/inventory";
import type { StoredCalculation, Repositories } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import type { LeftOutView } from "../../contract/views";

/** A stored calculation as the rule sees it, with its project's year, facility and state. */
export function countableOf(
  calculation: StoredCalculation,
  project: Pick<Project, "reporting_year" | "facility" | "is_deleted">,
): Countable & { calculation: StoredCalculation } {
  return {
    calculation,
    type: calculation.type,
    inventory_role: calculation.inventory_role,
    project: calculation.project,
    reporting_year: project.reporting_year,
    facility: project.facility ?? null,
    archived: calculation.is_deleted === true,
    project_archived: project.is_deleted === true,
  };
}

/** The project's calculations among `calculations` that its totals sum, and the others. */
export function countInProject(project: Project, calculations: readonly StoredCalculation[]): Counting<StoredCalculation> {
  const { counted, left_out } = whatCounts(
    calculations.map((c) => countableOf(c, project)),
    { project: project.id },
  );
  return {
    counted: counted.map((c) => c.calculation),
    left_out: left_out.map((l) => ({ calculation: l.calculation.calculation, reason: l.reason })),
  };
}

/** «Не учтены: …» as a sentence of its own, or null when nothing was left out. */
export function notCountedLine(leftOut: Counting<unknown>["left_out"]): string | null {
  const summary = leftOutSummary(leftOut);
  return summary ? summary.charAt(0).toUpperCase() + summary.slice(1) : null;
}

/** The left-out calculations as an answer lists them. */
export function leftOutView(leftOut: Counting<StoredCalculation>["left_out"]): LeftOutView[] {
  return leftOut.map(({ calculation, reason }) => ({ id: calculation.id, type: calculation.type, name: calculation.name, reason }));
}

/** A project's active calculations of the given types (every type by default), oldest first per type. */
export async function activeOfProject(
  repos: Pick<Repositories, "calculations">,
  companyId: string,
  projectId: string,
  types: readonly CalculationType[] = CALCULATION_TYPES,
): Promise<StoredCalculation[]> {
  const lists = await Promise.all(types.map((type) => repos.calculations.listAllByProject(companyId, projectId, type, "active")));
  return lists.flat();
}
