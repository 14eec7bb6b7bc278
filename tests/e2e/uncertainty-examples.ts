// The worked examples of docs/methodology.md, Uncertainty and a seeded Monte Carlo run, computed by
// whichever core instance is given (Node's or the browser's), for comparing the two.
import { normalModelOf, type UncertaintyCore } from "@core/uncertainty-core";

export function uncertaintyExamples(core: UncertaintyCore) {
  const v5 = [
    { id: "C1", base: 100_000, current: 120_000, ad_u: 5, ef_u: 10 },
    { id: "C2", base: 50_000, current: 40_000, ad_u: 2, ef_u: 50 },
  ];
  const { factors, sources } = normalModelOf(v5);
  return {
    v1: core.product([2, 40]),
    v2: core.sum([603_000, 62_000, 70_000], [40.049968789001575, 60, 5.830951894845301]),
    v5: core.approach1(v5),
    level: core.keyCategoriesLevel(v5),
    trend: core.keyCategoriesTrend(v5),
    monteCarlo: core.monteCarlo(factors, sources, { trials: 100_000, seed: 11 }),
    lognormal: core.monteCarlo([{ distribution: "lognormal", lower_pct: 44, upper_pct: 39 }], [{ base: 603_000, factor: 0 }], {
      trials: 100_000,
      seed: 12,
    }),
  };
}
