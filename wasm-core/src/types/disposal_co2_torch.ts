// Выбросы CO2 при сжигании метана на факельной установке (disposal_co2_torch): the type's registry entry.
import type { CalculationDefinition } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import { CO2_RESULTS, emissionsCore, flaredMethane, GASES_CO2, IPCC_FLARE_BALANCE, IPCC_FLARE_SOURCE, koefTransform } from "./fields";
import { ipccFlareInventory, referenceOf, section5Vectors } from "./fields";

export const definition = {
  title: "Выбросы CO2 при сжигании метана на факельной установке",
  kind: "formula",
  methodology: "4.6",
  inputs: [
    flaredMethane,
    {
      name: "ef",
      label: "Стехиометрический коэффициент (CO2/CH4)",
      unit: "т CO2/т CH4",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.factor_t,
      decimals: 4,
      default: 2.75,
    },
    koefTransform(),
  ],
  ...CO2_RESULTS,
  dictionaries: [{ dictionary: "get_disposal_co2_torch", fields: ["ef", "koef_transform"] }],
  editable: true,
  core: emissionsCore("disposal_co2_torch"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
// D16, D22: flaring of drained methane; the IPCC types (efficiency 0.98) are alternatives by default.
export const inventory = ipccFlareInventory(GASES_CO2, "CO2 = 0,98 × V × ρ × 2,75");

export const { balance, destroys } = IPCC_FLARE_BALANCE;

/** Its category on the reference page (/dictionary), its dictionaries those of its fields. */
export const reference = referenceOf(definition, {
  index: 7,
  category: "Выбросы CO2 при сжигании метана на факельной установке",
  formula: ["E = 0,98 × V × ρ × EF"],
  ...IPCC_FLARE_SOURCE,
  symbols: { ef: "EF", koef_transform: "ρ" },
});

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([{ volume: 1000, ef: 2.75, koef_transform: 0.67, res_co2: 1805.65 }]);
