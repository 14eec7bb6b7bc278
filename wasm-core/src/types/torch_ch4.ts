// Выбросы несгоревшего CH4 на факельной установке (torch_ch4): the type's registry entry.
import type { CalculationDefinition } from "./definition";
import { CH4_RESULTS, emissionsCore, flaredMethane, GASES_CH4, IPCC_FLARE_BALANCE, IPCC_FLARE_SOURCE, koefTransform } from "./fields";
import { ipccFlareInventory, referenceOf, section5Vectors } from "./fields";

export const definition = {
  title: "Выбросы несгоревшего CH4 на факельной установке",
  kind: "formula",
  methodology: "4.7",
  inputs: [flaredMethane, koefTransform()],
  ...CH4_RESULTS,
  dictionaries: [{ dictionary: "get_torch_ch4", fields: ["koef_transform"] }],
  editable: true,
  core: emissionsCore("torch_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory = ipccFlareInventory(GASES_CH4, "CH4 = (1 − 0,98) × V × ρ");

export const { balance, destroys } = IPCC_FLARE_BALANCE;

/** Its category on the reference page (/dictionary), its dictionaries those of its fields. */
export const reference = referenceOf(definition, {
  index: 5,
  category: "Несгоревший CH4 при сжигании на факельной установке",
  formula: ["E = (1 − 0,98) × V × ρ"],
  ...IPCC_FLARE_SOURCE,
  symbols: { koef_transform: "ρ" },
});

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([{ volume: 1000, koef_transform: 0.67, res_ch4: 13.4, res_ch4_to_co2: 335 }]);
