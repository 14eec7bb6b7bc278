// The uncertainty and key categories of an inventory's lines (docs/methodology.md, Uncertainty; D27):
// IPCC 2006 Vol. 1 Table 3.2 (Approach 1), Ch. 4 key categories (level, trend, Approach 2 level)
// and a seeded Monte Carlo run of the total. A netted line (drained methane flared or burnt, D17,
// D28) is its gross figure less the destroyed gas: its uncertainty is Eq. 3.2 with the subtracted
// term, and the Monte Carlo draws the gross and the destroyed apart and subtracts. One function for
// the year's uncertainty of the API and the `npm run inventory -- uncertainty` command alike.
import type { CategoryInput, FactorInput, SourceInput, UncertaintyCore } from "./uncertainty-core";

/** A line as the command's CSV and the API give it: `current` is what the line reports (net of
 *  `destroyed`, t CO2-eq), `ad_u` and `ef_u` are the activity-data and factor uncertainties (%) of
 *  its gross figure (current + destroyed), `destroyed_u` (%) that of the destroyed gas. */
export interface LineInput extends CategoryInput {
  destroyed?: number;
  destroyed_u?: number;
}

/** D27: the Approach 1 category of a netted line. Net = gross − destroyed, the destroyed gas being
 *  activity data: E = √((E_g·gross)² + (U_d·destroyed)²) / |net|, F = F_g·gross / |net|, so that
 *  √(E² + F²) = √((U_g·gross)² + (U_d·destroyed)²) / |net| (Eq. 3.2 with the subtracted term). */
export function netCategory(line: LineInput): CategoryInput {
  const { id, base, current, ad_u, ef_u } = line;
  const destroyed = line.destroyed ?? 0;
  if (destroyed === 0) return { id, base, current, ad_u, ef_u };
  const gross = current + destroyed;
  const net = Math.abs(current);
  if (net === 0) return { id, base, current, ad_u: 0, ef_u: 0 };
  return {
    id,
    base,
    current,
    ad_u: Math.hypot(ad_u * gross, (line.destroyed_u ?? 0) * destroyed) / net,
    ef_u: (ef_u * gross) / net,
  };
}

/** The Monte Carlo model of the lines: each gross figure times a normal activity factor and a
 *  normal emission factor (U = ad_u, ef_u), less each destroyed figure times its own normal factor
 *  (U = destroyed_u); lines without destroyed gas are the Approach 1 table's own model (V4). */
export function linesModelOf(lines: readonly LineInput[]): { factors: FactorInput[]; sources: SourceInput[] } {
  const factors: FactorInput[] = [];
  const sources: SourceInput[] = [];
  const normal = (u: number): number => factors.push({ distribution: "normal", lower_pct: u, upper_pct: u }) - 1;
  for (const line of lines) {
    const destroyed = line.destroyed ?? 0;
    sources.push({ base: line.current + destroyed, activity: normal(line.ad_u), factor: normal(line.ef_u) });
    if (destroyed !== 0) sources.push({ base: -destroyed, factor: normal(line.destroyed_u ?? 0) });
  }
  return { factors, sources };
}

export interface LinesReport {
  rows: Array<{ id: string; G: number; H: number; I: number; J: number; K: number; L: number; M: number }>;
  level_pct: number;
  trend_pct: number;
  trend_uncertainty_pp: number;
  kca_level: Array<{ id: string; L: number; cumulative: number; key: boolean }>;
  kca_trend: Array<{ id: string; T: number; share: number; cumulative: number; key: boolean }>;
  kca_level_approach2: Array<{ id: string; LU: number; cumulative: number; key: boolean }>;
  monte_carlo?: { mean: number; p2_5: number; p97_5: number; half_width_pct: number };
}

/** The Approach 1 table of the netted lines, the key categories (Approach 1 level and trend,
 *  Approach 2 level) and, when asked, a seeded Monte Carlo run of the year-t total. */
export function linesReport(
  core: UncertaintyCore,
  lines: readonly LineInput[],
  monteCarlo?: { trials: number; seed: number },
): LinesReport {
  const categories = lines.map(netCategory);
  const table = core.approach1(categories);
  const g = new Map(table.rows.map((row) => [row.id, row.G]));
  const report: LinesReport = {
    ...table,
    kca_level: core.keyCategoriesLevel(categories).map(({ id, share, cumulative, key }) => ({ id, L: share, cumulative, key })),
    kca_trend: core
      .keyCategoriesTrend(categories)
      .map(({ id, measure, share, cumulative, key }) => ({ id, T: measure, share, cumulative, key })),
    // L_x·U_x needs some uncertainty to weigh by; with none at all the assessment is empty.
    kca_level_approach2: table.rows.some((row) => row.G > 0)
      ? core
          .keyCategoriesLevel(
            categories,
            categories.map((c) => g.get(c.id)!),
          )
          .map(({ id, share, cumulative, key }) => ({ id, LU: share, cumulative, key }))
      : [],
  };
  if (monteCarlo) {
    const { factors, sources } = linesModelOf(lines);
    const { mean, p2_5, p97_5, half_width_pct } = core.monteCarlo(factors, sources, monteCarlo);
    report.monte_carlo = { mean, p2_5, p97_5, half_width_pct };
  }
  return report;
}
