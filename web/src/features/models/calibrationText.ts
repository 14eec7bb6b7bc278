// A calibration's half-widths as the models screen writes them (CalibrateModelCard.tsx). Pure.
import type { ForecastCalibrationView } from "../../api/calculations";
import { formatResult } from "../../shared/decimals";

export const width = (v: number | null) => (v === null ? "мало строк" : `± ${formatResult(v, 4)} %`);

/** A bin's 90 % half-width as a share of the forecast's level: «± 38,5 % прогноза». */
const shareWidth = (v: number | null) => (v === null ? "мало строк" : `± ${formatResult(v * 100, 1)} % прогноза`);

/**
 * The 90 % half-width of each bin of the forecast's level: «ниже 0,80 %: ± 0,0560 %», «0,80–1,00 %: …», «от 1,00 %: …»;
 * where the bins' widths are shares of the forecast (a calibration with `level_floor`), «от 0,48 %: ± 38,5 % прогноза».
 */
export function levelWidths(bins: NonNullable<ForecastCalibrationView["bins"]>, levelFloor?: number): string[] {
  const widthOf = levelFloor === undefined ? width : shareWidth;
  return bins.map((bin, k) => {
    const from = k > 0 ? bins[k - 1].below : null;
    const where =
      from === null
        ? `ниже ${formatResult(bin.below ?? 0, 2)} %`
        : bin.below === null
          ? `от ${formatResult(from, 2)} %`
          : `${formatResult(from, 2)}–${formatResult(bin.below, 2)} %`;
    return `${where}: ${widthOf(bin.quantiles["90"])}`;
  });
}
