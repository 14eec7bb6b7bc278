// The profile's statistics (GET users/statistics/): what the user's company has in the platform.
// Kept as one aggregate per year (the year a project or calculation was created) to which the
// table's stream handler adds the difference each change makes (old image → new image), so a
// write costs the same however much the company has and a read sums a few items. The full count
// over the table stays only as a reconciliation (npm run admin -- reconcile-statistics, a daily
// function in AWS, the local server's start) that reports and repairs drift, of the inventory's
// sums too (domain/inventory/sums.ts).
import type { Actor, Deps } from "../context";
import { inventoryTotalsByYear } from "./year";
import type {
  StoredCalculation,
  Clock,
  CompanyStatistics,
  ListCounts,
  Repositories,
  StatisticsFigures,
  StoredInventorySums,
  StoredAmounts,
  StoredListCounts,
  YearStatistics,
} from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { calculationDefinition, isCalculationType } from "@core/registry";
import { INVENTORY_SUMS_LAYOUT, INVENTORY_TYPES, addSums, sumsOfCalculations, withoutZeros, type InventorySums } from "./sums";
import { leftOutReason, leftOutSummary, whatCounts, type InventoryRole, type LeftOutReason } from "@core/inventory";
import { DomainError } from "../errors";
import {
  PROJECT_LINES_CAPS,
  boundedLines,
  projectBoundProblems,
  projectLinesCap,
  projectSumsProblem,
  withProjectLines,
} from "./magnitudes";

type Item = Record<string, unknown>;

/** The figures kept per year, summed: the CO2-eq of the counted calculations at each one's stored
 *  GWP, all years together. Kept for the reconciliation only; the profile's statistics give the
 *  inventory's netted total per reporting year instead (D26). */
export type KeptStatistics = Omit<CompanyStatistics, "years"> & { total_co2e: number };

/** The CO2-equivalent a calculation adds to the total, t (0 when its type has none). */
function co2eOf(calculation: Pick<StoredCalculation, "type" | "results">): number {
  const co2e = isCalculationType(calculation.type) ? calculationDefinition(calculation.type).co2e : undefined;
  const value = co2e ? calculation.results?.[co2e] : undefined;
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** The figures of a company from its projects and its calculations that are not deleted; the
 *  total by the core's counting rule (D18, whatCounts), each calculation in its own project. */
export function summarise(
  projects: Pick<Project, "id" | "is_deleted">[],
  calculations: Pick<StoredCalculation, "type" | "results" | "project" | "inventory_role">[],
): Omit<KeptStatistics, "computed_at"> {
  const active = projects.filter((p) => !p.is_deleted).length;
  const archived = new Set(projects.filter((p) => p.is_deleted).map((p) => p.id));
  const perType: Record<string, number> = {};
  for (const calculation of calculations) perType[calculation.type] = (perType[calculation.type] ?? 0) + 1;
  const { counted, left_out } = whatCounts(
    calculations.map((calculation) => ({
      calculation,
      type: calculation.type,
      inventory_role: calculation.inventory_role,
      project: calculation.project,
      reporting_year: 0,
      facility: null,
      project_archived: archived.has(calculation.project),
    })),
    { year: 0 },
  );
  return {
    projects: { active, archived: projects.length - active },
    calculations: perType,
    total_co2e: counted.reduce((sum, c) => sum + co2eOf(c.calculation), 0),
    not_counted: leftOutSummary(left_out),
  };
}

const yearOf = (item: Item) => /^\d{4}/.exec(String(item.created_at ?? ""))?.[0] ?? "0000";

export const emptyFigures = (year: string): StatisticsFigures => ({
  year,
  projects_active: 0,
  projects_archived: 0,
  calculations: {},
  total_co2e: 0,
  counting: {},
});

/** D18: how one calculation that is not deleted counts in its project's total, by the core's rule
 *  (whatCounts / leftOutReason): its CO2-eq when counted, else the reason it is left out. The
 *  project's own state (archived) is applied when the figures are read (sumYears). */
function countingOf(item: Item, co2e: number): Record<string, number> {
  const project = String(item.project ?? "");
  const reason = leftOutReason(
    {
      type: String(item.type),
      inventory_role: (item.inventory_role as InventoryRole | null | undefined) ?? null,
      project,
      reporting_year: 0,
      facility: null,
    },
    { project },
  );
  if (reason === undefined) return { [`primary:${project}`]: 1, [`t:${project}`]: co2e };
  return { [`${reason}:${project}`]: 1 };
}

/** What one stored item (a project or a calculation, by its SK) adds to its year; nothing for any
 *  other item or no item. The same rules as summarise: a project counts as active unless deleted,
 *  a calculation only when it is stored as not deleted (the reconciliation's filter). */
export function contribution(sk: string, item: Item | undefined): StatisticsFigures | undefined {
  if (!item) return undefined;
  const figures = emptyFigures(yearOf(item));
  if (sk.startsWith("PROJECT#")) {
    if (item.is_deleted) figures.projects_archived = 1;
    else figures.projects_active = 1;
    return figures;
  }
  if (sk.startsWith("CALC#") && item.is_deleted === false && typeof item.type === "string") {
    figures.calculations[item.type] = 1;
    figures.total_co2e = co2eOf(item as Pick<StoredCalculation, "type" | "results">);
    figures.counting = countingOf(item, figures.total_co2e);
    return figures;
  }
  return undefined;
}

function addInto(target: StatisticsFigures, figures: StatisticsFigures, sign: 1 | -1): void {
  target.projects_active += sign * figures.projects_active;
  target.projects_archived += sign * figures.projects_archived;
  target.total_co2e += sign * figures.total_co2e;
  for (const [type, count] of Object.entries(figures.calculations)) {
    target.calculations[type] = (target.calculations[type] ?? 0) + sign * count;
  }
  for (const [key, value] of Object.entries(figures.counting ?? {})) {
    target.counting ??= {};
    target.counting[key] = (target.counting[key] ?? 0) + sign * value;
  }
}

const isZero = (figures: StatisticsFigures) =>
  figures.projects_active === 0 &&
  figures.projects_archived === 0 &&
  figures.total_co2e === 0 &&
  Object.values(figures.calculations).every((count) => count === 0) &&
  Object.values(figures.counting ?? {}).every((value) => value === 0);

function withoutZeroCounts(figures: StatisticsFigures): StatisticsFigures {
  const calculations = Object.fromEntries(Object.entries(figures.calculations).filter(([, count]) => count !== 0));
  const counting = Object.fromEntries(Object.entries(figures.counting ?? {}).filter(([, value]) => value !== 0));
  return { ...figures, calculations, counting };
}

/** The differences a change of one item (old image → new image) makes, per year it touches. */
export function statisticsDeltas(sk: string, oldItem: Item | undefined, newItem: Item | undefined): StatisticsFigures[] {
  const byYear = new Map<string, StatisticsFigures>();
  const at = (year: string) => byYear.get(year) ?? byYear.set(year, emptyFigures(year)).get(year)!;
  const before = contribution(sk, oldItem);
  const after = contribution(sk, newItem);
  if (before) addInto(at(before.year), before, -1);
  if (after) addInto(at(after.year), after, 1);
  return [...byYear.values()].map(withoutZeroCounts).filter((delta) => !isZero(delta));
}

/** What one stored calculation adds to its list's count (its project, type and state, as the list
 *  index files it: archived when deleted); nothing for any other item or no item. */
function listContribution(sk: string, item: Item | undefined): ListCounts | undefined {
  if (!item || !sk.startsWith("CALC#") || typeof item.project !== "string" || typeof item.type !== "string") return undefined;
  return { project: item.project, type: item.type, active: item.is_deleted ? 0 : 1, archived: item.is_deleted ? 1 : 0 };
}

/** A list's identity: its project and type (neither contains `#`). */
const listId = (list: Pick<ListCounts, "project" | "type">) => `${list.project}#${list.type}`;

/** List counts keyed by list, to which contributions are added or taken away. */
function listTally() {
  const byList = new Map<string, ListCounts>();
  const add = (counts: ListCounts | undefined, sign: 1 | -1) => {
    if (!counts) return;
    const id = listId(counts);
    const into = byList.get(id) ?? byList.set(id, { project: counts.project, type: counts.type, active: 0, archived: 0 }).get(id)!;
    into.active += sign * counts.active;
    into.archived += sign * counts.archived;
  };
  return { byList, add };
}

/** The differences a change of one calculation (old image → new image) makes to its lists' counts. */
export function listCountDeltas(sk: string, oldItem: Item | undefined, newItem: Item | undefined): ListCounts[] {
  const tally = listTally();
  tally.add(listContribution(sk, oldItem), -1);
  tally.add(listContribution(sk, newItem), 1);
  return [...tally.byList.values()].filter((d) => d.active !== 0 || d.archived !== 0);
}

/** D18: the counted total of the projects not archived, and what it left out (an archived
 *  project's calculations as archived, as the inventory's rule has it). */
function countedTotal(counting: Record<string, number>, archived: ReadonlySet<string>) {
  let total = 0;
  const leftOut: Partial<Record<LeftOutReason, number>> = {};
  for (const [key, value] of Object.entries(counting)) {
    const at = key.indexOf(":");
    const kind = key.slice(0, at);
    const project = key.slice(at + 1);
    if (kind === "t") {
      if (!archived.has(project)) total += value;
      continue;
    }
    const reason = (archived.has(project) ? "archived" : kind) as LeftOutReason | "primary";
    if (reason !== "primary") leftOut[reason] = (leftOut[reason] ?? 0) + value;
  }
  const list = Object.entries(leftOut).flatMap(([reason, n]) =>
    Array.from({ length: Math.max(0, Math.round(n)) }, () => ({ reason: reason as LeftOutReason })),
  );
  return { total, not_counted: leftOutSummary(list) };
}

/** Sums year aggregates into what the profile shows (types with no calculation left out); the
 *  total counts the primary calculations of the projects not in `archivedProjects` (D18). */
export function sumYears(years: YearStatistics[], now: Date, archivedProjects: ReadonlySet<string> = new Set()): KeptStatistics {
  const total = emptyFigures("");
  for (const year of years) addInto(total, year, 1);
  const counted = countedTotal(total.counting ?? {}, archivedProjects);
  const computed = years
    .map((y) => y.updated_at)
    .filter(Boolean)
    .sort()
    .at(-1);
  return {
    projects: { active: total.projects_active, archived: total.projects_archived },
    calculations: withoutZeroCounts(total).calculations,
    total_co2e: counted.total,
    not_counted: counted.not_counted,
    computed_at: computed ?? now.toISOString(),
  };
}

/** GET users/statistics/: the counts, and per reporting year the inventory's netted total at the
 *  year's GWP (D26: the inventory's own code, never a sum across years). */
export async function companyStatistics(deps: Deps, actor: Actor): Promise<CompanyStatistics> {
  // The projects (a few items, not the calculations) say which are archived now.
  const [years, projects, totals] = await Promise.all([
    deps.repos.statistics.years(actor.company),
    deps.repos.projects.listAllOfCompany(actor.company),
    inventoryTotalsByYear(deps, actor),
  ]);
  const { total_co2e: _allYears, ...kept } = sumYears(
    years,
    deps.clock.now(),
    new Set(projects.filter((p) => p.is_deleted).map((p) => p.id)),
  );
  return { ...kept, years: totals };
}

/** The company's figures per year counted from the table itself (the reconciliation's truth). */
export async function countCompanyStatistics(repos: Repositories, companyId: string): Promise<Map<string, StatisticsFigures>> {
  const [projects, calculations] = await Promise.all([
    repos.projects.listAllOfCompany(companyId),
    repos.calculations.listActiveByCompany(companyId),
  ]);
  const byYear = new Map<string, StatisticsFigures>();
  const add = (figures: StatisticsFigures | undefined) => {
    if (!figures) return;
    const target = byYear.get(figures.year) ?? byYear.set(figures.year, emptyFigures(figures.year)).get(figures.year)!;
    addInto(target, figures, 1);
  };
  for (const project of projects) add(contribution("PROJECT#", project as unknown as Item));
  for (const calculation of calculations) add(contribution("CALC#", { ...calculation, is_deleted: false }));
  return byYear;
}

/** A year whose stored figures differ from the table's: `difference` = counted − stored. */
export interface StatisticsDrift {
  year: string;
  stored: StatisticsFigures;
  counted: StatisticsFigures;
  difference: StatisticsFigures;
}

/** A list whose stored count differs from the table's: `difference` = counted − stored. */
export interface ListCountDrift {
  stored: ListCounts;
  counted: ListCounts;
  difference: ListCounts;
}

/** A project whose kept inventory sums differ from its calculations': `difference` = counted − stored. */
export interface InventorySumsDrift {
  project: string;
  difference: InventorySums;
}

/** A project whose sums the storage cannot hold (stored calculations over the bounds of
 *  domain/inventory/magnitudes.ts): the table's stream could not add them, nor can a repair. */
export interface UnappliedSums {
  project: string;
  /** Why the storage refused the project's sums. */
  problem: string;
  /** The project's calculations over a bound, each with the bound it passes: over one of its own,
   *  or the later of those that carried a line past the project's bound. */
  calculations: Array<{ id: string; type: string; name: string; problem: string }>;
}

export interface ReconcileReport {
  company: string;
  /** The reconciliation of the company failed: why (the others went on). */
  failed?: string;
  /** The projects whose sums could not be repaired; until they are, the company's inventory is
   *  folded from its calculations, not read from the kept sums. */
  unapplied: UnappliedSums[];
  drift: StatisticsDrift[];
  /** The calculation lists whose counts drifted. */
  lists: ListCountDrift[];
  /** The projects whose inventory sums drifted (domain/inventory/sums.ts). */
  inventory: InventorySumsDrift[];
  /** The projects whose counter of what their lines hold (the room their bound leaves,
   *  domain/inventory/magnitudes.ts) differs from their calculations': a write that took room and
   *  never came to be (a crash between the two) leaves it too high. */
  bounds: InventorySumsDrift[];
  /** The inventory's write counter was ahead of the applied one with nothing on its way (a write
   *  lost between taking its number and reaching the table) and was brought level. */
  writes_settled: boolean;
  /** Years and lists whose drift was added back. */
  repaired: number;
  /** Changes were still being added while it counted: drift is reported, nothing repaired. */
  unsettled: boolean;
}

/** Sums of doubles in a different order differ in the last bits: not drift. */
const co2eEqual = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function driftOf(counted: Map<string, StatisticsFigures>, stored: YearStatistics[]): StatisticsDrift[] {
  const storedByYear = new Map(stored.map((y) => [y.year, y]));
  const years = [...new Set([...counted.keys(), ...storedByYear.keys()])].sort();
  const drift: StatisticsDrift[] = [];
  for (const year of years) {
    const have = storedByYear.get(year) ?? emptyFigures(year);
    const want = counted.get(year) ?? emptyFigures(year);
    const difference = emptyFigures(year);
    addInto(difference, want, 1);
    addInto(difference, have, -1);
    if (co2eEqual(want.total_co2e, have.total_co2e)) difference.total_co2e = 0;
    for (const key of Object.keys(difference.counting ?? {})) {
      if (key.startsWith("t:") && co2eEqual(want.counting?.[key] ?? 0, have.counting?.[key] ?? 0)) difference.counting![key] = 0;
    }
    const cleaned = withoutZeroCounts(difference);
    if (!isZero(cleaned)) {
      const { year: _y, projects_active, projects_archived, calculations, total_co2e, counting } = have;
      drift.push({
        year,
        stored: { year, projects_active, projects_archived, calculations, total_co2e, counting },
        counted: want,
        difference: cleaned,
      });
    }
  }
  return drift;
}

/** The company's list counts counted from the table itself. */
export async function countListCounts(repos: Repositories, companyId: string): Promise<Map<string, ListCounts>> {
  const tally = listTally();
  for (const calculation of await repos.calculations.listStatesOfCompany(companyId)) tally.add(listContribution("CALC#", calculation), 1);
  return tally.byList;
}

function listDriftOf(counted: Map<string, ListCounts>, stored: StoredListCounts[]): ListCountDrift[] {
  const storedById = new Map(stored.map((s) => [listId(s), s]));
  const drift: ListCountDrift[] = [];
  for (const id of [...new Set([...counted.keys(), ...storedById.keys()])].sort()) {
    const [project, type] = id.split("#");
    const have = storedById.get(id) ?? { project, type, active: 0, archived: 0 };
    const want = counted.get(id) ?? { project, type, active: 0, archived: 0 };
    const difference = { project, type, active: want.active - have.active, archived: want.archived - have.archived };
    if (difference.active !== 0 || difference.archived !== 0) {
      drift.push({ stored: { project, type, active: have.active, archived: have.archived }, counted: want, difference });
    }
  }
  return drift;
}

const revisions = (
  years: YearStatistics[],
  lists: StoredListCounts[],
  inventory: Awaited<ReturnType<Repositories["statistics"]["storedInventorySums"]>>,
  bounds: StoredAmounts[],
) =>
  JSON.stringify([
    ...[
      ...years.map((y) => [y.year, y.rev]),
      ...lists.map((l) => [listId(l), l.rev]),
      ...inventory.projects.map((p) => [p.project, p.rev]),
      ...bounds.map((b) => [b.name, b.rev]),
    ].sort(),
    inventory.counters,
  ]);

/** The company's inventory sums counted from its calculations (the reconciliation's truth). */
export async function countInventorySums(repos: Repositories, companyId: string): Promise<Map<string, InventorySums>> {
  const [calculations, damaged] = await Promise.all([
    repos.calculations.listOfCompanyByTypes(companyId, INVENTORY_TYPES),
    repos.calculations.listDamagedOfCompany(companyId),
  ]);
  return sumsOfCalculations(calculations, damaged);
}

function inventoryDriftOf(counted: Map<string, InventorySums>, stored: StoredInventorySums[]): InventorySumsDrift[] {
  const storedOf = new Map(stored.map((s) => [s.project, s.sums]));
  const drift: InventorySumsDrift[] = [];
  for (const project of [...new Set([...counted.keys(), ...storedOf.keys()])].sort()) {
    const difference = withoutZeros(addSums(addSums({}, counted.get(project) ?? {}), storedOf.get(project) ?? {}, -1));
    if (Object.keys(difference).length > 0) drift.push({ project, difference });
  }
  return drift;
}

/** Counts the company's figures from the table and compares them with the aggregates. Drift is
 *  repaired by adding the difference to each year, conditioned on no change having been added
 *  since the aggregates were read. With `settleMs` it looks twice that far apart and repairs only
 *  what stayed the same while no change came in: a write whose stream record is still on its way
 *  is in the table but not yet in the aggregates, and must not be added twice. Locally at start
 *  (no record on its way) one look is enough. */
export async function reconcileCompanyStatistics(
  deps: { repos: Repositories; clock: Clock },
  companyId: string,
  options: { settleMs?: number; repair?: boolean } = {},
): Promise<ReconcileReport> {
  try {
    return await reconcileCompany(deps, companyId, options);
  } catch (error) {
    // One company's failure is its own: the caller goes on with the others and reports it.
    const failed = error instanceof DomainError ? error.detail : String((error as Error)?.stack ?? error);
    return {
      company: companyId,
      failed,
      drift: [],
      lists: [],
      inventory: [],
      bounds: [],
      unapplied: [],
      writes_settled: false,
      repaired: 0,
      unsettled: false,
    };
  }
}

/** The calculations of a project whose sums the storage refused that pass a bound. */
async function unappliedCalculations(repos: Repositories, companyId: string, project: string) {
  const calculations = await repos.calculations.listOfCompanyByTypes(companyId, INVENTORY_TYPES);
  return projectBoundProblems(calculations.filter((c) => c.project === project && isCalculationType(c.type))).map(
    ({ calculation: c, problem }) => ({ id: c.id, type: c.type, name: c.name, problem }),
  );
}

/** The counters of the projects' lines that differ from what their calculations hold. */
function boundsDriftOf(counted: Map<string, InventorySums>, stored: StoredAmounts[]): InventorySumsDrift[] {
  const drift: InventorySumsDrift[] = [];
  for (const { name, amounts } of stored) {
    const project = name.slice(PROJECT_LINES_CAPS.length);
    const difference = withoutZeros(addSums(boundedLines(counted.get(project) ?? {}), amounts, -1));
    if (Object.keys(difference).length > 0) drift.push({ project, difference });
  }
  return drift;
}

async function reconcileCompany(
  deps: { repos: Repositories; clock: Clock },
  companyId: string,
  options: { settleMs?: number; repair?: boolean },
): Promise<ReconcileReport> {
  const { settleMs = 0, repair = true } = options;
  const stored = () =>
    Promise.all([
      deps.repos.statistics.years(companyId),
      deps.repos.statistics.listCounts(companyId),
      deps.repos.statistics.storedInventorySums(companyId),
      deps.repos.caps.listAmounts(companyId, PROJECT_LINES_CAPS),
    ]);
  const look = async () => {
    const [before, listsBefore, inventoryBefore, boundsBefore] = await stored();
    const [counted, countedLists, countedInventory] = await Promise.all([
      countCompanyStatistics(deps.repos, companyId),
      countListCounts(deps.repos, companyId),
      countInventorySums(deps.repos, companyId),
    ]);
    const [after, listsAfter, inventoryAfter, boundsAfter] = await stored();
    return {
      before: revisions(before, listsBefore, inventoryBefore, boundsBefore),
      after: revisions(after, listsAfter, inventoryAfter, boundsAfter),
      bounds: boundsAfter,
      countedInventory,
      boundsDrift: boundsDriftOf(countedInventory, boundsAfter),
      years: after,
      lists: listsAfter,
      inventory: inventoryAfter,
      drift: driftOf(counted, after),
      listDrift: listDriftOf(countedLists, listsAfter),
      inventoryDrift: inventoryDriftOf(countedInventory, inventoryAfter.projects),
    };
  };
  const differences = (seen: {
    drift: StatisticsDrift[];
    listDrift: ListCountDrift[];
    inventoryDrift: InventorySumsDrift[];
    boundsDrift: InventorySumsDrift[];
  }) =>
    JSON.stringify([seen.drift.map((d) => d.difference), seen.listDrift.map((d) => d.difference), seen.inventoryDrift, seen.boundsDrift]);
  let seen = await look();
  let unsettled = seen.before !== seen.after;
  if (settleMs > 0) {
    await new Promise((done) => setTimeout(done, settleMs));
    const again = await look();
    unsettled ||= seen.after !== again.after || again.before !== again.after || differences(seen) !== differences(again);
    seen = again;
  }
  let repaired = 0;
  let writesSettled = false;
  // A project's sums past what the storage holds: no repair can write them (the stream could not either).
  const unapplied: UnappliedSums[] = [];
  const storedOf = new Map(seen.inventory.projects.map((p) => [p.project, p.sums]));
  for (const { project, difference } of seen.inventoryDrift) {
    const after = addSums({ ...storedOf.get(project) }, difference);
    const key = Object.keys(after).find((k) => !Number.isSafeInteger(after[k]) || !Number.isSafeInteger(difference[k] ?? 0));
    if (key === undefined) continue;
    unapplied.push({
      project,
      problem: `суммы проекта не помещаются в хранилище (${key}: ${after[key]} мг при пределе ${Number.MAX_SAFE_INTEGER})`,
      calculations: await unappliedCalculations(deps.repos, companyId, project),
    });
  }
  // A project whose lines were carried past their bound (before the bound was held on a counter):
  // its sums may still be held, but the calculations that carried them past are named to archive.
  for (const [project, sums] of seen.countedInventory) {
    if (unapplied.some((u) => u.project === project)) continue;
    const problem = projectSumsProblem(sums);
    if (problem) unapplied.push({ project, problem, calculations: await unappliedCalculations(deps.repos, companyId, project) });
  }
  if (repair && !unsettled) {
    const at = deps.clock.now().toISOString();
    const revOf = new Map(seen.years.map((y) => [y.year, y.rev]));
    for (const { difference } of seen.drift) {
      if (await deps.repos.statistics.repair(companyId, difference, revOf.get(difference.year), at)) repaired += 1;
    }
    const listRevOf = new Map(seen.lists.map((l) => [listId(l), l.rev]));
    for (const { difference } of seen.listDrift) {
      if (await deps.repos.statistics.repairListCount(companyId, difference, listRevOf.get(listId(difference)), at)) repaired += 1;
    }
    const sumsRevOf = new Map(seen.inventory.projects.map((p) => [p.project, p.rev]));
    let sumsRepaired = true;
    for (const { project, difference } of seen.inventoryDrift) {
      if (unapplied.some((u) => u.project === project)) {
        sumsRepaired = false;
        continue;
      }
      try {
        if (await deps.repos.statistics.repairInventorySums(companyId, project, difference, sumsRevOf.get(project), at)) repaired += 1;
        else sumsRepaired = false;
      } catch (error) {
        // The storage refuses the project's sums: reported, the other projects repaired.
        if (!(error instanceof DomainError)) throw error;
        sumsRepaired = false;
        unapplied.push({ project, problem: error.detail, calculations: await unappliedCalculations(deps.repos, companyId, project) });
      }
    }
    // A counter of a project's lines set to what its calculations hold, unless a write took or
    // gave room since it was read.
    const boundsRevOf = new Map(seen.bounds.map((b) => [b.name, b.rev]));
    for (const { project, difference } of seen.boundsDrift) {
      if (unapplied.some((u) => u.project === project)) continue; // what no storage holds
      const name = projectLinesCap(project);
      const held = seen.bounds.find((b) => b.name === name)!.amounts;
      if (await deps.repos.caps.setAmounts(companyId, name, withoutZeros(addSums({ ...held }, difference)), boundsRevOf.get(name)!))
        repaired += 1;
    }
    // The sums now hold every key of today's layout (a write that came in since only adds to them).
    if (sumsRepaired) await deps.repos.statistics.markInventorySumsLayout(companyId, INVENTORY_SUMS_LAYOUT);
    const repairedNow = new Set(seen.inventoryDrift.map((d) => d.project));
    for (const { project, rev, zeros } of seen.inventory.projects) {
      if (zeros > 0 && !repairedNow.has(project)) await deps.repos.statistics.compactInventorySums(companyId, project, rev);
    }
    // Nothing came in while it looked: a write counted but never applied is not on its way. While a
    // project's sums cannot be repaired they stay unsettled, so the inventory folds the calculations.
    const { counters } = seen.inventory;
    if (counters.writes !== counters.applied && unapplied.length === 0)
      writesSettled = await deps.repos.statistics.settleInventoryWrites(companyId, counters);
    await deps.repos.statistics.removeLegacy(companyId);
  }
  return {
    company: companyId,
    drift: seen.drift,
    lists: seen.listDrift,
    inventory: seen.inventoryDrift,
    bounds: seen.boundsDrift,
    unapplied,
    writes_settled: writesSettled,
    repaired,
    unsettled,
  };
}

/** The operator's repair of what the storage cannot hold (npm run admin -- reconcile-statistics
 *  --archive-unapplied): the calculations a reconciliation found over the bounds are moved to their
 *  project's archive, where their users find them to enter again, and leave the sums. Answers their ids. */
export async function archiveUnapplied(deps: { repos: Repositories; clock: Clock }, report: ReconcileReport): Promise<string[]> {
  const archived: string[] = [];
  for (const { id, type } of report.unapplied.flatMap((u) => u.calculations)) {
    const current = await deps.repos.calculations.get(report.company, type, id);
    if (!current || current.is_deleted) continue;
    const at = deps.clock.now().toISOString();
    const next = {
      ...current,
      is_deleted: true,
      is_active: false,
      version: current.version + 1,
      updated_at: at,
      updated_by: "npm run admin",
    };
    // Its room on the project's lines is given back once it is archived.
    await withProjectLines(deps, report.company, next, current, undefined, (guard) =>
      deps.repos.calculations.replace(next, current.version, guard),
    );
    archived.push(id);
  }
  return archived;
}

/** Whether a reconciliation found anything to repair. */
export const drifted = (report: ReconcileReport) =>
  report.drift.length > 0 || report.lists.length > 0 || report.inventory.length > 0 || report.bounds.length > 0 || report.writes_settled;

/** Whether a reconciliation left something an operator must see to: the company failed, or a
 *  project's sums the storage cannot hold (npm run admin -- reconcile-statistics lists them). */
export const troubled = (report: ReconcileReport) => report.failed !== undefined || report.unapplied.length > 0;

/** Every company (the daily job, the admin command, the local start), a few at a time: with a
 *  settling wait the companies wait together, not one after the other. */
export async function reconcileAllStatistics(
  deps: { repos: Repositories; clock: Clock },
  options: { settleMs?: number; repair?: boolean; log?: (report: ReconcileReport) => void } = {},
): Promise<ReconcileReport[]> {
  const companies = await deps.repos.companies.list();
  const reports: ReconcileReport[] = [];
  for (let i = 0; i < companies.length; i += 8) {
    const chunk = await Promise.all(companies.slice(i, i + 8).map((c) => reconcileCompanyStatistics(deps, c.id, options)));
    for (const report of chunk) options.log?.(report);
    reports.push(...chunk);
  }
  return reports;
}
