// The inventory's figures as sums (docs/performance.md, «Inventory from aggregates»): what each
// calculation adds to its project's sums, and a year's lines, facilities, totals, methane balances
// and per-year totals from the sums of its projects. One concept, two uses: the table's stream
// keeps the sums of every project (events/table-changes.ts, exactly once, reconciled nightly by
// domain/inventory/statistics.ts), and a live inventory folds the calculations it read into the same sums.
// Both then go through yearFigures, so an answer from the kept sums and one computed live are the
// same numbers, not merely close ones.
//
// Masses are added as whole milligrams (10⁻⁹ t, the precision the inventory has always rounded
// its answers to): integer addition is exact and does not depend on order, so a sum kept by
// adding and taking away each change equals the sum of the calculations as they stand. Exact
// while a sum stays under 2⁵³ mg (9 000 000 t of one gas on one line of one project).
//
// The sums depend on the calculation alone, never on its project: a project's reporting year,
// facility or archiving is applied when the sums are read, so a project's change moves no sum.
import {
  INVENTORY_SOURCES,
  IPCC_CODES,
  ORDER_371_CATEGORIES,
  NETTED_LINE,
  inventorySourceOf,
  ipccCodeOf,
  leftOutReason,
  leftOutSummary,
  type Gas,
  type InventoryRole,
  type LeftOutReason,
  type Order371Category,
} from "@core/inventory";
import { co2Equivalent } from "@core/gwp-in-force";
import {
  BALANCE_SUM_FIELDS,
  balanceOf,
  balanceStreams,
  balanceSumsOf,
  basisOf,
  emptyBalanceSums,
  type BalanceSums,
  type DestructionPart,
  type MethaneBalance,
  type MiningPart,
  type StreamBalance,
} from "@core/methane-balance";
import { coverageDifference, measuredCoverage, type SourcePeriod } from "@core/source-periods";
import { REGISTRY, isCalculationType } from "@core/registry";
import { coefficientFlags } from "../reference/coefficients";
import type { Project } from "../../contract/schemas/project";
import type { DamagedCalculation } from "../../ports";
import { damageOf } from "../calculation-shape";

/** A project's sums: `t:{category}|{ipcc}|{gas}` (mg of the counted calculations) and `c:…` (how
 *  many: a line of zero tonnes is still a line), `b:{field}`
 *  (mg of their methane balance, D17), `b#` (how many take part in it), `bp:{point}|{field}` (a point's part), `bx:{drainage points}|{field}`
 *  (D35: destruction by the drainage points it names, "" none), `r:{ipcc}` (mg of CH4 of
 *  the mining lines the balance nets, D17), `n:{reason}` (calculations left out, D18).
 *  What the year's checks read (domain/inventory/checks.ts): `d:{unit}|{ipcc}|{gases}|{day}` (D19: the
 *  counted calculations' periods as coverage differences, source-periods.ts), `d0:{unit}|{ipcc}|{gases}`
 *  (how many cover their project's dates), `f:{flag}|{type}` (D10: how many counted calculations
 *  have a coefficient a verifier will ask about; 9.1: a count, so the sums do not grow with them), `g:{gwp}` (D12: how many were stored with that GWP of CH4),
 *  `x:{type}|{id}` (a calculation of the wrong shape, domain/calculation-shape.ts: it adds nothing
 *  else, and the checks name it). */
export type InventorySums = Record<string, number>;

/** The keys the sums hold: kept sums of an older layout are not read (the live fold is) until a
 *  reconciliation has brought them to this one. 2: the checks' keys (d:, d0:, f:, g:); 3: a boiler
 *  on drained methane a source of its own beside the flare in the d: keys, and post-mining methane
 *  kept apart from the gross mining figures (b:post_mining); 4: the flagged calculations counted per
 *  flag and type (f:), no longer one key per calculation; 5: the CO2 of gross measured mining figures
 *  and the CO2 burnt drained gas carried (b:co2_gross, b:co2_carried, D28); 6: destruction by the
 *  drainage points it names (bx:, D35); 7: a measured calculation's coverage from its
 *  measurement periods (d:, D42); 8: a calculation of the wrong shape marked (x:) instead of added
 *  as zeros. */
export const INVENTORY_SUMS_LAYOUT = 8;

export const MG_PER_T = 1e9;
const mg = (t: number) => Math.round(t * MG_PER_T);
const tOf = (milligrams: number) => milligrams / MG_PER_T;
const round = (value: number) => Math.round(value * 1e9) / 1e9;
const NETTED_LINES = ["1.B.1.a.i.1", "1.B.1.a.i.2"];

/** What a stored calculation reads as (an item of the table or a StoredCalculation). */
interface SumsItem {
  id?: unknown;
  type?: unknown;
  period?: unknown;
  project?: unknown;
  is_deleted?: unknown;
  inventory_role?: unknown;
  inputs?: unknown;
  results?: unknown;
  coefficients?: unknown;
  point?: unknown;
  drainage_points?: unknown;
}

const massOf = (results: Record<string, unknown>, name: string) => {
  const value = results[name];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
};

/** The dictionary entry behind a line's IPCC code (D16), as domain/inventory/year.ts reads it. */
export function entryOfCoefficients(type: string, coefficients: unknown): number | undefined {
  const source = inventorySourceOf(type);
  const ef = (coefficients as Record<string, { dictionary?: string; item_id?: number }> | undefined)?.ef;
  return source?.dictionary && ef?.dictionary === source.dictionary ? ef.item_id : undefined;
}

/** The IPCC code of a stored calculation of an inventory type. */
export function ipccOfItem(type: string, coefficients: unknown): string {
  return ipccCodeOf(inventorySourceOf(type)!, entryOfCoefficients(type, coefficients));
}

/** What one stored calculation adds to its project's sums; undefined for any other item, a
 *  deleted calculation or a type that is not the inventory's. */
export function inventorySumsOf(item: SumsItem | undefined): { project: string; sums: InventorySums } | undefined {
  if (item?.is_deleted !== false || typeof item.type !== "string" || typeof item.project !== "string") return undefined;
  const type = item.type;
  const source = inventorySourceOf(type);
  if (!source) return undefined;
  if (damageOf(item) !== undefined) return { project: item.project, sums: { [damageKey(type, String(item.id))]: 1 } };
  const reason = leftOutReason(
    {
      type,
      inventory_role: (item.inventory_role as InventoryRole | null | undefined) ?? null,
      project: item.project,
      reporting_year: 0,
      facility: null,
    },
    { year: 0 },
  );
  const inputs = (item.inputs ?? {}) as Record<string, unknown>;
  const sums: InventorySums = {};
  const add = (key: string, value: number) => {
    sums[key] = (sums[key] ?? 0) + value;
  };
  if (source.gases.some((g) => g.gas === "CH4") && typeof inputs.gwp_ch4 === "number") add(`g:${inputs.gwp_ch4}`, 1);
  if (reason) {
    add(`n:${reason}`, 1);
    return { project: item.project, sums };
  }
  const results = (item.results ?? {}) as Record<string, unknown>;
  const ipcc = ipccOfItem(type, item.coefficients);
  for (const { gas, result } of source.gases) {
    add(`t:${source.category}|${ipcc}|${gas}`, mg(massOf(results, result)));
    add(`c:${source.category}|${ipcc}|${gas}`, 1);
  }
  const point = typeof item.point === "string" && item.point ? item.point : undefined;
  const balance = balanceSumsOf({ type, inputs, results, coefficients: item.coefficients as never });
  const destroys = balance !== undefined && basisOf(type, inputs) === undefined;
  if (balance) {
    add("b#", 1);
    for (const field of BALANCE_SUM_FIELDS) {
      if (balance[field] === undefined) continue;
      add(`b:${field}`, mg(balance[field]));
      // D25: the balance by stream reads each point's part with the point's kind.
      if (point) add(`bp:${point}|${field}`, mg(balance[field]));
      // D35: a flare's, boiler's or engine's gas under the drainage points it names ("" none).
      if (destroys) add(`bx:${drainageOf(item)}|${field}`, mg(balance[field]));
    }
  }
  if (NETTED_LINES.includes(ipcc)) add(`r:${ipcc}`, mg(massOf(results, "res_ch4")));
  const source19 = `${sourceUnitOf(type, ipcc, item.coefficients, point)}|${ipcc}|${source.gases.map((g) => g.gas).join(",")}`;
  // D42: a measured calculation covers its measurement periods' union, else its own period.
  const measured = measuredCoverage(results);
  const covered = measured.length > 0 ? measured : isPeriod(item.period) ? [item.period] : [];
  for (const period of covered) {
    for (const [day, n] of Object.entries(coverageDifference(period))) add(`d:${source19}|${day}`, n);
  }
  if (covered.length === 0) add(`d0:${source19}`, 1);
  if (isCalculationType(type)) {
    const flags = coefficientFlags(REGISTRY[type], (item.coefficients ?? {}) as never);
    for (const flag of CHECKED_FLAGS) if (flags.some((f) => f.startsWith(`${flag}:`))) add(`f:${flag}|${type}`, 1);
  }
  return { project: item.project, sums };
}

/** D35: the drainage points a destruction calculation names, sorted and joined ("" for none). */
const drainageOf = (item: SumsItem) =>
  Array.isArray(item.drainage_points)
    ? item.drainage_points
        .filter((p): p is string => typeof p === "string")
        .sort()
        .join(",")
    : "";

/** The sums' mark of a calculation of the wrong shape (`x:` without its prefix is `{type}|{id}`). */
const damageKey = (type: string, id: string) => `x:${type}|${id}`;

/** D10: the flags of a counted calculation the year's checks name. */
export const CHECKED_FLAGS = ["custom_without_justification", "custom_out_of_range", "custom_without_uncertainty"] as const;

/** D19: what tells two sources with one code apart. Fuel combustion (1.A) shares one code across
 *  different sources (a boiler house and the open-pit machinery, a boiler on coal and one on gas,
 *  machinery on diesel and on petrol), and so does drained methane destroyed (1.B.1.a.i.4): the
 *  flare and the boiler that burns the same gas are two installations. There the type and the fuel
 *  (the entry its factor came from) do; elsewhere, and between the flare's methods, the code alone. */
export function sourceUnitOf(type: string, ipcc: string, coefficients: unknown, point?: string): string {
  // D25: a measured or destruction calculation of an emission point is that point's: `@{point}`
  // before what tells the installations apart (the checks read a «Шахта в целом» point as none).
  const at = point ? `@${point}` : "";
  if (!ipcc.startsWith("1.A.") && type !== "disposal_co2_stat_sources") return at;
  const ef = (coefficients as Record<string, { dictionary?: string; item_id?: number }> | undefined)?.ef;
  return `${at}#${type}:${ef?.dictionary ? `${ef.dictionary}/${ef.item_id}` : ""}`;
}

/** D25: a source unit's point and what it is beside it (`@{point}{base}` or `{base}`). */
export function pointOfUnit(unit: string): { point: string | undefined; base: string } {
  if (!unit.startsWith("@")) return { point: undefined, base: unit };
  const end = unit.indexOf("#");
  return end === -1 ? { point: unit.slice(1), base: "" } : { point: unit.slice(1, end), base: unit.slice(end) };
}

const isPeriod = (value: unknown): value is SourcePeriod =>
  typeof (value as SourcePeriod | null)?.from === "string" && typeof (value as SourcePeriod | null)?.to === "string";

/** The differences a change of one calculation (old image → new image) makes, per project. */
export function inventorySumsDeltas(
  oldItem: SumsItem | undefined,
  newItem: SumsItem | undefined,
): Array<{ project: string; sums: InventorySums }> {
  const byProject = new Map<string, InventorySums>();
  const add = (part: ReturnType<typeof inventorySumsOf>, sign: 1 | -1) => {
    if (!part) return;
    const into = byProject.get(part.project) ?? byProject.set(part.project, {}).get(part.project)!;
    for (const [key, value] of Object.entries(part.sums)) into[key] = (into[key] ?? 0) + sign * value;
  };
  add(inventorySumsOf(oldItem), -1);
  add(inventorySumsOf(newItem), 1);
  return [...byProject.entries()]
    .map(([project, sums]) => ({ project, sums: withoutZeros(sums) }))
    .filter((delta) => Object.keys(delta.sums).length > 0);
}

export const withoutZeros = (sums: InventorySums): InventorySums => Object.fromEntries(Object.entries(sums).filter(([, v]) => v !== 0));

/** Adds `part` into `into` (sign −1 takes it away). */
export function addSums(into: InventorySums, part: InventorySums, sign: 1 | -1 = 1): InventorySums {
  for (const [key, value] of Object.entries(part)) into[key] = (into[key] ?? 0) + sign * value;
  return into;
}

/** The sums of every project, folded from its stored calculations (the live inventory, the
 *  reconciliation's truth). */
export function sumsOfCalculations(
  calculations: readonly SumsItem[],
  damaged: readonly DamagedCalculation[] = [],
): Map<string, InventorySums> {
  const byProject = new Map<string, InventorySums>();
  const parts = [
    ...calculations.map(inventorySumsOf),
    // The company's calculations of the wrong shape, which the lists leave out: their marks.
    ...damaged.map((d) =>
      !d.is_deleted && d.project && inventorySourceOf(d.type) ? { project: d.project, sums: { [damageKey(d.type, d.id)]: 1 } } : undefined,
    ),
  ];
  for (const part of parts) {
    if (!part) continue;
    addSums(byProject.get(part.project) ?? byProject.set(part.project, {}).get(part.project)!, part.sums);
  }
  // As the kept sums have them: a sum that came to zero is no attribute.
  return new Map([...byProject.entries()].map(([project, sums]) => [project, withoutZeros(sums)]));
}

/** A line of the year (its calculations are listed apart). */
export interface FigureLine {
  category: Order371Category;
  category_label: string;
  ipcc_code: string;
  ipcc_label: string;
  gas: Gas;
  t: number;
  t_co2e: number;
  /** How many counted calculations make it. */
  count: number;
}

export interface YearFigures {
  lines: FigureLine[];
  /** CO2-eq per facility (null: projects without one), netted (D17). */
  facilities: Map<string | null, number>;
  total_t_co2e: number;
  /** With the streams of D25 when the points were given. */
  balances: Array<MethaneBalance & Partial<StreamBalance>>;
  /** CO2-eq per Order 371 category, netted. */
  by_category: Partial<Record<Order371Category, number>>;
  /** D18: «не учтены: …», "" for nothing. */
  not_counted: string;
}

/** The year's figures from the sums of the projects of `year` that are not archived (of one
 *  facility when given), CH4 at `gwpCh4`. Facilities in `order` (by name, no facility last). */
export function yearFigures(
  sums: ReadonlyMap<string, InventorySums>,
  projects: readonly Pick<Project, "id" | "reporting_year" | "end_date" | "facility" | "is_deleted">[],
  year: number,
  gwpCh4: number,
  options: {
    facility?: string;
    order?: readonly (string | null)[];
    /** D25: the company's emission points, to give each balance its streams. */
    points?: ReadonlyArray<{ readonly id: string; readonly kind: string }>;
  } = {},
): YearFigures {
  const byFacility = new Map<string | null, InventorySums>();
  for (const project of projects) {
    if (project.is_deleted || project.reporting_year !== year) continue;
    const facility = project.facility || null;
    if (options.facility && facility !== options.facility) continue;
    const own = sums.get(project.id);
    if (own) addSums(byFacility.get(facility) ?? byFacility.set(facility, {}).get(facility)!, own);
  }
  const order = [...(options.order ?? [])];
  const facilities = [...byFacility.keys()].sort((a, b) => rank(order, a) - rank(order, b));

  const lineMg = new Map<string, number>();
  const lineCount = new Map<string, number>();
  const facilityT = new Map<string | null, number>();
  const notCounted: Partial<Record<LeftOutReason, number>> = {};
  for (const facility of facilities) {
    const own = byFacility.get(facility)!;
    let t_co2e = 0;
    let counted = false;
    for (const key of Object.keys(own).sort()) {
      if (key.startsWith("c:")) {
        const line = key.slice(2);
        const milligrams = own[`t:${line}`] ?? 0;
        lineMg.set(line, (lineMg.get(line) ?? 0) + milligrams);
        lineCount.set(line, (lineCount.get(line) ?? 0) + own[key]);
        t_co2e += co2Equivalent(line.slice(line.lastIndexOf("|") + 1) as Gas, tOf(milligrams), gwpCh4);
        counted = true;
      } else if (key.startsWith("n:")) {
        const reason = key.slice(2) as LeftOutReason;
        notCounted[reason] = (notCounted[reason] ?? 0) + own[key];
      }
    }
    if (counted) facilityT.set(facility, t_co2e);
  }
  const lines = new Map<string, FigureLine>();
  for (const [key, milligrams] of lineMg) {
    const [category, ipcc, gas] = key.split("|");
    const t = tOf(milligrams);
    lines.set(key, {
      category: Number(category) as Order371Category,
      category_label: ORDER_371_CATEGORIES[Number(category) as Order371Category],
      ipcc_code: ipcc,
      ipcc_label: IPCC_CODES[ipcc] ?? ipcc,
      gas: gas as Gas,
      t,
      t_co2e: co2Equivalent(gas as Gas, t, gwpCh4),
      count: lineCount.get(key) ?? 0,
    });
  }
  // D17: the mining line carries what reached the atmosphere; the gas the facility destroyed comes
  // off it (never more than the gross mining figures it holds), so no line goes below zero.
  const balances: YearFigures["balances"] = [];
  const kinds = new Map<string, string>(options.points?.map((p) => [p.id, p.kind]));
  for (const facility of facilities) {
    const own = byFacility.get(facility)!;
    if (!own["b#"]) continue;
    const balanceSums = emptyBalanceSums();
    for (const field of BALANCE_SUM_FIELDS) balanceSums[field] = tOf(own[`b:${field}`] ?? 0);
    const balance = balanceOf(facility, balanceSums, nettingPartsOf(own, balanceSums, kinds));
    if (options.points) {
      // D25: each point's part (`bp:{point}|{field}`), read with its kind as stored now.
      const byPoint = new Map<string, ReturnType<typeof emptyBalanceSums>>();
      for (const key of Object.keys(own).sort()) {
        if (!key.startsWith("bp:")) continue;
        const [point, field] = key.slice(3).split("|");
        const sums = byPoint.get(point) ?? byPoint.set(point, emptyBalanceSums()).get(point)!;
        sums[field as keyof typeof sums] += tOf(own[key]);
      }
      const order = options.points.map((p) => p.id);
      const parts = [...byPoint.entries()]
        .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
        .map(([point, sums]) => ({ point, kind: kinds.get(point) ?? "other", sums }));
      balances.push({ ...balance, ...balanceStreams(balance, parts) });
    } else balances.push(balance);
    // D28: the CO2 the burnt drained gas carried is on the combustion lines: it comes off the
    // mining line's CO2, never below zero.
    if (balance.co2_netted_t > 0) {
      const line = lines.get(`3|${NETTED_LINE}|CO2`);
      if (line) {
        line.t -= balance.co2_netted_t;
        line.t_co2e -= balance.co2_netted_t;
        facilityT.set(facility, (facilityT.get(facility) ?? 0) - balance.co2_netted_t);
      }
    }
    let rest = balance.netted_t;
    for (const ipcc of NETTED_LINES) {
      const t = Math.min(rest, tOf(own[`r:${ipcc}`] ?? 0));
      if (t <= 0) continue;
      const line = lines.get(`3|${ipcc}|CH4`)!;
      line.t -= t;
      const t_co2e = co2Equivalent("CH4", t, gwpCh4);
      line.t_co2e -= t_co2e;
      facilityT.set(facility, (facilityT.get(facility) ?? 0) - t_co2e);
      rest -= t;
    }
  }
  const sorted = [...lines.values()]
    .map((line) => ({ ...line, t: round(line.t), t_co2e: round(line.t_co2e) }))
    .sort((a, b) => a.category - b.category || a.ipcc_code.localeCompare(b.ipcc_code) || a.gas.localeCompare(b.gas));
  const byCategory: Partial<Record<Order371Category, number>> = {};
  for (const line of sorted) byCategory[line.category] = round((byCategory[line.category] ?? 0) + line.t_co2e);
  return {
    lines: sorted,
    facilities: new Map([...facilityT.entries()].map(([id, t]) => [id, round(t)])),
    total_t_co2e: round(sorted.reduce((sum, line) => sum + line.t_co2e, 0)),
    balances,
    by_category: byCategory,
    not_counted: leftOutSummary(
      Object.entries(notCounted).flatMap(([reason, n]) => Array.from({ length: n ?? 0 }, () => ({ reason: reason as LeftOutReason }))),
    ),
  };
}

/** The fields of a mining figure's part of the balance (the rest are what destruction sent). */
const MINING_FIELDS = ["gross", "net", "post_mining", "co2_gross"] as const;

/** D35: a facility's balance parts from its sums: each point's mining figures (`bp:`, the part no
 *  point holds under null) with the point's kind, and the destruction by the drainage points it
 *  names (`bx:`). */
function nettingPartsOf(
  own: InventorySums,
  total: BalanceSums,
  kinds: ReadonlyMap<string, string>,
): { mining: MiningPart[]; destruction: DestructionPart[] } {
  const byPoint = new Map<string, BalanceSums>();
  const destruction = new Map<string, BalanceSums>();
  for (const key of Object.keys(own).sort()) {
    const into = key.startsWith("bp:") ? byPoint : key.startsWith("bx:") ? destruction : undefined;
    if (!into) continue;
    const at = key.lastIndexOf("|");
    const part = key.slice(3, at);
    const sums = into.get(part) ?? into.set(part, emptyBalanceSums()).get(part)!;
    sums[key.slice(at + 1) as keyof BalanceSums] += tOf(own[key]);
  }
  const unpointed = emptyBalanceSums();
  for (const field of MINING_FIELDS) {
    unpointed[field] = Math.max(0, total[field] - [...byPoint.values()].reduce((sum, p) => sum + p[field], 0));
  }
  const mining: MiningPart[] = [...byPoint.entries()]
    .filter(([, sums]) => MINING_FIELDS.some((field) => sums[field] > 0))
    .map(([point, sums]) => ({ point, kind: kinds.get(point) ?? "other", sums }));
  if (MINING_FIELDS.some((field) => unpointed[field] > 0)) mining.push({ point: null, kind: "", sums: unpointed });
  return {
    mining,
    destruction: [...destruction.entries()].map(([names, sums]) => ({ drainage_points: names ? names.split(",") : [], sums })),
  };
}

/** A facility's place in `order`; the ones not in it after, no facility last. */
function rank(order: readonly (string | null)[], facility: string | null): number {
  if (facility === null) return Number.MAX_SAFE_INTEGER;
  const at = order.indexOf(facility);
  return at === -1 ? order.length : at;
}

/** The inventory types (the sums and the live read take only these). */
export const INVENTORY_TYPES = Object.keys(INVENTORY_SOURCES);
