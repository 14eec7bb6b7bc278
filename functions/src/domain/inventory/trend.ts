// The company's years side by side: each year's own inventory as GET v1/inventory/?year= answers it
// (an approved year its approved version's figures, D32; any other year its live figures, marked a
// draft), with the coal mined, the intensity per tonne, the methane destroyed and the change against
// the year before. Nothing is recomputed here: the figures are the year readers' (year.ts, approved.ts).
import type * as z from "zod";
import type { trendSchema } from "../../contract/schemas/answers";
import type { Actor, Deps } from "../context";
import { Invalid, NotFound } from "../errors";
import { oneDictionaryCheck } from "../reference/dictionaries";
import { approvedCalculations } from "./approved";
import { coalMinedOf } from "./coal";
import { getInventoryWithCalculations, inventoryTotalsByYear } from "./year";
import type { InventoryCalculation, InventorySummary } from "./types";

/** The widest range one answer takes: each year is a whole inventory read. */
export const TREND_YEARS_MAX = 30;

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
  if (from > to) throw new Invalid("from: начальный год позже конечного");
  if (to - from + 1 > TREND_YEARS_MAX) throw new Invalid(`to: не более ${TREND_YEARS_MAX} лет в одном запросе`);
}

/** Every year of the range with a counted calculation or an approved version, of one facility when given. */
export async function getTrend(deps: Deps, actor: Actor, from: number, to: number, facilityId?: string): Promise<Trend> {
  checkTrendRange(from, to);
  deps = oneDictionaryCheck(deps);
  // Another company's facility is a 404 even when the range holds no year to read it in.
  if (facilityId && !(await deps.repos.facilities.get(actor.company, facilityId))) throw new NotFound("Площадка не найдена");
  const known = (await inventoryTotalsByYear(deps, actor)).map((t) => t.year).filter((y) => y >= from && y <= to);
  const years: TrendYear[] = [];
  for (const year of known) {
    const inventory = await getInventoryWithCalculations(deps, actor, year, facilityId);
    // The coal comes from the lines the figures come from: an approved year's frozen ones.
    const lines = (await approvedCalculations(deps, inventory.review, facilityId)) ?? inventory.calculations;
    years.push(
      yearOf(
        inventory,
        lines.filter((l) => l.counted),
      ),
    );
  }
  for (let i = 1; i < years.length; i++) years[i].change = changeOf(years[i - 1], years[i]);
  return { from, to, facility: facilityId ?? null, years };
}

function yearOf(
  inventory: Omit<InventorySummary, "categories" | "check_calculations"> & { categories: InventorySummary["categories"] },
  counted: InventoryCalculation[],
): TrendYear {
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

/** The change against the year before in the range (absent % when that year's total was 0). */
function changeOf(before: TrendYear, after: TrendYear): TrendYear["change"] {
  const t_co2e = round(after.total_t_co2e - before.total_t_co2e);
  return {
    from_year: before.year,
    t_co2e,
    ...(before.total_t_co2e !== 0 ? { pct: round((t_co2e / before.total_t_co2e) * 100) } : {}),
  };
}
