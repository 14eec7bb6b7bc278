// What a verifier would ask about a year's inventory (methodology D10, D12, D17–D20), from the
// projects' kept sums (domain/inventory/sums.ts), so that the checks cost the same at 100 or 10 000
// calculations: the sums say where a problem is; a calculation is read only to name it (a flagged
// coefficient, two calculations that count one source twice, a facility's balance that destroys
// more than it released). Methodology 9.1: a check of many calculations is one check per code and
// facility (or source) with their count, naming at most NAMED of them; the list behind it is paged
// by v1/inventory/calculations?check= (calculationsOfCheck), so the answer stays small at any size.
import type { Deps } from "../context";
import { damageOf } from "../calculation-shape";
import type { StoredCalculation, EmissionPoint, Facility, InventoryReview } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { isApproved, STATUS_LABELS } from "./review";
import { coefficientFlags } from "../reference/coefficients";
import { REGISTRY, isCalculationType } from "@core/registry";
import {
  CHECKED_FLAGS,
  INVENTORY_TYPES,
  addSums,
  inventorySumsOf,
  ipccOfItem,
  pointOfUnit,
  sourceUnitOf,
  yearFigures,
  type InventorySums,
  type YearFigures,
} from "./sums";
import { COMMENTS_PER_YEAR } from "./comments";
import { co2Equivalent } from "@core/gwp-in-force";
import { BALANCE_TYPES } from "@core/methane-balance";
import { acceptedMonthChanged } from "@core/monitoring";
import {
  IPCC_CODES,
  ORDER_371_CATEGORIES,
  duplicateOrder,
  inventorySourceOf,
  leftOutReason,
  russianPlural,
  takesPoint,
  type Order371Category,
} from "@core/inventory";
import {
  coverageDifference,
  coverageOf,
  coveredPeriods,
  effectivePeriod,
  outsideService,
  periodText,
  periodsOverlap,
  yearGaps,
  type SourcePeriod,
} from "@core/source-periods";
import { LIMITS } from "../../contract/schemas/limits";

export type CheckLevel = "error" | "warning" | "info";
export interface InventoryCheck {
  level: CheckLevel;
  code: string;
  message: string;
  /** At most NAMED of the calculations it concerns. */
  calculations: string[];
  /** How many calculations it concerns, when it stands for a list. */
  count?: number;
  /** The list's key: v1/inventory/calculations?check= pages them all. */
  list?: string;
}

/** How many calculations a check names at most (9.1); its list has the rest. */
export const NAMED = LIMITS.inventory.checkNames;

/** A calculation a check names, as the screen opens it. */
export interface CheckedCalculation {
  id: string;
  name: string;
  type: string;
  project: { id: string; name: string };
}

export const NO_FACILITY_NAME = "Без площадки";

export interface CheckScope {
  company: string;
  year: number;
  facility?: string;
  gwp: { gwp_ch4: number; name: string };
  review: InventoryReview;
  facilities: readonly Facility[];
  /** D25: the company's emission points (their names and kinds). */
  points: readonly EmissionPoint[];
  projects: readonly Project[];
  /** The kept sums as stored: the coverage the checks read holds the standing duplicates too. */
  sums: ReadonlyMap<string, InventorySums>;
  figures: YearFigures;
  /** D43: the year's standing duplicates (duplicateScan). */
  duplicates: DuplicateScan;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const calculationsWord = (n: number) => `${new Intl.NumberFormat("ru-RU").format(n)} ${russianPlural(n, "расчет", "расчета", "расчетов")}`;
/** «А», «Б» и еще 1 998: the names a check shows of `count`. */
const namesOf = (names: readonly string[], count: number) =>
  names.join(", ") + (count > names.length ? ` и еще ${new Intl.NumberFormat("ru-RU").format(count - names.length)}` : "");

/** Notes a calculation a check names, with its project. */
type NameCalculation = (calculation: StoredCalculation, project: Project) => void;

/** The year's checks, in the order the inventory lists them, and the calculations they name. */
export async function inventoryChecks(deps: Deps, scope: CheckScope): Promise<{ checks: InventoryCheck[]; named: CheckedCalculation[] }> {
  const named = new Map<string, CheckedCalculation>();
  const name: NameCalculation = (calculation, project) =>
    named.set(calculation.id, {
      id: calculation.id,
      name: calculation.name,
      type: calculation.type,
      project: { id: project.id, name: project.name },
    });
  const ofYear = projectsOf(scope, scope.year);
  const checks = [
    ...(await reviewChecks(deps, scope)),
    ...(await flaggedCoefficients(deps, scope, ofYear, name)),
    ...(await sourcePeriods(scope, ofYear, name)),
    ...otherGwp(scope, ofYear),
    ...(await missingSinceLastYear(deps, scope, ofYear)),
    ...(await jumpsSinceLastYear(deps, scope)),
    ...leftOut(scope),
    ...withoutFacility(scope, ofYear),
    ...(await balanceChecks(deps, scope, ofYear, name)),
    ...(await damagedChecks(deps, scope, ofYear, named)),
    ...(await readingsChanges(deps, scope, name)),
  ];
  return { checks, named: [...named.values()] };
}

const tonnes = (t: number) => t.toLocaleString("ru-RU", { maximumFractionDigits: 3 });

/** D63: each month of the year accepted from the mine's readings that the readings have moved since by
 *  more than 0,1 % (the consumer keeps what they give now on the acceptance, monitoring/minutes/accepted-changes.ts),
 *  named by its point and month; its calculation keeps what was accepted, and an approved year's
 *  figures stay as approved (D32). */
async function readingsChanges(deps: Deps, scope: CheckScope, name: NameCalculation): Promise<InventoryCheck[]> {
  const facilities = scope.facility ? [scope.facility] : scope.facilities.map((f) => f.id);
  const names = new Map(scope.points.map((p) => [p.id, p.name]));
  const approved = isApproved(scope.review);
  const checks: InventoryCheck[] = [];
  for (const facility of facilities) {
    const accepted = await deps.repos.monitoring.acceptances(scope.company, facility);
    for (const a of accepted.filter((a) => a.month.startsWith(`${scope.year}-`)).sort((x, y) => x.month.localeCompare(y.month))) {
      if (a.now_ch4_t === undefined || !acceptedMonthChanged(a.ch4_t, a.now_ch4_t)) continue;
      const difference =
        a.ch4_t === 0
          ? ""
          : ` (${a.now_ch4_t > a.ch4_t ? "+" : ""}${((100 * (a.now_ch4_t - a.ch4_t)) / a.ch4_t).toLocaleString("ru-RU", { maximumFractionDigits: 2 })} %)`;
      // The calculation accepted (a measured «underground» one), linked from the check while it exists.
      const calculation = await deps.repos.calculations.get(scope.company, "underground", a.calculation);
      const project = scope.projects.find((p) => p.id === a.project);
      if (calculation && project) name(calculation, project);
      checks.push({
        level: "warning",
        code: "telemetry_changed",
        message:
          `Данные АГК изменились после принятия: «${names.get(a.point) ?? "источник выбросов"}», ${a.month.slice(5)}.${a.month.slice(0, 4)} — ` +
          `принято ${tonnes(a.ch4_t)} т CH4, по показаниям сейчас ${tonnes(a.now_ch4_t)} т${difference}; ` +
          (approved
            ? "год утвержден: его показатели не меняются, месяц примут заново после того, как год откроют для изменений"
            : "принятый расчет не изменен: проверьте показания и примите месяц заново на странице «Данные АГК» (с причиной)"),
        calculations: [a.calculation],
      });
    }
  }
  return checks;
}

/** The projects of `year` that are not archived (of the scope's facility when given). */
const projectsOf = (scope: CheckScope, year: number) =>
  scope.projects.filter((p) => !p.is_deleted && p.reporting_year === year && (!scope.facility || p.facility === scope.facility));

/** The keys of the projects' sums that start with `prefix`, without it, with the project. */
const keysOf = (scope: CheckScope, projects: readonly Project[], prefix: string) => keysIn(scope.sums, projects, prefix);

function* keysIn(
  sums: ReadonlyMap<string, InventorySums>,
  projects: readonly Project[],
  prefix: string,
): Generator<[string, number, Project]> {
  for (const project of projects) {
    for (const [key, value] of Object.entries(sums.get(project.id) ?? {})) {
      if (value !== 0 && key.startsWith(prefix)) yield [key.slice(prefix.length), value, project];
    }
  }
}

const facilityNameOf = (scope: CheckScope, id: string | null) => scope.facilities.find((f) => f.id === id)?.name ?? NO_FACILITY_NAME;

/** D20: after approval nothing reaches the year (freeze.ts) but an administrator's dictionary
 *  change (a GWP set re-dated): the live total is compared with the approved version's. */
async function reviewChecks(deps: Deps, scope: CheckScope): Promise<InventoryCheck[]> {
  const { review } = scope;
  if (!isApproved(review) || !review.snapshot) return [];
  const version = await deps.repos.inventoryVersions.get(review.company, review.year, review.snapshot.version);
  if (!version) return [];
  const total = scope.figures.total_t_co2e;
  const approved = scope.facility ? (version.facilities.find((f) => f.id === scope.facility)?.t_co2e ?? 0) : version.total_t_co2e;
  if (Math.abs(approved - total) <= 1e-9 * Math.max(1, Math.abs(approved))) return [];
  const t = (value: number) => `${new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 2 }).format(value)} т CO2-экв.`;
  return [
    {
      level: "error",
      code: "changed_after_approval",
      message:
        `Изменено после утверждения (статус «${STATUS_LABELS[review.status]}»): итог сейчас ${t(total)}, в утвержденной версии ` +
        `${version.version} — ${t(approved)} (например, изменен справочник ПГП). Отчет печатает утвержденную версию; ` +
        "чтобы учесть изменение, откройте год для изменений и утвердите заново",
      calculations: [],
    },
  ];
}

const FLAG_CHECKS: Record<(typeof CHECKED_FLAGS)[number], { level: CheckLevel; what: string; note?: string }> = {
  custom_without_justification: { level: "warning", what: "с фактическим значением коэффициента без обоснования" },
  custom_out_of_range: { level: "warning", what: "с фактическим значением коэффициента вне правдоподобного диапазона" },
  custom_without_uncertainty: {
    level: "info",
    what: "с собственным коэффициентом без неопределенности",
    note: "применена неопределенность поля справочника",
  },
};

const isCheckedFlag = (code: string): code is (typeof CHECKED_FLAGS)[number] => (CHECKED_FLAGS as readonly string[]).includes(code);

/** How many of a project's calculations of one type a flag check reads to find the ones it names. */
const NAMING_READ = 50;

/** D10: the mine's own values a verifier will ask about, one check per facility and kind with the
 *  count the sums keep (9.1); to name a few, the first calculations of each project and type that
 *  has them are read, one call each, however many there are. */
async function flaggedCoefficients(
  deps: Deps,
  scope: CheckScope,
  ofYear: readonly Project[],
  name: NameCalculation,
): Promise<InventoryCheck[]> {
  // flag|facility → how many, and the projects and types that have them.
  const flagged = new Map<string, { count: number; of: Array<{ project: Project; type: string }> }>();
  for (const [key, n, project] of keysOf(scope, ofYear, "f:")) {
    const [flag, type] = key.split("|");
    const group = `${flag}|${project.facility || ""}`;
    const into = flagged.get(group) ?? flagged.set(group, { count: 0, of: [] }).get(group)!;
    into.count += n;
    into.of.push({ project, type });
  }
  const order = [...scope.facilities].sort((a, b) => a.name.localeCompare(b.name, "ru")).map((f) => f.id);
  const rankOf = (facility: string) => (facility ? order.indexOf(facility) + 1 || order.length + 1 : order.length + 2);
  const groups = [...flagged.keys()]
    .map((key) => ({ key, flag: key.slice(0, key.indexOf("|")), facility: key.slice(key.indexOf("|") + 1) }))
    .filter((g): g is typeof g & { flag: (typeof CHECKED_FLAGS)[number] } => isCheckedFlag(g.flag))
    .sort((a, b) => rankOf(a.facility) - rankOf(b.facility) || CHECKED_FLAGS.indexOf(a.flag) - CHECKED_FLAGS.indexOf(b.flag));
  // One read per project and type, shared by the flags.
  const reads = new Map<string, Promise<StoredCalculation[]>>();
  const firstOf = (project: Project, type: string) => {
    const key = `${project.id}|${type}`;
    return reads.get(key) ?? reads.set(key, deps.repos.calculations.firstOfProject(scope.company, project.id, type, NAMING_READ)).get(key)!;
  };
  return Promise.all(
    groups.map(async ({ key, flag, facility }) => {
      const { count, of } = flagged.get(key)!;
      const shown: Array<{ calculation: StoredCalculation; project: Project }> = [];
      for (const { project, type } of of) {
        for (const calculation of await firstOf(project, type)) {
          if (shown.length < NAMED && isCounted(calculation, project) && hasFlag(calculation, flag)) shown.push({ calculation, project });
        }
      }
      for (const { calculation, project } of shown) name(calculation, project);
      const { level, what, note } = FLAG_CHECKS[flag];
      const names = shown.map(({ calculation }) => `«${calculation.name}»`);
      return {
        level,
        code: flag,
        message:
          `${facilityNameOf(scope, facility || null)}: ${calculationsWord(count)} ${what}` +
          `${names.length > 0 ? ` — ${namesOf(names, count)}` : ""}${note ? `; ${note}` : ""}`,
        calculations: shown.map(({ calculation }) => calculation.id),
        count,
        list: `${flag}|${facility}`,
      };
    }),
  );
}

/** Whether the calculation has a coefficient with `flag` (D10). */
const hasFlag = (calculation: StoredCalculation, flag: string) =>
  isCalculationType(calculation.type) &&
  coefficientFlags(REGISTRY[calculation.type], calculation.coefficients).some((f) => f.startsWith(`${flag}:`));

/** Whether its year's total counts it (D18). */
const isCounted = (calculation: StoredCalculation, project: Project) =>
  !leftOutReason(
    { ...calculation, reporting_year: project.reporting_year, facility: project.facility || null },
    { year: project.reporting_year },
  );

/** The year's coverage per source `group|unit|ipcc|gas` (D19, D25) from the kept sums' coverage
 *  differences: which sources' counted calculations overlap, which points' days meet those of
 *  their facility as a whole, and which sources cover one another's days. */
function sourceCoverage(
  points: readonly EmissionPoint[],
  sums: ReadonlyMap<string, InventorySums>,
  ofYear: readonly Project[],
): {
  coverage: Map<string, { project: Project; differences: Record<string, number> }>;
  related: Map<string, string[]>;
  overlapping: Set<string>;
  clashing: Set<string>;
} {
  const read = unitReader(points);
  const coverage = new Map<string, { project: Project; differences: Record<string, number> }>();
  const addTo = (project: Project, source: string, differences: Record<string, number>, times: number) => {
    const [unit, ipcc, gases] = source.split("|");
    for (const gas of gases.split(",")) {
      const key = `${sourceGroupOf(project)}|${read(unit)}|${ipcc}|${gas}`;
      const into = coverage.get(key) ?? coverage.set(key, { project, differences: {} }).get(key)!;
      for (const [day, n] of Object.entries(differences)) into.differences[day] = (into.differences[day] ?? 0) + n * times;
    }
  };
  for (const [key, n, project] of keysIn(sums, ofYear, "d:")) {
    const at = key.lastIndexOf("|");
    addTo(project, key.slice(0, at), { [key.slice(at + 1)]: 1 }, n);
  }
  for (const [source, n, project] of keysIn(sums, ofYear, "d0:")) {
    addTo(project, source, coverageDifference(effectivePeriod(undefined, project)), n);
  }
  const overlapping = new Set<string>();
  /** Point keys whose days meet those of their facility as a whole. */
  const clashing = new Set<string>();
  const wholeOf = (key: string) => {
    const [group, unit, ipcc, gas] = key.split("|");
    const { point, base } = pointOfUnit(unit);
    return point ? `${group}|${base}|${ipcc}|${gas}` : undefined;
  };
  const related = new Map<string, string[]>();
  for (const key of coverage.keys()) {
    if (coverageOf(coverage.get(key)!.differences).overlaps) overlapping.add(key);
    const whole = wholeOf(key);
    if (!whole || !coverage.has(whole)) continue;
    related.set(key, [...(related.get(key) ?? []), whole]);
    related.set(whole, [...(related.get(whole) ?? []), key]);
    const days = (k: string) => coverageOf(coverage.get(k)!.differences).covered;
    if (days(key).some((a) => days(whole).some((b) => periodsOverlap(a, b)))) clashing.add(key);
  }
  return { coverage, related, overlapping, clashing };
}

/** D19, D43: the year's standing duplicates, read from the kept coverage: the counted calculations
 *  of the sources that overlap (read only when some do), and those the totals leave out while the
 *  duplicate stands, each with the one counted in its place. */
export interface DuplicateScan {
  readonly counted: ReadonlyArray<{ calculation: StoredCalculation; project: Project }>;
  readonly overlapping: ReadonlySet<string>;
  readonly clashing: ReadonlySet<string>;
  readonly leftOut: ReadonlyMap<string, { calculation: StoredCalculation; project: Project; kept: StoredCalculation }>;
}

export async function duplicateScan(
  deps: Deps,
  company: string,
  points: readonly EmissionPoint[],
  sums: ReadonlyMap<string, InventorySums>,
  ofYear: readonly Project[],
): Promise<DuplicateScan> {
  const { overlapping, clashing } = sourceCoverage(points, sums, ofYear);
  if (overlapping.size === 0 && clashing.size === 0) return { counted: [], overlapping, clashing, leftOut: new Map() };
  const all = [...overlapping, ...clashing];
  const groups = new Set(all.map((key) => key.slice(0, key.indexOf("|"))));
  const codes = new Set(all.map((key) => key.split("|")[2]));
  const projects = ofYear.filter((p) => groups.has(sourceGroupOf(p)));
  const counted = await countedCalculationsOf(deps, company, projects, typesMaking(codes));
  const read = unitReader(points);
  // D43: within each source, the higher tier (then the one stored first) counts; a calculation whose
  // days meet one already counted is left out, so what counts never overlaps.
  const contested = [
    ...[...overlappingBySource(counted, read, (key) => overlapping.has(key)).values()].map((s) => s.entries),
    ...[...wholeClashes(counted, read, (key) => clashing.has(key)).values()].map((c) => [...c.whole, ...c.measured]),
  ];
  // Two measured points are two sources; a figure of the whole mine (no point) is every point's.
  const pointOf = (c: StoredCalculation) =>
    pointOfUnit(read(sourceUnitOf(c.type, ipccOfItem(c.type, c.coefficients), c.coefficients, c.point))).point;
  const oneSource = (a: StoredCalculation, b: StoredCalculation) => !pointOf(a) || !pointOf(b) || pointOf(a) === pointOf(b);
  const leftOut = new Map<string, { calculation: StoredCalculation; project: Project; kept: StoredCalculation }>();
  for (const entries of contested) {
    const kept: Array<{ calculation: StoredCalculation; days: SourcePeriod[] }> = [];
    for (const entry of [...entries].sort((a, b) => duplicateOrder(a.calculation, b.calculation))) {
      if (leftOut.has(entry.calculation.id)) continue;
      const days = coveredPeriods(entry.calculation, entry.project);
      const meets = kept.find(
        (k) =>
          k.calculation.id !== entry.calculation.id &&
          oneSource(k.calculation, entry.calculation) &&
          k.days.some((a) => days.some((b) => periodsOverlap(a, b))),
      );
      if (meets) leftOut.set(entry.calculation.id, { calculation: entry.calculation, project: entry.project, kept: meets.calculation });
      else if (!kept.some((k) => k.calculation.id === entry.calculation.id)) kept.push({ calculation: entry.calculation, days });
    }
  }
  return { counted, overlapping, clashing, leftOut };
}

/** D43: the projects' sums without the standing duplicates the totals leave out (each counted as
 *  left out), so every figure read from them counts the source once. */
export function sumsWithoutDuplicates(
  sums: ReadonlyMap<string, InventorySums>,
  scan: Pick<DuplicateScan, "leftOut">,
): ReadonlyMap<string, InventorySums> {
  if (scan.leftOut.size === 0) return sums;
  const without = new Map([...sums.entries()].map(([project, own]) => [project, { ...own }]));
  for (const { calculation, project } of scan.leftOut.values()) {
    const part = inventorySumsOf(calculation);
    const own = without.get(project.id);
    if (!part || !own) continue;
    addSums(own, part.sums, -1);
    own["n:duplicate"] = (own["n:duplicate"] ?? 0) + 1;
  }
  return without;
}

/** D19, D25: a source (facility, emission point, IPCC code, gas; a project without a facility is
 *  its own) is counted once: two counted calculations of one point whose periods overlap count it
 *  twice, whatever their types, and so does a calculation of the whole facility (an estimate from
 *  production, a measurement of «Шахта в целом») beside a measured point of the same code and gas;
 *  the days of the year none covers are a gap. The kept coverage tells both; the calculations are
 *  read only to name the ones that overlap. */
async function sourcePeriods(scope: CheckScope, ofYear: readonly Project[], name: NameCalculation): Promise<InventoryCheck[]> {
  const groupOf = sourceGroupOf;
  const where = (project: Project) =>
    project.facility ? facilityNameOf(scope, project.facility) : `Проект «${project.name}» (без площадки)`;
  const { coverage, related } = sourceCoverage(scope.points, scope.sums, ofYear);
  const gaps = new Map<string, { project: Project; ipcc: string; point?: EmissionPoint; gaps: SourcePeriod[]; gases: string[] }>();
  for (const key of [...coverage.keys()].sort()) {
    const { project, differences } = coverage.get(key)!;
    const [, unit, ipcc, gas] = key.split("|");
    const point = pointNamed(scope.points, pointOfUnit(unit).point);
    // An archived point has stopped: no gap is asked of it.
    if (point?.is_active === false) continue;
    // A point's days and those of its facility as a whole cover one another's (a clash aside).
    const all = { ...differences };
    for (const other of related.get(key) ?? []) {
      for (const [day, n] of Object.entries(coverage.get(other)!.differences)) all[day] = (all[day] ?? 0) + n;
    }
    // D25: the days a point was not in service ask for no calculation.
    const uncovered = yearGaps(scope.year, [...coverageOf(all).covered, ...outsideService(point?.in_service_from, point?.in_service_to)]);
    if (uncovered.length === 0) continue;
    const gapKey = `${groupOf(project)}|${point?.id ?? ""}|${ipcc}|${uncovered.map(periodText).join(",")}`;
    const gap = gaps.get(gapKey) ?? gaps.set(gapKey, { project, ipcc, point, gaps: uncovered, gases: [] }).get(gapKey)!;
    if (!gap.gases.includes(gas)) gap.gases.push(gas);
  }

  const checks = duplicates(scope, where, name);
  for (const { project, ipcc, point, gaps: uncovered, gases } of gaps.values()) {
    checks.push({
      level: "warning",
      code: "source_period_gap",
      message:
        `${where(project)}${point ? `, источник «${point.name}»` : ""}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gases.join(", ")}: ` +
        `расчеты не покрывают часть ${scope.year} года — ` +
        `${uncovered.map(periodText).join(", ")}; добавьте расчет за этот период или проверьте периоды расчетов`,
      calculations: [],
    });
  }
  return checks;
}

/** D19: a source's group, a facility or, for a project without one, the project itself. */
const sourceGroupOf = (project: Project) => project.facility || `project:${project.id}`;

const pointNamed = (points: readonly EmissionPoint[], id: string | undefined) => (id ? points.find((p) => p.id === id) : undefined);

/** D25: a source unit as the checks read it: a point of kind «Шахта в целом» (or one no longer
 *  stored) is the facility as a whole, as a calculation without a point is. */
function unitReader(points: readonly EmissionPoint[]): (unit: string) => string {
  const byId = new Map(points.map((p) => [p.id, p]));
  return (unit) => {
    const { point, base } = pointOfUnit(unit);
    if (!point) return unit;
    const found = byId.get(point);
    return !found || found.kind === "whole_mine" ? base : unit;
  };
}

/** «Оценка по добыче» (01.01.2024–31.12.2024). */
const entryText = (e: SourceEntry) => `«${e.calculation.name}» (${periodText(e.period)})`;

/** One check per source (group, unit, code) behind the overlapping coverage, with how many of its
 *  counted calculations overlap another (9.1), and one per point whose days meet those of its
 *  facility as a whole; read from the projects of those sources only and the types that can make
 *  their codes. The advice never has a legitimate source made an alternative: two points are two
 *  sources, and a measurement made for the whole mine is told to name its point. */
function duplicates(scope: CheckScope, where: (project: Project) => string, name: NameCalculation): InventoryCheck[] {
  const { counted, leftOut } = scope.duplicates;
  // The scan is the company's year; a facility's inventory names its own sources.
  const groups = new Set(projectsOf(scope, scope.year).map(sourceGroupOf));
  const ours = (key: string) => groups.has(key.slice(0, key.indexOf("|")));
  const overlapping = new Set([...scope.duplicates.overlapping].filter(ours));
  const clashing = new Set([...scope.duplicates.clashing].filter(ours));
  if (overlapping.size === 0 && clashing.size === 0) return [];
  const read = unitReader(scope.points);
  const sources = overlappingBySource(counted, read, (key) => overlapping.has(key));
  /** D43: what the total leaves out of these entries while the duplicate stands. */
  const leftOutText = (entries: readonly SourceEntry[]) => {
    const out = entries.filter((e) => leftOut.has(e.calculation.id));
    return out.length === 0
      ? ""
      : ` Пока дубликат не устранен, в итог входит «${leftOut.get(out[0].calculation.id)!.kept.name}», не учтен${out.length > 1 ? "ы" : ""}: ` +
          `${out
            .slice(0, NAMED)
            .map((e) => `«${e.calculation.name}» (${leftOutDifference(scope, e.calculation)})`)
            .join(", ")}${out.length > NAMED ? ` и еще ${calculationsWord(out.length - NAMED)}` : ""}.`;
  };
  const checks = [...sources.keys()].sort().map((key) => {
    const { gases, entries } = sources.get(key)!;
    const [, unit, ipcc] = key.split("|");
    const point = pointNamed(scope.points, pointOfUnit(unit).point);
    const shown = entries.slice(0, NAMED);
    for (const e of shown) name(e.calculation, e.project);
    const measured = entries.some((e) => takesPoint(e.calculation.type));
    const advice = point
      ? "у одного источника периоды расчетов не пересекаются: разделите их периоды или отправьте лишний расчет в архив " +
        "(проверочный расчет того же замера другим методом отметьте как альтернативный)"
      : measured
        ? (entries[0].project.facility
            ? "если это разные источники выбросов шахты (например, вентиляционный ствол и дегазационная установка), " +
              "укажите в каждом расчете его источник выбросов — источники добавляют на странице площадки"
            : "если это разные источники выбросов (например, вентиляционный ствол и дегазационная установка), " +
              "укажите площадку проекта и в каждом расчете его источник выбросов") +
          "; если один расчет повторяет другой, разделите их периоды или отправьте лишний в архив"
        : "если один расчет повторяет другой, разделите их периоды или отправьте лишний в архив " +
          "(проверочный расчет того же источника другим методом отметьте как альтернативный)";
    return {
      level: "error" as const,
      code: "primary_duplicate",
      message:
        `${where(entries[0].project)}${point ? `, источник «${point.name}»` : ""}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gases.join(", ")}: ` +
        `источник учтен дважды — ${calculationsWord(entries.length)} с пересекающимися периодами: ` +
        `${namesOf(shown.map(entryText), entries.length)}; ${advice}.${leftOutText(entries)}`,
      calculations: shown.map((e) => e.calculation.id),
      count: entries.length,
      list: `primary_duplicate|${key}`,
    };
  });
  const clashes = wholeClashes(counted, read, (key) => clashing.has(key));
  for (const key of [...clashes.keys()].sort()) {
    const { gases, whole, measured, points } = clashes.get(key)!;
    const [, , ipcc] = key.split("|");
    const names = [...points].map((id) => `«${pointNamed(scope.points, id)?.name ?? ""}»`);
    const wholeShown = whole.slice(0, NAMED - 1);
    const measuredShown = measured.slice(0, NAMED - wholeShown.length);
    const shown = [...wholeShown, ...measuredShown];
    for (const e of shown) name(e.calculation, e.project);
    const estimate = whole.every((e) => !takesPoint(e.calculation.type));
    checks.push({
      level: "error",
      code: "primary_duplicate",
      message:
        `${where(whole[0].project)}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gases.join(", ")}: источник учтен дважды — ` +
        `${namesOf(wholeShown.map(entryText), whole.length)} ${whole.length === 1 ? "охватывает" : "охватывают"} всю шахту` +
        `${estimate ? " (оценка по добыче угля)" : " (расчет по шахте в целом)"}, в том числе ` +
        `${names.length === 1 ? "источник" : "источники"} ${names.join(", ")}, ${names.length === 1 ? "измеренный" : "измеренные"} отдельно: ` +
        `${namesOf(measuredShown.map(entryText), measured.length)}. ` +
        (estimate
          ? "Оставьте основными либо измерения по источникам шахты, либо оценку всей шахты (другое отметьте как альтернативный, " +
            "проверочный расчет), или разделите их периоды"
          : "Укажите в расчете по шахте в целом его источник выбросов (например, вентиляционный ствол или дегазационную установку) " +
            "или разделите их периоды") +
        `.${leftOutText([...whole, ...measured])}`,
      calculations: shown.map((e) => e.calculation.id),
      count: whole.length + measured.length,
      list: `primary_duplicate_whole|${key}`,
    });
  }
  return checks;
}

/** D43: what a calculation left out as a duplicate would add to the total, at the year's GWP. */
function leftOutDifference(scope: CheckScope, calculation: StoredCalculation): string {
  const t = inventorySourceOf(calculation.type)!.gases.reduce((sum, { gas, result }) => {
    const value = calculation.results[result];
    return sum + co2Equivalent(gas, typeof value === "number" && Number.isFinite(value) ? value : 0, scope.gwp.gwp_ch4);
  }, 0);
  return `+${t.toLocaleString("ru-RU", { maximumFractionDigits: 2 })} т CO2-экв., если учесть`;
}

interface SourceEntry {
  calculation: StoredCalculation;
  project: Project;
  period: SourcePeriod;
}

/** By period, then name, as the inventory's list of calculations orders them. */
const byPeriodAndName = (x: SourceEntry, y: SourceEntry) =>
  x.period.from.localeCompare(y.period.from) ||
  x.calculation.name.localeCompare(y.calculation.name, "ru") ||
  x.calculation.id.localeCompare(y.calculation.id);

/** The source keys `group|unit|ipcc|gas` of a counted calculation, its unit as `read` reads it. */
function* sourceKeysOf(calculation: StoredCalculation, project: Project, read: (unit: string) => string): Generator<[string, string]> {
  const ipcc = ipccOfItem(calculation.type, calculation.coefficients);
  const unit = read(sourceUnitOf(calculation.type, ipcc, calculation.coefficients, calculation.point));
  for (const { gas } of inventorySourceOf(calculation.type)!.gases) yield [`${sourceGroupOf(project)}|${unit}|${ipcc}|${gas}`, gas];
}

/** D19 per source `group|unit|ipcc` (of the gases `wanted` takes, by `group|unit|ipcc|gas`): the
 *  counted calculations that overlap another of the same source, with the gases in which they do.
 *  Sorted by start, one sweep: a calculation overlaps one before it exactly when it starts by the
 *  latest end so far, and then so does the one that ends latest; O(N log N), never every pair. */
function overlappingBySource(
  counted: ReadonlyArray<{ calculation: StoredCalculation; project: Project }>,
  read: (unit: string) => string,
  wanted: (key: string) => boolean,
): Map<string, { gases: string[]; entries: SourceEntry[] }> {
  const bySource = new Map<string, SourceEntry[]>();
  for (const { calculation, project } of counted) {
    for (const [key] of sourceKeysOf(calculation, project, read)) {
      if (!wanted(key)) continue;
      const entries = bySource.get(key) ?? bySource.set(key, []).get(key)!;
      // D42: each covered period of a measured calculation apart, so its gaps overlap nothing.
      for (const period of coveredPeriods(calculation, project)) entries.push({ calculation, project, period });
    }
  }
  const sources = new Map<string, { gases: string[]; found: Map<string, SourceEntry> }>();
  for (const key of [...bySource.keys()].sort()) {
    const entries = bySource.get(key)!.sort((x, y) => x.period.from.localeCompare(y.period.from));
    const found = new Set<SourceEntry>();
    let latest: SourceEntry | undefined;
    for (const entry of entries) {
      if (latest && entry.period.from <= latest.period.to) {
        found.add(latest);
        found.add(entry);
      }
      if (!latest || entry.period.to > latest.period.to) latest = entry;
    }
    if (found.size === 0) continue;
    const at = key.lastIndexOf("|");
    const source = key.slice(0, at);
    const into = sources.get(source) ?? sources.set(source, { gases: [], found: new Map() }).get(source)!;
    into.gases.push(key.slice(at + 1));
    for (const entry of found) into.found.set(entry.calculation.id, entry);
  }
  return new Map(
    [...sources.entries()].map(([source, { gases, found }]) => [source, { gases, entries: [...found.values()].sort(byPeriodAndName) }]),
  );
}

/** D25 per source of the facility as a whole `group|unit|ipcc` (its points' keys `wanted` takes):
 *  the counted calculations of the whole facility and those of its points whose periods meet, and
 *  those points. Per point, one sweep by start keeping the latest end of each side: an entry meets
 *  the other side exactly when it starts by that side's latest end, and then so does the entry
 *  that ends it; O(N log N). */
function wholeClashes(
  counted: ReadonlyArray<{ calculation: StoredCalculation; project: Project }>,
  read: (unit: string) => string,
  wanted: (pointKey: string) => boolean,
): Map<string, { gases: string[]; whole: SourceEntry[]; measured: SourceEntry[]; points: Set<string> }> {
  const wholeByKey = new Map<string, SourceEntry[]>();
  const pointKeys = new Map<string, SourceEntry[]>();
  for (const { calculation, project } of counted) {
    for (const [key] of sourceKeysOf(calculation, project, read)) {
      const [, unit] = key.split("|");
      const into = pointOfUnit(unit).point ? (wanted(key) ? pointKeys : undefined) : wholeByKey;
      if (!into) continue;
      const entries = into.get(key) ?? into.set(key, []).get(key)!;
      for (const period of coveredPeriods(calculation, project)) entries.push({ calculation, project, period });
    }
  }
  const sources = new Map<
    string,
    { gases: Set<string>; whole: Map<string, SourceEntry>; measured: Map<string, SourceEntry>; points: Set<string> }
  >();
  for (const key of [...pointKeys.keys()].sort()) {
    const [group, unit, ipcc, gas] = key.split("|");
    const { point, base } = pointOfUnit(unit);
    const whole = wholeByKey.get(`${group}|${base}|${ipcc}|${gas}`) ?? [];
    const entries = [
      ...whole.map((entry) => ({ entry, side: 0 as const })),
      ...pointKeys.get(key)!.map((entry) => ({ entry, side: 1 as const })),
    ].sort((x, y) => x.entry.period.from.localeCompare(y.entry.period.from));
    const latest: [SourceEntry | undefined, SourceEntry | undefined] = [undefined, undefined];
    const found = [new Set<SourceEntry>(), new Set<SourceEntry>()];
    for (const { entry, side } of entries) {
      const other = latest[1 - side];
      if (other && entry.period.from <= other.period.to) {
        found[side].add(entry);
        found[1 - side].add(other);
      }
      const own = latest[side];
      if (!own || entry.period.to > own.period.to) latest[side] = entry;
    }
    if (found[0].size === 0) continue;
    const source = `${group}|${base}|${ipcc}`;
    const into =
      sources.get(source) ??
      sources.set(source, { gases: new Set(), whole: new Map(), measured: new Map(), points: new Set() }).get(source)!;
    into.gases.add(gas);
    into.points.add(point!);
    for (const entry of found[0]) into.whole.set(entry.calculation.id, entry);
    for (const entry of found[1]) into.measured.set(entry.calculation.id, entry);
  }
  return new Map(
    [...sources.entries()].map(([source, { gases, whole, measured, points }]) => [
      source,
      {
        gases: [...gases],
        whole: [...whole.values()].sort(byPeriodAndName),
        measured: [...measured.values()].sort(byPeriodAndName),
        points,
      },
    ]),
  );
}

/** The calculations behind a check's `list` (v1/inventory/calculations?check=) among the year's
 *  projects `ofYear`: a facility's counted ones with a flagged coefficient, a source's that
 *  overlap another, or the whole facility's and a point's that meet; undefined for a key no check gives. */
export async function calculationsOfCheck(
  deps: Deps,
  company: string,
  ofYear: readonly Project[],
  list: string,
): Promise<Array<{ calculation: StoredCalculation; project: Project }> | undefined> {
  const [code, ...rest] = list.split("|");
  if (isCheckedFlag(code) && rest.length === 1) {
    const projects = ofYear.filter((p) => (p.facility || "") === rest[0]);
    return (await countedCalculationsOf(deps, company, projects, INVENTORY_TYPES)).filter(({ calculation }) => hasFlag(calculation, code));
  }
  if ((code === "primary_duplicate" || code === "primary_duplicate_whole") && rest.length === 3) {
    const source = rest.join("|");
    const projects = ofYear.filter((p) => sourceGroupOf(p) === rest[0]);
    const [counted, points] = await Promise.all([
      countedCalculationsOf(deps, company, projects, typesMaking(new Set([rest[2]]))),
      deps.repos.emissionPoints.listOfCompany(company),
    ]);
    const read = unitReader(points);
    if (code === "primary_duplicate")
      return overlappingBySource(counted, read, (key) => key.startsWith(`${source}|`)).get(source)?.entries ?? [];
    const [group, base, ipcc] = rest;
    const ofSource = (key: string) => {
      const [g, unit, code] = key.split("|");
      return g === group && code === ipcc && pointOfUnit(unit).base === base;
    };
    const clash = wholeClashes(counted, read, ofSource).get(source);
    return clash ? [...clash.whole, ...clash.measured].sort(byPeriodAndName) : [];
  }
  return undefined;
}

/** The calculations of `types` in `projects` (of the year) that their year's total counts: the one
 *  read of calculations the checks make, only to name those behind a problem the sums showed. */
async function countedCalculationsOf(
  deps: Deps,
  company: string,
  projects: readonly Project[],
  types: readonly string[],
): Promise<Array<{ calculation: StoredCalculation; project: Project }>> {
  return (await projectCalculations(deps, company, projects, types)).filter(({ calculation, project }) => isCounted(calculation, project));
}

/** Every active calculation of `types` in `projects`, each with its project. */
export async function projectCalculations(
  deps: Deps,
  company: string,
  projects: readonly Project[],
  types: readonly string[],
): Promise<Array<{ calculation: StoredCalculation; project: Project }>> {
  const read = await Promise.all(
    projects.flatMap((project) =>
      types.map(async (type) =>
        (await deps.repos.calculations.listAllByProject(company, project.id, type, "active")).map((calculation) => ({
          calculation,
          project,
        })),
      ),
    ),
  );
  return read.flat();
}

/** The inventory types whose calculations can make one of `codes`. */
export function typesMaking(codes: ReadonlySet<string>): string[] {
  return INVENTORY_TYPES.filter((type) => {
    const source = inventorySourceOf(type)!;
    return codes.has(source.ipcc) || Object.values(source.ipccByEntry ?? {}).some((code) => codes.has(code));
  });
}

/** D12: the stored CO2-eq of these was computed with another GWP; the inventory uses the year's. */
function otherGwp(scope: CheckScope, ofYear: readonly Project[]): InventoryCheck[] {
  const byValue = new Map<number, number>();
  for (const [value, n] of keysOf(scope, ofYear, "g:")) {
    if (Number(value) !== scope.gwp.gwp_ch4) byValue.set(Number(value), (byValue.get(Number(value)) ?? 0) + n);
  }
  if (byValue.size === 0) return [];
  const count = [...byValue.values()].reduce((a, b) => a + b, 0);
  const values = [...byValue.keys()].sort((a, b) => a - b).map((v) => String(v).replace(".", ","));
  return [
    {
      level: "info",
      code: "gwp_not_in_force",
      message:
        `Рассчитаны с другим ПГП CH4 (${values.join(", ")}): ${calculationsWord(count)}. В инвентаризации ${scope.year} года CH4 пересчитан ` +
        `с ПГП ${scope.gwp.gwp_ch4} (${scope.gwp.name})`,
      calculations: [],
    },
  ];
}

/** A facility with no data this year in a category and gas it reported the year before. */
async function missingSinceLastYear(deps: Deps, scope: CheckScope, ofYear: readonly Project[]): Promise<InventoryCheck[]> {
  const reported = (projects: readonly Project[]) => {
    const keys = new Set<string>();
    for (const [line, , project] of keysOf(scope, projects, "c:")) {
      const [category, , gas] = line.split("|");
      keys.add(`${project.facility || ""}|${category}|${gas}`);
    }
    return keys;
  };
  const now = reported(ofYear);
  const lastYear = projectsOf(scope, scope.year - 1);
  // An archived facility (a mine closed or sold) is expected to have no data any more.
  const archived = new Set(scope.facilities.filter((f) => f.is_active === false).map((f) => f.id));
  const missing = [...reported(lastYear)].filter((key) => !now.has(key) && !archived.has(key.slice(0, key.indexOf("|"))));
  const stopped = await onlyOfArchivedPoints(deps, scope, lastYear, missing);
  return missing
    .filter((key) => !stopped.has(key))
    .sort()
    .map((key) => {
      const [facility, category, gas] = key.split("|");
      return {
        level: "warning" as const,
        code: "missing_since_last_year",
        message:
          `${facilityNameOf(scope, facility || null)}: нет данных за ${scope.year} год по категории ${category} ` +
          `«${ORDER_371_CATEGORIES[Number(category) as Order371Category]}», ${gas}, хотя за ${scope.year - 1} год они были`,
        calculations: [],
      };
    });
}

/** Beyond this share a line's change against the year before asks for a comment. */
export const YEAR_JUMP_SHARE = 0.5;

/** A line of the inventory (IPCC code and gas, its mass of the gas, so a GWP changed between the years
 *  moves nothing) that changed by more than ±50 % against the year before, without a comment: a
 *  comment on the later year cleared it when it is on the line (`category|ipcc_code|gas`) or names
 *  its IPCC code. A line new this year or gone (missing_since_last_year) is no jump. */
async function jumpsSinceLastYear(deps: Deps, scope: CheckScope): Promise<InventoryCheck[]> {
  const before = yearFigures(scope.sums, scope.projects, scope.year - 1, scope.gwp.gwp_ch4, {
    facility: scope.facility,
    points: scope.points,
  });
  const lastYear = new Map(before.lines.map((line) => [`${line.category}|${line.ipcc_code}|${line.gas}`, line.t]));
  const jumps = scope.figures.lines.flatMap((line) => {
    const key = `${line.category}|${line.ipcc_code}|${line.gas}`;
    const was = lastYear.get(key);
    if (!was || was <= 0 || line.t <= 0) return [];
    const change = (line.t - was) / was;
    return Math.abs(change) > YEAR_JUMP_SHARE ? [{ key, line, change }] : [];
  });
  if (jumps.length === 0) return [];
  // Read only when a line jumped: the year's comments (at most COMMENTS_PER_YEAR) and the older ones kept in its review.
  const { results } = await deps.repos.inventoryComments.list(scope.company, scope.year, { limit: COMMENTS_PER_YEAR, offset: 0 });
  const comments = [...results, ...(scope.review.comments ?? [])];
  const explained = (key: string, ipcc: string) => comments.some((c) => c.target === key || (!c.target && c.text.includes(ipcc)));
  const pct = new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 0, signDisplay: "always" });
  return jumps
    .filter(({ key, line }) => !explained(key, line.ipcc_code))
    .map(({ line, change }) => ({
      level: "warning" as const,
      code: "year_jump",
      message:
        `${line.ipcc_code} «${line.ipcc_label}», ${line.gas}: изменение на ${pct.format(change * 100)} % к ${scope.year - 1} году: ` +
        `поясните (комментарий к году с кодом ${line.ipcc_code})`,
      calculations: [],
    }));
}

/** D25: an archived emission point (a flare taken down, a shaft closed) is expected to have no data
 *  any more, as an archived facility is: of last year's lines (facility|category|gas) missing now,
 *  the ones every counted calculation of which belonged to a point archived since. Read only for a
 *  missing line of a facility with an archived point. */
async function onlyOfArchivedPoints(
  deps: Deps,
  scope: CheckScope,
  lastYear: readonly Project[],
  missing: readonly string[],
): Promise<Set<string>> {
  const archivedPoints = new Map(scope.points.filter((p) => p.is_active === false).map((p) => [p.id, p.facility]));
  const withArchived = new Set(archivedPoints.values());
  const asked = missing.filter((key) => withArchived.has(key.slice(0, key.indexOf("|"))));
  if (asked.length === 0) return new Set();
  const categories = new Set(asked.map((key) => key.split("|")[1]));
  const types = INVENTORY_TYPES.filter((type) => categories.has(String(inventorySourceOf(type)!.category)));
  const projects = lastYear.filter((p) => p.facility && withArchived.has(p.facility));
  const still = new Set<string>();
  for (const { calculation, project } of await countedCalculationsOf(deps, scope.company, projects, types)) {
    if (calculation.point && archivedPoints.get(calculation.point) === project.facility) continue;
    const source = inventorySourceOf(calculation.type)!;
    for (const { gas } of source.gases) still.add(`${project.facility}|${source.category}|${gas}`);
  }
  return new Set(asked.filter((key) => !still.has(key)));
}

/** D18: what the total leaves out (their list: v1/inventory/calculations?counted=false). */
function leftOut(scope: CheckScope): InventoryCheck[] {
  if (!scope.figures.not_counted) return [];
  return [
    {
      level: "info",
      code: "alternatives_excluded",
      message: capitalised(scope.figures.not_counted),
      calculations: [],
    },
  ];
}

function withoutFacility(scope: CheckScope, ofYear: readonly Project[]): InventoryCheck[] {
  if (scope.facilities.length === 0) return [];
  const names = [...new Set([...keysOf(scope, ofYear, "c:")].filter(([, , p]) => !p.facility).map(([, , p]) => `«${p.name}»`))];
  if (names.length === 0) return [];
  return [
    {
      level: "warning",
      code: "no_facility",
      message: `Проекты без площадки: ${names.join(", ")}; укажите площадку в проекте`,
      calculations: [],
    },
  ];
}

/** D36, D37: a drainage point cannot send more methane to flares, boilers and engines than its gross
 *  figures say it drained (nor a mine without drainage, whose gas only its ventilation released):
 *  an error naming both figures that blocks sending. The facility's counted calculations of the
 *  balance are read to name them (an error, and rare). */
async function balanceChecks(deps: Deps, scope: CheckScope, ofYear: readonly Project[], name: NameCalculation): Promise<InventoryCheck[]> {
  const format = (t: number) => t.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
  const checks: InventoryCheck[] = [];
  for (const b of scope.figures.balances.filter((balance) => balance.exceeds)) {
    const projects = ofYear.filter((p) => (p.facility || null) === b.facility);
    const involved = await countedCalculationsOf(deps, scope.company, projects, BALANCE_TYPES);
    for (const { calculation, project } of involved.slice(0, NAMED)) name(calculation, project);
    const where = facilityNameOf(scope, b.facility);
    const over = b.by_point.filter((p) => p.exceeds);
    const parts = over.map((p) => {
      const point = pointNamed(scope.points, p.point ?? undefined);
      const drained =
        point?.kind === "drainage_station"
          ? `а каптировано этой установкой (валовый выброс дегазации) ${format(p.gross_t)} т`
          : `а валовый выброс ${point ? "этого источника" : "шахты в целом"} ${format(p.gross_t)} т`;
      return `${point ? `«${point.name}»: ` : ""}на факелы, в котельные и ГПУ направлено ${format(p.sent_t)} т CH4, ${drained}`;
    });
    if (b.unfed_t > 0) {
      parts.push(
        `на факелы, в котельные и ГПУ направлено ${format(b.unfed_t)} т CH4, а каптировано дегазацией 0 т: у площадки нет ` +
          "дегазационной установки с расчетом, газ вентиляционной струи на сжигание не поступает",
      );
    }
    checks.push({
      level: "error",
      code: "destroyed_exceeds_drained",
      message:
        `${where}: уничтожено больше метана, чем каптировано — ${parts.join("; ")}. Проверьте объемы и состав газа факелов и ` +
        "котельных, дегазационные установки, с которых они получают газ, и основу расчета дегазации (валовый — всё каптированное)",
      calculations: involved.slice(0, NAMED).map(({ calculation }) => calculation.id),
    });
  }
  // D37: a drainage point entered net (vented unburnt) whose gas also went to flares, boilers or
  // engines: right only if its meter saw the vented gas alone; a meter of all the drained gas
  // entered net counts the burnt methane twice.
  for (const b of scope.figures.balances) {
    for (const p of b.by_point) {
      const point = pointNamed(scope.points, p.point ?? undefined);
      if (point?.kind !== "drainage_station" || p.net_t <= 0 || p.sent_t <= 0) continue;
      checks.push({
        level: "warning",
        code: "possible_double_count",
        message:
          `${facilityNameOf(scope, b.facility)}, «${point.name}»: дегазация указана как чистый выброс (только выброшенное без сжигания) — ` +
          `${format(p.net_t)} т CH4, а с этой установки на факелы, в котельные и ГПУ направлено ${format(p.sent_t)} т CH4. ` +
          `Валовый ввод (всё каптированное, включая сожженное) дал бы ${format(p.net_t + p.sent_t)} т. Если прибор установки ` +
          "измеряет весь каптированный газ, выберите в расчете основу «валовый», иначе сожженный метан учтен дважды",
        calculations: [],
      });
    }
  }
  return checks;
}

/** A calculation of the wrong shape (domain/calculation-shape.ts) of the year: every read and export
 *  leaves it out, so the year says so, naming it (at most NAMED of them; the rest counted). */
async function damagedChecks(
  deps: Deps,
  scope: CheckScope,
  ofYear: readonly Project[],
  named: Map<string, CheckedCalculation>,
): Promise<InventoryCheck[]> {
  const marks = [...keysOf(scope, ofYear, "x:")].map(([key, , project]) => ({
    type: key.slice(0, key.indexOf("|")),
    id: key.slice(key.indexOf("|") + 1),
    project,
  }));
  const checks: InventoryCheck[] = [];
  for (const { type, id, project } of marks.slice(0, NAMED)) {
    const stored = await deps.repos.calculations.get(scope.company, type, id);
    if (!stored) continue;
    const problem = damageOf(stored) ?? "не в том виде";
    const name = typeof stored.name === "string" ? stored.name : "без названия";
    named.set(id, { id, name, type, project: { id: project.id, name: project.name } });
    checks.push({
      level: "error",
      code: "damaged_calculation",
      message:
        `Расчет «${name}» проекта «${project.name}» поврежден (${problem}): он не входит в инвентаризацию, отчеты и выгрузки. ` +
        "Архивируйте его и введите заново или обратитесь к администратору",
      calculations: [id],
    });
  }
  if (marks.length > NAMED) {
    checks.push({
      level: "error",
      code: "damaged_calculation",
      message: `Повреждены еще ${calculationsWord(marks.length - NAMED)}: список выдает команда администратора damaged-calculations`,
      calculations: [],
      count: marks.length - NAMED,
    });
  }
  return checks;
}
