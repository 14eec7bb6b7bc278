// The trend's comparable years (IPCC 2006 Vol. 1 ch. 5, time-series consistency; docs/methodology.md,
// «Сопоставимые годы»): a year's counted calculations as they would read under one set of conditions —
// one GWP set for every year, and each dictionary factor a calculation took at the value that entry
// has for the comparison year. A calculation whose factor changed is run through the core again
// from its stored inputs (domain/calculation-formula.ts, the same run a new calculation takes); the year's
// figures are then folded as the inventory folds them (sums.ts: the same netting and lines), so the
// comparable figures come from no formula of their own.
import { GWP_DICTIONARY } from "@core/gwp-in-force";
import { REGISTRY, isCalculationType, type FormulaType } from "@core/registry";
import { inventorySourceOf } from "@core/inventory";
import type { Deps } from "../context";
import { invalidAt, NotFound } from "../errors";
import type { DictionaryItemVersion } from "../../ports";
import type { StoredCalculation } from "../../ports";
import { computeFormula } from "../calculation-formula";
import { dictionaryItemsOfYear } from "../reference/dictionaries";
import { gwpSetsOfYear, setInForce } from "../reference/gwp-years";
import { ipccOfItem, sumsOfCalculations, yearFigures, type YearFigures } from "./sums";

/** A counted calculation of the year as stored (live) or as its approved version froze it. */
export interface ComparableSource {
  id: string;
  type: string;
  name: string;
  project: string;
  facility: string | null;
  inventory_role?: StoredCalculation["inventory_role"];
  period?: { from: string; to: string };
  point?: string | null;
  drainage_points?: string[];
  inputs: StoredCalculation["inputs"];
  results: StoredCalculation["results"];
  coefficients: StoredCalculation["coefficients"];
}

/** A dictionary factor a calculation took that reads otherwise for the comparison year. */
export interface FactorChange {
  calculation: string;
  calculation_name: string;
  coefficient: string;
  coefficient_label: string;
  item_name: string;
  before: number;
  after: number;
}

export interface ComparableConditions {
  /** The reporting year whose GWP set and factor versions every year is brought to. */
  year: number;
  gwp: { set: number; name: string; gwp_ch4: number };
  /** The entries of each dictionary the calculations used, as they apply to `year`. */
  items: Map<string, DictionaryItemVersion[]>;
}

/** The conditions of `year`: its GWP set in force (or the set asked for, as it applies to that
 *  year) and its versions of every dictionary the sources used. */
export async function comparableConditions(
  deps: Deps,
  year: number,
  sources: readonly ComparableSource[],
  gwpSetId?: number,
): Promise<ComparableConditions> {
  const sets = await gwpSetsOfYear(deps, year);
  const set = gwpSetId === undefined ? setInForce(sets, year) : sets.find((s) => s.id === gwpSetId);
  if (gwpSetId !== undefined && !set?.values.gwp_ch4) throw invalidAt("gwp_set", `набор ПГП ${gwpSetId} не найден`);
  if (!set?.values.gwp_ch4) throw new NotFound("Набор ПГП для этого года не найден: проверьте справочник ПГП");
  const names = new Set(
    sources.flatMap((s) =>
      Object.values(s.coefficients ?? {})
        .filter((use) => use.source === "dictionary" && use.dictionary && use.dictionary !== GWP_DICTIONARY)
        .map((use) => use.dictionary!),
    ),
  );
  const items = new Map<string, DictionaryItemVersion[]>();
  for (const name of names) items.set(name, await dictionaryItemsOfYear(deps, name, year));
  return { year, gwp: { set: set.id, name: set.name, gwp_ch4: set.values.gwp_ch4.value }, items };
}

const labelOf = (type: string, field: string) => {
  if (!isCalculationType(type)) return field;
  const def = REGISTRY[type];
  return [...def.inputs, ...def.settings].find((f) => f.name === field)?.label ?? field;
};

/** The source under the conditions' factors: its inputs with each changed factor replaced and its
 *  results recomputed by the core (a type the core cannot run again keeps its stored results). */
export function underConditions(
  source: ComparableSource,
  conditions: ComparableConditions,
): { source: ComparableSource; changes: FactorChange[] } {
  const changes: FactorChange[] = [];
  const replaced: Record<string, number> = {};
  for (const [field, use] of Object.entries(source.coefficients ?? {})) {
    if (use.source !== "dictionary" || !use.dictionary || use.dictionary === GWP_DICTIONARY || use.item_id === undefined) continue;
    const item = conditions.items.get(use.dictionary)?.find((i) => i.id === use.item_id);
    const now = item?.values[field]?.value;
    if (now === undefined || now === use.value) continue;
    replaced[field] = now;
    changes.push({
      calculation: source.id,
      calculation_name: source.name,
      coefficient: field,
      coefficient_label: labelOf(source.type, field),
      item_name: use.item_name ?? item!.name,
      before: use.value,
      after: now,
    });
  }
  const runnable = isCalculationType(source.type) && REGISTRY[source.type].kind === "formula";
  if (changes.length === 0 || !runnable) return { source, changes: runnable ? changes : [] };
  const inputs = { ...source.inputs, ...replaced, ...(source.inputs.gwp_ch4 !== undefined ? { gwp_ch4: conditions.gwp.gwp_ch4 } : {}) };
  let results: Record<string, unknown>;
  try {
    results = computeFormula(source.type as FormulaType, inputs);
  } catch {
    // The stored inputs no longer run (a bound tightened since): the figures stay as stored.
    return { source, changes: [] };
  }
  return { source: { ...source, inputs, results: { ...source.results, ...results } }, changes };
}

/** The year's figures under the conditions, folded as the inventory folds its own, and the factor
 *  changes behind each line (`category|ipcc_code|gas`). */
export function comparableYear(
  year: number,
  sources: readonly ComparableSource[],
  conditions: ComparableConditions,
  options: {
    facility?: string;
    order?: readonly (string | null)[];
    points?: ReadonlyArray<{ readonly id: string; readonly kind: string }>;
  },
): { figures: YearFigures; changes: FactorChange[]; byLine: Map<string, FactorChange[]> } {
  const recomputed = sources.map((s) => underConditions(s, conditions));
  // Whole stored calculations as the sums read them (a frozen line keeps no creation date).
  const items = recomputed.map(({ source }) => ({
    ...source,
    is_deleted: false,
    created_at: "",
    point: source.point ?? undefined,
  }));
  const projects = [...new Map(sources.map((s) => [s.project, s.facility])).entries()].map(([id, facility]) => ({
    id,
    reporting_year: year,
    end_date: `${year}-12-31`,
    facility,
    is_deleted: false,
  }));
  const figures = yearFigures(sumsOfCalculations(items), projects, year, conditions.gwp.gwp_ch4, options);
  const byLine = new Map<string, FactorChange[]>();
  for (const { source, changes } of recomputed) {
    const inventorySource = inventorySourceOf(source.type);
    if (!inventorySource || changes.length === 0) continue;
    for (const { gas } of inventorySource.gases) {
      const key = `${inventorySource.category}|${ipccOfItem(source.type, source.coefficients)}|${gas}`;
      byLine.set(key, [...(byLine.get(key) ?? []), ...changes]);
    }
  }
  return { figures, changes: recomputed.flatMap((r) => r.changes), byLine };
}
