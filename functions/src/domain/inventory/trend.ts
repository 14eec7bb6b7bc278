// The company's years side by side: each year's own inventory as GET v1/inventory/?year= answers it
// (an approved year its approved version's figures, D32; any other year its live figures, marked a
// draft), with the coal mined, the intensity per tonne, the methane destroyed and the change against
// the year before. The as-reported figures are the year readers' (year.ts, approved.ts); each year
// also reads «в сопоставимых условиях», its counted lines under one GWP set and the current factors
// (comparable.ts).
import type * as z from "zod";
import type { trendSchema } from "../../contract/schemas/answers";
import type { Actor, Deps } from "../context";
import { invalidAt, NotFound } from "../errors";
import { oneDictionaryCheck } from "../reference/dictionaries";
import { approvedLines } from "./approved";
import { coalMinedOf } from "./coal";
import { comparableConditions, comparableYear, type ComparableConditions, type ComparableSource } from "./comparable";
import { inventoryTotalsByYear, inventoryWithStored } from "./year";
import type { InventoryCalculation, InventorySummary } from "./types";
import { LIMITS } from "../../contract/schemas/limits";

/** The widest range one answer takes: each year is a whole inventory read. */
export const TREND_YEARS_MAX = LIMITS.inventory.trendYears;

/** The answer's shapes are the contract's (schemas/answers.ts trendSchema). */
export type Trend = z.output<typeof trendSchema>;
export type TrendYear = Trend["years"][number];
export type TrendFacility = TrendYear["facilities"][number];

const round = (value: number) => Math.round(value * 1e9) / 1e9;
const sum = (values: Array<number | undefined>) => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length > 0 ? round(known.reduce((a, b) => a + b, 0)) : undefined;
};
const per = (t_co2e: number, coal: number | undefined) => (coal ? t_co2e / coal : undefined);

export function checkTrendRange(from: number, to: number): void {
  if (from > to) throw invalidAt("from", "начальный год позже конечного");
  if (to - from + 1 > TREND_YEARS_MAX) throw invalidAt("to", `не более ${TREND_YEARS_MAX} лет в одном запросе`);
}

/** Every year of the range with a counted calculation or an approved version, of one facility when
 *  given; each also under the comparison year's conditions (comparable.ts): the GWP set asked for,
 *  else the one in force for `to`. */
export async function getTrend(deps: Deps, actor: Actor, from: number, to: number, facilityId?: string, gwpSetId?: number): Promise<Trend> {
  checkTrendRange(from, to);
  deps = oneDictionaryCheck(deps);
  // Another company's facility is a 404 even when the range holds no year to read it in.
  if (facilityId && !(await deps.repos.facilities.get(actor.company, facilityId))) throw new NotFound("Площадка не найдена");
  const known = (await inventoryTotalsByYear(deps, actor)).map((t) => t.year).filter((y) => y >= from && y <= to);
  const { conditions, years } = await trendYears(deps, actor, known, to, facilityId, gwpSetId);
  return {
    from,
    to,
    facility: facilityId ?? null,
    comparable: { year: conditions.year, gwp: { name: conditions.gwp.name, gwp_ch4: conditions.gwp.gwp_ch4 } },
    years,
  };
}

/** The given years (each with data) as reported and under the conditions of `conditionsYear`, each
 *  with its change against the one before it in the list. */
export async function trendYears(
  deps: Deps,
  actor: Actor,
  known: readonly number[],
  conditionsYear: number,
  facilityId?: string,
  gwpSetId?: number,
): Promise<{ conditions: ComparableConditions; years: TrendYear[] }> {
  const read: Array<{ year: Omit<TrendYear, "comparable">; sources: ComparableSource[]; methods: LineMethods }> = [];
  for (const year of known) {
    const { inventory, stored } = await inventoryWithStored(deps, actor, year, facilityId);
    // The figures, the coal and the comparable year come from the same lines: an approved year's frozen ones.
    const frozen = await approvedLines(deps, inventory.review, facilityId);
    const counted = (frozen ?? inventory.calculations).filter((l) => l.counted);
    const live = new Map(stored.map((c) => [c.id, c]));
    const sources = counted.flatMap((row): ComparableSource[] => {
      const from = frozen ? frozen.find((f) => f.id === row.id) : live.get(row.id);
      if (!from) return [];
      return [
        {
          id: row.id,
          type: row.type,
          name: row.name,
          project: row.project.id,
          facility: row.facility,
          inventory_role: row.inventory_role,
          ...(frozen ? { period: row.period } : live.get(row.id)?.period ? { period: live.get(row.id)!.period } : {}),
          point: row.point,
          ...(row.drainage_points ? { drainage_points: row.drainage_points } : {}),
          inputs: from.inputs,
          results: from.results,
          coefficients: from.coefficients,
        },
      ];
    });
    read.push({ year: yearOf(inventory, counted), sources, methods: methodsOf(counted) });
  }
  const conditions = await comparableConditions(
    deps,
    conditionsYear,
    read.flatMap((r) => r.sources),
    gwpSetId,
  );
  const [points, facilities] = await Promise.all([
    deps.repos.emissionPoints.listOfCompany(actor.company),
    deps.repos.facilities.list(actor.company),
  ]);
  const order = [...facilities].sort((a, b) => a.name.localeCompare(b.name, "ru")).map((f) => f.id);
  const years = read.map(({ year, sources }) => ({
    ...year,
    comparable: comparableOf(year, comparableYear(year.year, sources, conditions, { facility: facilityId, order, points }), conditions),
  }));
  for (let i = 1; i < years.length; i++) {
    const before = years[i - 1];
    years[i].change = changeOf(before.year, before, years[i]);
    years[i].comparable.change = changeOf(before.year, before.comparable, years[i].comparable);
    const methodChanges = methodChangesOf(read[i - 1].methods, read[i].methods);
    if (methodChanges.length > 0) years[i].method_changes = methodChanges;
  }
  return { conditions, years };
}

/** The year under the comparison year's conditions, in the as-reported year's shape. */
function comparableOf(
  year: Omit<TrendYear, "comparable">,
  { figures, changes, byLine }: ReturnType<typeof comparableYear>,
  conditions: ComparableConditions,
): TrendYear["comparable"] {
  const labels = new Map(year.lines.map((l) => [`${l.category}|${l.ipcc_code}|${l.gas}`, l]));
  const facilities = year.facilities.map((f) => {
    const t_co2e = round(figures.facilities.get(f.id) ?? 0);
    const intensity = per(t_co2e, sum([f.underground_t, f.open_pit_t]));
    return { id: f.id, name: f.name, t_co2e, ...(intensity !== undefined ? { intensity } : {}) };
  });
  const total = round(figures.total_t_co2e);
  const byKind = (kind: "underground_t" | "open_pit_t") =>
    per(sum(facilities.filter((_, i) => year.facilities[i][kind] !== undefined).map((f) => f.t_co2e)) ?? 0, year.coal[kind]);
  return {
    gwp_changed: year.gwp.gwp_ch4 !== conditions.gwp.gwp_ch4,
    total_t_co2e: total,
    lines: figures.lines.map(({ category, category_label, ipcc_code, ipcc_label, gas, t, t_co2e }) => {
      const key = `${category}|${ipcc_code}|${gas}`;
      const changed = byLine.get(key) ?? [];
      return {
        category,
        category_label: labels.get(key)?.category_label ?? category_label,
        ipcc_code,
        ipcc_label,
        gas,
        t: round(t),
        t_co2e: round(t_co2e),
        ...(changed.length > 0 ? { changes: changed } : {}),
      };
    }),
    categories: Object.entries(figures.by_category)
      .map(([category, t_co2e]) => ({
        category: Number(category),
        category_label: figures.lines.find((l) => l.category === Number(category))?.category_label ?? "",
        t_co2e: round(t_co2e ?? 0),
      }))
      .sort((a, b) => a.category - b.category),
    facilities,
    ...(year.coal.total_t !== undefined
      ? {
          intensity: {
            total: per(total, year.coal.total_t),
            underground: byKind("underground_t"),
            open_pit: byKind("open_pit_t"),
          },
        }
      : {}),
    changes,
  };
}

function yearOf(
  inventory: Omit<InventorySummary, "categories" | "check_calculations"> & { categories: InventorySummary["categories"] },
  counted: InventoryCalculation[],
): Omit<TrendYear, "comparable"> {
  const facilities: TrendFacility[] = inventory.facilities.map((f) => {
    const coal = coalMinedOf(counted.filter((c) => (c.facility ?? null) === f.id));
    const intensity = per(f.t_co2e, sum([coal.underground_t, coal.open_pit_t]));
    return { ...f, ...coal, ...(intensity !== undefined ? { intensity } : {}) };
  });
  const underground_t = sum(facilities.map((f) => f.underground_t));
  const open_pit_t = sum(facilities.map((f) => f.open_pit_t));
  const total_t = sum([underground_t, open_pit_t]);
  const byKind = (t: number | undefined, kind: "underground_t" | "open_pit_t") =>
    per(sum(facilities.filter((f) => f[kind] !== undefined).map((f) => f.t_co2e)) ?? 0, t);
  const categories = new Map<number, { category: number; category_label: string; t_co2e: number }>();
  for (const line of inventory.categories) {
    const row = categories.get(line.category) ?? { category: line.category, category_label: line.category_label, t_co2e: 0 };
    row.t_co2e = round(row.t_co2e + line.t_co2e);
    categories.set(line.category, row);
  }
  const drained = sum(inventory.balance.map((b) => b.drained_t));
  const destroyed = round(inventory.balance.reduce((a, b) => a + b.destroyed_t, 0));
  const approved = inventory.approved?.version ?? null;
  return {
    year: inventory.year,
    status: inventory.review.status,
    draft: approved === null,
    approved_version: approved,
    gwp: { name: inventory.gwp.name, gwp_ch4: inventory.gwp.gwp_ch4 },
    total_t_co2e: inventory.total_t_co2e,
    lines: inventory.categories.map(({ category, category_label, ipcc_code, ipcc_label, gas, t, t_co2e }) => ({
      category,
      category_label,
      ipcc_code,
      ipcc_label,
      gas,
      t,
      t_co2e,
    })),
    categories: [...categories.values()].sort((a, b) => a.category - b.category),
    facilities,
    coal: {
      ...(underground_t !== undefined ? { underground_t } : {}),
      ...(open_pit_t !== undefined ? { open_pit_t } : {}),
      ...(total_t !== undefined ? { total_t } : {}),
    },
    ...(total_t !== undefined
      ? {
          intensity: {
            total: per(inventory.total_t_co2e, total_t),
            underground: byKind(underground_t, "underground_t"),
            open_pit: byKind(open_pit_t, "open_pit_t"),
          },
        }
      : {}),
    ...(inventory.balance.length > 0 && (drained !== undefined || destroyed > 0)
      ? {
          methane: {
            drained_t: drained ?? 0,
            destroyed_t: destroyed,
            ...(drained ? { destroyed_share_pct: round((destroyed / drained) * 100) } : {}),
          },
        }
      : {}),
  };
}

/** Per line (`category|ipcc_code|gas`) the line's labels and the methods of its counted calculations. */
type LineMethods = Map<string, { category: number; ipcc_code: string; gas: "CH4" | "CO2"; methods: Set<string> }>;

function methodsOf(counted: readonly InventoryCalculation[]): LineMethods {
  const lines: LineMethods = new Map();
  for (const row of counted) {
    for (const { gas } of row.gases) {
      const key = `${row.category}|${row.ipcc_code}|${gas}`;
      const line = lines.get(key) ?? { category: row.category, ipcc_code: row.ipcc_code, gas, methods: new Set<string>() };
      line.methods.add(row.method);
      lines.set(key, line);
    }
  }
  return lines;
}

/** A line both years report whose methods differ (a tier, or measured → estimated): IPCC 2006 Vol. 1
 *  ch. 5 asks the series to be recalculated or the change explained. */
function methodChangesOf(before: LineMethods, after: LineMethods): NonNullable<TrendYear["method_changes"]> {
  const sorted = (methods: Set<string>) => [...methods].sort((a, b) => a.localeCompare(b, "ru"));
  return [...after.entries()].flatMap(([key, line]) => {
    const was = before.get(key);
    if (!was) return [];
    const [from, to] = [sorted(was.methods), sorted(line.methods)];
    if (from.join("|") === to.join("|")) return [];
    return [{ category: line.category, ipcc_code: line.ipcc_code, gas: line.gas, before: from, after: to }];
  });
}

/** The change against the year before in the range (absent % when that year's total was 0). */
function changeOf(fromYear: number, before: { total_t_co2e: number }, after: { total_t_co2e: number }): TrendYear["change"] {
  const t_co2e = round(after.total_t_co2e - before.total_t_co2e);
  return {
    from_year: fromYear,
    t_co2e,
    ...(before.total_t_co2e !== 0 ? { pct: round((t_co2e / before.total_t_co2e) * 100) } : {}),
  };
}
