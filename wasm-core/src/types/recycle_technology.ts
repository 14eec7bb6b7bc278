// Выбор технологии утилизации шахтного метана (recycle_technology): the type's registry entry.
import type { CalculationDefinition } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import { analysisParts, emissionsCore } from "./fields";

export const definition = {
  title: "Выбор технологии утилизации шахтного метана",
  kind: "formula",
  methodology: "4.10",
  inputs: [
    { name: "metan", label: "Концентрация метана", unit: "%", type: "number", min: 0, max: 100, decimals: 2 },
    {
      name: "a_metan",
      label: "Абсолютное метановыделение (дебит чистого метана)",
      unit: "м³/мин",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.flow_m3_min,
      decimals: 2,
    },
  ],
  results: [{ name: "technology", label: "Рекомендуемая технология утилизации шахтного метана", unit: "", type: "text" }],
  // D5: flow thresholds are editable dictionary values, defaults 0.5 / 2 / 5 / 10 / 25 m³/min.
  settings: [
    {
      name: "q_boiler",
      label: "Минимальный дебит для котельной",
      unit: "м³/мин",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.flow_m3_min,
      decimals: 2,
      default: 0.5,
    },
    {
      name: "q_gas_engine",
      label: "Минимальный дебит для газопоршневой установки",
      unit: "м³/мин",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.flow_m3_min,
      decimals: 2,
      default: 2,
    },
    {
      name: "q_vam_energy",
      label: "Минимальный дебит для окисления с выработкой энергии",
      unit: "м³/мин",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.flow_m3_min,
      decimals: 2,
      default: 5,
    },
    {
      name: "q_pipeline",
      label: "Минимальный дебит для подачи в сеть, КПГ/СПГ",
      unit: "м³/мин",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.flow_m3_min,
      decimals: 2,
      default: 10,
    },
    {
      name: "q_power_plant",
      label: "Минимальный дебит для мини-ТЭС",
      unit: "м³/мин",
      type: "number",
      min: 0,
      max: PHYSICAL_BOUNDS.flow_m3_min,
      decimals: 2,
      default: 25,
    },
  ],
  dictionaries: [
    { dictionary: "get_recycle_technology", fields: ["q_boiler", "q_gas_engine", "q_vam_energy", "q_pipeline", "q_power_plant"] },
  ],
  editable: false,
  core: emissionsCore("recycle_technology"),
} as const satisfies CalculationDefinition;

/** An analysis, outside the inventory, the balance and the reference page; its worked examples are
 *  section 5's test vectors. */
export const { inventory, balance, destroys, reference, vectors } = analysisParts({
  section: "section 5",
  examples: [
    {
      metan: 0.1,
      a_metan: 50,
      code: "NONE_TOO_LEAN",
    },
    {
      metan: 0.2,
      a_metan: 10,
      code: "VAM_DESTRUCTION",
    },
    {
      metan: 0.4,
      a_metan: 30,
      code: "VAM_DESTRUCTION",
    },
    {
      metan: 0.6,
      a_metan: 5,
      code: "VAM_ENERGY",
    },
    {
      metan: 0.8,
      a_metan: 20,
      code: "VAM_ENERGY",
    },
    {
      metan: 0.8,
      a_metan: 3,
      code: "VAM_DESTRUCTION",
    },
    {
      metan: 1.0,
      a_metan: 10,
      code: "DILUTE_AND_OXIDISE",
    },
    {
      metan: 3,
      a_metan: 10,
      code: "DILUTE_AND_OXIDISE",
    },
    {
      metan: 5.0,
      a_metan: 10,
      code: "UNSAFE_NO_USE",
    },
    {
      metan: 15,
      a_metan: 10,
      code: "UNSAFE_NO_USE",
    },
    {
      metan: 25.0,
      a_metan: 5,
      code: "FLARE_BOILER_LIMITED",
    },
    {
      metan: 27,
      a_metan: 0.1,
      code: "FLARE_BOILER_LIMITED",
    },
    {
      metan: 30,
      a_metan: 0.5,
      code: "BOILER",
    },
    {
      metan: 30,
      a_metan: 2,
      code: "GAS_ENGINE_CHP",
    },
    {
      metan: 45,
      a_metan: 0.3,
      code: "FLARE",
    },
    {
      metan: 45,
      a_metan: 1.5,
      code: "BOILER",
    },
    {
      metan: 45,
      a_metan: 8,
      code: "GAS_ENGINE_CHP",
    },
    {
      metan: 60,
      a_metan: 40,
      code: "POWER_PLANT",
    },
    {
      metan: 95,
      a_metan: 10,
      code: "PIPELINE_CNG_LNG",
    },
    {
      metan: 97,
      a_metan: 15,
      code: "PIPELINE_CNG_LNG",
    },
    {
      metan: 97,
      a_metan: 5,
      code: "GAS_ENGINE_CHP",
    },
    {
      metan: 50,
      a_metan: 0,
      code: "NO_FLOW",
    },
  ],
});
