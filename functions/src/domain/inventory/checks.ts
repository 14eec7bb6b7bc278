// What a verifier would ask about a year's inventory (methodology D10, D12, D17–D20), from the
// projects' kept sums (domain/inventory/sums.ts), so that the checks cost the same at 100 or 10 000
// calculations: the sums say where a problem is; a calculation is read only to name it (a flagged
// coefficient, two calculations that count one source twice, a facility's balance that destroys
// more than it released).
import type { Deps } from "../context";
import type { Calculation, Facility, InventoryReview } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { isFrozen, STATUS_LABELS } from "./review";
import { CHECKED_FLAGS, INVENTORY_TYPES, ipccOfItem, sourceUnitOf, type InventorySums, type YearFigures } from "./sums";
import { IPCC_CODES, ORDER_371_CATEGORIES, inventorySourceOf, leftOutReason, russianPlural, type Order371Category } from "@core/inventory";
import {
  coverageDifference,
  coverageOf,
  effectivePeriod,
  periodText,
  periodsOverlap,
  yearGaps,
  type SourcePeriod,
} from "@core/source-periods";

export type CheckLevel = "error" | "warning" | "info";
export interface InventoryCheck {
  level: CheckLevel;
  code: string;
  message: string;
  calculations: string[];
}

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
  projects: readonly Project[];
  sums: ReadonlyMap<string, InventorySums>;
  figures: YearFigures;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const calculationsWord = (n: number) => `${n} ${russianPlural(n, "расчет", "расчета", "расчетов")}`;

/** The year's checks, in the order the inventory lists them, and the calculations they name. */
export async function inventoryChecks(deps: Deps, scope: CheckScope): Promise<{ checks: InventoryCheck[]; named: CheckedCalculation[] }> {
  const named = new Map<string, CheckedCalculation>();
  const name = (calculation: Calculation, project: Project) =>
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
    ...(await sourcePeriods(deps, scope, ofYear, name)),
    ...otherGwp(scope, ofYear),
    ...missingSinceLastYear(scope, ofYear),
    ...leftOut(scope),
    ...withoutFacility(scope, ofYear),
    ...(await balanceChecks(deps, scope, ofYear, name)),
  ];
  return { checks, named: [...named.values()] };
}

/** The projects of `year` that are not archived (of the scope's facility when given). */
const projectsOf = (scope: CheckScope, year: number) =>
  scope.projects.filter((p) => !p.is_deleted && p.reporting_year === year && (!scope.facility || p.facility === scope.facility));

/** The keys of the projects' sums that start with `prefix`, without it, with the project. */
function* keysOf(scope: CheckScope, projects: readonly Project[], prefix: string): Generator<[string, number, Project]> {
  for (const project of projects) {
    for (const [key, value] of Object.entries(scope.sums.get(project.id) ?? {})) {
      if (value !== 0 && key.startsWith(prefix)) yield [key.slice(prefix.length), value, project];
    }
  }
}

const facilityNameOf = (scope: CheckScope, id: string | null) => scope.facilities.find((f) => f.id === id)?.name ?? NO_FACILITY_NAME;

/** D20: after approval nothing reaches the year (freeze.ts) but an administrator's dictionary
 *  change (a GWP set re-dated): the live total is compared with the approved version's. */
async function reviewChecks(deps: Deps, scope: CheckScope): Promise<InventoryCheck[]> {
  const { review } = scope;
  if (!isFrozen(review) || !review.snapshot) return [];
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

const FLAG_CHECKS: Record<(typeof CHECKED_FLAGS)[number], { level: CheckLevel; text: string }> = {
  custom_without_justification: { level: "warning", text: "фактическое значение коэффициента без обоснования" },
  custom_out_of_range: { level: "warning", text: "фактическое значение коэффициента вне правдоподобного диапазона" },
  custom_without_uncertainty: {
    level: "info",
    text: "неопределенность не указана для фактического значения; применена неопределенность поля справочника",
  },
};

/** D10: the mine's own values a verifier will ask about, one check per calculation and kind. */
async function flaggedCoefficients(
  deps: Deps,
  scope: CheckScope,
  ofYear: readonly Project[],
  name: (calculation: Calculation, project: Project) => void,
): Promise<InventoryCheck[]> {
  const flagged = new Map<string, { type: string; id: string; project: Project; flags: Set<string> }>();
  for (const [key, , project] of keysOf(scope, ofYear, "f:")) {
    const [flag, type, id] = key.split("|");
    const entry = flagged.get(id) ?? flagged.set(id, { type, id, project, flags: new Set() }).get(id)!;
    entry.flags.add(flag);
  }
  const entries = [...flagged.values()].sort((a, b) => a.type.localeCompare(b.type) || a.id.localeCompare(b.id));
  const calculations = await Promise.all(entries.map((e) => deps.repos.calculations.get(scope.company, e.type, e.id)));
  const checks: InventoryCheck[] = [];
  entries.forEach((entry, i) => {
    const calculation = calculations[i];
    if (!calculation) return;
    name(calculation, entry.project);
    for (const flag of CHECKED_FLAGS) {
      if (!entry.flags.has(flag)) continue;
      checks.push({
        level: FLAG_CHECKS[flag].level,
        code: flag,
        message: `Расчет «${calculation.name}»: ${FLAG_CHECKS[flag].text}`,
        calculations: [calculation.id],
      });
    }
  });
  return checks;
}

/** D19: a source (facility, IPCC code, gas; a project without a facility is its own) is counted
 *  once: two counted calculations whose periods overlap count it twice, whatever their types, and
 *  the days of the year none covers are a gap. The kept coverage tells both; the calculations are
 *  read only to name the two that overlap. */
async function sourcePeriods(
  deps: Deps,
  scope: CheckScope,
  ofYear: readonly Project[],
  name: (calculation: Calculation, project: Project) => void,
): Promise<InventoryCheck[]> {
  const groupOf = (project: Project) => project.facility || `project:${project.id}`;
  const where = (project: Project) =>
    project.facility ? facilityNameOf(scope, project.facility) : `Проект «${project.name}» (без площадки)`;
  // Coverage differences per group|unit|ipcc|gas.
  const coverage = new Map<string, { project: Project; differences: Record<string, number> }>();
  const addTo = (project: Project, source: string, differences: Record<string, number>, times: number) => {
    const [unit, ipcc, gases] = source.split("|");
    for (const gas of gases.split(",")) {
      const key = `${groupOf(project)}|${unit}|${ipcc}|${gas}`;
      const into = coverage.get(key) ?? coverage.set(key, { project, differences: {} }).get(key)!;
      for (const [day, n] of Object.entries(differences)) into.differences[day] = (into.differences[day] ?? 0) + n * times;
    }
  };
  for (const [key, n, project] of keysOf(scope, ofYear, "d:")) {
    const at = key.lastIndexOf("|");
    addTo(project, key.slice(0, at), { [key.slice(at + 1)]: 1 }, n);
  }
  for (const [source, n, project] of keysOf(scope, ofYear, "d0:")) {
    addTo(project, source, coverageDifference(effectivePeriod(undefined, project)), n);
  }

  const overlapping = new Set<string>();
  const gaps = new Map<string, { project: Project; ipcc: string; gaps: SourcePeriod[]; gases: string[] }>();
  for (const key of [...coverage.keys()].sort()) {
    const { project, differences } = coverage.get(key)!;
    const [, , ipcc, gas] = key.split("|");
    const { covered, overlaps } = coverageOf(differences);
    if (overlaps) overlapping.add(key);
    const uncovered = yearGaps(scope.year, covered);
    if (uncovered.length === 0) continue;
    const gapKey = `${groupOf(project)}|${ipcc}|${uncovered.map(periodText).join(",")}`;
    const gap = gaps.get(gapKey) ?? gaps.set(gapKey, { project, ipcc, gaps: uncovered, gases: [] }).get(gapKey)!;
    if (!gap.gases.includes(gas)) gap.gases.push(gas);
  }

  const checks = await duplicates(deps, scope, ofYear, overlapping, groupOf, where, name);
  for (const { project, ipcc, gaps: uncovered, gases } of gaps.values()) {
    checks.push({
      level: "warning",
      code: "source_period_gap",
      message:
        `${where(project)}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gases.join(", ")}: расчеты не покрывают часть ${scope.year} года — ` +
        `${uncovered.map(periodText).join(", ")}; добавьте расчет за этот период или проверьте периоды расчетов`,
      calculations: [],
    });
  }
  return checks;
}

/** The pairs of counted calculations behind the overlapping coverage, read from the projects of
 *  those sources only and the types that can make their codes. */
async function duplicates(
  deps: Deps,
  scope: CheckScope,
  ofYear: readonly Project[],
  overlapping: ReadonlySet<string>,
  groupOf: (project: Project) => string,
  where: (project: Project) => string,
  name: (calculation: Calculation, project: Project) => void,
): Promise<InventoryCheck[]> {
  if (overlapping.size === 0) return [];
  const groups = new Set([...overlapping].map((key) => key.slice(0, key.indexOf("|"))));
  const codes = new Set([...overlapping].map((key) => key.split("|")[2]));
  const projects = ofYear.filter((p) => groups.has(groupOf(p)));
  const types = typesMaking(codes);
  const bySource = new Map<string, SourceEntry[]>();
  for (const { calculation, project } of await countedCalculationsOf(deps, scope.company, projects, types)) {
    const ipcc = ipccOfItem(calculation.type, calculation.coefficients);
    const unit = sourceUnitOf(calculation.type, ipcc, calculation.coefficients);
    for (const { gas } of inventorySourceOf(calculation.type)!.gases) {
      const key = `${groupOf(project)}|${unit}|${ipcc}|${gas}`;
      if (!overlapping.has(key)) continue;
      const entries = bySource.get(key) ?? bySource.set(key, []).get(key)!;
      entries.push({ calculation, project, period: effectivePeriod(calculation.period, project) });
    }
  }
  // One check per pair and code, naming the gases they share.
  const pairs = new Map<string, { a: SourceEntry; b: SourceEntry; ipcc: string; gases: string[] }>();
  for (const key of [...bySource.keys()].sort()) {
    const [, , ipcc, gas] = key.split("|");
    const entries = bySource
      .get(key)!
      .sort((x, y) => x.period.from.localeCompare(y.period.from) || x.calculation.id.localeCompare(y.calculation.id));
    entries.forEach((a, i) => {
      for (let j = i + 1; j < entries.length; j++) {
        const b = entries[j];
        // Sorted by start: none after the first that starts past a's end overlaps it.
        if (b.period.from > a.period.to) break;
        if (!periodsOverlap(a.period, b.period)) continue;
        const pairKey = `${ipcc}|${a.calculation.id}|${b.calculation.id}`;
        const pair = pairs.get(pairKey) ?? pairs.set(pairKey, { a, b, ipcc, gases: [] }).get(pairKey)!;
        pair.gases.push(gas);
      }
    });
  }
  return [...pairs.values()].map(({ a, b, ipcc, gases }) => {
    name(a.calculation, a.project);
    name(b.calculation, b.project);
    return {
      level: "error" as const,
      code: "primary_duplicate",
      message:
        `${where(a.project)}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gases.join(", ")}: источник учтен дважды — ` +
        `«${a.calculation.name}» (${periodText(a.period)}) и «${b.calculation.name}» (${periodText(b.period)}); ` +
        "оставьте основным один расчет, другой отметьте как альтернативный, или разделите их периоды",
      calculations: [a.calculation.id, b.calculation.id],
    };
  });
}

interface SourceEntry {
  calculation: Calculation;
  project: Project;
  period: SourcePeriod;
}

/** The calculations of `types` in `projects` (of the year) that their year's total counts: the one
 *  read of calculations the checks make, only to name those behind a problem the sums showed. */
async function countedCalculationsOf(
  deps: Deps,
  company: string,
  projects: readonly Project[],
  types: readonly string[],
): Promise<Array<{ calculation: Calculation; project: Project }>> {
  return (await projectCalculations(deps, company, projects, types)).filter(
    ({ calculation, project }) =>
      !leftOutReason(
        { ...calculation, reporting_year: project.reporting_year, facility: project.facility || null },
        { year: project.reporting_year },
      ),
  );
}

/** Every active calculation of `types` in `projects`, each with its project. */
export async function projectCalculations(
  deps: Deps,
  company: string,
  projects: readonly Project[],
  types: readonly string[],
): Promise<Array<{ calculation: Calculation; project: Project }>> {
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
function missingSinceLastYear(scope: CheckScope, ofYear: readonly Project[]): InventoryCheck[] {
  const reported = (projects: readonly Project[]) => {
    const keys = new Set<string>();
    for (const [line, , project] of keysOf(scope, projects, "c:")) {
      const [category, , gas] = line.split("|");
      keys.add(`${project.facility || ""}|${category}|${gas}`);
    }
    return keys;
  };
  const now = reported(ofYear);
  return [...reported(projectsOf(scope, scope.year - 1))]
    .filter((key) => !now.has(key))
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

/** The types that take part in the methane balance (D17). */
const BALANCE_TYPES = [
  "underground_emission_ch4",
  "handling_underground_ch4",
  "underground",
  "torch_composition",
  "torch_ch4",
  "disposal_co2_torch",
  "disposal_co2_stat_sources",
];

/** D17: a facility cannot destroy more methane than its gross figure says it released. The
 *  facility's counted calculations of the balance are read to name them (an error, and rare). */
async function balanceChecks(
  deps: Deps,
  scope: CheckScope,
  ofYear: readonly Project[],
  name: (calculation: Calculation, project: Project) => void,
): Promise<InventoryCheck[]> {
  const format = (t: number) => t.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
  const checks: InventoryCheck[] = [];
  for (const b of scope.figures.balances.filter((balance) => balance.exceeds)) {
    const projects = ofYear.filter((p) => (p.facility || null) === b.facility);
    const involved = await countedCalculationsOf(deps, scope.company, projects, BALANCE_TYPES);
    for (const { calculation, project } of involved) name(calculation, project);
    checks.push({
      level: "error",
      code: "destroyed_exceeds_released",
      message:
        `${facilityNameOf(scope, b.facility)}: метан, сожженный на факелах и утилизированный (${format(b.destroyed_t)} т), ` +
        `больше валового выброса при подземной добыче (${format(b.mining_gross_t)} т); проверьте объемы газа и основу расчетов ` +
        "(валовый или чистый выброс)",
      calculations: involved.map(({ calculation }) => calculation.id),
    });
  }
  return checks;
}
