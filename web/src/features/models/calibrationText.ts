// A calibration's half-widths as the models screen writes them (CalibrateModelCard.tsx). Pure.
import type { ForecastCalibrationView } from "../../api/calculations";
import { formatResult } from "../../shared/decimals";

export const width = (v: number | null) => (v === null ? "мало строк" : `± ${formatResult(v, 4)} %`);

/** The 90 % half-width of each bin of the forecast's level: «ниже 0,80 %: ± 0,0560 %», «0,80–1,00 %: …», «от 1,00 %: …». */
export function levelWidths(bins: NonNullable<ForecastCalibrationView["bins"]>): string[] {
  return bins.map((bin, k) => {
    const from = k > 0 ? bins[k - 1].below : null;
    const where =
      from === null
        ? `ниже ${formatResult(bin.below ?? 0, 2)} %`
        : bin.below === null
          ? `от ${formatResult(from, 2)} %`
          : `${formatResult(from, 2)}–${formatResult(bin.below, 2)} %`;
    return `${where}: ${width(bin.quantiles["90"])}`;
  });
}
