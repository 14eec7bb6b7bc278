// Methodology section 11 (D47–D55) through the core: every worked example of 11.4 (its JSON block,
// tests/fixtures/abatement) to its printed precision, the options of each §4.10 code, the explosive
// range, required prices, the capture upgrade and the MACC order.
import { describe, expect, it } from "vitest";
import {
  abatementVectors,
  constructedMineRequest,
  maccMismatches,
  vectorMismatches,
  vectorParams,
  vectorRequest,
} from "../../tests/support/abatement-vectors";
import { type AbatementRequest, abatementKernels, allowedOptions, evaluateAbatement, UPGRADE_NOT_APPLIED } from "./abatement";
import { FieldError, emissionsCore } from "./emissions";

const kernels = () => abatementKernels(emissionsCore());
const evaluate = (request: AbatementRequest) => evaluateAbatement(request, kernels());

describe("section 11.4 worked examples", () => {
  abatementVectors.abatement_options.forEach((vector, i) => {
    it(`vector ${i + 1}: case ${vector.case} ${vector.option_code} η ${vector.eta_destruction}`, () => {
      const result = evaluate(vectorRequest(vector));
      const stream = result.streams[0];
      if (vector.tech_code) expect(stream.tech_code).toBe(vector.tech_code);
      const option = stream.options.find((o) => o.option_code === vector.option_code);
      expect(option, JSON.stringify(stream.refused)).toBeDefined();
      expect(vectorMismatches(vector, option as unknown as Record<string, unknown>)).toEqual([]);
    });
  });

  it("the constructed mine's MACC: order, starts and widths", () => {
    const result = evaluate(constructedMineRequest());
    expect(maccMismatches(result.macc)).toEqual([]);
    expect(result.totals.er_t_co2e).toBeCloseTo(575721, -1);
  });

  it("NPV and IRR in closed form, paybacks of an annuity", () => {
    const x = emissionsCore().exports;
    for (const c of abatementVectors.npv_irr_closed_form) {
      const capex = -c.cash_flows[0];
      const flow = c.cash_flows[1];
      const years = c.cash_flows.length - 1;
      expect(x.abatement_irr(capex, flow, years)).toBeCloseTo(c.irr, 9);
      // 53.2668 is printed cut, not rounded (53.26685…): the block's rel_tol (1e-5) holds it.
      const npv = x.abatement_npv(capex, flow, c.rate, years);
      expect(Math.abs(npv - c.npv) / c.npv).toBeLessThan(abatementVectors.abatement_params.rel_tol);
      if (c.payback_simple_yr !== undefined) expect(x.abatement_payback(capex, flow, 0, years)).toBeCloseTo(c.payback_simple_yr, 5);
      if (c.payback_discounted_at_irr_yr !== undefined)
        expect(x.abatement_payback(capex, flow, c.irr, years)).toBeCloseTo(c.payback_discounted_at_irr_yr, 6);
    }
    // CRF(0.12, 10) of 11.4 and 1/n at r = 0; no sign change → NaN (null).
    expect(x.abatement_crf(0.12, 10)).toBeCloseTo(0.176984, 6);
    expect(x.abatement_crf(0, 4)).toBe(0.25);
    expect(Number.isNaN(x.abatement_irr(1000, -5, 10))).toBe(true);
    expect(Number.isNaN(x.abatement_payback(1000, 50, 0.1, 10))).toBe(true);
  });
});

describe("options per stream (D48)", () => {
  const t = { q_boiler: 0.5, q_gas_engine: 2, q_vam_energy: 5, q_pipeline: 10, q_power_plant: 25 };

  it("follow the §4.10 code, the boiler's flow window from the dictionary", () => {
    expect(allowedOptions("GAS_ENGINE_CHP", 14, t)).toEqual(["FLARE_ENCLOSED", "FLARE_OPEN", "BOILER", "GAS_ENGINE_CHP"]);
    expect(allowedOptions("FLARE_BOILER_LIMITED", 1.68, t)).toEqual(["FLARE_ENCLOSED", "BOILER"]);
    expect(allowedOptions("FLARE_BOILER_LIMITED", 0.3, t)).toEqual(["FLARE_ENCLOSED"]);
    expect(allowedOptions("PIPELINE_CNG_LNG", 15, t)).toContain("PIPELINE_SALE");
    expect(allowedOptions("VAM_ENERGY", 30, t)).toEqual(["VAM_RTO", "VAM_RTO_ENERGY"]);
    expect(allowedOptions("NONE_TOO_LEAN", 3, t)).toEqual([]);
  });

  it("the dictionary's thresholds move the code: a higher engine threshold takes the engine away", () => {
    const request: AbatementRequest = {
      streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 10, c_ch4_pct: 40 }],
      params: vectorParams(),
    };
    expect(evaluate(request).streams[0].tech_code).toBe("GAS_ENGINE_CHP");
    const raised = evaluateAbatement(request, abatementKernels(emissionsCore(), { q_gas_engine: 5 }));
    expect(raised.streams[0].tech_code).toBe("BOILER");
    expect(raised.streams[0].options.map((o) => o.option_code)).not.toContain("GAS_ENGINE_CHP");
  });

  it("the explosive range offers no use option and says why", () => {
    const result = evaluate({
      streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 12 }],
      options: { d: ["GAS_ENGINE_CHP", "FLARE_ENCLOSED", "VAM_RTO"] },
      params: vectorParams(),
    });
    const stream = result.streams[0];
    expect(stream.tech_code).toBe("UNSAFE_NO_USE");
    expect(stream.options.map((o) => o.option_code)).toEqual(["VAM_RTO"]);
    expect(stream.notice).toMatch(/взрывоопасный диапазон/);
    expect(stream.refused.map((r) => r.option_code)).toEqual(["GAS_ENGINE_CHP", "FLARE_ENCLOSED"]);
    expect(stream.refused[0].reason).toMatch(/сжигание, транспортирование и продажа не предлагаются/);
    // Dilution to 1 %: 4.8 m³/min of CH4 become 8 m³/s of air.
    expect(stream.options[0].q_air_m3_s).toBeCloseTo(8, 9);
  });

  it("a capture upgrade given for gas that needs none, or for ventilation air, is said, not dropped in silence", () => {
    const upgrade = { c_ch4_pct: 50, capex_rub: 1e6 };
    const result = evaluate({
      streams: [
        { code: "rich", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 45, upgrade },
        { code: "air", kind: "ventilation", q_air_m3_s: 200, c_ch4_pct: 0.7, upgrade },
        { code: "plain", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 45 },
      ],
      params: vectorParams(),
    });
    const [rich, air, plain] = result.streams;
    expect(rich.notice).toBe(UPGRADE_NOT_APPLIED.usable);
    expect(rich.options.some((o) => o.option_code.startsWith("DRAINAGE_UPGRADE"))).toBe(false);
    expect(air.notice).toBe(UPGRADE_NOT_APPLIED.ventilation);
    expect(plain.notice).toBeNull();
  });

  it("a capture upgrade joins the option it enables, its costs added", () => {
    const stream = { code: "d", kind: "drainage" as const, q_mix_m3_min: 40, c_ch4_pct: 12 };
    const plain = evaluate({
      streams: [{ ...stream, c_ch4_pct: 35, q_mix_m3_min: 4.8 / 0.35 }],
      options: { d: ["FLARE_ENCLOSED"] },
      params: vectorParams(),
    });
    const upgraded = evaluate({
      streams: [{ ...stream, upgrade: { c_ch4_pct: 35, capex_rub: 5_000_000, opex_fixed_rub: 100_000 } }],
      options: { d: ["DRAINAGE_UPGRADE+FLARE_ENCLOSED"] },
      params: vectorParams(),
    });
    const a = plain.streams[0].options[0];
    const b = upgraded.streams[0].options[0];
    expect(b.enabled_by).toBe("DRAINAGE_UPGRADE");
    expect(b.er_t_co2e).toBeCloseTo(a.er_t_co2e, 6);
    expect(b.capex_rub).toBeCloseTo((a.capex_rub as number) + 5_000_000, 3);
    expect(b.opex_rub).toBeCloseTo((a.opex_rub as number) + 100_000, 3);
    expect(b.label).toMatch(/^Повышение качества дегазации/);
  });
});

describe("inputs", () => {
  it("a stream given by its year's methane keeps that mass exactly", () => {
    const result = evaluate({
      streams: [
        { code: "d", kind: "drainage", m_ch4_t: 4488.96, c_ch4_pct: 35 },
        { code: "v", kind: "ventilation", m_ch4_t: 21643.2, c_ch4_pct: 0.45 },
      ],
      options: { d: ["GAS_ENGINE_CHP"], v: ["VAM_RTO"] },
      params: vectorParams(),
    });
    const [d, v] = result.streams;
    expect(d.options[0].m_ch4_t).toBeCloseTo(4488.96, 9);
    expect(d.options[0].q_mix_m3_min).toBeCloseTo(40, 9);
    expect(v.options[0].m_ch4_t).toBeCloseTo(21643.2, 8);
    expect(v.options[0].q_air_m3_s).toBeCloseTo(250, 9);
  });

  it("a required price left empty names the field", () => {
    for (const name of ["price_el_rub_per_mwh", "price_heat_rub_per_mwh", "price_carbon_unit_rub", "ef_grid_t_per_mwh"] as const) {
      const params = { ...vectorParams(), [name]: undefined } as unknown as AbatementRequest["params"];
      let error: unknown;
      try {
        evaluate({ streams: [], params });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FieldError);
      expect((error as FieldError).field).toBe(`params.${name}`);
      expect((error as FieldError).message).toMatch(/^Не задано: /);
    }
  });

  it("pipeline sale without a gas price or capex has no economics and says what is missing", () => {
    const result = evaluate({
      streams: [{ code: "p", kind: "drainage", q_mix_m3_min: 20, c_ch4_pct: 97 }],
      options: { p: ["PIPELINE_SALE"] },
      params: vectorParams(),
    });
    const option = result.streams[0].options[0];
    expect(option.er_t_co2e).toBeGreaterThan(0);
    expect(option.npv_rub).toBeNull();
    expect(option.missing).toEqual(["params.price_gas_rub_per_1000m3", "overrides.p.PIPELINE_SALE.capex_rub"]);
    expect(result.macc).toEqual([]);
  });

  it("the default choice is the lowest LAC; a pick replaces it", () => {
    const request = constructedMineRequest();
    const all = evaluate({ ...request, options: undefined });
    const d1 = all.streams.find((s) => s.code === "drainage_1");
    const lacs = (d1?.options ?? []).filter((o) => o.lac_rub_per_t !== null).map((o) => o.lac_rub_per_t as number);
    expect(d1?.options.find((o) => o.option_code === d1.chosen)?.lac_rub_per_t).toBe(Math.min(...lacs));
    const picked = evaluate({ ...request, options: undefined, chosen: { drainage_1: "GAS_ENGINE_CHP", drainage_2: "FLARE_ENCLOSED" } });
    expect(maccMismatches(picked.macc)).toEqual([]);
  });
});

describe("stream codes are data (the security review's R12)", () => {
  it("«__proto__», «constructor» and «toString» are codes like any other", () => {
    const drainage = { kind: "drainage" as const, q_mix_m3_min: 40, c_ch4_pct: 35 };
    const result = evaluate({
      streams: [
        { code: "__proto__", ...drainage },
        { code: "constructor", ...drainage },
        { code: "toString", ...drainage },
      ],
      options: JSON.parse('{"__proto__": ["FLARE_ENCLOSED"], "constructor": ["FLARE_OPEN", "FLARE_ENCLOSED"]}'),
      chosen: JSON.parse('{"constructor": "FLARE_OPEN"}'),
      overrides: JSON.parse('{"__proto__": {"FLARE_ENCLOSED": {"eta_destruction": 0.98}}}'),
      params: vectorParams(),
    });
    const [proto, ctor, toStringStream] = result.streams;
    expect(proto.options.map((o) => o.option_code)).toEqual(["FLARE_ENCLOSED"]);
    // 11.4 (a): the enclosed flare at a measured 0.98.
    expect(proto.options[0].er_t_co2e).toBeCloseTo(97721.8, 1);
    expect(ctor.options.map((o) => o.option_code)).toEqual(["FLARE_ENCLOSED", "FLARE_OPEN"]);
    expect(ctor.chosen).toBe("FLARE_OPEN");
    // Nobody named an option for «toString»: every allowed one, the lowest LAC chosen, nothing refused.
    expect(toStringStream.options.length).toBeGreaterThan(1);
    expect(toStringStream.refused).toEqual([]);
    expect(toStringStream.chosen).not.toBeNull();
  });

  it("a code's options that are not a list are refused naming the code", () => {
    let error: unknown;
    try {
      evaluate({
        streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 35 }],
        options: { d: "FLARE_OPEN" as unknown as string[] },
        params: vectorParams(),
      });
    } catch (e) {
      error = e;
    }
    expect((error as FieldError).field).toBe("options.d");
  });
});

describe("a stream measured over part of a year", () => {
  it("takes the year's methane at the flow of the measured months", () => {
    // Two months, 1 464 of the year's 8 760 h, carrying 1 000 t: the year's 1 000 × 8 760 / 1 464 t,
    // sent at 8 000 h a year.
    const year = (1000 * 8760) / 1464;
    const result = evaluate({
      streams: [{ code: "d", kind: "drainage", m_ch4_t: 1000, m_ch4_year_share: 1464 / 8760, c_ch4_pct: 40 }],
      options: { d: ["FLARE_ENCLOSED"] },
      params: vectorParams(),
    });
    const stream = result.streams[0];
    expect(stream.options[0].m_ch4_t).toBeCloseTo(year, 8);
    expect(stream.q_ch4_m3_min).toBeCloseTo(((year / 0.668) * 1000) / (60 * 8000), 12);
    expect(stream.tech_code).toBe("GAS_ENGINE_CHP");
  });
});

describe("a stream's flow over its measured hours", () => {
  it("is the methane over the hours measured in calendar time; the option treats its own hours of it", () => {
    // A shaft with two whole months accepted, 60 and 49,5 m³/min of CH4 (744 h and 720 h): the mean
    // over their minutes is 54,836 m³/min, not the 60,05 a year spread over 8 000 running hours gave.
    const m3 = 60 * 60 * 744 + 49.5 * 60 * 720;
    const t = (m3 * 0.668) / 1000;
    const result = evaluate({
      streams: [{ code: "v", kind: "ventilation", m_ch4_t: t, m_ch4_year_share: 1464 / 8760, m_ch4_hours: 1464, c_ch4_pct: 0.5 }],
      options: { v: ["VAM_RTO"] },
      params: vectorParams(),
    });
    const stream = result.streams[0];
    expect(stream.q_ch4_m3_min).toBeCloseTo(m3 / (1464 * 60), 9);
    expect(stream.q_ch4_m3_min).toBeCloseTo(54.836, 3);
    expect(stream.options[0].m_ch4_t).toBeCloseTo((stream.q_ch4_m3_min * 60 * 8000 * 0.668) / 1000, 8);
  });

  it("says the engine's capacity its capital costs are priced on: gross generation over its hours, own use off the sale", () => {
    const result = evaluate({
      streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 35 }],
      options: { d: ["GAS_ENGINE_CHP"] },
      overrides: { d: { GAS_ENGINE_CHP: { heat_used_share: 0 } } },
      params: vectorParams(),
    });
    const engine = result.streams[0].options[0];
    const capacity = engine.coefficients.find((c) => c.name === "p_el_kw");
    expect(capacity?.value).toBeCloseTo((engine.e_el_gross_mwh / 8000) * 1000, 9);
    expect(capacity?.value).toBeCloseTo(engine.p_el_kw, 9);
    expect(capacity?.source).toBe("выработка брутто / часы работы; собственные нужды 3 % вычитаются из отпуска, не из мощности");
  });
});

describe("energy sold only as far as it is used", () => {
  const stream = { code: "d", kind: "drainage" as const, q_mix_m3_min: 40, c_ch4_pct: 35 };
  it("a boiler asks how much of its heat the mine can use", () => {
    const asked = evaluate({ streams: [stream], options: { d: ["BOILER"] }, params: vectorParams() }).streams[0].options[0];
    expect(asked.missing).toEqual(["overrides.d.BOILER.heat_used_share"]);
    expect(asked.q_heat_sold_mwh).toBe(0);
    expect(asked.npv_rub).toBeNull();
    expect(asked.lac_rub_per_t).toBeNull();
    const told = evaluate({
      streams: [stream],
      options: { d: ["BOILER"] },
      overrides: { d: { BOILER: { heat_used_share: 0.3 } } },
      params: vectorParams(),
    }).streams[0].options[0];
    expect(told.missing).toEqual([]);
    expect(told.q_heat_sold_mwh).toBeCloseTo(told.e_fuel_mwh * 0.9 * 0.3, 6);
    expect(told.coefficients.find((c) => c.name === "heat_used_share")).toMatchObject({ value: 0.3, source: "введено" });
  });

  it("an engine asks for its heat's use and states its electricity's", () => {
    const engine = evaluate({ streams: [stream], options: { d: ["GAS_ENGINE_CHP"] }, params: vectorParams() }).streams[0].options[0];
    expect(engine.missing).toEqual(["overrides.d.GAS_ENGINE_CHP.heat_used_share"]);
    expect(engine.coefficients.find((c) => c.name === "el_used_share")).toMatchObject({ value: 1 });
    expect(engine.coefficients.find((c) => c.name === "el_used_share")?.source).toMatch(/^\[A\]/);
  });

  it("the oxidiser with energy recovery asks for its efficiencies and pays for what it recovers", () => {
    const shaft = { code: "v", kind: "ventilation" as const, q_air_m3_s: 250, c_ch4_pct: 0.8 };
    const both = evaluate({ streams: [shaft], options: { v: ["VAM_RTO", "VAM_RTO_ENERGY"] }, params: vectorParams() }).streams[0];
    const [plain, energy] = both.options;
    expect(energy.missing).toEqual(["overrides.v.VAM_RTO_ENERGY.eta_el", "overrides.v.VAM_RTO_ENERGY.eta_th"]);
    expect(energy.lac_rub_per_t).toBeNull();
    // Nothing recovered is never the curve's pick over the plain oxidiser.
    expect(both.chosen).toBe("VAM_RTO");

    const recovered = evaluate({
      streams: [shaft],
      options: { v: ["VAM_RTO_ENERGY"] },
      overrides: { v: { VAM_RTO_ENERGY: { eta_el: 0.2, eta_th: 0.3, heat_used_share: 0.5 } } },
      params: vectorParams(),
    }).streams[0].options[0];
    const gross = recovered.e_fuel_mwh * 0.2;
    const heat = recovered.e_fuel_mwh * 0.3;
    const pElKw = (gross / 8000) * 1000;
    const heatCapex = 10_000_000 * (heat / 8000);
    expect(recovered.missing).toEqual([]);
    expect(recovered.e_el_net_mwh).toBeCloseTo(gross * 0.97, 6);
    expect(recovered.q_heat_sold_mwh).toBeCloseTo(heat * 0.5, 6);
    expect(recovered.capex_rub).toBeCloseTo(plain.capex_rub! + 200_000 * pElKw + heatCapex, 0);
    expect(recovered.opex_fixed_rub).toBeCloseTo(plain.opex_fixed_rub! + 1.5 * gross * 1000 + 0.03 * heatCapex, 0);
    const crf = emissionsCore().exports.abatement_crf(0.12, 10);
    const lac = (recovered.capex_rub! * crf + recovered.opex_rub! - recovered.revenue_energy_rub!) / recovered.er_t_co2e;
    expect(recovered.lac_rub_per_t).toBeCloseTo(lac, 6);
  });
});
