// How uncertainties read on screen (docs/methodology.md, Uncertainty): «−44 % / +39 %» or «±2 %», the
// distribution in words, percentages and tonnes the Russian way (shared/decimals.ts).
import { formatResult } from "../decimals";
import type { Distribution } from "@core/uncertainty-core";

export const DISTRIBUTION_LABELS: Record<Distribution, string> = {
  normal: "нормальное",
  lognormal: "логнормальное",
  triangular: "треугольное",
  uniform: "равномерное",
};

export const DISTRIBUTION_OPTIONS = (Object.keys(DISTRIBUTION_LABELS) as Distribution[]).map((value) => ({
  value,
  label: DISTRIBUTION_LABELS[value],
}));

/** 40,0 % (one decimal: an uncertainty is not known better). */
export const percent = (value: number, decimals = 1): string => `${formatResult(value, decimals)} %`;

export function boundsText(u: { lower_pct: number; upper_pct: number }): string {
  return u.lower_pct === u.upper_pct ? `±${percent(u.lower_pct)}` : `−${percent(u.lower_pct)} / +${percent(u.upper_pct)}`;
}

export function uncertaintyText(u: { lower_pct: number; upper_pct: number; distribution: Distribution }): string {
  return `${boundsText(u)}, ${DISTRIBUTION_LABELS[u.distribution]}`;
}

export const tonnes = (value: number, decimals = 2): string => formatResult(value, decimals);

/** The interval from a Monte Carlo result, as −x % / +y % of the mean. */
export function asymmetricText(mean: number, lower: number, upper: number): string {
  return `−${percent(((mean - lower) / mean) * 100)} / +${percent(((upper - mean) / mean) * 100)}`;
}

/** The unit of a project's and a category's emissions. */
export const UNIT = "т CO2-экв.";
