// Выбросы CH4 при добыче угля подземным способом (underground_emission_ch4): the type's registry entry.
import type { BalanceRole, CalculationDefinition, InventorySource, ReferenceCategory, VectorRow, WorkedExamples } from "./definition";
import { coalVolume, emissionsCore, gwpSetting, koefTransform, resCh4, resCh4ToCo2 } from "./fields";
import { ipccMethaneFactor, GASES_CH4, IPCC_EQUATION, BY_PRODUCTION, DOCUMENTS, IPCC_SYMBOLS } from "./fields";

export const definition = {
  title: "Выбросы CH4 при добыче угля подземным способом",
  kind: "formula",
  methodology: "4.1",
  inputs: [
    coalVolume("подземным способом"),
    // IPCC: low end for mine depth < 200 m, high end > 400 m.
    ipccMethaneFactor("Коэффициент выбросов CH4 при подземной добыче", 18, { min: 10, max: 25 }),
    koefTransform(0.67),
  ],
  results: [resCh4, resCh4ToCo2],
  settings: [gwpSetting],
  dictionaries: [{ dictionary: "get_underground_emission_ch4", fields: ["ef"] }],
  editable: true,
  co2e: "res_ch4_to_co2",
  basis: "gross",
  core: emissionsCore("underground_emission_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory: InventorySource = {
  category: 3,
  ipcc: "1.B.1.a.i.1",
  method: "coefficients",
  gases: GASES_CH4,
  passportFormula: () => `${IPCC_EQUATION} 4.1.3 (добыча): ${BY_PRODUCTION}`,
};

/** A mining figure of the mine as a whole, netted of the gas destroyed when gross (D17). */
export const balance: BalanceRole = "mining_estimate";
export const destroys = null;

/** Its category on the reference page (/dictionary): the formula in the symbols of its coefficient tables,
 *  the document and clause it comes from, the dictionaries whose coefficients it shows. */
export const reference: ReferenceCategory = {
  index: 4,
  category: "Выбросы CH4 при подземной добыче",
  formula: ["E = V × EF × ρ × 10⁻³, ρ = 0,67"],
  document: DOCUMENTS.ipcc2006,
  clause: "уравнение 4.1.3, уровень 1",
  dictionaries: ["get_underground_emission_ch4"],
  symbols: IPCC_SYMBOLS,
};

/** Its worked examples: section 5's test vectors (inputs and results; GWP 25). */
export const vectors: WorkedExamples<readonly VectorRow[]> = {
  section: "section 5",
  examples: [
    { volume: 1000000, ef: 18, koef_transform: 0.67, res_ch4: 12060, res_ch4_to_co2: 301500 },
    { volume: 1000000, ef: 10, koef_transform: 0.67, res_ch4: 6700, res_ch4_to_co2: 167500 },
    { volume: 1000000, ef: 25, koef_transform: 0.67, res_ch4: 16750, res_ch4_to_co2: 418750 },
  ],
};
