// The coefficients a bench's stored calculations carry, as the API records them (docs/methodology.md, D9).
import type { CoefficientUse } from "@server/ports";

/** A value taken from a dictionary row. */
export const fromDictionary = (dictionary: string, value: number, unit: string, item = 1): CoefficientUse => ({
  value,
  unit,
  source: "dictionary",
  dictionary,
  item_id: item,
  item_name: `Запись ${item}`,
  item_version: 1,
  reference: "[T] Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2",
});

/** A value the user typed. */
export const typed = (value: number, unit: string): CoefficientUse => ({ value, unit, source: "input" });

/** A measured release (`underground`) of `volume` thousand m³ as the API stores it: the gas's
 *  densities and contents from the dictionaries, CH4 at `gwpCh4`. */
export function storedUnderground(volume: number, gwpCh4: number, inputs: Record<string, unknown> = {}) {
  const resCo2 = (volume * 10.6 * 1.8393) / 100;
  const resCh4 = (volume * 76 * 0.668) / 100;
  return {
    inputs: { volume, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76, gwp_ch4: gwpCh4, ...inputs },
    results: { res_co2: resCo2, res_ch4: resCh4, res_ch4_to_co2: resCh4 * gwpCh4, sum_co2: resCo2 + resCh4 * gwpCh4 },
    coefficients: {
      volume: typed(volume, "тыс. м³"),
      p_co2: fromDictionary("get_underground", 1.8393, "кг/м³"),
      p_ch4: fromDictionary("get_underground", 0.668, "кг/м³"),
      ef_co2: fromDictionary("get_underground_content", 10.6, "% об."),
      ef_ch4: fromDictionary("get_underground_content", 76, "% об."),
      gwp_ch4: fromDictionary("get_gwp", gwpCh4, "т CO2-экв./т CH4"),
    },
  };
}

/** The open-pit machinery's fuel (`open_mining_co2`), `t` of diesel or petrol, as the API stores it. */
export function storedMachineryFuel(t: number, diesel: boolean) {
  const ef = diesel ? 3.149 : 3.026;
  return {
    inputs: { volume: t, ef },
    results: { res_co2: t * ef },
    coefficients: { volume: typed(t, "т топлива"), ef: fromDictionary("get_open_mining_co2", ef, "т CO2/т", diesel ? 1 : 4) },
  };
}
