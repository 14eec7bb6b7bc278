// The physical bounds of a calculation's numbers (the registry's PHYSICAL_BOUNDS, docs/security.md).
// An input over its bound is refused naming the field by its label and the bound in the unit the
// value was typed in; a result over its bound naming the result; a write that would carry one of
// its project's lines past their bound is refused, the room taken on a counter of the project's
// lines before it is made, so that the table's stream can always add it (the sums are whole
// milligrams, which the storage holds under 2⁵³).
import { checkBounds, groupedNumber, resultBoundError } from "@core/emissions";
import type { EnteredValue } from "@core/entry-units";
import { PHYSICAL_BOUNDS, calculationDefinition, type CalculationDefinition } from "@core/registry";
import type { Deps } from "../context";
import { fromCore, Invalid } from "../errors";
import { INVENTORY_TYPES, MG_PER_T, inventorySumsDeltas, inventorySumsOf, sumsOfCalculations } from "./sums";
import type { StoredCalculation, WriteGuard } from "../../ports";
import { lineOf } from "../../contract/field-errors";

/** Milligrams as tonnes to the hundredth, the way a bound's message shows them. */
const tonnes = (milligrams: number) => groupedNumber(Math.round(milligrams / 1e7) / 100);

/** The bound of one line of a project's kept sums, mg. */
export const PROJECT_LINE_MAX_MG = PHYSICAL_BOUNDS.project_line_t * MG_PER_T;

/** The inputs and settings a calculation computes with, canonical, each within its bound: the core's
 *  one check (checkBounds), named in the unit each was typed in. A formula type's create or edit has
 *  it inside its one call into the core (calculations.ts); the measured periods' sum and a file
 *  type's settings are checked here by the same function. */
export function checkInputs(def: CalculationDefinition, values: Record<string, unknown>, entered?: Record<string, EnteredValue>): void {
  try {
    checkBounds(def, values, entered);
  } catch (error) {
    throw fromCore(error);
  }
}

/** The first result of a calculation over its bound (a number, or a column of a table's rows). */
export function resultOverBound(def: CalculationDefinition, results: Record<string, unknown>): string | undefined {
  const problem = resultBoundError(def, results);
  return problem && lineOf(problem);
}

export function checkResults(def: CalculationDefinition, results: Record<string, unknown>): void {
  const problem = resultBoundError(def, results);
  if (problem) throw fromCore(problem);
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

/** The keys of a project's sums its bound is held on: its masses, a gas of a line (`t:`) and a
 *  figure of its methane balance (`b:`). The others count calculations, and `r:` and `bp:` are
 *  parts of these. */
export const isBoundedLine = (key: string) => key.startsWith("t:") || key.startsWith("b:");

/** The counter of what a project's calculations hold on its bounded lines (ports CapCounter). */
export const projectLinesCap = (projectId: string) => `LINES#PROJECT#${projectId}`;
export const PROJECT_LINES_CAPS = "LINES#PROJECT#";

/** What a project's active calculations hold on its bounded lines, counted from them (a counter's
 *  first value, the reconciliation's truth). */
export function boundedLines(sums: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(sums).filter(([key, value]) => isBoundedLine(key) && value !== 0));
}

async function countProjectLines(deps: Pick<Deps, "repos">, company: string, project: string): Promise<Record<string, number>> {
  const lists = await Promise.all(
    INVENTORY_TYPES.map((type) => deps.repos.calculations.listAllByProject(company, project, type, "active")),
  );
  return boundedLines(sumsOfCalculations(lists.flat()).get(project) ?? {});
}

/** Room taken on a project's lines for one write: given back when the write fails, and what the
 *  write takes off its lines given back once it is in. */
interface LinesTaken {
  giveBack(): Promise<void>;
  settle(): Promise<void>;
}

/** Takes the room a write of `next` (over `current`) needs on its project's lines, refusing one
 *  that would carry a line past its bound: one conditional update of the project's counter, so
 *  parallel writes cannot pass it together, whatever the kept sums (which lag) say. */
async function takeProjectLines(
  deps: Pick<Deps, "repos">,
  company: string,
  next: StoredCalculation,
  current?: StoredCalculation,
): Promise<LinesTaken> {
  const taken: Array<{ project: string; amounts: Record<string, number> }> = [];
  const freed: Array<{ project: string; amounts: Record<string, number> }> = [];
  const giveBack = async () => {
    for (const { project, amounts } of taken) await deps.repos.caps.giveAmounts(company, projectLinesCap(project), amounts);
  };
  for (const { project, sums: delta } of inventorySumsDeltas(current, next)) {
    const lines = Object.entries(delta).filter(([key]) => isBoundedLine(key));
    const adds = Object.fromEntries(lines.filter(([, value]) => value > 0));
    const takesOff = Object.fromEntries(lines.flatMap(([key, value]) => (value < 0 ? [[key, -value]] : [])));
    if (Object.keys(takesOff).length > 0) freed.push({ project, amounts: takesOff });
    if (Object.keys(adds).length === 0) continue;
    const refused = await deps.repos.caps.takeAmounts(company, projectLinesCap(project), adds, PROJECT_LINE_MAX_MG, () =>
      countProjectLines(deps, company, project),
    );
    if (refused) {
      await giveBack();
      throw new Invalid(
        `Сумма проекта по строке «${lineName(refused.key)}» превысила бы ${groupedNumber(PHYSICAL_BOUNDS.project_line_t)} т ` +
          `(${tonnes(refused.held + adds[refused.key])} т): проверьте исходные данные и их единицы или разделите данные на несколько проектов`,
      );
    }
    taken.push({ project, amounts: adds });
  }
  return {
    giveBack,
    async settle() {
      for (const { project, amounts } of freed) await deps.repos.caps.giveAmounts(company, projectLinesCap(project), amounts);
    },
  };
}

/** Makes `write` of `next` (over `current`) with the room it needs on its project's lines taken
 *  side by side with the year's `guard` (the repository awaits both before it writes): a write
 *  that would carry a line past its bound is refused, the room given back when the write fails,
 *  and what it takes off its lines given back only once it is in, so no interleaving of writes
 *  passes the bound. */
export async function withProjectLines<T>(
  deps: Pick<Deps, "repos">,
  company: string,
  next: StoredCalculation,
  current: StoredCalculation | undefined,
  guard: WriteGuard | undefined,
  write: (guard: WriteGuard) => Promise<T>,
): Promise<T> {
  const taken = takeProjectLines(deps, company, next, current);
  const both: WriteGuard = Promise.all([guard, taken]).then(([guarded]) => guarded);
  // The repository awaits it; a write refused before then leaves no rejection unseen.
  both.catch(() => undefined);
  let result: T;
  try {
    result = await write(both);
  } catch (error) {
    await taken.then(
      (t) => t.giveBack(),
      () => undefined,
    );
    throw error;
  }
  // A counter left too high only tightens the bound until the reconciliation counts it again.
  await (await taken).settle().catch(() => undefined);
  return result;
}

/** Why a stored calculation cannot be in its project's kept sums (a result over its bound, or its
 *  own share of a line over the project's bound), undefined when it can. */
export function storedCalculationProblem(
  def: CalculationDefinition,
  calculation: Pick<StoredCalculation, "results"> & object,
): string | undefined {
  const problem = resultOverBound(def, calculation.results ?? {});
  if (problem) return problem;
  const own = inventorySumsOf(calculation as never);
  const key = own && sumOverBound(own.sums);
  return key ? `строка «${lineName(key)}»: ${groupedNumber(Math.round(own!.sums[key] / MG_PER_T))} т` : undefined;
}

/** Why a project's sums (counted from its calculations) are past its bound: a line of them over
 *  it, written before the bound was held on a counter; undefined when none is. */
export function projectSumsProblem(sums: Record<string, number>): string | undefined {
  const key = sumOverBound(boundedLines(sums));
  return key === undefined
    ? undefined
    : `строка «${lineName(key)}»: ${tonnes(sums[key])} т, больше предела ${groupedNumber(PHYSICAL_BOUNDS.project_line_t)} т`;
}

/** A project's calculations that cannot be in its kept sums as they stand: each over a bound of
 *  its own, and those that carried a line past the project's bound, the later of them in the
 *  order they were made (archiving them leaves every line within its bound). */
export function projectBoundProblems(
  calculations: readonly StoredCalculation[],
): Array<{ calculation: StoredCalculation; problem: string }> {
  const found: Array<{ calculation: StoredCalculation; problem: string }> = [];
  const held: Record<string, number> = {};
  const inOrder = [...calculations].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  for (const calculation of inOrder) {
    const own = storedCalculationProblem(calculationDefinition(calculation.type as never), calculation);
    if (own) {
      found.push({ calculation, problem: own });
      continue;
    }
    const lines = Object.entries(boundedLines(inventorySumsOf(calculation)?.sums ?? {}));
    const past = lines.find(([key, value]) => value > 0 && (held[key] ?? 0) + value > PROJECT_LINE_MAX_MG);
    if (past) {
      const [key, value] = past;
      found.push({
        calculation,
        problem:
          `строка «${lineName(key)}» проекта: ${tonnes(held[key] ?? 0)} т до него и ${tonnes(value)} т его, ` +
          `больше предела ${groupedNumber(PHYSICAL_BOUNDS.project_line_t)} т`,
      });
      continue;
    }
    for (const [key, value] of lines) held[key] = (held[key] ?? 0) + value;
  }
  return found;
}
