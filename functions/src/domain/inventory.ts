// The company's inventory of one reporting year (methodology D12, D15, 7.3): the primary
// calculations of the projects of that year, by Order 371 category, IPCC code and gas, CH4
// converted with the GWP set in force for the year whatever set each calculation was stored with.
// Alternatives, other years and the non-inventory types (forecast, gap filling, sensitivity, the
// utilisation choice) never count. The checks say what a verifier would ask about.
import type { Actor, Deps } from "./context";
import { Invalid, NotFound } from "./errors";
import { gwpSetInForce, reportingYearOf, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "./gwp-years";
import { coefficientFlags } from "./coefficients";
import { describeSource, plainReference } from "../dictionaries/reference-data";
import type { Calculation, Facility, InventoryReview } from "../ports";
import { getReview, isFrozen, STATUS_LABELS } from "./inventory-review";
import { oneDictionaryCheck } from "./dictionaries";
import type { Project } from "../schemas/project";
import { REGISTRY, isCalculationType } from "@core/registry";
import {
  INVENTORY_SOURCES,
  IPCC_CODES,
  ORDER_371_CATEGORIES,
  inventorySourceOf,
  ipccCodeOf,
  reportingThreshold,
  type Gas,
  type Order371Category,
} from "@core/inventory";
import { leftOutReason, leftOutSummary } from "@core/inventory";

export type CheckLevel = "error" | "warning" | "info";
export interface InventoryCheck {
  level: CheckLevel;
  code: string;
  message: string;
  calculations: string[];
}

export interface InventoryCategoryRow {
  category: Order371Category;
  category_label: string;
  ipcc_code: string;
  ipcc_label: string;
  gas: Gas;
  t: number;
  t_co2e: number;
  calculations: string[];
}

export interface InventoryCalculation {
  id: string;
  type: string;
  type_title: string;
  name: string;
  project: { id: string; name: string };
  facility: string | null;
  inventory_role: "primary" | "alternative";
  counted: boolean;
  category: Order371Category;
  ipcc_code: string;
  gases: Array<{ gas: Gas; t: number; t_co2e: number }>;
  coefficients: Calculation["coefficients"];
  flags: string[];
  updated_at: string;
}

export interface YearTotals {
  year: number;
  total_t_co2e: number;
  by_category: Partial<Record<Order371Category, number>>;
  /** D18: what the year's total left out («не учтены: 2 альтернативных расчета»), "" for nothing. */
  not_counted: string;
}

export interface Inventory {
  year: number;
  /** Review and sign-off of the year (domain/inventory-review.ts). */
  review: InventoryReview;
  facility: string | null;
  gwp: { set: number; name: string; gwp_ch4: number; source: string };
  categories: InventoryCategoryRow[];
  facilities: Array<{ id: string | null; name: string; t_co2e: number }>;
  total_t_co2e: number;
  threshold: { limit_t_co2e: number; regulated: boolean };
  checks: InventoryCheck[];
  calculations: InventoryCalculation[];
  /** Every year with primary calculations (this facility's, when one is chosen), for the chart
   *  and the year-over-year change; each year at its own GWP. */
  years: YearTotals[];
}

export const NO_FACILITY_NAME = "Без площадки";
const INVENTORY_TYPES = Object.keys(INVENTORY_SOURCES);

export function parseInventoryYear(raw: string | undefined): number {
  const year = Number(raw);
  if (!raw || !Number.isInteger(year) || year < REPORTING_YEAR_MIN || year > REPORTING_YEAR_MAX) {
    throw new Invalid(`year: укажите отчетный год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`);
  }
  return year;
}

interface Entry {
  calculation: Calculation;
  project: Project;
  year: number;
  facility: string | null;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;
const massOf = (calculation: Calculation, result: string) => {
  const value = calculation.results[result];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
};

/** The company's inventory entries (calculation with its project's year and facility). */
async function entriesOf(deps: Deps, companyId: string): Promise<Entry[]> {
  const [projects, calculations] = await Promise.all([
    deps.repos.projects.listAllOfCompany(companyId),
    deps.repos.calculations.listOfCompanyByTypes(companyId, INVENTORY_TYPES),
  ]);
  const activeProjects = new Map(projects.filter((p) => !p.is_deleted).map((p) => [p.id, p]));
  return calculations.flatMap((calculation) => {
    const project = activeProjects.get(calculation.project);
    if (!project) return [];
    return [{ calculation, project, year: reportingYearOf(project), facility: project.facility ?? null }];
  });
}

/** D18: why an entry is left out of its own year's total (undefined: it counts), by the core's one rule. */
const reasonOf = (entry: Entry) =>
  leftOutReason(
    { ...entry.calculation, reporting_year: entry.year, facility: entry.facility, project_archived: entry.project.is_deleted },
    { year: entry.year },
  );
const isPrimary = (entry: Entry) => reasonOf(entry) === undefined;
/** «не учтены: 2 альтернативных расчета» for the entries of one total. */
const notCounted = (entries: Entry[]) => leftOutSummary(entries.flatMap((e) => reasonOf(e) ?? []).map((reason) => ({ reason })));

function gasesOf(calculation: Calculation, gwpCh4: number) {
  const source = inventorySourceOf(calculation.type)!;
  return source.gases.map(({ gas, result }) => {
    const t = massOf(calculation, result);
    return { gas, t, t_co2e: gas === "CH4" ? t * gwpCh4 : t };
  });
}

function ipccOf(calculation: Calculation): string {
  const source = inventorySourceOf(calculation.type)!;
  const entry = source.dictionary ? calculation.coefficients?.ef?.item_id : undefined;
  return ipccCodeOf(source, calculation.coefficients?.ef?.dictionary === source.dictionary ? entry : undefined);
}

async function gwpOfYear(deps: Deps, year: number) {
  const set = await gwpSetInForce(deps, year);
  const value = set?.values.gwp_ch4;
  if (!set || !value) throw new NotFound("Набор ПГП для этого года не найден: проверьте справочник ПГП");
  return { set: set.id, name: set.name, gwp_ch4: value.value, source: plainReference(describeSource(value)) };
}

export async function getInventory(deps: Deps, actor: Actor, year: number, facilityId?: string): Promise<Inventory> {
  // The GWP sets are read for the year and again for each year's totals: one dictionary check.
  deps = oneDictionaryCheck(deps);
  const facilities = await deps.repos.facilities.list(actor.company);
  if (facilityId && !facilities.some((f) => f.id === facilityId)) throw new NotFound("Площадка не найдена");
  const all = (await entriesOf(deps, actor.company)).filter((e) => !facilityId || e.facility === facilityId);
  const [gwp, review] = await Promise.all([gwpOfYear(deps, year), getReview(deps, actor.company, year)]);
  const ofYear = all.filter((e) => e.year === year);
  const counted = ofYear.filter(isPrimary);

  const rows = new Map<string, InventoryCategoryRow>();
  const byFacility = new Map<string | null, number>();
  for (const { calculation, facility } of counted) {
    const source = inventorySourceOf(calculation.type)!;
    const ipcc = ipccOf(calculation);
    for (const { gas, t, t_co2e } of gasesOf(calculation, gwp.gwp_ch4)) {
      const key = `${source.category}|${ipcc}|${gas}`;
      const row = rows.get(key) ?? {
        category: source.category,
        category_label: ORDER_371_CATEGORIES[source.category],
        ipcc_code: ipcc,
        ipcc_label: IPCC_CODES[ipcc] ?? ipcc,
        gas,
        t: 0,
        t_co2e: 0,
        calculations: [],
      };
      row.t += t;
      row.t_co2e += t_co2e;
      if (!row.calculations.includes(calculation.id)) row.calculations.push(calculation.id);
      rows.set(key, row);
      byFacility.set(facility, (byFacility.get(facility) ?? 0) + t_co2e);
    }
  }
  const categories = [...rows.values()]
    .map((row) => ({ ...row, t: round(row.t), t_co2e: round(row.t_co2e) }))
    .sort((a, b) => a.category - b.category || a.ipcc_code.localeCompare(b.ipcc_code) || a.gas.localeCompare(b.gas));
  const total = round(categories.reduce((sum, row) => sum + row.t_co2e, 0));
  const limit = reportingThreshold(year);

  const names = new Map<string | null, string>([[null, NO_FACILITY_NAME], ...facilities.map((f) => [f.id, f.name] as const)]);
  const facilityRows = [...byFacility.entries()]
    .map(([id, t_co2e]) => ({ id, name: names.get(id) ?? NO_FACILITY_NAME, t_co2e: round(t_co2e) }))
    .sort((a, b) => (a.id === null ? 1 : b.id === null ? -1 : a.name.localeCompare(b.name, "ru")));

  return {
    year,
    review,
    facility: facilityId ?? null,
    gwp,
    categories,
    facilities: facilityRows,
    total_t_co2e: total,
    threshold: { limit_t_co2e: limit, regulated: total >= limit },
    checks: [...reviewChecks(review, ofYear), ...checksOf(ofYear, all, year, gwp, facilities)],
    calculations: ofYear.map((entry) => calculationRow(entry, gwp.gwp_ch4)),
    years: await yearTotals(deps, all),
  };
}

function calculationRow(entry: Entry, gwpCh4: number): InventoryCalculation {
  const { calculation, project, facility } = entry;
  const source = inventorySourceOf(calculation.type)!;
  const role = calculation.inventory_role ?? "primary";
  return {
    id: calculation.id,
    type: calculation.type,
    type_title: isCalculationType(calculation.type) ? REGISTRY[calculation.type].title : calculation.type,
    name: calculation.name,
    project: { id: project.id, name: project.name },
    facility,
    inventory_role: role,
    counted: isPrimary(entry),
    category: source.category,
    ipcc_code: ipccOf(calculation),
    gases: gasesOf(calculation, gwpCh4).map((g) => ({ ...g, t: round(g.t), t_co2e: round(g.t_co2e) })),
    coefficients: Object.fromEntries(
      Object.entries(calculation.coefficients ?? {}).map(([name, use]) => [
        name,
        use.reference ? { ...use, reference: plainReference(use.reference) } : use,
      ]),
    ),
    flags: isCalculationType(calculation.type) ? coefficientFlags(REGISTRY[calculation.type], calculation.coefficients) : [],
    updated_at: calculation.updated_at,
  };
}

async function yearTotals(deps: Deps, entries: Entry[]): Promise<YearTotals[]> {
  const primaries = entries.filter(isPrimary);
  const years = [...new Set(primaries.map((e) => e.year))].sort((a, b) => a - b);
  const totals: YearTotals[] = [];
  for (const year of years) {
    const { gwp_ch4 } = await gwpOfYear(deps, year);
    const byCategory: Partial<Record<Order371Category, number>> = {};
    let total = 0;
    for (const { calculation } of primaries.filter((e) => e.year === year)) {
      const category = inventorySourceOf(calculation.type)!.category;
      const t_co2e = gasesOf(calculation, gwp_ch4).reduce((sum, g) => sum + g.t_co2e, 0);
      byCategory[category] = round((byCategory[category] ?? 0) + t_co2e);
      total += t_co2e;
    }
    totals.push({
      year,
      total_t_co2e: round(total),
      by_category: byCategory,
      not_counted: notCounted(entries.filter((e) => e.year === year)),
    });
  }
  return totals;
}

/** The calculations an approved year counts or shows (frozen by its approval). */
export async function calculationsOfYear(deps: Deps, companyId: string, year: number): Promise<Calculation[]> {
  return (await entriesOf(deps, companyId)).filter((e) => e.year === year).map((e) => e.calculation);
}

/** After approval: what the approved figures do not include or no longer match. */
function reviewChecks(review: InventoryReview, ofYear: Entry[]): InventoryCheck[] {
  if (!isFrozen(review)) return [];
  const approved = new Map(review.frozen.map((f) => [f.id, f.version]));
  const added = ofYear.filter((e) => !approved.has(e.calculation.id));
  const changed = ofYear.filter((e) => approved.has(e.calculation.id) && approved.get(e.calculation.id) !== e.calculation.version);
  const checks: InventoryCheck[] = [];
  if (added.length > 0) {
    checks.push({
      level: "error",
      code: "added_after_approval",
      message: `Добавлены после утверждения (статус «${STATUS_LABELS[review.status]}»): ${quoted(added)}; откройте год для изменений и утвердите заново`,
      calculations: added.map((e) => e.calculation.id),
    });
  }
  if (changed.length > 0) {
    checks.push({
      level: "error",
      code: "edited_after_approval",
      message: `Изменены после утверждения: ${quoted(changed)}`,
      calculations: changed.map((e) => e.calculation.id),
    });
  }
  return checks;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const quoted = (entries: Entry[]) => entries.map((e) => `«${e.calculation.name}»`).join(", ");

function checksOf(
  ofYear: Entry[],
  all: Entry[],
  year: number,
  gwp: { set: number; gwp_ch4: number; name: string },
  facilities: Facility[],
): InventoryCheck[] {
  const checks: InventoryCheck[] = [];
  const primaries = ofYear.filter(isPrimary);
  const facilityName = (id: string | null) => facilities.find((f) => f.id === id)?.name ?? NO_FACILITY_NAME;

  // D10: the mine's own values a verifier will ask about.
  for (const entry of primaries) {
    const flags = isCalculationType(entry.calculation.type)
      ? coefficientFlags(REGISTRY[entry.calculation.type], entry.calculation.coefficients)
      : [];
    if (flags.some((f) => f.startsWith("custom_without_justification:"))) {
      checks.push({
        level: "warning",
        code: "custom_without_justification",
        message: `Расчет «${entry.calculation.name}»: фактическое значение коэффициента без обоснования`,
        calculations: [entry.calculation.id],
      });
    }
    if (flags.some((f) => f.startsWith("custom_out_of_range:"))) {
      checks.push({
        level: "warning",
        code: "custom_out_of_range",
        message: `Расчет «${entry.calculation.name}»: фактическое значение коэффициента вне правдоподобного диапазона`,
        calculations: [entry.calculation.id],
      });
    }
  }

  // D15: one source estimated twice by different methods would be counted twice.
  const bySource = new Map<string, Entry[]>();
  for (const entry of primaries) {
    for (const { gas } of inventorySourceOf(entry.calculation.type)!.gases) {
      const key = `${entry.facility}|${ipccOf(entry.calculation)}|${gas}`;
      bySource.set(key, [...(bySource.get(key) ?? []), entry]);
    }
  }
  for (const [key, entries] of bySource) {
    if (new Set(entries.map((e) => e.calculation.type)).size < 2) continue;
    const [, ipcc, gas] = key.split("|");
    checks.push({
      level: "warning",
      code: "primary_duplicate",
      message:
        `${facilityName(entries[0].facility)}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gas}: источник оценен разными методами ` +
        `(${quoted(entries)}); оставьте основным один расчет, остальные отметьте как альтернативные`,
      calculations: entries.map((e) => e.calculation.id),
    });
  }

  // D12: the stored CO2-eq of these was computed with another GWP; the inventory uses the year's.
  const otherGwp = ofYear.filter((e) => {
    const stored = e.calculation.inputs.gwp_ch4;
    return (
      inventorySourceOf(e.calculation.type)!.gases.some((g) => g.gas === "CH4") && typeof stored === "number" && stored !== gwp.gwp_ch4
    );
  });
  if (otherGwp.length > 0) {
    checks.push({
      level: "info",
      code: "gwp_not_in_force",
      message:
        `Рассчитаны с другим ПГП CH4: ${quoted(otherGwp)}. В инвентаризации ${year} года CH4 пересчитан ` +
        `с ПГП ${gwp.gwp_ch4} (${gwp.name})`,
      calculations: otherGwp.map((e) => e.calculation.id),
    });
  }

  // A facility with no data this year in a category and gas it reported the year before.
  const keyOf = (e: Entry, gas: string) => `${e.facility}|${inventorySourceOf(e.calculation.type)!.category}|${gas}`;
  const now = new Set(primaries.flatMap((e) => inventorySourceOf(e.calculation.type)!.gases.map((g) => keyOf(e, g.gas))));
  const before = all.filter((e) => e.year === year - 1 && isPrimary(e));
  const missing = new Map<string, Entry[]>();
  for (const entry of before) {
    for (const { gas } of inventorySourceOf(entry.calculation.type)!.gases) {
      const key = keyOf(entry, gas);
      if (!now.has(key)) missing.set(key, [...(missing.get(key) ?? []), entry]);
    }
  }
  for (const [key, entries] of missing) {
    const [, category, gas] = key.split("|");
    checks.push({
      level: "warning",
      code: "missing_since_last_year",
      message:
        `${facilityName(entries[0].facility)}: нет данных за ${year} год по категории ${category} ` +
        `«${ORDER_371_CATEGORIES[Number(category) as Order371Category]}», ${gas}, хотя за ${year - 1} год они были`,
      calculations: entries.map((e) => e.calculation.id),
    });
  }

  // 7.3: the Tier 1 estimate of underground mining is before recovery; what the same facility
  // flares or uses is not subtracted from it automatically.
  const facilitiesOf = (types: string[]) => new Set(primaries.filter((e) => types.includes(e.calculation.type)).map((e) => e.facility));
  const tier1 = facilitiesOf(["underground_emission_ch4"]);
  for (const facility of facilitiesOf(["disposal_co2_torch", "torch_ch4", "torch_composition", "disposal_co2_stat_sources"])) {
    if (!tier1.has(facility)) continue;
    checks.push({
      level: "info",
      code: "recovery_not_netted",
      message:
        `${facilityName(facility)}: выбросы при подземной добыче оценены по коэффициенту (до извлечения метана), ` +
        "а метан, сожженный на факеле или утилизированный, из них не вычитается автоматически; " +
        "при измеренном выбросе (формула 3.1) вычитать не нужно",
      calculations: primaries.filter((e) => e.facility === facility).map((e) => e.calculation.id),
    });
  }

  const alternatives = ofYear.filter((e) => !isPrimary(e));
  if (alternatives.length > 0) {
    checks.push({
      level: "info",
      code: "alternatives_excluded",
      message: `${capitalised(notCounted(alternatives))}: ${quoted(alternatives)}`,
      calculations: alternatives.map((e) => e.calculation.id),
    });
  }
  const withoutFacility = primaries.filter((e) => e.facility === null);
  if (withoutFacility.length > 0 && facilities.length > 0) {
    checks.push({
      level: "warning",
      code: "no_facility",
      message: `Проекты без площадки: ${[...new Set(withoutFacility.map((e) => `«${e.project.name}»`))].join(", ")}; укажите площадку в проекте`,
      calculations: withoutFacility.map((e) => e.calculation.id),
    });
  }
  return checks;
}

/** The profile's statistics by reporting year (never summed across years), from the same code. */
export async function inventoryTotalsByYear(deps: Deps, actor: Actor): Promise<YearTotals[]> {
  return yearTotals(oneDictionaryCheck(deps), await entriesOf(deps, actor.company));
}
