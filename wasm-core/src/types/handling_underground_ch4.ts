// Выбросы CH4 после добычи угля подземным способом (обработка угля) (handling_underground_ch4): the type's registry entry.
import type { BalanceRole, CalculationDefinition, InventorySource, ReferenceCategory, VectorRow, WorkedExamples } from "./definition";
import { coalVolume, emissionsCore, gwpSetting, koefTransform, resCh4, resCh4ToCo2 } from "./fields";
import { ipccMethaneFactor, GASES_CH4, IPCC_EQUATION, BY_PRODUCTION, DOCUMENTS, IPCC_SYMBOLS, IPCC_MINING } from "./fields";

export const definition = {
  title: "Выбросы CH4 после добычи угля подземным способом (обработка угля)",
  kind: "formula",
  methodology: "4.2",
  inputs: [
    coalVolume("подземным способом"),
    ipccMethaneFactor("Коэффициент выбросов CH4 после добычи", 2.5, { min: 0.9, max: 4.0 }),
    koefTransform(),
  ],
  results: [resCh4, resCh4ToCo2],
  settings: [gwpSetting],
  dictionaries: [{ dictionary: "get_handling_underground_ch4", fields: ["ef", "koef_transform"] }],
  editable: true,
  co2e: "res_ch4_to_co2",
  basis: "gross",
  basisFixed: true,
  core: emissionsCore("handling_underground_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory: InventorySource = {
  category: 3,
  ipcc: "1.B.1.a.i.2",
  method: "coefficients",
  gases: GASES_CH4,
  passportFormula: () => `${IPCC_EQUATION} 4.1.4 (после добычи): ${BY_PRODUCTION}`,
};

/** Post-mining methane: added to the balance, never netted (D17). */
export const balance: BalanceRole = "post_mining";
export const destroys = null;

/** Its category on the reference page (/dictionary): the formula in the symbols of its coefficient tables,
 *  the document and clause it comes from, the dictionaries whose coefficients it shows. */
export const reference: ReferenceCategory = {
  index: 2,
  category: "Выбросы CH4 после подземной добычи (обработка угля)",
  formula: IPCC_MINING,
  document: DOCUMENTS.ipcc2006,
  clause: "уравнение 4.1.4, уровень 1",
  dictionaries: ["get_handling_underground_ch4"],
  symbols: IPCC_SYMBOLS,
};

/** Its worked examples: section 5's test vectors (inputs and results; GWP 25). */
export const vectors: WorkedExamples<readonly VectorRow[]> = {
  section: "section 5",
  examples: [{ volume: 1000000, ef: 2.5, koef_transform: 0.67, res_ch4: 1675, res_ch4_to_co2: 41875 }],
};
