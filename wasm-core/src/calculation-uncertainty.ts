// The uncertainty of stored calculations and of a project's total (docs/methodology.md, Uncertainty),
// computed by the uncertainty core: a calculation's CO2-eq result is modelled as the product of
// its uncertain inputs (Eq. 3.1), or for the degasification/ventilation type as the volume times a
// sum of two products (Eq. 3.2 inside Eq. 3.1, so the shared volume is not counted twice); a
// project's total is the sum of its calculations (Eq. 3.2), its categories the calculation types.
// Monte Carlo draws every input once per trial; a dictionary coefficient (entry, version, field)
// used by several calculations is one draw for all of them (correlated), and so is a value typed as the
// mine's own with one justification (D107); activity data and other values the user typed are drawn per
// calculation, except that the instruments of one emission point are one draw for every calculation
// measured there, whatever its months (D91). Approach 1 groups the same
// way: terms sharing a source of error add linearly, the groups by Eq. 3.2. Browser-safe: the web app and the exports use it alike.
import { co2CarriedBy, methaneDestroyedBy, type BalanceCalculation } from "./methane-balance";
import { REGISTRY, isEmissionType, type CalculationDefinition, type NumberField } from "./registry";
import {
  APPROACH1_THRESHOLD,
  APPROACH2_THRESHOLD,
  type Distribution,
  type FactorInput,
  type MonteCarloResult,
  type RankedCategory,
  type SourceInput,
  type UncertaintyCore,
  type UncertaintyOrigin,
} from "./uncertainty-core";

export interface InputUncertainty {
  lower_pct: number;
  upper_pct: number;
  distribution: Distribution;
  source?: string;
  origin?: UncertaintyOrigin;
}

/** What a stored calculation records of a value (functions/src/ports/calculation.ts CoefficientUse). */
export interface UsedValue {
  value: number;
  unit?: string;
  source?: string;
  dictionary?: string;
  item_id?: number;
  item_version?: number;
  /** The dictionary entry's name, as the calculation recorded it. */
  item_name?: string;
  uncertainty?: InputUncertainty;
  /** D10: why a value the user typed (`custom`) is what it is, and the file that shows it. */
  justification?: string;
  evidence?: { name: string; size: number };
}

export interface ModelInput {
  name: string;
  label: string;
  value: number;
  unit: string;
  uncertainty: InputUncertainty;
  /** Inputs with the same key are one draw in a Monte Carlo run and one group of Approach 1 (D91):
   *  a dictionary entry at one version, a value typed with the same justification (D107), the
   *  instruments of one emission point, else the calculation's own. */
  share: string;
  /** The dictionary entry's name where the input is one. */
  entry?: string;
  /** D107: a value typed into the calculation as the mine's own (`custom`) with its justification or
   *  evidence file: what names its group. */
  typed?: { justification?: string; evidence?: string };
}

/** A calculation as a sum of products: co2e = Π(common) × Σ_terms (term.value × Π(term.inputs)),
 *  `value` being the term's share of the result at the inputs' stored values. */
export interface CalculationModel {
  id: string;
  type: string;
  name: string;
  co2e: number;
  inputs: ModelInput[];
  common: string[];
  terms: Array<{ value: number; inputs: string[] }>;
}

export interface Interval {
  /** Approach 1: half the 95 % interval over the value, % (asymmetric inputs count by their larger side). */
  u_pct: number;
  lower: number;
  upper: number;
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** FNV-1a (32 bits, hex) of a text: a short stable key of a justification, the same in Node and the browser. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** D107: the shared source of a value typed into a calculation as the mine's own (`custom`, D10): the
 *  same input of one calculation type with the same value, unit, stated uncertainty and justification
 *  (or evidence file) is one source, as a dictionary entry is (D91(a)). A typed value with neither a
 *  justification nor an evidence file names no source and stays the calculation's own. The scope
 *  (one company and year) is the caller's: a project, a year's lines, a mine's comparison. */
export function typedShare(type: string, field: string, used: UsedValue, unit: string): string | undefined {
  const u = used.uncertainty;
  if (used.source !== "custom" || !u) return undefined;
  const justification = used.justification?.trim() ?? "";
  const evidence = used.evidence ? `${used.evidence.name}|${used.evidence.size}` : "";
  if (!justification && !evidence) return undefined;
  return `typed/${type}/${field}/${used.value}/${unit}/${u.lower_pct}/${u.upper_pct}/${u.distribution}/${fingerprint(`${justification}\u0000${evidence}`)}`;
}

/** The half-width Approach 1 uses for an asymmetric input: the larger side (IPCC 2006 Vol. 1, 3.2.3.1). */
export const approach1Pct = (u: Pick<InputUncertainty, "lower_pct" | "upper_pct">): number => Math.max(u.lower_pct, u.upper_pct);

/** The model of one calculation of an emission type, or undefined when it has no CO2-eq result. */
export function calculationModel(calculation: {
  id: string;
  type: string;
  name: string;
  results: Record<string, unknown>;
  coefficients?: Record<string, UsedValue>;
  /** D25, D91: the emission point it measures; its instruments' inputs are shared by its months. */
  point?: string | null;
}): CalculationModel | undefined {
  const { type } = calculation;
  if (!isEmissionType(type)) return undefined;
  const def: CalculationDefinition = REGISTRY[type];
  const co2e = def.co2e ? calculation.results[def.co2e] : undefined;
  if (!finite(co2e)) return undefined;
  const fields = [...def.inputs, ...def.settings].filter((f): f is NumberField => f.type === "number");
  const inputs: ModelInput[] = [];
  for (const field of fields) {
    const used = calculation.coefficients?.[field.name];
    const u = used?.uncertainty;
    if (!used || !u || !finite(used.value) || (u.lower_pct === 0 && u.upper_pct === 0)) continue;
    const shared = used.source === "dictionary" && u.origin !== "user" && used.dictionary && used.item_id !== undefined;
    const unit = used.unit ?? field.unit;
    // D107: a value typed with its justification is one source wherever it is typed the same.
    const typed = shared ? undefined : typedShare(type, field.name, used, unit);
    inputs.push({
      name: field.name,
      label: field.label,
      value: used.value,
      unit,
      uncertainty: u,
      share: shared
        ? `${used.dictionary}/${used.item_id}/${used.item_version ?? 0}/${field.name}`
        : typed
          ? typed
          : calculation.point
            ? `point/${calculation.point}/${field.name}`
            : `${calculation.id}/${field.name}`,
      ...(shared && used.item_name ? { entry: used.item_name } : {}),
      ...(typed
        ? {
            typed: {
              ...(used.justification?.trim() ? { justification: used.justification.trim() } : {}),
              ...(used.evidence ? { evidence: used.evidence.name } : {}),
            },
          }
        : {}),
    });
  }
  const names = fields.map((f) => f.name as string);
  const parts = def.uncertaintyParts;
  if (parts) {
    const part = (name: string) => (finite(calculation.results[name]) ? (calculation.results[name] as number) : 0);
    return {
      id: calculation.id,
      type,
      name: calculation.name,
      co2e,
      inputs,
      common: ["volume"],
      terms: [
        { value: part("res_co2"), inputs: [...parts.co2] },
        { value: part("res_ch4_to_co2"), inputs: [...parts.ch4] },
      ],
    };
  }
  return { id: calculation.id, type, name: calculation.name, co2e, inputs, common: [], terms: [{ value: co2e, inputs: names }] };
}

/** The CO2 and CH4 parts of a type whose CO2-eq is their sum over one volume, as its module
 *  declares them (D26); undefined for a one-term type. */
function twoPartsOf(type: string): CalculationDefinition["uncertaintyParts"] {
  if (!isEmissionType(type)) return undefined;
  const def: CalculationDefinition = REGISTRY[type];
  return def.uncertaintyParts;
}

/** D26: a calculation's model with its figures at the reporting year's GWP, whatever set it was
 *  stored with: the terms take its gases' gross CO2-eq (the CO2 part and the CH4 part, or their sum
 *  for a one-term model); the uncertainties (%) do not change with the scale. */
export function modelAtYearGwp(
  model: CalculationModel,
  gases: readonly { readonly gas: "CO2" | "CH4"; readonly gross_t_co2e: number }[],
): CalculationModel {
  const of = (gas: "CO2" | "CH4") => gases.filter((g) => g.gas === gas).reduce((sum, g) => sum + g.gross_t_co2e, 0);
  const co2e = of("CO2") + of("CH4");
  if (twoPartsOf(model.type) && model.terms.length === 2) {
    return {
      ...model,
      co2e,
      terms: [
        { ...model.terms[0], value: of("CO2") },
        { ...model.terms[1], value: of("CH4") },
      ],
    };
  }
  if (model.terms.length === 1) return { ...model, co2e, terms: [{ ...model.terms[0], value: co2e }] };
  return model;
}

function uOf(model: CalculationModel): (names: string[]) => number[] {
  const byName = new Map(model.inputs.map((i) => [i.name, approach1Pct(i.uncertainty)]));
  return (names) => names.filter((n) => byName.has(n)).map((n) => byName.get(n)!);
}

/** Approach 1 for one calculation: Eq. 3.1 over the inputs of each term, Eq. 3.2 over the terms. */
export function calculationApproach1(core: UncertaintyCore, model: CalculationModel): Interval {
  const u = uOf(model);
  const termU = model.terms.map((t) => core.product(u(t.inputs)));
  const live = model.terms.map((t, i) => ({ value: t.value, u: termU[i] })).filter((t) => t.value !== 0);
  const sumU =
    live.length > 1
      ? core.sum(
          live.map((t) => t.value),
          live.map((t) => t.u),
        )
      : (live[0]?.u ?? 0);
  const u_pct = core.product([...u(model.common), sumU]);
  return interval(model.co2e, u_pct);
}

/** One gas of a calculation as Approach 1 reads it: its activity-data and factor uncertainties (%)
 *  and the source of error each belongs to (D91): the `share` keys of the inputs it multiplies. */
export interface GasApproach1 {
  ad_u: number;
  ef_u: number;
  /** Terms with one key share their source of error and add linearly (D91). */
  ad_group: string;
  ef_group: string;
  /** The inputs of each part, for naming its group. */
  ad_inputs: readonly ModelInput[];
  ef_inputs: readonly ModelInput[];
}

/** D91: the group of a part: its inputs' shared draws; activity data typed for one calculation stay
 *  that calculation's own (independent), as do parts without any uncertain input. */
function groupOf(model: CalculationModel, inputs: readonly ModelInput[], part: "ad" | "ef"): string {
  if (inputs.length === 0) return `${model.id}/${part}`;
  return [...new Set(inputs.map((input) => input.share))].sort().join("+");
}

/** D27: the activity-data and factor uncertainties (%) of one gas of a calculation, for the
 *  Approach 1 table by IPCC line and gas: Eq. 3.1 over the gas's inputs (its term's and the common
 *  ones) that are activity data (a field of an activity kind, or one that took the activity
 *  dictionary's band), and over the others. √(ad_u² + ef_u²) is the gas's own uncertainty. D91:
 *  each part names the source of error it shares with other calculations (`ad_group`, `ef_group`). */
export function gasApproach1(core: UncertaintyCore, model: CalculationModel, gas: "CO2" | "CH4"): GasApproach1 {
  const parts = twoPartsOf(model.type);
  const term = parts ? model.terms[gas === "CO2" ? 0 : 1] : model.terms[0];
  const names = new Set([...model.common, ...(term?.inputs ?? [])]);
  const fields = isEmissionType(model.type) ? [...REGISTRY[model.type].inputs, ...REGISTRY[model.type].settings] : [];
  const isActivity = (input: ModelInput) =>
    input.uncertainty.origin === "activity" ||
    fields.some((f) => f.name === input.name && f.type === "number" && (f as NumberField).activity !== undefined);
  const used = model.inputs.filter((input) => names.has(input.name));
  const u = (inputs: ModelInput[]) => core.product(inputs.map((input) => approach1Pct(input.uncertainty)));
  const activity = used.filter(isActivity);
  const factor = used.filter((input) => !isActivity(input));
  return {
    ad_u: u(activity),
    ef_u: u(factor),
    ad_group: groupOf(model, activity, "ad"),
    ef_group: groupOf(model, factor, "ef"),
    ad_inputs: activity,
    ef_inputs: factor,
  };
}

/** A term of a sum with its activity-data and factor parts (D91). */
export interface GroupedTerm {
  x: number;
  ad_u: number;
  ef_u: number;
  ad_group: string;
  ef_group: string;
}

/** D91: Approach 1 of a sum whose terms share sources of error: the activity-data and the factor
 *  parts each by the core's grouped Eq. 3.2 (linear within a group), then U = √(E² + F²). */
export function groupedApproach1(core: UncertaintyCore, terms: readonly GroupedTerm[]): { ad_u: number; ef_u: number; u_pct: number } {
  const live = terms.filter((t) => t.x !== 0);
  const total = live.reduce((sum, t) => sum + t.x, 0);
  if (live.length === 0 || total === 0) return { ad_u: 0, ef_u: 0, u_pct: 0 };
  const x = live.map((t) => t.x);
  const ad_u = core.groupedSum(
    x,
    live.map((t) => t.ad_u),
    live.map((t) => t.ad_group),
  );
  const ef_u = core.groupedSum(
    x,
    live.map((t) => t.ef_u),
    live.map((t) => t.ef_group),
  );
  return { ad_u, ef_u, u_pct: core.product([ad_u, ef_u]) };
}

/** The terms of calculations as Approach 1 groups them: each gas part of each (D91). */
export function groupedTermsOf(core: UncertaintyCore, models: readonly CalculationModel[]): GroupedTerm[] {
  return models.flatMap((model) => {
    const gases: Array<"CO2" | "CH4"> = twoPartsOf(model.type) && model.terms.length === 2 ? ["CO2", "CH4"] : ["CH4"];
    return gases.flatMap((gas, i) => {
      const x = model.terms[i]?.value ?? 0;
      if (x === 0) return [];
      const { ad_u, ef_u, ad_group, ef_group } = gasApproach1(core, model, gas);
      return [{ x, ad_u, ef_u, ad_group, ef_group }];
    });
  });
}

function interval(value: number, u_pct: number): Interval {
  const half = (Math.abs(value) * u_pct) / 100;
  return { u_pct, lower: Math.max(0, value - half), upper: value + half };
}

/** D27: the uncertainty of the drained gas destroyed where the flare, boiler or engine that metered
 *  it records none of its own: IPCC 2006 Vol. 2 ch. 2 §2.4, activity data of metered fuel, ±5 %. */
export const DESTROYED_GAS_UNCERTAINTY = {
  lower_pct: 5,
  upper_pct: 5,
  source: "МГЭИК 2006, т. 2, гл. 2, п. 2.4: данные о деятельности по учтенному прибором расходу газа, ±5 %",
} as const;

/** How the pages name where the destroyed gas's uncertainty comes from (methodology 10.1). */
export const DESTROYED_GAS_SOURCE =
  "по измерению, которым учтен сожженный газ: неопределенность расхода газа факела, котельной или ГПУ в их собственных строках; где она не указана — ±5 % (МГЭИК 2006, т. 2, гл. 2, п. 2.4)";

/** A flare, boiler or engine of a facility-year, for the uncertainty of the gas it destroyed. */
export interface DestructionDevice {
  readonly calculation: Pick<BalanceCalculation, "type" | "inputs" | "coefficients">;
  readonly model: CalculationModel | undefined;
}

/** D27, methodology 10.1: the uncertainty (%) of the drained gas a facility-year destroyed, per gas:
 *  the gas each flare, boiler or engine metered carries the activity-data uncertainty of its own
 *  line (`gasApproach1`: a flare's measured flow ±20 %, a boiler's metered fuel ±5 %), and the
 *  devices, metered apart, add by Eq. 3.2 weighted by the CH4 each sent to destruction (the CO2 its
 *  gas carried, for CO2). A device that records no uncertainty of its gas takes the cited default. */
export function destroyedGasUncertainty(core: UncertaintyCore, devices: readonly DestructionDevice[]): Record<"CO2" | "CH4", number> {
  const of = (gas: "CO2" | "CH4") => {
    const parts = devices.map(({ calculation, model }) => {
      const t = gas === "CH4" ? (methaneDestroyedBy(calculation as BalanceCalculation)?.sent_t ?? 0) : co2CarriedBy(calculation);
      const own = model ? gasApproach1(core, model, gas).ad_u : 0;
      return { t, u: own > 0 ? own : DESTROYED_GAS_UNCERTAINTY.upper_pct };
    });
    const total = parts.reduce((sum, p) => sum + p.t, 0);
    return total > 0 ? Math.hypot(...parts.map((p) => p.u * p.t)) / total : DESTROYED_GAS_UNCERTAINTY.upper_pct;
  };
  return { CO2: of("CO2"), CH4: of("CH4") };
}

/** D27: Approach 1 of a netted total, net = gross − destroyed: IPCC 2006 Vol. 1 Eq. 3.2 with the
 *  subtracted term, U = √((U_g·E_g)² + (U_d·E_d)²) / |E_g − E_d|. */
export function nettedApproach1(gross: number, grossPct: number, destroyed: number, destroyedPct: number): Interval {
  const net = gross - destroyed;
  const u_pct = net === 0 ? 0 : Math.hypot(grossPct * gross, destroyedPct * destroyed) / Math.abs(net);
  return interval(net, u_pct);
}

/** The Monte Carlo model of calculations: one factor per distinct input draw, one source per term. */
export function monteCarloModel(models: readonly CalculationModel[]): { factors: FactorInput[]; sources: SourceInput[] } {
  const factors: FactorInput[] = [];
  const index = new Map<string, number>();
  const sources: SourceInput[] = [];
  for (const model of models) {
    const factorOf = new Map<string, number>();
    for (const input of model.inputs) {
      let k = index.get(input.share);
      if (k === undefined) {
        k = factors.length;
        index.set(input.share, k);
        const { distribution, lower_pct, upper_pct } = input.uncertainty;
        factors.push({ distribution, lower_pct, upper_pct });
      }
      factorOf.set(input.name, k);
    }
    const indices = (names: string[]) => names.filter((n) => factorOf.has(n)).map((n) => factorOf.get(n)!);
    for (const term of model.terms) {
      if (term.value === 0) continue;
      sources.push({ base: term.value, factors: [...indices(model.common), ...indices(term.inputs)] });
    }
  }
  return { factors, sources };
}

export const DEFAULT_TRIALS = 100_000;
export const DEFAULT_SEED = 1;

export function monteCarloOf(
  core: UncertaintyCore,
  models: readonly CalculationModel[],
  options: { trials: number; seed: number } = { trials: DEFAULT_TRIALS, seed: DEFAULT_SEED },
): MonteCarloResult | undefined {
  const { factors, sources } = monteCarloModel(models);
  if (sources.length === 0) return undefined;
  return core.monteCarlo(factors, sources, options);
}

export interface CategoryUncertainty {
  /** The calculation type. */
  id: string;
  title: string;
  count: number;
  co2e: number;
  u_pct: number;
}

export interface ProjectUncertainty {
  total: number;
  approach1: Interval;
  categories: CategoryUncertainty[];
  /** Approach 1 level assessment (Eq. 4.1), threshold 95 %. */
  key_level: RankedCategory[];
  /** Approach 2 level assessment (L_x·U_x), threshold 90 %. */
  key_level_approach2: RankedCategory[];
  thresholds: { approach1: number; approach2: number };
}

/** The project's total and key categories by Approach 1; undefined when it has no emissions. */
export function projectApproach1(core: UncertaintyCore, models: readonly CalculationModel[]): ProjectUncertainty | undefined {
  const positive = models.filter((m) => m.co2e > 0);
  if (positive.length === 0) return undefined;
  const total = positive.reduce((s, m) => s + m.co2e, 0);
  // D91: a factor shared by several calculations, or one point's instruments, is one source of error.
  const approach1 = interval(total, groupedApproach1(core, groupedTermsOf(core, positive)).u_pct);
  const byType = new Map<string, CalculationModel[]>();
  for (const m of positive) byType.set(m.type, [...(byType.get(m.type) ?? []), m]);
  const categories: CategoryUncertainty[] = [...byType.entries()].map(([type, own]) => ({
    id: type,
    title: isEmissionType(type) ? REGISTRY[type].title : type,
    count: own.length,
    co2e: own.reduce((s, m) => s + m.co2e, 0),
    u_pct: groupedApproach1(core, groupedTermsOf(core, own)).u_pct,
  }));
  const level = categories.map((c) => ({ id: c.id, current: c.co2e }));
  return {
    total,
    approach1,
    categories,
    key_level: core.keyCategoriesLevel(level),
    // L_x·U_x needs some uncertainty to weigh by; with none at all the assessment is empty.
    key_level_approach2: categories.some((c) => c.u_pct > 0)
      ? core.keyCategoriesLevel(
          level,
          categories.map((c) => c.u_pct),
        )
      : [],
    thresholds: { approach1: APPROACH1_THRESHOLD, approach2: APPROACH2_THRESHOLD },
  };
}
