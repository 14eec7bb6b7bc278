// Выбросы CH4 после добычи угля подземным способом (обработка угля) (handling_underground_ch4): the type's registry entry.
import type { BalanceRole, CalculationDefinition } from "./definition";
import { CH4_RESULTS, coalVolume, emissionsCore, koefTransform, ipccMethaneFactor } from "./fields";
import { ipccMiningInventory, ipccMiningReference, section5Vectors } from "./fields";

export const definition = {
  title: "Выбросы CH4 после добычи угля подземным способом (обработка угля)",
  kind: "formula",
  methodology: "4.2",
  inputs: [
    coalVolume("подземным способом"),
    ipccMethaneFactor("Коэффициент выбросов CH4 после добычи", 2.5, { min: 0.9, max: 4.0 }),
    koefTransform(),
  ],
  ...CH4_RESULTS,
  dictionaries: [{ dictionary: "get_handling_underground_ch4", fields: ["ef", "koef_transform"] }],
  editable: true,
  basis: "gross",
  basisFixed: true,
  core: emissionsCore("handling_underground_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory = ipccMiningInventory("1.B.1.a.i.2", () => "4.1.4 (после добычи)");

/** Post-mining methane: added to the balance, never netted (D17). */
export const balance: BalanceRole = "post_mining";
export const destroys = null;

/** Its category on the reference page (/dictionary). */
export const reference = ipccMiningReference(definition, {
  index: 2,
  category: "Выбросы CH4 после подземной добычи (обработка угля)",
  clause: "уравнение 4.1.4, уровень 1",
});

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([{ volume: 1000000, ef: 2.5, koef_transform: 0.67, res_ch4: 1675, res_ch4_to_co2: 41875 }]);
