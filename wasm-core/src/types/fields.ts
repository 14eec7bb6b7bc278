// The field declarations several calculation types share (units, densities, GWP, results), so
// each type's module (wasm-core/src/types/<type>.ts) declares only what is its own.
import { CH4_DENSITY_20C } from "../gas-densities";
import {
  type CalculationDefinition,
  type CalculationModule,
  DEFAULT_GWP_CH4,
  type InventorySource,
  IPCC_FLARE_NOTE,
  type MethaneDestruction,
  type NormativeDocument,
  type EntryUnit,
  type FormulaLine,
  type NumberField,
  PHYSICAL_BOUNDS,
  type ReferenceCategory,
  type ResultField,
  type UploadColumn,
  type VectorRow,
  type WorkedExamples,
} from "./definition";

// ---- shared field declarations -----------------------------------------------------------------

/** A number column of an upload, from the field it fills. */
export const numberColumn = (field: NumberField, note?: string): UploadColumn => ({
  name: field.name,
  label: field.label,
  unit: field.unit,
  kind: "number",
  ...(field.optional ? { optional: true } : {}),
  ...(note ? { note } : {}),
});

export const T = "т";
export const T_CO2E = "т CO2-экв.";
export const KG_M3 = "кг/м³";
export const M3_T = "м³/т";
export const THOUSAND_M3 = "тыс. м³";
export const PERCENT_VOL = "% об.";
// D13: coal production in t, thousand t or million t (a large mine's output); gas volumes in m³,
// thousand m³ or million m³.
export const COAL_UNITS = [
  { unit: T, power: 0 },
  { unit: "тыс. т", power: 3 },
  { unit: "млн т", power: 6 },
] as const satisfies readonly EntryUnit[];
export const GAS_UNITS = [
  { unit: "м³", power: -3 },
  { unit: THOUSAND_M3, power: 0 },
  { unit: "млн м³", power: 3 },
] as const satisfies readonly EntryUnit[];
/** A density field, kg/m³ (4 decimals, up to the physical bound), with its default. */
export const densityField = <const N extends string, const L extends string>(name: N, label: L, value: number) =>
  ({ name, label, unit: KG_M3, type: "number", min: 0, max: PHYSICAL_BOUNDS.density_kg_m3, decimals: 4, default: value }) as const;
// The densities of CO2 and CH4 the measured and flared volumes are converted with (20 °C defaults).
export const GAS_DENSITIES = [
  densityField("p_co2", "Плотность CO2", 1.8393),
  densityField("p_ch4", "Плотность CH4", 0.668),
] as const satisfies readonly NumberField[];
// docs/user-guide.md (and the calculations issue): results in tonnes show 2 decimals; values are stored unrounded.
export const RESULT_DECIMALS = 2;

export const gwpSetting = {
  name: "gwp_ch4",
  label: "Потенциал глобального потепления CH4",
  unit: "т CO2-экв./т CH4",
  type: "number",
  min: 0,
  max: PHYSICAL_BOUNDS.gwp,
  decimals: 1,
  default: DEFAULT_GWP_CH4,
} as const satisfies NumberField;

export const koefTransform = (fixed?: number) =>
  ({
    ...densityField("koef_transform", "Коэффициент пересчёта (плотность CH4)", 0.67),
    ...(fixed === undefined ? {} : { fixed }),
  }) as const;

export const coalVolume = (how: string) =>
  ({
    name: "volume",
    label: `Объём добычи угля ${how}`,
    unit: T,
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.coal_t,
    decimals: 4,
    activity: "production",
    units: COAL_UNITS,
  }) as const;

export const resCh4 = {
  name: "res_ch4",
  label: "Выбросы CH4",
  unit: "т CH4",
  type: "number",
  decimals: RESULT_DECIMALS,
  max: PHYSICAL_BOUNDS.gas_t,
} as const satisfies ResultField;
/** A result in t CO2-eq. (2 decimals, up to the physical bound). */
export const co2eResult = <const N extends string, const L extends string>(name: N, label: L) =>
  ({ name, label, unit: T_CO2E, type: "number", decimals: RESULT_DECIMALS, max: PHYSICAL_BOUNDS.co2e_t }) as const;
export const resCh4ToCo2 = co2eResult("res_ch4_to_co2", "Выбросы CH4 в CO2-эквиваленте") satisfies ResultField;
/** The sum of a CO2 part and a CH4 part in CO2-eq. (the measured and composition types). */
export const sumCo2 = co2eResult("sum_co2", "Суммарные выбросы в CO2-эквиваленте") satisfies ResultField;
export const resCo2 = {
  name: "res_co2",
  label: "Выбросы CO2",
  unit: "т CO2",
  type: "number",
  decimals: RESULT_DECIMALS,
  max: PHYSICAL_BOUNDS.gas_t,
} as const satisfies ResultField;
/** The results of a type that gives CH4: its mass and, at the GWP setting, its CO2-eq., the type's emission. */
export const CH4_RESULTS = { results: [resCh4, resCh4ToCo2], settings: [gwpSetting], co2e: "res_ch4_to_co2" } as const;
/** The result of a type that gives CO2 only, its emission; no setting. */
export const CO2_RESULTS = { results: [resCo2], settings: [], co2e: "res_co2" } as const;
/** A measured volume of gas, thousand m³ (m³ and million m³ at entry), up to `max`. */
export const gasVolume = <const L extends string, const M extends number>(label: L, max: M) =>
  ({
    name: "volume",
    label,
    unit: THOUSAND_M3,
    type: "number",
    min: 0,
    max,
    decimals: 4,
    activity: "measured_flow",
    units: GAS_UNITS,
  }) as const;
export const flaredMethane = gasVolume(
  "Объём метана, направленного на факельную установку",
  PHYSICAL_BOUNDS.flared_gas_thousand_m3,
) satisfies NumberField;

/** 4.1–4.3: an IPCC emission factor of CH4 per tonne of coal, m³/t, with its default and the IPCC's typical range. */
export const ipccMethaneFactor = <const L extends string>(
  label: L,
  value: number,
  typical: { readonly min: number; readonly max: number },
) =>
  ({
    name: "ef",
    label,
    unit: M3_T,
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.methane_m3_t,
    decimals: 4,
    default: value,
    typical,
  }) as const;

/** D6: the CO2 factor of a fuel, t CO2 per t, by default diesel's 3.149 (docs/user-guide.md). */
export const fuelCo2Factor = <const N extends string, const L extends string>(name: N, label: L) =>
  ({ name, label, unit: "т CO2/т топлива", type: "number", min: 0, max: PHYSICAL_BOUNDS.factor_t, decimals: 3, default: 3.149 }) as const;

// 7.1 (Order 371 formula 2.2): the components of the flared mixture, % vol; a missing one is 0.
export const COMPOSITION = [
  ["w_ch4", "Содержание CH4 в смеси"],
  ["w_co2", "Содержание CO2 в смеси"],
  ["w_c2h6", "Содержание этана C2H6 в смеси"],
  ["w_c3h8", "Содержание пропана C3H8 в смеси"],
  ["w_c4h10", "Содержание бутана C4H10 в смеси"],
  ["w_c5h12", "Содержание пентана C5H12 в смеси"],
] as const;

/** The core of a formula type: its batch kernel in emissions.wasm, `kernel_<type>`, which the facade's typed
 *  map of kernels holds (emissions-core.ts, `Kernels`). */
export const emissionsCore = <const T extends string>(type: T) => ({ module: "emissions", fn: `kernel_${type}` }) as const;

/** The parts of an analysis type (4.10–4.12, the forecast) beside its definition: it never counts in the
 *  year's inventory (D15), takes no part in the methane balance (D17) and has no category on the
 *  reference page (/dictionary); `vectors` are its worked examples, if the methodology gives any. */
export const analysisParts = <const V extends WorkedExamples | null>(vectors: V) =>
  ({ inventory: null, balance: null, destroys: null, reference: null, vectors }) as const;

/** A formula type's worked examples from section 5's test vectors (inputs and results; GWP 25), which
 *  tests/fixtures/methodology/vectors.json holds as the methodology gives them. */
export const section5Vectors = (examples: readonly VectorRow[]): WorkedExamples<readonly VectorRow[]> => ({
  section: "section 5",
  examples,
});

export const yearColumn = { name: "year", label: "Год", unit: "", kind: "number", note: "Целое число" } as const satisfies UploadColumn;

// The result each gas of an inventory line comes from (InventorySource.gases).
export const GASES_CH4 = [{ gas: "CH4", result: "res_ch4" }] as const;
export const GASES_CO2 = [{ gas: "CO2", result: "res_co2" }] as const;
export const GASES_BOTH = [...GASES_CO2, ...GASES_CH4] as const;

// The passport's formulas (8.1): the IPCC equations of the production-based types.
const IPCC_EQUATION = "МГЭИК 2006, т. 2, гл. 4, уравнение";
const BY_PRODUCTION = "CH4 = EF × добыча угля × ρ × 10⁻³";

/** The entry of a dictionary a coefficient came from, when it did. */
export const dictionaryEntryOf = (use: { readonly source?: string; readonly item_id?: number } | undefined): number | undefined =>
  use?.source === "dictionary" ? use.item_id : undefined;

// ---- the reference page (/dictionary) ------------------------------------------------------------

/** The normative documents the reference page's categories come from. */
export const DOCUMENTS = {
  // docs/methodology.md, Sources: the consultant.ru edition of Order No. 371 (cons_doc_LAW_423207).
  order371: {
    label: "Приказ Минприроды № 371",
    url: "https://www.consultant.ru/document/cons_doc_LAW_423207/",
  },
  ipcc2006: {
    label: "МГЭИК 2006, т. 2, гл. 4",
    url: "https://www.ipcc-nggip.iges.or.jp/public/2006gl/",
  },
} as const satisfies Record<string, NormativeDocument>;

// Shared symbols of the IPCC production-based types: EF in m³/t, ρ = koef_transform in kg/m³.
const IPCC_SYMBOLS = { ef: "EF", koef_transform: "ρ" } as const;
const IPCC_MINING = ["E = V × EF × ρ × 10⁻³"] as const;

/** A type's category on the reference page (/dictionary): the formula in the symbols of its coefficient tables,
 *  the document and clause it comes from, and the dictionaries whose coefficients it shows, by default those
 *  the type's fields are filled from. */
export const referenceOf = (
  definition: Pick<CalculationDefinition, "dictionaries">,
  category: Omit<ReferenceCategory, "dictionaries"> & Partial<Pick<ReferenceCategory, "dictionaries">>,
): ReferenceCategory => ({ dictionaries: definition.dictionaries.map((binding) => binding.dictionary), ...category });

/** The inventory line of an IPCC production-based CH4 type (4.1–4.3, category 3): its code, and the
 *  passport's equation (8.1) by the line's coefficients. */
export const ipccMiningInventory = (ipcc: InventorySource["ipcc"], equation: (line: FormulaLine) => string): InventorySource => ({
  category: 3,
  ipcc,
  method: "coefficients",
  gases: GASES_CH4,
  passportFormula: (line) => `${IPCC_EQUATION} ${equation(line)}: ${BY_PRODUCTION}`,
});

/** The reference category of an IPCC production-based CH4 type (4.1–4.3): IPCC 2006's equation in its
 *  symbols (E = V × EF × ρ × 10⁻³ unless the type writes its own), its dictionaries those of its fields. */
export const ipccMiningReference = (
  definition: Pick<CalculationDefinition, "dictionaries">,
  category: Pick<ReferenceCategory, "index" | "category" | "clause"> & Partial<Pick<ReferenceCategory, "formula">>,
): ReferenceCategory => referenceOf(definition, { formula: IPCC_MINING, document: DOCUMENTS.ipcc2006, symbols: IPCC_SYMBOLS, ...category });

// ---- destroyed drained gas (D17): the formulas the balance reads of the destruction types ----------

/** A stored input as a number; 0 where it is missing or not finite. */
export const inputNumber = (record: Readonly<Record<string, unknown>>, name: string): number => {
  const value = record[name];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
};

// The core's IPCC flare form (4.6, 4.7): 98 % of the CH4 burns.
export const FLARE_EFFICIENCY = 0.98;

/** The stationary-fuel entry of captured mine methane (100 % CH4). */
export const MINE_GAS_FUEL_ENTRY = 8;

// 1.1: ρ CH4 by the row whose ρ CO2 a mine-gas fuel entry carries as its factor (4.8: pure CMM,
// t CO2 per thousand m³ = ρ CO2); 20 °C otherwise.
const CH4_BY_CO2_DENSITY: ReadonlyArray<readonly [number, number]> = [
  [1.9768, 0.717],
  [1.8738, 0.6797],
  [1.8393, 0.668],
];
export { CH4_DENSITY_20C };

/** ρ CH4, kg/m³, of the conditions whose ρ CO2 is `co2Density`. */
export const ch4DensityBesideCo2 = (co2Density: number): number =>
  CH4_BY_CO2_DENSITY.find(([co2]) => Math.abs(co2 - co2Density) < 1e-9)?.[1] ?? CH4_DENSITY_20C;

/** 4.6, 4.7: the IPCC flare pair's volume is pure CH4, thousand m³ × kg/m³ = t, 98 % of it burnt. */
export const ipccFlaredMethane: MethaneDestruction = ({ inputs }) => {
  const sent = inputNumber(inputs, "volume") * inputNumber(inputs, "koef_transform");
  return { route: "flared", sent_t: sent, destroyed_t: sent * FLARE_EFFICIENCY };
};

/** The IPCC flare pair (4.6, 4.7) in the balance: drained gas a flare destroyed at an emission point (D17, D25,
 *  D35), by the one formula above. */
export const IPCC_FLARE_BALANCE = {
  balance: "destruction",
  destroys: ipccFlaredMethane,
} as const satisfies Pick<CalculationModule, "balance" | "destroys">;

/** The IPCC flare pair on the reference page: the document and clause both come from. */
export const IPCC_FLARE_SOURCE = { document: DOCUMENTS.ipcc2006, clause: "раздел 4.1, сжигание на факеле" } as const;

/** D16, D22: the IPCC flare pair's inventory line (flaring of drained methane, efficiency 0.98): category 2,
 *  1.B.1.a.i.4, with the IPCC's note, alternatives by default; its gas, and the passport's formula of it (8.1). */
export const ipccFlareInventory = (gases: InventorySource["gases"], formula: string): InventorySource => ({
  category: 2,
  ipcc: "1.B.1.a.i.4",
  note: IPCC_FLARE_NOTE,
  defaultRole: "alternative",
  method: "coefficients",
  gases,
  passportFormula: () => `МГЭИК 2006, т. 2, гл. 4, сжигание на факеле: ${formula}`,
});
