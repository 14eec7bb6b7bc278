// Выбросы CH4 при добыче угля открытым способом (open_mining_ch4): the type's registry entry.
import { type CalculationDefinition, PHYSICAL_BOUNDS } from "./definition";
import { coalVolume, emissionsCore, gwpSetting, koefTransform, M3_T, resCh4, resCh4ToCo2 } from "./fields";

export const definition = {
  title: "Выбросы CH4 при добыче угля открытым способом",
  kind: "formula",
  methodology: "4.3",
  inputs: [
    coalVolume("открытым способом"),
    {
      // Mining 1.2 (0.3–2.0) and post-mining 0.1 (0–0.2) are two dictionary rows (Q9).
      name: "ef",
      label: "Коэффициент выбросов CH4",
      unit: M3_T,
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.methane_m3_t,
      decimals: 4,
      default: 1.2,
      typical: { min: 0, max: 2.0 },
    },
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
