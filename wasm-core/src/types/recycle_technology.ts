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

/** An analysis, outside the inventory, the balance and the reference page; its test vectors are section 5's,
 *  under its name (wasm-core/src/methodology-vectors.json). */
export const { inventory, balance, destroys, reference, vectors } = analysisParts("section 5");
