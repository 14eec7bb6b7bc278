// The editor's draft as the section 11 request, and what the plan closes of the company's targets.
import { describe, expect, it } from "vitest";
import type { AbatementResult } from "@core/abatement";
import { EMPTY_PARAMS, requestOf, targetClosures, type StreamDraft } from "./abatement";

const stream = (change: Partial<StreamDraft>): StreamDraft => ({
  code: "s1",
  name: "Дегазация 1",
  kind: "drainage",
  flow: "",
  c: "",
  hours: "",
  point: null,
  chosen: null,
  ...change,
});

describe("requestOf", () => {
  it("reads Russian numbers as typed and leaves empty prices undefined", () => {
    const request = requestOf([stream({ flow: "845,5", c: "35", hours: "8 000", chosen: "GAS_ENGINE_CHP" })], {
      ...EMPTY_PARAMS,
      price_el_rub_per_mwh: "6 000",
      discount_rate: "0,12",
    });
    expect(request.streams[0]).toMatchObject({ kind: "drainage", q_mix_m3_min: 845.5, c_ch4_pct: 35, hours_per_year: 8000 });
    expect(request.params.price_el_rub_per_mwh).toBe(6000);
    expect(request.params.discount_rate).toBe(0.12);
    expect(request.params.price_heat_rub_per_mwh).toBeUndefined();
    expect(request.chosen).toEqual({ s1: "GAS_ENGINE_CHP" });
  });

  it("takes a point's methane from the year's streams", () => {
    const request = requestOf([stream({ point: "p1", kind: "drainage", c: "42" })], EMPTY_PARAMS, [
      // A whole year measured: its figure as it is.
      {
        point: "p1",
        name: "ДУ-2",
        kind: "ventilation",
        to_air_t: 5120.4,
        months: Array.from({ length: 12 }, (_, m) => `2024-${String(m + 1).padStart(2, "0")}`),
        hours: 8784,
        year_hours: 8784,
      },
    ]);
    expect(request.streams[0]).toMatchObject({ point: "p1", kind: "ventilation", m_ch4_t: 5120.4, c_ch4_pct: 42 });
  });
});

describe("targetClosures", () => {
  const result = {
    streams: [
      {
        code: "s1",
        chosen: "A",
        options: [{ option_code: "A", er_t_co2e: 50_000, eta_destruction: 0.9, m_ch4_t: 2000 }],
      },
    ],
  } as unknown as AbatementResult;
  const target = (gas: string, kind: "absolute" | "per_tonne", latest: number, goal: number) => ({
    id: gas + kind,
    name: `${gas} ${kind}`,
    gas,
    kind,
    target_year: 2030,
    progress: { latest_value: latest, target_value: goal },
  });

  it("holds the plan's ER against a CO2-eq target and the methane destroyed against a CH4 one", () => {
    const [co2e, ch4, perTonne, done] = targetClosures(
      [
        target("co2e", "absolute", 300_000, 200_000),
        target("CH4", "absolute", 10_000, 6_000),
        target("co2e", "per_tonne", 1, 0.5),
        target("co2e", "absolute", 100, 200),
      ],
      result,
    );
    expect(co2e).toMatchObject({ remaining: 100_000, plan: 50_000, share_pct: 50 });
    expect(ch4).toMatchObject({ remaining: 4_000, plan: 1_800, share_pct: 45 });
    expect(perTonne.share_pct).toBeNull();
    expect(done.note).toBe("Цель уже достигнута");
  });
});
