// The company's inventory of one reporting year (methodology D12, D15; docs/methodology.md, Inventory and the report): the primary
// calculations of the projects of that year, by Order 371 category, IPCC code and gas, CH4
// converted with the GWP set in force for the year whatever set each calculation was stored with.
// Alternatives, other years and the non-inventory types (forecast, gap filling, sensitivity, the
// utilisation choice) never count. The checks say what a verifier would ask about.
import type { Actor, Deps } from "./context";
import { Invalid, NotFound } from "./errors";
import { gwpSetInForce, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "./gwp-years";
import { coefficientFlags } from "./coefficients";
import { describeSource, plainReference } from "../dictionaries/reference-data";
import type { Calculation, Facility, InventoryReview } from "../ports";
import { getReview, isFrozen, STATUS_LABELS } from "./inventory-review";
import { oneDictionaryCheck } from "./dictionaries";
import type { Project } from "../contract/schemas/project";
import { REGISTRY, isCalculationType } from "@core/registry";
import {
  IPCC_CODES,
  ORDER_371_CATEGORIES,
  inventorySourceOf,
  reportingThreshold,
  sourceMethodOf,
  sourceNotesOf,
  METHOD_LABELS,
  roleOf,
  type Gas,
  type InventoryRole,
  type Order371Category,
} from "@core/inventory";
import { co2Equivalent } from "@core/gwp-years";
import { effectivePeriod, periodsOverlap, periodText, yearGaps, type SourcePeriod } from "@core/source-periods";
import { withPureMethaneMark, type MethaneBalance } from "@core/methane-balance";
import {
  INVENTORY_TYPES,
  entryOfCoefficients,
  ipccOfItem,
  sumsOfCalculations,
  yearFigures,
  type FigureLine,
  type InventorySums,
} from "./inventory-sums";
import { leftOutReason, leftOutSummary } from "@core/inventory";
import type * as z from "zod";
import type { inventorySchema, yearTotalsSchema } from "../contract/schemas/answers";

export type CheckLevel = "error" | "warning" | "info";
export interface InventoryCheck {
  level: CheckLevel;
  code: string;
  message: string;
  calculations: string[];
}

export interface InventoryCategoryRow extends FigureLine {
  calculations: string[];
}

export interface InventoryCalculation {
  id: string;
  type: string;
  type_title: string;
  name: string;
  project: { id: string; name: string };
  facility: string | null;
  inventory_role: InventoryRole;
  counted: boolean;
  category: Order371Category;
  ipcc_code: string;
  /** D19: the period it covers (its own, else its project's dates). */
  period: SourcePeriod;
  /** How the emission was determined, as the report names it (D16: Table 3.1 defaults are not a measurement). */
  method: string;
  /** D16, D22: «включая выбросы после добычи», «метод МГЭИК, не Приказ № 371». */
  notes: string[];
  gases: Array<{ gas: Gas; t: number; t_co2e: number }>;
  coefficients: Calculation["coefficients"];
  flags: string[];
  updated_at: string;
}

/** A year's totals (D18: not_counted says what the total left out, "" for nothing). */
export type YearTotals = z.output<typeof yearTotalsSchema>;

/** A year's inventory (D15–D22) as GET v1/inventory/ answers it. */
export type Inventory = Omit<z.output<typeof inventorySchema>, "calculations"> & {
  /** The lines with the coefficients as stored (the passport and the D20 snapshot read them). */
  calculations: InventoryCalculation[];
};

export interface BalanceRow {
  facility: string | null;
  facility_name: string;
  released_t: number;
  destroyed_t: number;
  emitted_t: number;
  gross_t: number;
  net_t: number;
  flared_t: number;
  used_t: number;
  vented_t: number;
  /** Subtracted from the mining line (1.B.1.a.i.1): destroyed plus the flares' slip. */
  netted_t: number;
  /** D17: unburnt CH4 the flaring lines (1.B.1.a.i.4) report, so the mining line does not. */
  slip_t: number;
}

export const NO_FACILITY_NAME = "Без площадки";

export function parseInventoryYear(raw: string | undefined): number {
  const year = Number(raw);
  // Exactly four digits: Number() would also take «2024.0», «0x7e8», «+2024» and « 2024».
  if (!raw || !/^\d{4}$/.test(raw) || !Number.isInteger(year) || year < REPORTING_YEAR_MIN || year > REPORTING_YEAR_MAX) {
    throw new Invalid(`year: укажите отчетный год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`);
  }
  return year;
}

interface Entry {
  calculation: Calculation;
  project: Project;
  year: number;
  facility: string | null;
  /** D19: the period the calculation covers. */
  period: SourcePeriod;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;
const massOf = (calculation: Calculation, result: string) => {
  const value = calculation.results[result];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
};

/** The company's inventory entries (calculation with its project's year and facility), its
 *  projects and the sums of their calculations (inventory-sums.ts). */
async function entriesOf(
  deps: Deps,
  companyId: string,
): Promise<{ entries: Entry[]; projects: Project[]; sums: Map<string, InventorySums> }> {
  const [projects, calculations] = await Promise.all([
    deps.repos.projects.listAllOfCompany(companyId),
    deps.repos.calculations.listOfCompanyByTypes(companyId, INVENTORY_TYPES),
  ]);
  const activeProjects = new Map(projects.filter((p) => !p.is_deleted).map((p) => [p.id, p]));
  const entries = calculations.flatMap((calculation) => {
    const project = activeProjects.get(calculation.project);
    if (!project) return [];
    const period = effectivePeriod(calculation.period, project);
    return [{ calculation, project, year: project.reporting_year, facility: project.facility || null, period }];
  });
  return { entries, projects, sums: sumsOfCalculations(calculations) };
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
    return { gas, t, t_co2e: co2Equivalent(gas, t, gwpCh4) };
  });
}

/** The dictionary entry behind the code (D16: derived on every read, so stored calculations follow). */
const entryOf = (calculation: Calculation) => entryOfCoefficients(calculation.type, calculation.coefficients);
const ipccOf = (calculation: Calculation) => ipccOfItem(calculation.type, calculation.coefficients);

function methodOf(calculation: Calculation): string {
  const source = inventorySourceOf(calculation.type)!;
  const contents = calculation.coefficients?.ef_ch4;
  return METHOD_LABELS[sourceMethodOf(source, contents?.source === "dictionary" ? contents.dictionary : undefined)];
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
  const { entries: everything, projects, sums } = await entriesOf(deps, actor.company);
  const all = everything.filter((e) => !facilityId || e.facility === facilityId);
  const [gwp, review] = await Promise.all([gwpOfYear(deps, year), getReview(deps, actor.company, year)]);
  const ofYear = all.filter((e) => e.year === year);
  const counted = ofYear.filter(isPrimary);

  const order = facilityOrder(facilities);
  const figures = yearFigures(sums, projects, year, gwp.gwp_ch4, { facility: facilityId, order });
  const lineIds = new Map<string, Set<string>>();
  for (const { calculation } of counted) {
    const source = inventorySourceOf(calculation.type)!;
    for (const { gas } of source.gases) {
      const key = `${source.category}|${ipccOf(calculation)}|${gas}`;
      (lineIds.get(key) ?? lineIds.set(key, new Set()).get(key)!).add(calculation.id);
    }
  }
  const categories = figures.lines.map((line) => ({
    ...line,
    calculations: [...(lineIds.get(`${line.category}|${line.ipcc_code}|${line.gas}`) ?? [])],
  }));
  const total = figures.total_t_co2e;
  const limit = reportingThreshold(year);
  // D21: the threshold is the company's whole-year total, not the facility's shown.
  const companyTotal = !facilityId ? total : round(yearFigures(sums, projects, year, gwp.gwp_ch4).gross_t_co2e);

  const names = new Map<string | null, string>([[null, NO_FACILITY_NAME], ...facilities.map((f) => [f.id, f.name] as const)]);
  const facilityRows = [...figures.facilities.entries()].map(([id, t_co2e]) => ({ id, name: names.get(id) ?? NO_FACILITY_NAME, t_co2e }));

  return {
    year,
    review,
    facility: facilityId ?? null,
    gwp,
    categories,
    facilities: facilityRows,
    total_t_co2e: total,
    threshold: { limit_t_co2e: limit, regulated: companyTotal >= limit, company_t_co2e: companyTotal },
    checks: [
      ...(await reviewChecks(deps, review, facilityId, total)),
      ...checksOf(ofYear, all, year, gwp, facilities),
      ...balanceChecks(figures.balances, counted, names),
    ],
    calculations: ofYear.map((entry) => calculationRow(entry, gwp.gwp_ch4)),
    years: await totalsFromSums(deps, sums, projects, facilityId),
    balance: figures.balances.map((b) => balanceRow(b, names.get(b.facility) ?? NO_FACILITY_NAME)),
  };
}

/** Facilities by name, as the inventory lists them (no facility last). */
const facilityOrder = (facilities: Facility[]) => [...facilities].sort((a, b) => a.name.localeCompare(b.name, "ru")).map((f) => f.id);

function balanceRow(b: MethaneBalance, name: string): BalanceRow {
  return {
    facility: b.facility,
    facility_name: name,
    released_t: round(b.released_t),
    destroyed_t: round(b.destroyed_t),
    emitted_t: round(b.emitted_t),
    gross_t: round(b.gross_t),
    net_t: round(b.net_t),
    flared_t: round(b.flared_t),
    used_t: round(b.used_t),
    vented_t: round(b.vented_t),
    netted_t: round(b.netted_t),
    slip_t: round(b.slip_t),
  };
}

/** D17: a facility cannot destroy more methane than its gross figure says it released. */
function balanceChecks(balances: MethaneBalance[], counted: Entry[], names: Map<string | null, string>): InventoryCheck[] {
  const format = (t: number) => t.toLocaleString("ru-RU", { maximumFractionDigits: 2 });
  return balances
    .filter((b) => b.exceeds)
    .map((b) => ({
      level: "error" as const,
      code: "destroyed_exceeds_released",
      message:
        `${names.get(b.facility) ?? NO_FACILITY_NAME}: метан, сожженный на факелах и утилизированный (${format(b.destroyed_t)} т), ` +
        `больше валового выброса при подземной добыче (${format(b.gross_t)} т); проверьте объемы газа и основу расчетов ` +
        "(валовый или чистый выброс)",
      calculations: counted.filter((e) => e.facility === b.facility && balanceInvolves(e)).map((e) => e.calculation.id),
    }));
}

const BALANCE_TYPES = new Set([
  "underground_emission_ch4",
  "handling_underground_ch4",
  "underground",
  "torch_composition",
  "torch_ch4",
  "disposal_co2_torch",
  "disposal_co2_stat_sources",
]);
const balanceInvolves = (entry: Entry) => BALANCE_TYPES.has(entry.calculation.type);

function calculationRow(entry: Entry, gwpCh4: number): InventoryCalculation {
  const { calculation, project, facility, period } = entry;
  const source = inventorySourceOf(calculation.type)!;
  return {
    id: calculation.id,
    type: calculation.type,
    type_title: isCalculationType(calculation.type) ? REGISTRY[calculation.type].title : calculation.type,
    name: calculation.name,
    project: { id: project.id, name: project.name },
    facility,
    inventory_role: roleOf(calculation)!,
    counted: isPrimary(entry),
    category: source.category,
    ipcc_code: ipccOf(calculation),
    period,
    method: methodOf(calculation),
    // D24: a flare or boiler that takes its gas as 100 % CH4 says so on the line.
    notes: withPureMethaneMark(sourceNotesOf(source, entryOf(calculation)), calculation),
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

/** The totals of every reporting year with a counted calculation (of one facility when given),
 *  each at its own year's GWP, from the projects' sums (inventory-sums.ts). */
async function totalsFromSums(
  deps: Deps,
  sums: ReadonlyMap<string, InventorySums>,
  projects: readonly Project[],
  facilityId?: string,
): Promise<YearTotals[]> {
  const counts = (project: Project) => Object.keys(sums.get(project.id) ?? {}).some((key) => key.startsWith("c:"));
  const years = [
    ...new Set(
      projects.filter((p) => !p.is_deleted && (!facilityId || p.facility === facilityId) && counts(p)).map((p) => p.reporting_year),
    ),
  ].sort((a, b) => a - b);
  const totals: YearTotals[] = [];
  for (const year of years) {
    const { gwp_ch4 } = await gwpOfYear(deps, year);
    const figures = yearFigures(sums, projects, year, gwp_ch4, { facility: facilityId });
    totals.push({ year, total_t_co2e: figures.total_t_co2e, by_category: figures.by_category, not_counted: figures.not_counted });
  }
  return totals;
}

/** The calculations an approved year counts or shows (frozen by its approval). */
export async function calculationsOfYear(deps: Deps, companyId: string, year: number): Promise<Calculation[]> {
  return (await entriesOf(deps, companyId)).entries.filter((e) => e.year === year).map((e) => e.calculation);
}

/** D20: after approval nothing reaches the year (freeze.ts) but an administrator's dictionary
 *  change (a GWP set re-dated): the live total is compared with the approved version's. */
async function reviewChecks(deps: Deps, review: InventoryReview, facilityId: string | undefined, total: number): Promise<InventoryCheck[]> {
  if (!isFrozen(review) || !review.snapshot) return [];
  const version = await deps.repos.inventoryVersions.get(review.company, review.year, review.snapshot.version);
  if (!version) return [];
  const approved = facilityId ? (version.facilities.find((f) => f.id === facilityId)?.t_co2e ?? 0) : version.total_t_co2e;
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
    if (flags.some((f) => f.startsWith("custom_without_uncertainty:"))) {
      checks.push({
        level: "info",
        code: "custom_without_uncertainty",
        message:
          `Расчет «${entry.calculation.name}»: неопределенность не указана для фактического значения; ` +
          "применена неопределенность поля справочника",
        calculations: [entry.calculation.id],
      });
    }
  }

  // D19: a source (facility, IPCC code, gas) is counted once: two primary calculations whose
  // periods overlap count it twice, whatever their types; a project without a facility is its own.
  const sourceOf = (e: Entry) => e.facility ?? `project:${e.project.id}`;
  const where = (e: Entry) => (e.facility !== null ? facilityName(e.facility) : `Проект «${e.project.name}» (без площадки)`);
  // Fuel combustion (1.A) shares one code across different sources: a boiler house and the
  // open-pit machinery, a boiler on coal and one on gas. There the type and the fuel tell them apart.
  const unitOf = (e: Entry, ipcc: string) => (ipcc.startsWith("1.A.") ? `#${e.calculation.type}:${entryOf(e.calculation) ?? ""}` : "");
  const bySource = new Map<string, Entry[]>();
  for (const entry of primaries) {
    for (const { gas } of inventorySourceOf(entry.calculation.type)!.gases) {
      const ipcc = ipccOf(entry.calculation);
      const key = `${sourceOf(entry)}${unitOf(entry, ipcc)}|${ipcc}|${gas}`;
      (bySource.get(key) ?? bySource.set(key, []).get(key)!).push(entry);
    }
  }
  // One check per pair and code, naming the gases they share.
  const pairs = new Map<string, { a: Entry; b: Entry; ipcc: string; gases: string[] }>();
  const gaps = new Map<string, { entry: Entry; entries: Entry[]; ipcc: string; gaps: SourcePeriod[]; gases: string[] }>();
  for (const [key, entries] of bySource) {
    const [, ipcc, gas] = key.split("|");
    entries.forEach((a, i) => {
      for (let j = i + 1; j < entries.length; j++) {
        const b = entries[j];
        if (!periodsOverlap(a.period, b.period)) continue;
        const pairKey = `${ipcc}|${a.calculation.id}|${b.calculation.id}`;
        const pair = pairs.get(pairKey) ?? { a, b, ipcc, gases: [] };
        pair.gases.push(gas);
        pairs.set(pairKey, pair);
      }
    });
    const uncovered = yearGaps(
      year,
      entries.map((e) => e.period),
    );
    if (uncovered.length === 0) continue;
    const gapKey = `${sourceOf(entries[0])}|${ipcc}|${uncovered.map(periodText).join(",")}`;
    const gap = gaps.get(gapKey) ?? { entry: entries[0], entries, ipcc, gaps: uncovered, gases: [] };
    gap.gases.push(gas);
    gaps.set(gapKey, gap);
  }
  for (const { a, b, ipcc, gases } of pairs.values()) {
    checks.push({
      level: "error",
      code: "primary_duplicate",
      message:
        `${where(a)}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gases.join(", ")}: источник учтен дважды — ` +
        `«${a.calculation.name}» (${periodText(a.period)}) и «${b.calculation.name}» (${periodText(b.period)}); ` +
        "оставьте основным один расчет, другой отметьте как альтернативный, или разделите их периоды",
      calculations: [a.calculation.id, b.calculation.id],
    });
  }
  // D19: the days of the year the facility's calculations of a source it reports leave uncovered.
  for (const { entry, entries, ipcc, gaps: uncovered, gases } of gaps.values()) {
    checks.push({
      level: "warning",
      code: "source_period_gap",
      message:
        `${where(entry)}, ${ipcc} ${IPCC_CODES[ipcc] ?? ""}, ${gases.join(", ")}: расчеты не покрывают часть ${year} года — ` +
        `${uncovered.map(periodText).join(", ")}; добавьте расчет за этот период или проверьте периоды расчетов`,
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
      if (!now.has(key)) (missing.get(key) ?? missing.set(key, []).get(key)!).push(entry);
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
  const { projects, sums } = await keptOrLiveSums(deps, actor.company);
  return totalsFromSums(oneDictionaryCheck(deps), sums, projects);
}

/** The projects and their sums: the ones the stream keeps when they hold every calculation write
 *  made so far (read-your-writes: inventorySums answers undefined while one is still on its way),
 *  else folded from the calculations themselves. */
export async function keptOrLiveSums(deps: Deps, companyId: string): Promise<{ projects: Project[]; sums: Map<string, InventorySums> }> {
  const [projects, kept] = await Promise.all([
    deps.repos.projects.listAllOfCompany(companyId),
    deps.repos.statistics.inventorySums(companyId),
  ]);
  if (kept) return { projects, sums: kept };
  const { sums } = await entriesOf(deps, companyId);
  return { projects, sums };
}
