// Выбросы несгоревшего CH4 на факельной установке (torch_ch4): the type's registry entry.
import type { CalculationDefinition } from "./definition";
import { emissionsCore, flaredMethane, gwpSetting, koefTransform, resCh4, resCh4ToCo2 } from "./fields";

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
