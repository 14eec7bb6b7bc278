// The physical bounds of a calculation's numbers (the registry's PHYSICAL_BOUNDS, docs/security.md).
// An input over its bound is refused naming the field by its label and the bound in the unit the
// value was typed in; a result over its bound naming the result; a write that would carry one of
// its project's kept sums past their bound is refused before it is made, so that the table's
// stream can always add it (the sums are whole milligrams, which the storage holds under 2⁵³).
import { MESSAGES, groupedNumber } from "@core/emissions";
import { fromCanonical, type EnteredValue } from "@core/entry-units";
import { PHYSICAL_BOUNDS, type CalculationDefinition, type NumberField, type ResultField } from "@core/registry";
import { inventorySourceOf } from "@core/inventory";
import type { Deps } from "../context";
import { Invalid } from "../errors";
import { MG_PER_T, inventorySumsDeltas, inventorySumsOf } from "./sums";
import type { Calculation } from "../../ports";

/** The bound of one line of a project's kept sums, mg. */
export const PROJECT_LINE_MAX_MG = PHYSICAL_BOUNDS.project_line_t * MG_PER_T;

const isBounded = (field: { type: string; max?: number }): field is NumberField => field.type === "number" && field.max !== undefined;

/** The inputs and settings a calculation computes with, canonical, each within its bound. */
export function checkInputs(def: CalculationDefinition, values: Record<string, unknown>, entered?: Record<string, EnteredValue>): void {
  for (const field of [...def.inputs, ...def.settings]) {
    if (!isBounded(field)) continue;
    const value = values[field.name];
    if (typeof value !== "number" || value <= field.max!) continue;
    const unit = entered?.[field.name]?.unit ?? field.unit;
    throw new Invalid(`${field.name}: ${MESSAGES.fieldAtMost(field.label, fromCanonical(field, unit, field.max!), unit)}`);
  }
}

/** The first result of a calculation over its bound (a number, or a column of a table's rows). */
export function resultOverBound(def: CalculationDefinition, results: Record<string, unknown>): string | undefined {
  const over = (field: ResultField, value: unknown, path: string) =>
    field.max !== undefined && typeof value === "number" && Math.abs(value) > field.max
      ? `${path}: «${field.label}» — ${groupedNumber(Math.round(value))} ${field.unit}, больше предела ${groupedNumber(field.max)} ${field.unit} для одного расчета: проверьте исходные данные и их единицы`
      : undefined;
  for (const field of def.results) {
    const value = results[field.name];
    if (field.type === "number") {
      const problem = over(field, value, field.name);
      if (problem) return problem;
    } else if (field.type === "table" && Array.isArray(value)) {
      for (const [index, row] of value.entries()) {
        for (const column of field.columns ?? []) {
          const problem = over(column, (row as Record<string, unknown> | null)?.[column.name], `${field.name}[${index}].${column.name}`);
          if (problem) return problem;
        }
      }
    }
  }
  return undefined;
}

export function checkResults(def: CalculationDefinition, results: Record<string, unknown>): void {
  const problem = resultOverBound(def, results);
  if (problem) throw new Invalid(problem);
}

/** What a line of the kept sums is called to the user. */
function lineName(key: string): string {
  if (key.startsWith("t:")) {
    const [, ipcc, gas] = key.slice(2).split("|");
    return `${gas} по коду ${ipcc}`;
  }
  if (key.startsWith("b:")) return "метанового баланса";
  if (key.startsWith("r:")) return `CH4 по коду ${key.slice(2)}`;
  return key;
}

/** The key of `sums` over the project's bound, if one is. */
export function sumOverBound(sums: Record<string, number>): string | undefined {
  return Object.keys(sums).find((key) => Math.abs(sums[key]) > PROJECT_LINE_MAX_MG);
}

/** A project's kept sums asked for early, beside the project itself (one BatchGet with it). */
export interface KeptSumsRead {
  project: string;
  sums: Promise<Record<string, number>>;
}

/** Starts the read of `project`'s kept sums for checkProjectSums when a write of `type` may add
 *  to them: called in the same turn as the project's read, both go to DynamoDB as one request. */
export function readKeptSumsAhead(deps: Deps, company: string, project: string, type: string): KeptSumsRead | undefined {
  if (!inventorySourceOf(type)) return undefined;
  const sums = deps.repos.statistics.projectInventorySums(company, project);
  // Awaited only when the write adds; a request refused before then leaves no rejection unseen.
  sums.catch(() => undefined);
  return { project, sums };
}

/** A write of `next` (over `current`) that would carry a line of its project's kept sums past its
 *  bound is refused. The kept sums may lag the write just made by another user: the bound leaves
 *  room for that under what the storage holds. */
export async function checkProjectSums(
  deps: Deps,
  company: string,
  next: Calculation,
  current?: Calculation,
  read?: KeptSumsRead,
): Promise<void> {
  for (const { project, sums: delta } of inventorySumsDeltas(current, next)) {
    // Only a write that adds can pass the bound.
    if (!Object.values(delta).some((value) => value > 0)) continue;
    const kept = await (read?.project === project ? read.sums : deps.repos.statistics.projectInventorySums(company, project));
    const after = { ...kept };
    for (const [key, value] of Object.entries(delta)) after[key] = (after[key] ?? 0) + value;
    const key = sumOverBound(after);
    if (key === undefined) continue;
    throw new Invalid(
      `Сумма проекта по строке «${lineName(key)}» превысила бы ${groupedNumber(PHYSICAL_BOUNDS.project_line_t)} т ` +
        `(${groupedNumber(Math.round(after[key] / MG_PER_T))} т): проверьте исходные данные и их единицы или разделите данные на несколько проектов`,
    );
  }
}

/** Why a stored calculation cannot be in its project's kept sums (a result over its bound, or its
 *  own share of a line over the project's bound), undefined when it can. */
export function storedCalculationProblem(
  def: CalculationDefinition,
  calculation: Pick<Calculation, "results"> & object,
): string | undefined {
  const problem = resultOverBound(def, calculation.results ?? {});
  if (problem) return problem;
  const own = inventorySumsOf(calculation as never);
  const key = own && sumOverBound(own.sums);
  return key ? `строка «${lineName(key)}»: ${groupedNumber(Math.round(own!.sums[key] / MG_PER_T))} т` : undefined;
}
