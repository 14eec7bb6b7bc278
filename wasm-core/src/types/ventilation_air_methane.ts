// Окисление метана вентиляционной струи (ventilation_air_methane): the type's registry entry, added
// through `npm run new-type -- ventilation_air_methane` (docs/architecture.md, «Adding a calculation type»).
// A mine's ventilation-air methane oxidiser (thermal TFRR/RTO or catalytic, methodology 11.1 `VAM_RTO`)
// burns the CH4 of the air sent to it: the CO2 it forms is the year's line 1.B.1.a.i.4 (D16: conversion
// of methane to CO2). What leaves it unburnt reaches the atmosphere with the air, where the mine measures
// it as a release (formula 3.1 at its «Установка окисления метана вентиляционной струи» point, whose
// stream is the atmosphere, D25), so the type shows its unburnt CH4 beside the CO2 and counts the CO2 only.
import type { CalculationDefinition, InventorySource, ReferenceCategory, VectorRow, WorkedExamples } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import {
  co2eResult,
  densityField,
  DOCUMENTS,
  emissionsCore,
  GASES_CO2,
  gasVolume,
  gwpSetting,
  PERCENT_VOL,
  resCh4,
  resCh4ToCo2,
  resCo2,
} from "./fields";

export const definition = {
  title: "Окисление метана вентиляционной струи",
  kind: "formula",
  methodology: "11.2",
  inputs: [
    gasVolume("Объём вентиляционного воздуха, поданного на установку окисления", PHYSICAL_BOUNDS.released_gas_thousand_m3),
    {
      name: "ef_ch4",
      label: "Содержание CH4 в вентиляционной струе",
      unit: PERCENT_VOL,
      type: "number",
      min: 0,
      max: 100,
      decimals: 4,
      // 11.1: the oxidiser's window, 0,2 ≤ C < 1,0 % (below it no autothermal oxidation, above it dilute first).
      typical: { min: 0.2, max: 1 },
    },
    // D2: 20 °C unless the air's volume is given at other conditions (0,6797 at 15 °C, 0,717 at 0 °C, table 1.1).
    densityField("p_ch4", "Плотность CH4", 0.668),
    {
      name: "eta",
      label: "Степень окисления метана",
      unit: "доля",
      type: "number",
      min: 0,
      max: 1,
      decimals: 4,
      // D50: 0,95 for a VAM oxidiser [A]; the unit's measured value replaces it.
      default: 0.95,
    },
  ],
  results: [
    resCo2,
    { ...resCh4, label: "Несгоревший CH4" },
    { ...resCh4ToCo2, label: "Несгоревший CH4 в CO2-эквиваленте" },
    co2eResult("sum_co2", "CO2 и несгоревший CH4 в CO2-эквиваленте"),
  ],
  settings: [gwpSetting],
  dictionaries: [
    // D50: the unit's measured destruction as «Фактическое значение» (D10) replaces the default.
    { dictionary: "get_ventilation_air_methane", fields: ["eta"] },
  ],
  editable: true,
  co2e: "res_co2",
  // D29: the air's volume, its CH4 and the unit's destruction are the mine's own measurements.
  measured: ["volume", "ef_ch4", "eta"],
  core: emissionsCore("ventilation_air_methane"),
} as const satisfies CalculationDefinition;

/** The IPCC's oxidation of ventilation-air methane (methodology section 3: CO2 = 0,98 × V_CH4 × 0,67 ×
 *  2,75) with the unit's own destruction η (11.2's PE_MD = η × M_CH4 × 44/16) and the air's CH4 by
 *  formula 3.1. */
const FORMULA = "CO2 = η × V × W_CH4 × ρ_CH4 × 10⁻² × 44/16";

/** D16: the CO2 formed by oxidation, line 1.B.1.a.i.4, Order 371 category 2 beside the flares; the
 *  unburnt CH4 is in the release measured after the unit. */
export const inventory: InventorySource = {
  category: 2,
  ipcc: "1.B.1.a.i.4",
  method: "measurement",
  note: "несгоревший CH4 учитывается измерением выброса после установки",
  gases: GASES_CO2,
  passportFormula: () => `МГЭИК 2006, т. 2, гл. 4, окисление метана вентиляционной струи: ${FORMULA}`,
  since: "2026-11-27",
};

/** No part in the methane balance: the gas it oxidises is ventilation air, which no drainage fed (D35). */
export const balance = null;
export const destroys = null;

/** Its category on the reference page (/dictionary). */
export const reference: ReferenceCategory = {
  index: 9,
  category: "Окисление метана вентиляционной струи",
  formula: ["E_CO2 = η × V × W_CH4 × ρ_CH4 × 10⁻² × 44/16", "E_CH4 = (1 − η) × V × W_CH4 × ρ_CH4 × 10⁻²"],
  document: DOCUMENTS.ipcc2006,
  clause: "раздел 4.1.3, окисление метана вентиляционной струи",
  dictionaries: ["get_ventilation_air_methane"],
  symbols: { eta: "η" },
};

/** Its worked example: 11.4 (b), a shaft's 250 m³/s of air at 0,45 % for 8 000 h (7 200 000 thousand m³),
 *  η 0,95, ρ 0,668, GWP 25: M 21 643,2 t, PE_MD 56 542,9 t CO2 (printed to six figures; 56 542,86
 *  unrounded), PE_UM 27 054 t CO2-eq. (1 082,16 t CH4). */
export const vectors: WorkedExamples<readonly VectorRow[]> = {
  section: "section 11",
  examples: [
    {
      volume: 7_200_000,
      ef_ch4: 0.45,
      p_ch4: 0.668,
      eta: 0.95,
      res_co2: 56542.86,
      res_ch4: 1082.16,
      res_ch4_to_co2: 27054,
      sum_co2: 83596.86,
    },
  ],
};
