import { describe, expect, it } from "vitest";
import { tornadoBars } from "./tornado";
import type { SensitivityElement } from "./tornado";

const element = {
  id: 1,
  name: "Шахта",
  data_sensitivity: [
    {
      year: 2023,
      volume: 1,
      methane: 1,
      res_co2: 1,
      res_co2_transport: 0,
      res_co2_all: 1,
      sn_volume: 1,
      sn_methan: 1,
      el_volume: null,
      el_methan: null,
    },
    // 90 % of the total from methane, 10 % from transport.
    {
      year: 2024,
      volume: 2e6,
      methane: 18,
      res_co2: 900,
      res_co2_transport: 100,
      res_co2_all: 1000,
      sn_volume: 1,
      sn_methan: 0.9,
      el_volume: 0,
      el_methan: 0,
    },
  ],
} as unknown as SensitivityElement;

describe("tornado bars", () => {
  it("moves the last year's total by sensitivity × the input's 95 % interval, widest on top", () => {
    const tornado = tornadoBars(element, [
      { label: "Метанообильность", coefficient: "sn_methan", lower_pct: 44, upper_pct: 39 },
      { label: "Добыча", coefficient: "sn_volume", lower_pct: 2, upper_pct: 2 },
    ])!;
    expect(tornado.year).toBe(2024);
    // Plotly draws the first bar at the bottom: the narrowest comes first.
    expect(tornado.bars.map((b) => b.label)).toEqual(["Добыча (±2,0 %)", "Метанообильность (−44,0 % / +39,0 %)"]);
    expect(tornado.bars[1].low).toBeCloseTo(-396, 9);
    expect(tornado.bars[1].high).toBeCloseTo(351, 9);
    expect(tornado.bars[0]).toMatchObject({ low: -20, high: 20 });
  });
});
