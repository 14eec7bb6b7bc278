// The company's inventory of one reporting year (methodology D12, D15; docs/methodology.md, Inventory and the report): the primary
// calculations of the projects of that year, by Order 371 category, IPCC code and gas, CH4
// converted with the GWP set in force for the year whatever set each calculation was stored with.
// Alternatives, other years and the non-inventory types (forecast, gap filling, sensitivity, the
// utilisation choice) never count. The checks say what a verifier would ask about.
import { withCurrentNames } from "../person-name";
import { approvedCalculations, approvedFigures } from "./approved";
import type { Actor, Deps } from "../context";
import { invalidAt, NotFound } from "../errors";
import { gwpSetInForce, REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "../reference/gwp-years";
import { coefficientFlags } from "../reference/coefficients";
import { describeSource, plainReference } from "../../dictionaries/reference-data";
import type { StoredCalculation, EmissionPoint, Facility, InventoryReview } from "../../ports";
import { getReview, reviewOf } from "./review";
import { changedAfterSend } from "./sent";
import { oneDictionaryCheck } from "../reference/dictionaries";
import type { Project } from "../../contract/schemas/project";
import type { BalanceRowView } from "../../contract/views";
import { REGISTRY, isCalculationType } from "@core/registry";
import {
  inventorySourceOf,
  nettedGasesOf,
  reportingThreshold,
  sourceMethodOf,
  sourceNotesOf,
  METHOD_LABELS,
  DUPLICATE_LEFT_OUT,
  roleOf,
  type NettingBalance,
} from "@core/inventory";
import { co2Equivalent } from "@core/gwp-in-force";
import { coveredPeriods, spanOf, type SourcePeriod } from "@core/source-periods";
import { withPureMethaneMark } from "@core/methane-balance";
import {
  INVENTORY_TYPES,
  entryOfCoefficients,
  ipccOfItem,
  INVENTORY_SUMS_LAYOUT,
  sumsOfCalculations,
  yearFigures,
  type InventorySums,
  type YearFigures,
} from "./sums";
import { leftOutReason } from "@core/inventory";
import {
  NO_FACILITY_NAME,
  calculationsOfCheck,
  duplicateScan,
  inventoryChecks,
  projectCalculations,
  sumsWithoutDuplicates,
  typesMaking,
  type DuplicateScan,
} from "./checks";

import type { Inventory, InventoryCalculation, InventorySummary, YearTotals } from "./types";

/** D17: a facility-year's methane balance as the inventory and the infographics answer it. */
export type BalanceRow = BalanceRowView;

const YEAR_FIELDS: Record<string, string> = { year: "отчетный год", from: "начальный год", to: "конечный год" };

export function parseInventoryYear(raw: string | undefined, field = "year"): number {
  const year = Number(raw);
  // Exactly four digits: Number() would also take «2024.0», «0x7e8», «+2024» and « 2024».
  if (!raw || !/^\d{4}$/.test(raw) || !Number.isInteger(year) || year < REPORTING_YEAR_MIN || year > REPORTING_YEAR_MAX) {
    throw invalidAt(field, `укажите ${YEAR_FIELDS[field] ?? "базовый год"} от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`);
  }
  return year;
}

interface Entry {
  calculation: StoredCalculation;
  project: Project;
  year: number;
  facility: string | null;
  /** D19, D42: the days the calculation covers (its measurement periods' union, else its period or
   *  its project's dates), and from the first of them to the last. */
  covered: SourcePeriod[];
  period: SourcePeriod;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;
const massOf = (calculation: StoredCalculation, result: string) => {
  const value = calculation.results[result];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
};

/** The company's inventory entries (calculation with its project's year and facility), its
 *  projects and the sums of their calculations (domain/inventory/sums.ts). */
async function entriesOf(
  deps: Deps,
  companyId: string,
  known?: Project[],
): Promise<{ entries: Entry[]; projects: Project[]; sums: Map<string, InventorySums> }> {
  const [projects, calculations, damaged] = await Promise.all([
    known ?? deps.repos.projects.listAllOfCompany(companyId),
    deps.repos.calculations.listOfCompanyByTypes(companyId, INVENTORY_TYPES),
    deps.repos.calculations.listDamagedOfCompany(companyId),
  ]);
  const activeProjects = new Map(projects.filter((p) => !p.is_deleted).map((p) => [p.id, p]));
  const entries = calculations.flatMap((calculation) => {
    const project = activeProjects.get(calculation.project);
    return project ? [entryFor(calculation, project)] : [];
  });
  return { entries, projects, sums: sumsOfCalculations(calculations, damaged) };
}

const entryFor = (calculation: StoredCalculation, project: Project): Entry => ({
  calculation,
  project,
  year: project.reporting_year,
  facility: project.facility || null,
  ...coverageOf(calculation, project),
});

const coverageOf = (calculation: StoredCalculation, project: Project) => {
  const covered = coveredPeriods(calculation, project);
  return { covered, period: spanOf(covered) };
};

/** D18: why an entry is left out of its own year's total (undefined: it counts), by the core's one rule. */
const reasonOf = (entry: Entry) =>
  leftOutReason(
    { ...entry.calculation, reporting_year: entry.year, facility: entry.facility, project_archived: entry.project.is_deleted },
    { year: entry.year },
  );
const isPrimary = (entry: Entry) => reasonOf(entry) === undefined;

function gasesOf(calculation: StoredCalculation, gwpCh4: number) {
  const source = inventorySourceOf(calculation.type)!;
  return source.gases.map(({ gas, result }) => {
    const t = massOf(calculation, result);
    return { gas, t, t_co2e: co2Equivalent(gas, t, gwpCh4) };
  });
}

/** The dictionary entry behind the code (D16: derived on every read, so stored calculations follow). */
const entryOf = (calculation: StoredCalculation) => entryOfCoefficients(calculation.type, calculation.coefficients);
const ipccOf = (calculation: StoredCalculation) => ipccOfItem(calculation.type, calculation.coefficients);

function methodOf(calculation: StoredCalculation): string {
  const source = inventorySourceOf(calculation.type)!;
  const contents = calculation.coefficients?.ef_ch4;
  const dictionary = contents?.source === "dictionary" ? contents.dictionary : undefined;
  return METHOD_LABELS[sourceMethodOf(source, dictionary, calculation.inputs?.measurement_frequency)];
}

export async function gwpOfYear(deps: Deps, year: number) {
  const set = await gwpSetInForce(deps, year);
  const value = set?.values.gwp_ch4;
  if (!set || !value) throw new NotFound("Набор ПГП для этого года не найден: проверьте справочник ПГП");
  return { set: set.id, name: set.name, gwp_ch4: value.value, source: plainReference(describeSource(value)) };
}

/** The year's inventory as GET v1/inventory/ answers it: figures and checks from the projects'
 *  kept sums, so that it costs the same at 100 or 10 000 calculations (the lines' calculations:
 *  listInventoryCalculations, a page at a time). */
export async function getInventory(deps: Deps, actor: Actor, year: number, facilityId?: string): Promise<InventorySummary> {
  // The GWP sets are read for the year and again for each year's totals: one dictionary check.
  deps = oneDictionaryCheck(deps);
  const [facilities, kept] = await Promise.all([facilitiesOf(deps, actor, facilityId), keptOrLiveSums(deps, actor.company)]);
  return (await summaryOf(deps, actor, year, facilityId, kept, facilities)).summary;
}

/** The full inventory (the report, the D20 snapshot): the summary of the calculations it read,
 *  each line's calculations, and every calculation of the year with its coefficients as stored. */
export async function getInventoryWithCalculations(deps: Deps, actor: Actor, year: number, facilityId?: string): Promise<Inventory> {
  return (await inventoryWithStored(deps, actor, year, facilityId)).inventory;
}

/** The full inventory and the stored calculations its rows come from (their inputs and results,
 *  which the report and the snapshot print), from one read of them. */
export async function inventoryWithStored(
  deps: Deps,
  actor: Actor,
  year: number,
  facilityId?: string,
): Promise<{ inventory: Inventory; stored: StoredCalculation[] }> {
  deps = oneDictionaryCheck(deps);
  const [facilities, { entries, projects, sums }] = await Promise.all([
    facilitiesOf(deps, actor, facilityId),
    entriesOf(deps, actor.company),
  ]);
  const {
    summary: { check_calculations: _named, ...summary },
    scan,
  } = await summaryOf(deps, actor, year, facilityId, { projects, sums }, facilities);
  const ofYear = entries.filter((e) => e.year === year && (!facilityId || e.facility === facilityId));
  const counts = (entry: Entry) => isPrimary(entry) && !scan.leftOut.has(entry.calculation.id);
  const lineIds = new Map<string, string[]>();
  for (const { calculation } of ofYear.filter(counts)) {
    for (const { gas } of inventorySourceOf(calculation.type)!.gases) {
      const key = `${inventorySourceOf(calculation.type)!.category}|${ipccOf(calculation)}|${gas}`;
      (lineIds.get(key) ?? lineIds.set(key, []).get(key)!).push(calculation.id);
    }
  }
  // The report names what the total leaves out (the screen lists it a page at a time).
  const leftOut = ofYear.filter((e) => !counts(e));
  const checks = summary.checks.map((check) =>
    check.code === "alternatives_excluded" && leftOut.length > 0
      ? {
          ...check,
          message: `${check.message}: ${leftOut.map((e) => `«${e.calculation.name}»`).join(", ")}`,
          calculations: leftOut.map((e) => e.calculation.id),
        }
      : check,
  );
  const inventory = {
    ...summary,
    checks,
    categories: summary.categories.map((line) => ({
      ...line,
      calculations: lineIds.get(`${line.category}|${line.ipcc_code}|${line.gas}`) ?? [],
    })),
    calculations: ofYear.map((entry) => calculationRow(entry, summary.gwp.gwp_ch4, balancesOf(summary.balance), scan)),
  };
  return { inventory, stored: ofYear.map((entry) => entry.calculation) };
}

async function facilitiesOf(deps: Deps, actor: Actor, facilityId: string | undefined): Promise<Facility[]> {
  const facilities = await deps.repos.facilities.list(actor.company);
  if (facilityId && !facilities.some((f) => f.id === facilityId)) throw new NotFound("Площадка не найдена");
  return facilities;
}

async function summaryOf(
  deps: Deps,
  actor: Actor,
  year: number,
  facilityId: string | undefined,
  { projects, sums }: { projects: Project[]; sums: ReadonlyMap<string, InventorySums> },
  facilities: Facility[],
): Promise<{ summary: InventorySummary; scan: DuplicateScan }> {
  // Every year's review in one read: this year's, and which years stand approved (D32).
  const [gwp, reviews, points] = await Promise.all([
    gwpOfYear(deps, year),
    reviewsOf(deps, actor.company),
    deps.repos.emissionPoints.listOfCompany(actor.company),
  ]);
  const stored = await withCurrentNames(deps.repos, actor.company, await reviewOf(deps, actor.company, year, reviews.get(year)));
  // the reviewer sees what changed of the printed requisites, facilities and points since the send.
  const changed = await changedAfterSend(deps, stored);
  const review = changed.length > 0 ? { ...stored, changed_after_send: changed } : stored;
  // D43: a standing duplicate counts once (the checks still read the coverage as stored).
  const scan = await duplicatesOfYear(deps, actor.company, points, sums, projects, year);
  const counted = sumsWithoutDuplicates(sums, scan);
  const figures = yearFigures(counted, projects, year, gwp.gwp_ch4, { facility: facilityId, order: facilityOrder(facilities), points });
  const total = figures.total_t_co2e;
  const limit = reportingThreshold(year);
  // D21: the threshold is the legal entity's whole-year total (as its own inventory gives it, after
  // the D17 netting), not the facility's shown.
  const companyTotal = !facilityId ? total : yearFigures(counted, projects, year, gwp.gwp_ch4, { points }).total_t_co2e;
  const names = new Map<string | null, string>([[null, NO_FACILITY_NAME], ...facilities.map((f) => [f.id, f.name] as const)]);
  const { checks, named } = await inventoryChecks(deps, {
    company: actor.company,
    year,
    facility: facilityId,
    gwp,
    review,
    facilities,
    points,
    projects,
    sums,
    figures,
    duplicates: scan,
  });
  const live = {
    categories: figures.lines,
    facilities: [...figures.facilities.entries()].map(([id, t_co2e]) => ({ id, name: names.get(id) ?? NO_FACILITY_NAME, t_co2e })),
    total_t_co2e: total,
    threshold: { limit_t_co2e: limit, regulated: companyTotal >= limit, company_t_co2e: companyTotal },
    balance: figures.balances.map((b) => balanceRow(b, names.get(b.facility) ?? NO_FACILITY_NAME, points)),
  };
  // D32: an approved year shows its approved figures; the live ones only as «если переоткрыть».
  const approved = await approvedFigures(deps, review, facilityId);
  const shown = approved
    ? {
        categories: approved.categories,
        facilities: approved.facilities,
        total_t_co2e: approved.total_t_co2e,
        threshold: { limit_t_co2e: limit, regulated: approved.company_t_co2e >= limit, company_t_co2e: approved.company_t_co2e },
        balance: approved.balance,
        // D41: the screen names the GWP the approved figures use.
        gwp: approved.gwp,
        approved: { version: approved.version, live_if_reopened: { total_t_co2e: total, company_t_co2e: companyTotal } },
      }
    : live;
  const summary = {
    year,
    review,
    facility: facilityId ?? null,
    gwp,
    ...shown,
    checks,
    check_calculations: named,
    years: await totalsFromSums(deps, actor.company, reviews, sums, projects, points, facilityId, new Map([[year, scan]])),
  };
  return { summary, scan };
}

export interface InventoryCalculationsQuery {
  year: number;
  facility?: string;
  /** `category|ipcc_code|gas`. */
  line?: string;
  counted?: boolean;
  /** A check's `list` (domain/inventory/checks.ts): the calculations behind it. */
  check?: string;
  limit: number;
  offset: number;
}

/** A page of the year's calculations (of one line, or behind one check, when asked), by period and
 *  name: reads the year's projects' calculations of the types that can make the line, never the
 *  company's whole history. */
export async function listInventoryCalculations(
  deps: Deps,
  actor: Actor,
  query: InventoryCalculationsQuery,
): Promise<{ results: InventoryCalculation[]; count: number }> {
  deps = oneDictionaryCheck(deps);
  const [, gwp, { projects, sums }, points] = await Promise.all([
    facilitiesOf(deps, actor, query.facility),
    gwpOfYear(deps, query.year),
    keptOrLiveSums(deps, actor.company),
    deps.repos.emissionPoints.listOfCompany(actor.company),
  ]);
  // D26, D35: a line's calculations carry what the netting takes off them, from the facility-years'
  // balances as the inventory has them (D43: a standing duplicate left out).
  const scan = await duplicatesOfYear(deps, actor.company, points, sums, projects, query.year);
  const balances = balancesOf(yearFigures(sumsWithoutDuplicates(sums, scan), projects, query.year, gwp.gwp_ch4, { points }).balances);
  const ofYear = projects.filter(
    (p) => !p.is_deleted && p.reporting_year === query.year && (!query.facility || p.facility === query.facility),
  );
  const [category, ipcc, gas] = query.line?.split("|") ?? [];
  // D32: an approved, sent or accepted year's lines list the calculations its version froze (a
  // check's list stays the live one: the checks are of the live data).
  const frozen = query.check
    ? undefined
    : await approvedCalculations(deps, await getReview(deps, actor.company, query.year), query.facility);
  if (frozen) return pageOf(frozen, query, category, gas);
  const types = query.line
    ? typesMaking(new Set([ipcc])).filter((type) => {
        const source = inventorySourceOf(type)!;
        return source.category === Number(category) && source.gases.some((g) => g.gas === gas);
      })
    : INVENTORY_TYPES;
  const read = query.check
    ? await calculationsOfCheck(deps, actor.company, ofYear, query.check)
    : await projectCalculations(deps, actor.company, ofYear, types);
  if (!read) throw invalidAt("check", "ожидается ключ списка проверки (поле list проверки в ответе v1/inventory/)");
  const rows = read.map(({ calculation, project }) => calculationRow(entryFor(calculation, project), gwp.gwp_ch4, balances, scan));
  return pageOf(rows, query, category, gas);
}

/** The rows of the asked line (and counted or not), by period and name, one page of them. */
function pageOf(
  all: InventoryCalculation[],
  query: InventoryCalculationsQuery,
  category: string | undefined,
  gas: string | undefined,
): { results: InventoryCalculation[]; count: number } {
  const ipcc = query.line?.split("|")[1];
  const rows = all
    .filter(
      (row) =>
        (!query.line || (row.category === Number(category) && row.ipcc_code === ipcc && row.gases.some((g) => g.gas === gas))) &&
        (query.counted === undefined || row.counted === query.counted),
    )
    .sort((a, b) => a.period.from.localeCompare(b.period.from) || a.name.localeCompare(b.name, "ru") || a.id.localeCompare(b.id));
  return { results: rows.slice(query.offset, query.offset + query.limit), count: rows.length };
}

/** Facilities by name, as the inventory lists them (no facility last). */
const facilityOrder = (facilities: Facility[]) => [...facilities].sort((a, b) => a.name.localeCompare(b.name, "ru")).map((f) => f.id);

/** A facility-year's balance as the inventory and the infographics show it, rounded, its streams named. */
export function balanceRow(b: YearFigures["balances"][number], name: string, points: readonly EmissionPoint[]): BalanceRow {
  const streams = (b.streams ?? []).map((s) => {
    const point = points.find((p) => p.id === s.point);
    return {
      point: s.point,
      name: point?.name ?? "",
      kind: point?.kind ?? "other",
      route: s.route,
      t: round(s.t),
      ...(s.to_air_t !== undefined ? { to_air_t: round(s.to_air_t) } : {}),
    };
  });
  return {
    ...(streams.length > 0
      ? {
          ventilation_t: round(b.ventilation_t ?? 0),
          drained_t: round(b.drained_t ?? 0),
          drained_vented_t: round(b.drained_vented_t ?? 0),
          streams,
        }
      : {}),
    facility: b.facility,
    facility_name: name,
    released_t: round(b.released_t),
    destroyed_t: round(b.destroyed_t),
    emitted_t: round(b.emitted_t),
    gross_t: round(b.gross_t),
    mining_gross_t: round(b.mining_gross_t),
    post_mining_t: round(b.post_mining_t),
    net_t: round(b.net_t),
    flared_t: round(b.flared_t),
    used_t: round(b.used_t),
    vented_t: round(b.vented_t),
    netted_t: round(b.netted_t),
    slip_t: round(b.slip_t),
    co2_gross_t: round(b.co2_gross_t),
    co2_netted_t: round(b.co2_netted_t),
    by_point: b.by_point.map((p) => ({
      point: p.point,
      gross_t: round(p.gross_t),
      netted_t: round(p.netted_t),
      co2_gross_t: round(p.co2_gross_t),
      co2_netted_t: round(p.co2_netted_t),
    })),
  };
}

/** The facility-years' balances of an inventory, to net its calculations by (D26). */
export type BalancesByFacility = ReadonlyMap<string | null, NettingBalance>;
export const balancesOf = (
  rows: readonly (Pick<BalanceRow, "facility" | "netted_t" | "gross_t"> & {
    mining_gross_t?: number;
    co2_gross_t?: number;
    co2_netted_t?: number;
    by_point?: NettingBalance["by_point"];
  })[],
): BalancesByFacility =>
  // A version approved before post-mining was kept apart has the gross figures only, and one approved
  // before D35 no part by point (its netting is shared over the facility's gross figures).
  new Map(
    rows.map((b) => [
      b.facility,
      {
        netted_t: b.netted_t,
        mining_gross_t: b.mining_gross_t ?? b.gross_t,
        co2_gross_t: b.co2_gross_t,
        co2_netted_t: b.co2_netted_t,
        ...(b.by_point ? { by_point: b.by_point } : {}),
      },
    ]),
  );

function calculationRow(
  entry: Entry,
  gwpCh4: number,
  balances: BalancesByFacility | undefined,
  scan: Pick<DuplicateScan, "leftOut">,
): InventoryCalculation {
  const { calculation, project, facility, period, covered } = entry;
  const source = inventorySourceOf(calculation.type)!;
  // D43: a primary calculation left out while it duplicates another says so.
  const duplicate = isPrimary(entry) && scan.leftOut.has(calculation.id);
  const counted = isPrimary(entry) && !duplicate;
  // D26: the drill-down and the passport print what the facility-year's netting takes off it.
  const netting = counted
    ? nettedGasesOf(calculation, balances?.get(facility), gwpCh4)
        .filter((g) => g.subtracted_t > 0)
        .map((g) => ({ gas: g.gas, t: round(g.subtracted_t), t_co2e: round(g.subtracted_t_co2e) }))
    : [];
  return {
    id: calculation.id,
    type: calculation.type,
    type_title: isCalculationType(calculation.type) ? REGISTRY[calculation.type].title : calculation.type,
    name: calculation.name,
    project: { id: project.id, name: project.name },
    facility,
    point: calculation.point ?? null,
    ...(calculation.drainage_points?.length ? { drainage_points: calculation.drainage_points } : {}),
    inventory_role: roleOf(calculation)!,
    counted,
    ...(duplicate ? { not_counted: DUPLICATE_LEFT_OUT } : {}),
    category: source.category,
    ipcc_code: ipccOf(calculation),
    period,
    ...(covered.length > 1 ? { covered } : {}),
    method: methodOf(calculation),
    // D24: a flare or boiler that takes its gas as 100 % CH4 says so on the line.
    notes: withPureMethaneMark(sourceNotesOf(source, entryOf(calculation)), calculation),
    gases: gasesOf(calculation, gwpCh4).map((g) => ({ ...g, t: round(g.t), t_co2e: round(g.t_co2e) })),
    ...(netting.length > 0 ? { netting } : {}),
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
 *  each at its own year's GWP, from the projects' sums (domain/inventory/sums.ts). */
async function totalsFromSums(
  deps: Deps,
  company: string,
  reviews: ReadonlyMap<number, InventoryReview>,
  sums: ReadonlyMap<string, InventorySums>,
  projects: readonly Project[],
  points: readonly EmissionPoint[],
  facilityId?: string,
  scans: ReadonlyMap<number, DuplicateScan> = new Map(),
): Promise<YearTotals[]> {
  const counts = (project: Project) => Object.keys(sums.get(project.id) ?? {}).some((key) => key.startsWith("c:"));
  const years = [
    ...new Set(
      projects.filter((p) => !p.is_deleted && (!facilityId || p.facility === facilityId) && counts(p)).map((p) => p.reporting_year),
    ),
  ].sort((a, b) => a - b);
  // D32: an approved year's totals are its approved version's.
  const totals: YearTotals[] = [];
  for (const year of years) {
    const { gwp_ch4 } = await gwpOfYear(deps, year);
    // D43: each year's standing duplicates counted once.
    const scan = scans.get(year) ?? (await duplicatesOfYear(deps, company, points, sums, projects, year));
    const figures = yearFigures(sumsWithoutDuplicates(sums, scan), projects, year, gwp_ch4, { facility: facilityId, points });
    const review = reviews.get(year);
    const approved = review && (await approvedFigures(deps, review, facilityId));
    totals.push(
      approved
        ? {
            year,
            total_t_co2e: approved.total_t_co2e,
            by_category: approved.by_category,
            not_counted: figures.not_counted,
            approved_version: approved.version,
            live_if_reopened_t_co2e: figures.total_t_co2e,
          }
        : { year, total_t_co2e: figures.total_t_co2e, by_category: figures.by_category, not_counted: figures.not_counted },
    );
  }
  return totals;
}

/** The profile's statistics by reporting year (never summed across years), from the same code. */
export async function inventoryTotalsByYear(deps: Deps, actor: Actor): Promise<YearTotals[]> {
  const [{ projects, sums }, reviews, points] = await Promise.all([
    keptOrLiveSums(deps, actor.company),
    reviewsOf(deps, actor.company),
    deps.repos.emissionPoints.listOfCompany(actor.company),
  ]);
  return totalsFromSums(oneDictionaryCheck(deps), actor.company, reviews, sums, projects, points);
}

/** D43: the standing duplicates of the company's year (every facility's: the threshold is the company's). */
const duplicatesOfYear = (
  deps: Deps,
  company: string,
  points: readonly EmissionPoint[],
  sums: ReadonlyMap<string, InventorySums>,
  projects: readonly Project[],
  year: number,
) =>
  duplicateScan(
    deps,
    company,
    points,
    sums,
    projects.filter((p) => !p.is_deleted && p.reporting_year === year),
  );

/** Every year's stored review of the company, by year. */
const reviewsOf = async (deps: Deps, companyId: string) =>
  new Map((await deps.repos.inventoryReviews.listOfCompany(companyId)).map((r) => [r.year, r]));

/** The projects and their sums: the ones the stream keeps when they hold every calculation write
 *  made so far (read-your-writes: inventorySums answers undefined while one is still on its way),
 *  else folded from the calculations themselves. */
export async function keptOrLiveSums(deps: Deps, companyId: string): Promise<{ projects: Project[]; sums: Map<string, InventorySums> }> {
  const [projects, kept] = await Promise.all([
    deps.repos.projects.listAllOfCompany(companyId),
    deps.repos.statistics.inventorySums(companyId, INVENTORY_SUMS_LAYOUT),
  ]);
  if (kept) return { projects, sums: kept };
  const { sums } = await entriesOf(deps, companyId, projects);
  return { projects, sums };
}
