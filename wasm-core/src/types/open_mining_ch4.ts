// Выбросы CH4 при добыче угля открытым способом (open_mining_ch4): the type's registry entry.
import type { CalculationDefinition, InventorySource, ReferenceCategory, VectorRow, WorkedExamples } from "./definition";
import { coalVolume, emissionsCore, gwpSetting, koefTransform, resCh4, resCh4ToCo2, dictionaryEntryOf } from "./fields";
import { ipccMethaneFactor, GASES_CH4, IPCC_EQUATION, BY_PRODUCTION, DOCUMENTS, IPCC_SYMBOLS, IPCC_MINING } from "./fields";

export const definition = {
  title: "Выбросы CH4 при добыче угля открытым способом",
  kind: "formula",
  methodology: "4.3",
  inputs: [
    coalVolume("открытым способом"),
    // Mining 1.2 (0.3–2.0) and post-mining 0.1 (0–0.2) are two dictionary rows (Q9).
    ipccMethaneFactor("Коэффициент выбросов CH4", 1.2, { min: 0, max: 2.0 }),
    koefTransform(),
  ],
  results: [resCh4, resCh4ToCo2],
  settings: [gwpSetting],
  dictionaries: [
    {
      dictionary: "get_open_mining_ch4",
      fields: ["ef", "koef_transform"],
      // docs/user-guide.md: the custom open-mining entry uses a conversion coefficient of 0.67.
      custom: { label: "Фактическое значение", fixed: { koef_transform: 0.67 } },
    },
  ],
  editable: true,
  co2e: "res_ch4_to_co2",
  core: emissionsCore("open_mining_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory: InventorySource = {
  category: 3,
  ipcc: "1.B.1.a.ii.1",
  dictionary: "get_open_mining_ch4",
  ipccByEntry: { 4: "1.B.1.a.ii.2" },
  // D16: «Добыча и последующие выбросы вместе (1,2 + 0,1)».
  notesByEntry: { 5: "включая выбросы после добычи" },
  method: "coefficients",
  gases: GASES_CH4,
  passportFormula: (line) => {
    const entry = dictionaryEntryOf(line.coefficients?.ef);
    const which = entry === 4 ? "4.1.8 (после добычи)" : entry === 5 ? "4.1.7 и 4.1.8 (добыча и после добычи)" : "4.1.7 (добыча)";
    return `${IPCC_EQUATION} ${which}: ${BY_PRODUCTION}`;
  },
};

/** The type takes no part in the methane balance (D17). */
export const balance = null;
export const destroys = null;

/** Its category on the reference page (/dictionary): the formula in the symbols of its coefficient tables,
 *  the document and clause it comes from, the dictionaries whose coefficients it shows. */
export const reference: ReferenceCategory = {
  index: 3,
  category: "Выбросы CH4 при открытой добыче",
  formula: IPCC_MINING,
  document: DOCUMENTS.ipcc2006,
  clause: "уравнения 4.1.7, 4.1.8, уровень 1",
  dictionaries: ["get_open_mining_ch4"],
  symbols: IPCC_SYMBOLS,
};

/** Its worked examples: section 5's test vectors (inputs and results; GWP 25). */
export const vectors: WorkedExamples<readonly VectorRow[]> = {
  section: "section 5",
  examples: [
    { volume: 1000000, ef: 1.2, koef_transform: 0.67, res_ch4: 804, res_ch4_to_co2: 20100 },
    { volume: 1000000, ef: 0.1, koef_transform: 0.67, res_ch4: 67, res_ch4_to_co2: 1675 },
  ],
};
