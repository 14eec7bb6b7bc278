// The converter's arithmetic (docs/user-guide.md, conventions: converters), done by the wasm emission core:
// gas t = m³ × ρ(gas at the chosen conditions) / 1000, fuel t = L × ρ(fuel) / 1000. A result is
// computed only when everything it needs is set; any failure is logged and clears the result.
import type { EmissionsCore } from "@core/emissions-core";
import { parseNumericInput } from "../../shared/decimals";
import type { DictionaryEntry } from "../../api/dictionary";

export type ConverterCore = Pick<EmissionsCore, "gasM3ToTonnes" | "fuelLitresToTonnes">;

export const GASES = ["CH4", "CO2"] as const;
export type Gas = (typeof GASES)[number];
export const DEFAULT_GAS: Gas = "CH4";

/** The measurement-conditions field (get_coeff_co2_density) holding the density of `gas`. */
function densityField(gas: string): "p_ch4" | "p_co2" {
  switch (gas) {
    case "CH4":
      return "p_ch4";
    case "CO2":
      return "p_co2";
    default:
      throw new Error("Invalid fugitive option");
  }
}

function attempt(compute: () => number): number | undefined {
  try {
    return compute();
  } catch (error) {
    console.error(error);
    return undefined;
  }
}

/** Tonnes of `gas` in `quantity` m³ at the chosen measurement conditions. */
export function fugitiveTonnes(
  core: ConverterCore,
  gas: string | undefined,
  conditions: DictionaryEntry | undefined,
  quantity: string,
): number | undefined {
  const volume = parseNumericInput(quantity);
  if (!gas || !conditions || volume === undefined) return undefined;
  return attempt(() => core.gasM3ToTonnes(volume, conditions[densityField(gas)]));
}

/** Tonnes of fuel in `quantity` litres of the chosen brand (density p, kg/L). */
export function fuelTonnes(core: ConverterCore, fuel: DictionaryEntry | undefined, quantity: string): number | undefined {
  const litres = parseNumericInput(quantity);
  if (!fuel || litres === undefined) return undefined;
  return attempt(() => core.fuelLitresToTonnes(litres, fuel.p));
}
