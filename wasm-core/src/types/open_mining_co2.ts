// Выбросы CO2 от сжигания топлива техникой при открытой добыче (open_mining_co2): the type's registry entry.
import type { CalculationDefinition, InventorySource } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import { CO2_RESULTS, DOCUMENTS, emissionsCore, fuelCo2Factor, GASES_CO2, referenceOf, section5Vectors } from "./fields";

export const definition = {
  title: "Выбросы CO2 от сжигания топлива техникой при открытой добыче",
  kind: "formula",
  methodology: "4.4",
  inputs: [
    {
      name: "volume",
      label: "Расход топлива",
      unit: "т топлива",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.fuel_t,
      decimals: 4,
      activity: "fuel",
    },
    // Graph series: 3.149 = «Дизель», 3.026 = «Топливо» (motor gasoline), docs/user-guide.md.
    fuelCo2Factor("ef", "Коэффициент выбросов CO2"),
  ],
  ...CO2_RESULTS,
  dictionaries: [{ dictionary: "get_open_mining_co2", fields: ["ef"] }],
  editable: true,
  core: emissionsCore("open_mining_co2"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
// D16: fuel burnt for coal mining (open-pit machinery).
export const inventory: InventorySource = {
  category: 18,
  ipcc: "1.A.1.c.ii",
  method: "coefficients",
  gases: GASES_CO2,
  passportFormula: () => "Приказ № 371, формула 18.1: E_CO2 = FC × EF",
};

/** The type takes no part in the methane balance (D17). */
export const balance = null;
export const destroys = null;

/** Its category on the reference page (/dictionary), its dictionaries those of its fields. */
export const reference = referenceOf(definition, {
  index: 1,
  category: "Выбросы CO2 от сжигания топлива техникой при открытой добыче",
  formula: ["E = V_т × EF", "V_т = V_л × ρ × 10⁻³"],
  document: DOCUMENTS.order371,
  clause: "формулы 18.1, 18.2, табл. 18.1",
  symbols: { ef: "EF", p: "ρ" },
});

/** Its worked examples: section 5's test vectors. */
export const vectors = section5Vectors([
  { volume: 100, ef: 3.149, res_co2: 314.9 },
  { volume: 100, ef: 3.026, res_co2: 302.6 },
  { volume: 0.84, ef: 3.149, res_co2: 2.64516 },
]);
