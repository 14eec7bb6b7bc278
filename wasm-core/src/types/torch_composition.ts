// Выбросы CO2 и CH4 при сжигании газа на факельной установке по составу газа (torch_composition): the type's registry entry.
import type {
  BalanceRole,
  CalculationDefinition,
  InventorySource,
  MethaneDestruction,
  ReferenceCategory,
  VectorRow,
  WorkedExamples,
} from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import { emissionsCore, gwpSetting, inputNumber, resCh4, resCh4ToCo2, resCo2 } from "./fields";
import { COMPOSITION, GAS_DENSITIES, gasVolume, PERCENT_VOL, sumCo2, GASES_BOTH, DOCUMENTS } from "./fields";

export const definition = {
  title: "Выбросы CO2 и CH4 при сжигании газа на факельной установке по составу газа",
  kind: "formula",
  methodology: "7.1",
  inputs: [
    gasVolume("Объём газовой смеси, направленной на факельную установку", PHYSICAL_BOUNDS.flared_gas_thousand_m3),
    ...COMPOSITION.map(
      ([name, label]) =>
        ({
          name,
          label,
          unit: PERCENT_VOL,
          type: "number",
          min: 0,
          max: 100,
          decimals: 4,
          optional: true,
        }) as const,
    ),
    {
      name: "cf",
      label: "Коэффициент недожога",
      unit: "доля",
      type: "number",
      min: 0,
      max: 1,
      decimals: 4,
      default: 0.0006,
    },
    ...GAS_DENSITIES,
  ],
  results: [
    {
      name: "ef_co2",
      label: "Коэффициент выбросов CO2",
      unit: "т CO2/тыс. м³",
      type: "number",
      decimals: 6,
      max: PHYSICAL_BOUNDS.computed_factor_t,
    },
    {
      name: "ef_ch4",
      label: "Коэффициент выбросов CH4",
      unit: "т CH4/тыс. м³",
      type: "number",
      decimals: 6,
      max: PHYSICAL_BOUNDS.computed_factor_t,
    },
    resCo2,
    resCh4,
    resCh4ToCo2,
    sumCo2,
  ],
  settings: [gwpSetting],
  dictionaries: [
    { dictionary: "get_torch_cf", fields: ["cf"] },
    // 1.1: the densities by the measurement conditions of the volume (default 20 °C).
    { dictionary: "get_coeff_co2_density", fields: ["p_co2", "p_ch4"] },
  ],
  editable: true,
  co2e: "sum_co2",
  sums: [{ fields: COMPOSITION.map(([name]) => name), max: 100, label: "Сумма содержаний компонентов" }],
  measured: ["volume", "ef_ch4", "ef_co2", "w_ch4", "w_co2", "w_c2h6", "w_c3h8", "w_c4h10", "w_c5h12"],
  // 7.1: V × EF_CO2 + V × W_CH4 × CF × ρ_CH4 × GWP; EF_CO2 is a sum over the components, of which
  // the CO2 density is the one common factor.
  uncertaintyParts: { co2: ["p_co2"], ch4: ["w_ch4", "cf", "p_ch4", "gwp_ch4"] },
  core: emissionsCore("torch_composition"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory: InventorySource = {
  category: 2,
  ipcc: "1.B.1.a.i.4",
  method: "composition",
  gases: GASES_BOTH,
  passportFormula: () =>
    "Приказ № 371, формулы 2.1, 2.2, 2.4: E = FC × EF; EF_CO2 = (W_CO2 + Σ W_i × n_C,i × (1 − CF)) × ρ_CO2 × 10⁻²; " +
    "EF_CH4 = W_CH4 × CF × ρ_CH4 × 10⁻²",
};

/** Drained gas a flare, boiler or engine destroyed, at an emission point (D17, D25, D35). */
export const balance: BalanceRole = "destruction";

/** 7.1: V × W_CH4 × ρ_CH4 × 10⁻² sent; the share CF leaves unburnt (formula 2.4). */
export const destroys: MethaneDestruction = ({ inputs }) => {
  const sent = (inputNumber(inputs, "volume") * inputNumber(inputs, "w_ch4") * inputNumber(inputs, "p_ch4")) / 100;
  return { route: "flared", sent_t: sent, destroyed_t: sent * (1 - inputNumber(inputs, "cf")) };
};

/** Its category on the reference page (/dictionary): the formula in the symbols of its coefficient tables,
 *  the document and clause it comes from, the dictionaries whose coefficients it shows. */
export const reference: ReferenceCategory = {
  // an earlier round / docs/methodology.md, D11: the Order 371 route for flaring, beside the IPCC ones (indices 5 and 7).
  index: 8,
  category: "Выбросы CO2 и CH4 при сжигании газа на факельной установке по составу газа",
  formula: ["E_CO2 = V × (W_CO2 + Σ W_i × n_C,i × (1 − CF)) × ρ_CO2 × 10⁻²", "E_CH4 = V × W_CH4 × CF × ρ_CH4 × 10⁻²"],
  document: DOCUMENTS.order371,
  clause: "формулы 2.2, 2.4, табл. 1.2, 2.2",
  dictionaries: ["get_torch_cf", "get_coeff_co2_density"],
  symbols: { cf: "CF", p_ch4: "ρ_CH4", p_co2: "ρ_CO2" },
};

/** Its worked example is section 7's: 7.1 at GWP 25, 20 °C densities, smokeless flare CF 0.0006;
 *  W_C4H10 and W_C5H12 left out (= 0). */
export const vectors: WorkedExamples<readonly VectorRow[]> = {
  section: "section 7",
  examples: [
    {
      volume: 2500,
      w_ch4: 60,
      w_co2: 5,
      w_c2h6: 1,
      w_c3h8: 0.5,
      cf: 0.0006,
      p_co2: 1.8393,
      p_ch4: 0.668,
      ef_co2: 1.2592197267,
      ef_ch4: 0.00024048,
      res_co2: 3148.04931675,
      res_ch4: 0.6012,
      res_ch4_to_co2: 15.03,
      sum_co2: 3163.07931675,
    },
  ],
};
