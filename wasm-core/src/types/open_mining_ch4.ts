// Выбросы CH4 при добыче угля открытым способом (open_mining_ch4): the type's registry entry.
import type { CalculationDefinition, InventorySource } from "./definition";
import { CH4_RESULTS, coalVolume, emissionsCore, koefTransform, ipccMethaneFactor, dictionaryEntryOf } from "./fields";
import { ipccMiningInventory, ipccMiningReference, section5Vectors } from "./fields";

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
  ...CH4_RESULTS,
  dictionaries: [
    {
      dictionary: "get_open_mining_ch4",
      fields: ["ef", "koef_transform"],
      // docs/user-guide.md: the custom open-mining entry uses a conversion coefficient of 0.67.
      custom: { label: "Фактическое значение", fixed: { koef_transform: 0.67 } },
    },
  ],
  editable: true,
  core: emissionsCore("open_mining_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory: InventorySource = {
  ...ipccMiningInventory("1.B.1.a.ii.1", (line) => {
    const entry = dictionaryEntryOf(line.coefficients?.ef);
    return entry === 4 ? "4.1.8 (после добычи)" : entry === 5 ? "4.1.7 и 4.1.8 (добыча и после добычи)" : "4.1.7 (добыча)";
  }),
  dictionary: "get_open_mining_ch4",
  ipccByEntry: { 4: "1.B.1.a.ii.2" },
  // D16: «Добыча и последующие выбросы вместе (1,2 + 0,1)».
  notesByEntry: { 5: "включая выбросы после добычи" },
};

/** The type takes no part in the methane balance (D17). */
export const balance = null;
export const destroys = null;

/** Its category on the reference page (/dictionary). */
export const reference = ipccMiningReference(definition, {
  index: 3,
  category: "Выбросы CH4 при открытой добыче",
  clause: "уравнения 4.1.7, 4.1.8, уровень 1",
});

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([
  { volume: 1000000, ef: 1.2, koef_transform: 0.67, res_ch4: 804, res_ch4_to_co2: 20100 },
  { volume: 1000000, ef: 0.1, koef_transform: 0.67, res_ch4: 67, res_ch4_to_co2: 1675 },
]);
