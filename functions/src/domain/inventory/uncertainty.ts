// The year's uncertainty and key categories by IPCC line and gas (D26, D27; docs/methodology.md,
// Uncertainty): the inventory's netted lines at the year's GWP set, each with the activity-data and
// factor uncertainties of its gross figure (Eq. 3.2 over its counted calculations, each gas of a
// calculation by Eq. 3.1 over its inputs as it recorded them) and the destroyed gas the facility-
// years' netting takes off it with its cited default; then the core's one computation of the
// Approach 1 table, key categories and a seeded Monte Carlo run (year-uncertainty.ts, which the
// `npm run inventory -- uncertainty` command runs on the same lines).
import {
  DEFAULT_SEED,
  DEFAULT_TRIALS,
  DESTROYED_GAS_UNCERTAINTY,
  calculationModel,
  gasApproach1,
  type CalculationModel,
  type UsedValue,
} from "@core/calculation-uncertainty";
import { co2Equivalent } from "@core/gwp-in-force";
import { uncertaintyCore } from "@core/uncertainty-node";
import { linesReport, type LineInput } from "@core/year-uncertainty";
import type { Actor, Deps } from "../context";
import { Invalid } from "../errors";
import type { Calculation } from "../../ports";
import { getInventory, inventoryWithStored } from "./year";

/** A stored calculation as a sum of products of its uncertain inputs, as it recorded them. */
export function modelOf(calculation: Calculation): CalculationModel | undefined {
  return calculationModel({
    id: calculation.id,
    type: calculation.type,
    name: calculation.name,
    results: calculation.results,
    coefficients: calculation.coefficients as Record<string, UsedValue>,
  });
}

/** The Monte Carlo run of the year's total: fixed, so the answer is reproducible. */
export const YEAR_MONTE_CARLO = { trials: DEFAULT_TRIALS, seed: DEFAULT_SEED } as const;

const lineId = (line: { category: number; ipcc_code: string; gas: string }) => `${line.category}|${line.ipcc_code}|${line.gas}`;
const hypotOf = (values: readonly number[]) => Math.hypot(...values);

export async function yearUncertainty(deps: Deps, actor: Actor, year: number, facilityId?: string, baseYear?: number) {
  if (baseYear !== undefined && baseYear >= year) throw new Invalid("base: базовый год должен быть раньше отчетного");
  const [{ inventory, stored }, base] = await Promise.all([
    inventoryWithStored(deps, actor, year, facilityId),
    baseYear === undefined ? undefined : getInventory(deps, actor, baseYear, facilityId),
  ]);
  const core = uncertaintyCore();
  const gwpCh4 = inventory.gwp.gwp_ch4;
  const models = new Map(stored.map((calculation) => [calculation.id, modelOf(calculation)]));
  const counted = inventory.calculations.filter((row) => row.counted);
  // The base year at this year's GWP set, so the trend compares like with like.
  const baseOf = new Map((base?.categories ?? []).map((line) => [lineId(line), { line, t_co2e: co2Equivalent(line.gas, line.t, gwpCh4) }]));
  const lines = inventory.categories.map((line): { line: typeof line; input: LineInput; without: number } => {
    const id = lineId(line);
    let gross = 0;
    let without = 0;
    const ad: number[] = [];
    const ef: number[] = [];
    const destroyedOf = new Map<string | null, number>();
    for (const row of counted) {
      if (lineId({ category: row.category, ipcc_code: row.ipcc_code, gas: line.gas }) !== id) continue;
      const own = row.gases.find((g) => g.gas === line.gas);
      if (!own) continue;
      const model = models.get(row.id);
      const u = model ? gasApproach1(core, model, line.gas) : { ad_u: 0, ef_u: 0 };
      if (u.ad_u === 0 && u.ef_u === 0) without += 1;
      gross += own.t_co2e;
      ad.push(u.ad_u * own.t_co2e);
      ef.push(u.ef_u * own.t_co2e);
      const subtracted = row.netting?.find((g) => g.gas === line.gas)?.t_co2e ?? 0;
      if (subtracted > 0) destroyedOf.set(row.facility, (destroyedOf.get(row.facility) ?? 0) + subtracted);
    }
    const destroyed = [...destroyedOf.values()].reduce((sum, t) => sum + t, 0);
    // Each facility-year's destroyed gas is measured apart: Eq. 3.2 over the facilities.
    const destroyedU =
      destroyed > 0 ? hypotOf([...destroyedOf.values()].map((t) => t * DESTROYED_GAS_UNCERTAINTY.upper_pct)) / destroyed : 0;
    const input: LineInput = {
      id,
      base: baseOf.get(id)?.t_co2e ?? 0,
      current: line.t_co2e,
      ad_u: gross > 0 ? hypotOf(ad) / gross : 0,
      ef_u: gross > 0 ? hypotOf(ef) / gross : 0,
      ...(destroyed > 0 ? { destroyed, destroyed_u: destroyedU } : {}),
    };
    return { line, input, without };
  });
  // Lines of the base year that this year no longer has count in the trend with nothing now.
  const gone = [...baseOf.entries()]
    .filter(([id]) => !lines.some((l) => l.input.id === id))
    .map(([id, { line, t_co2e }]): (typeof lines)[number] => ({
      line: { ...line, t: 0, t_co2e: 0, count: 0, calculations: [] },
      input: { id, base: t_co2e, current: 0, ad_u: 0, ef_u: 0 },
      without: 0,
    }));
  const all = [...lines, ...gone];
  const total = inventory.total_t_co2e;
  const baseTotal = all.reduce((sum, l) => sum + l.input.base, 0);
  const withTrend = base !== undefined && baseTotal !== 0;
  const inputs = all.map((l) => (withTrend ? l.input : { ...l.input, base: l.input.current }));
  const report = inputs.length > 0 && total !== 0 ? linesReport(core, inputs, YEAR_MONTE_CARLO) : undefined;
  const g = new Map(report?.rows.map((row) => [row.id, row.G]));
  const interval = (value: number, u_pct: number) => {
    const half = (Math.abs(value) * u_pct) / 100;
    return { u_pct, lower: value - half, upper: value + half };
  };
  return {
    year,
    facility: facilityId ?? null,
    base_year: baseYear ?? null,
    gwp: inventory.gwp,
    ...(inventory.approved ? { approved_version: inventory.approved.version } : {}),
    lines: all.map(({ line, input, without }) => ({
      id: input.id,
      category: line.category,
      category_label: line.category_label,
      ipcc_code: line.ipcc_code,
      ipcc_label: line.ipcc_label,
      gas: line.gas,
      count: line.count,
      without_uncertainty: without,
      t_co2e: input.current,
      gross_t_co2e: input.current + (input.destroyed ?? 0),
      destroyed_t_co2e: input.destroyed ?? 0,
      ad_u: input.ad_u,
      ef_u: input.ef_u,
      destroyed_u: input.destroyed_u ?? 0,
      ...interval(input.current, g.get(input.id) ?? 0),
      base_t_co2e: withTrend ? input.base : null,
    })),
    destroyed_source: DESTROYED_GAS_UNCERTAINTY.source,
    total: { t_co2e: total, ...interval(total, report?.level_pct ?? 0) },
    monte_carlo: report?.monte_carlo ? { ...YEAR_MONTE_CARLO, ...report.monte_carlo } : null,
    key_level: (report?.kca_level ?? []).map(({ id, L, cumulative, key }) => ({ id, share: L, cumulative, key })),
    key_level_approach2: (report?.kca_level_approach2 ?? []).map(({ id, LU, cumulative, key }) => ({ id, share: LU, cumulative, key })),
    trend:
      withTrend && report
        ? {
            base_year: baseYear!,
            base_t_co2e: baseTotal,
            trend_pct: report.trend_pct,
            trend_uncertainty_pp: report.trend_uncertainty_pp,
            key_trend: report.kca_trend.map(({ id, share, cumulative, key }) => ({ id, share, cumulative, key })),
          }
        : null,
  };
}
