// Выбросы CO2 при сжигании метана и топлива в стационарных источниках (disposal_co2_stat_sources): the type's registry entry.
import type { BalanceRole, CalculationDefinition, InventorySource, MethaneDestruction } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import {
  COMPOSITION,
  CO2_RESULTS,
  emissionsCore,
  PERCENT_VOL,
  GASES_CO2,
  dictionaryEntryOf,
  DOCUMENTS,
  ch4DensityBesideCo2,
  inputNumber,
  MINE_GAS_FUEL_ENTRY,
  referenceOf,
  section5Vectors,
} from "./fields";

/** 4.8, Order 371 formulas 1.1–1.3: a fuel through t c.e. (or TJ), drained mine gas taken as
 *  100 % CH4, and drained gas of a stated composition (D28). The reference page and the passport
 *  print them from here. */
export const STATIONARY_FORMULAS = {
  fuel: "E_CO2 = FC × k × EF × OF",
  pureMethane: "E_CO2 = FC × EF × OF",
  composition: "E_CO2 = FC × (W_CO2 + W_CH4 × OF) × ρ_CO2 × 10⁻²",
} as const;

export const definition = {
  title: "Выбросы CO2 при сжигании метана и топлива в стационарных источниках",
  kind: "formula",
  methodology: "4.8",
  inputs: [
    {
      name: "volume",
      label: "Расход топлива",
      unit: "тыс. м³ или т",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.stationary_fuel,
      decimals: 4,
      activity: "fuel",
      unitByEntry: "get_disposal_co2_stat_sources",
    },
    // k and ef go together: t c.e. route (t CO2/t c.e.) or TJ route (t CO2/TJ), never mixed.
    {
      name: "ef",
      label: "Коэффициент выбросов CO2",
      unit: "т CO2/т у.т.",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.stationary_factor,
      decimals: 4,
    },
    { name: "of", label: "Коэффициент окисления", unit: "доля", type: "number", min: 0, max: 1, decimals: 4, default: 1.0 },
    {
      name: "k",
      label: "Коэффициент перевода в тонны условного топлива",
      unit: "т у.т./ед.",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.factor_t,
      decimals: 5,
    },
    // D28: drained gas of known composition (the mine-gas entry), % vol like the flare's (7.1);
    // without W_CH4 the fuel's entry is burnt as it stands (100 % CH4 for mine gas).
    ...COMPOSITION.slice(0, 2).map(
      ([name, label]) => ({ name, label, unit: PERCENT_VOL, type: "number", min: 0, max: 100, decimals: 4, optional: true }) as const,
    ),
  ],
  ...CO2_RESULTS,
  sums: [{ fields: ["w_ch4", "w_co2"], max: 100, label: "Сумма содержаний компонентов" }],
  // D4: the oxidation factor is 1.0 unless measured, so it stays a free input; the fuel's
  // dictionary row fixes the pair ef and k, which must come from the same route (4.8).
  dictionaries: [{ dictionary: "get_disposal_co2_stat_sources", fields: ["ef", "k"] }],
  editable: true,
  measured: ["volume", "w_ch4", "w_co2"],
  core: emissionsCore("disposal_co2_stat_sources"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
// D16: fuel by default; the drained mine gas entry («Каптированный шахтный метан») is its utilisation.
export const inventory: InventorySource = {
  category: 1,
  ipcc: "1.A.1.c.ii",
  dictionary: "get_disposal_co2_stat_sources",
  // Drained mine gas burnt for energy stays 1.B.1.a.i.4 (D16): the paragraph of IPCC 2006 Vol. 2
  // ch. 4 (§4.1.3, recovered methane) that would move energy use to 1.A could not be read in a
  // stored copy of the Guidelines, so it is not cited and the code is kept (methodology 10.1).
  ipccByEntry: { 8: "1.B.1.a.i.4" },
  notesByEntry: { 8: "газ принят за 100 % CH4" },
  method: "coefficients",
  gases: GASES_CO2,
  passportFormula: (line) => {
    // D28: drained gas of a stated composition carries its CO2 into the boiler's line.
    const w = (name: string) => (typeof line.inputs?.[name] === "number" ? (line.inputs[name] as number) : 0);
    const percent = (name: string) => String(w(name)).replace(".", ",");
    if (w("w_ch4") > 0) {
      return `Приказ № 371, формулы 1.1 и 1.3 (W_CH4 ${percent("w_ch4")} %, W_CO2 ${percent("w_co2")} %): ${STATIONARY_FORMULAS.composition}`;
    }
    return dictionaryEntryOf(line.coefficients?.ef) === MINE_GAS_FUEL_ENTRY
      ? `Приказ № 371, формулы 1.1 и 1.3 (газ принят за 100 % CH4): ${STATIONARY_FORMULAS.pureMethane}`
      : `Приказ № 371, формулы 1.1 и 1.2а: ${STATIONARY_FORMULAS.fuel}`;
  },
};

/** Drained gas a flare, boiler or engine destroyed, at an emission point (D17, D25, D35). */
export const balance: BalanceRole = "destruction";

/** 4.8 CMM: volume × k thousand m³ of the gas, the entry's factor ρ CO2 of the measurement conditions
 *  (and ρ CH4 by the same row); D24, D28: with W_CH4 given, that share of it is CH4. A fuel that is
 *  not mine gas destroys none. */
export const destroys: MethaneDestruction = ({ inputs, coefficients }) => {
  const oxidised = inputs.of === undefined ? 1 : inputNumber(inputs, "of");
  const density = ch4DensityBesideCo2(inputNumber(inputs, "ef"));
  const gas = inputNumber(inputs, "volume") * (inputs.k === undefined ? 1 : inputNumber(inputs, "k"));
  if (inputNumber(inputs, "w_ch4") > 0) {
    const sent = (gas * inputNumber(inputs, "w_ch4") * (inputNumber(inputs, "p_ch4") || density)) / 100;
    return { route: "used", sent_t: sent, destroyed_t: sent * oxidised };
  }
  const ef = coefficients?.ef;
  if (ef?.dictionary !== "get_disposal_co2_stat_sources" || ef.item_id !== MINE_GAS_FUEL_ENTRY) return undefined;
  const sent = gas * density;
  return { route: "used", sent_t: sent, destroyed_t: sent * oxidised };
};

/** Its category on the reference page (/dictionary), its dictionaries those of its fields. */
export const reference = referenceOf(definition, {
  index: 6,
  category: "Выбросы CO2 при сжигании метана и топлива в стационарных источниках",
  // A fuel through t c.e.; drained mine gas of a stated composition (D28), its entry taken as 100 % CH4 without one.
  formula: [STATIONARY_FORMULAS.fuel, STATIONARY_FORMULAS.composition],
  document: DOCUMENTS.order371,
  clause: "формулы 1.1, 1.2, 1.3, табл. 1.1",
  symbols: { ef: "EF", of: "OF", k: "k" },
});

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([
  { volume: 1000, k: 1.129, ef: 1.59, of: 1.0, res_co2: 1795.11 },
  { volume: 1000, k: 0.03308, ef: 54.4, of: 1.0, res_co2: 1799.552 },
  { volume: 1000, k: 1.129, ef: 1.59, of: 0.995, res_co2: 1786.13445 },
  { volume: 1000, k: 0.768, ef: 2.77, of: 1.0, res_co2: 2127.36 },
  { volume: 1000, k: 1.0, ef: 1.8393, of: 1.0, res_co2: 1839.3 },
]);
