import { describe, expect, it } from "vitest";
import { levelWidths } from "./calibrationText";

const bin = (below: number | null, q90: number | null) => ({
  below,
  rows: 200,
  quantiles: { "80": null, "90": q90, "95": null },
  residuals: [],
});

describe("a calibration's widths by the forecast's level", () => {
  it("name each bin by its range of forecasts and give its 90 % half-width", () => {
    expect(levelWidths([bin(0.7626, 0.056), bin(0.8, 0.0606), bin(1, 0.0698), bin(null, 0.091)])).toEqual([
      "ниже 0,76 %: ± 0,0560 %",
      "0,76–0,80 %: ± 0,0606 %",
      "0,80–1,00 %: ± 0,0698 %",
      "от 1,00 %: ± 0,0910 %",
    ]);
    expect(levelWidths([bin(0.8, null), bin(null, 0.1)])).toEqual(["ниже 0,80 %: мало строк", "от 0,80 %: ± 0,1000 %"]);
    // bins whose widths are shares of the forecast's level say so.
    expect(levelWidths([bin(0.484, 0.3153), bin(null, 0.385)], 0.1)).toEqual([
      "ниже 0,48 %: ± 31,5 % прогноза",
      "от 0,48 %: ± 38,5 % прогноза",
    ]);
  });
});
