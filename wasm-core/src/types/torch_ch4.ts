// Выбросы несгоревшего CH4 на факельной установке (torch_ch4): the type's registry entry.
import type { CalculationDefinition, InventorySource, ReferenceCategory, VectorRow, WorkedExamples } from "./definition";
import { IPCC_FLARING } from "./definition";
import {
  emissionsCore,
  flaredMethane,
  IPCC_FLARE_BALANCE,
  gwpSetting,
  koefTransform,
  resCh4,
  resCh4ToCo2,
  GASES_CH4,
  IPCC_FLARE_SOURCE,
} from "./fields";

export const definition = {
  title: "Выбросы несгоревшего CH4 на факельной установке",
  kind: "formula",
  methodology: "4.7",
  inputs: [flaredMethane, koefTransform()],
  results: [resCh4, resCh4ToCo2],
  settings: [gwpSetting],
  dictionaries: [{ dictionary: "get_torch_ch4", fields: ["koef_transform"] }],
  editable: true,
  co2e: "res_ch4_to_co2",
  core: emissionsCore("torch_ch4"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory: its Order 371 category, IPCC code and gases (D15). */
export const inventory: InventorySource = {
  ...IPCC_FLARING,
  gases: GASES_CH4,
  passportFormula: () => "МГЭИК 2006, т. 2, гл. 4, сжигание на факеле: CH4 = (1 − 0,98) × V × ρ",
};

export const { balance, destroys } = IPCC_FLARE_BALANCE;

/** Its category on the reference page (/dictionary): the formula in the symbols of its coefficient tables,
 *  the document and clause it comes from, the dictionaries whose coefficients it shows. */
export const reference: ReferenceCategory = {
  index: 5,
  category: "Несгоревший CH4 при сжигании на факельной установке",
  formula: ["E = (1 − 0,98) × V × ρ"],
  ...IPCC_FLARE_SOURCE,
  dictionaries: ["get_torch_ch4"],
  symbols: { koef_transform: "ρ" },
};

/** Its worked examples: section 5's test vectors (inputs and results; GWP 25). */
export const vectors: WorkedExamples<readonly VectorRow[]> = {
  section: "section 5",
  examples: [{ volume: 1000, koef_transform: 0.67, res_ch4: 13.4, res_ch4_to_co2: 335 }],
};
