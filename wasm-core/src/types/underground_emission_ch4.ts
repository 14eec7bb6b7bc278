// Выбросы CH4 при добыче угля подземным способом (underground_emission_ch4): the type's registry entry.
import type { BalanceRole, CalculationDefinition } from "./definition";
import { CH4_RESULTS, coalVolume, emissionsCore, koefTransform, ipccMethaneFactor } from "./fields";
import { ipccMiningInventory, ipccMiningReference, section5Vectors } from "./fields";

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
  ...CH4_RESULTS,
  dictionaries: [{ dictionary: "get_underground_emission_ch4", fields: ["ef"] }],
  editable: true,
  basis: "gross",
  core: emissionsCore("underground_emission_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory = ipccMiningInventory("1.B.1.a.i.1", () => "4.1.3 (добыча)");

/** A mining figure of the mine as a whole, netted of the gas destroyed when gross (D17). */
export const balance: BalanceRole = "mining_estimate";
export const destroys = null;

/** Its category on the reference page (/dictionary). */
export const reference = ipccMiningReference(definition, {
  index: 4,
  category: "Выбросы CH4 при подземной добыче",
  formula: ["E = V × EF × ρ × 10⁻³, ρ = 0,67"],
  clause: "уравнение 4.1.3, уровень 1",
});

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([
  { volume: 1000000, ef: 18, koef_transform: 0.67, res_ch4: 12060, res_ch4_to_co2: 301500 },
  { volume: 1000000, ef: 10, koef_transform: 0.67, res_ch4: 6700, res_ch4_to_co2: 167500 },
  { volume: 1000000, ef: 25, koef_transform: 0.67, res_ch4: 16750, res_ch4_to_co2: 418750 },
]);
