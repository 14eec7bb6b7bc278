// POST v1/abatement/evaluate/ (methodology section 11): every worked example of 11.4 comes out of the
// API to its printed precision, a hidden constructed mine of four streams equals an independent
// computation written here, the explosive range offers no use option and says why, and a required
// price left empty is a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import {
  abatementVectors,
  constructedMineRequest,
  maccMismatches,
  vectorMismatches,
  vectorParams,
  vectorRequest,
} from "../support/abatement-vectors";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser());
});
afterAll(() => h.close());

type Option = Record<string, number | string | null | boolean | unknown[]>;
interface Answer {
  streams: {
    code: string;
    tech_code: string;
    notice: string | null;
    options: Option[];
    refused: { option_code: string; reason: string }[];
    chosen: string | null;
  }[];
  macc: { option_code: string; stream: string; lac_rub_per_t: number; x_start: number; width: number }[];
}

async function evaluate(body: unknown): Promise<Response> {
  return h.request("/api/v1/abatement/evaluate/", { method: "POST", token, json: body });
}

async function evaluated(body: unknown): Promise<Answer> {
  const res = await evaluate(body);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Answer;
}

describe("POST /api/v1/abatement/evaluate/", () => {
  it("gives every 11.4 vector to its printed precision", async () => {
    for (const vector of abatementVectors.abatement_options) {
      const answer = await evaluated(vectorRequest(vector));
      const stream = answer.streams[0];
      if (vector.tech_code) expect(stream.tech_code).toBe(vector.tech_code);
      const option = stream.options.find((o) => o.option_code === vector.option_code) as Option;
      expect(vectorMismatches(vector, option), `${vector.case} ${vector.option_code}`).toEqual([]);
    }
    const mine = await evaluated(constructedMineRequest());
    expect(maccMismatches(mine.macc)).toEqual([]);
  });

  it("a hidden constructed mine of four streams equals an independent computation", async () => {
    // Drainage 25 m³/min at 52 % (13 m³/min → GAS_ENGINE_CHP), drainage 9 m³/min at 31 % (2,79 → GAS_ENGINE_CHP,
    // an enclosed flare named), a shaft of 180 m³/s at 0,72 % (77,76 m³/min → VAM_ENERGY, the plain oxidiser)
    // and a shaft of 90 m³/s at 0,3 % (16,2 → VAM_DESTRUCTION), 7 200 h, GWP 28, EF 0,8, r 0,08, n 15.
    const params = { ...vectorParams(), gwp_ch4: 28, ef_grid_t_per_mwh: 0.8, discount_rate: 0.08, lifetime_yr: 15, hours_per_year: 7200 };
    const request = {
      streams: [
        { code: "d1", kind: "drainage", q_mix_m3_min: 25, c_ch4_pct: 52 },
        { code: "d2", kind: "drainage", q_mix_m3_min: 9, c_ch4_pct: 31 },
        { code: "s1", kind: "ventilation", q_air_m3_s: 180, c_ch4_pct: 0.72 },
        { code: "s2", kind: "ventilation", q_air_m3_s: 90, c_ch4_pct: 0.3 },
      ],
      options: { d1: ["GAS_ENGINE_CHP"], d2: ["FLARE_ENCLOSED"], s1: ["VAM_RTO"], s2: ["VAM_RTO"] },
      // The heat the mine uses has no default: half of the engine's.
      overrides: { d1: { GAS_ENGINE_CHP: { heat_used_share: 0.5 } } },
      params,
    };
    const answer = await evaluated(request);
    expect(answer.streams.map((s) => s.tech_code)).toEqual(["GAS_ENGINE_CHP", "GAS_ENGINE_CHP", "VAM_ENERGY", "VAM_DESTRUCTION"]);

    // The independent computation: section 11.2 and 11.3 written out again, cash flows summed year by year.
    const h8 = 7200;
    const mass = (q: number) => ((q * 60 * h8) / 1000) * 0.668;
    const cf = (capex: number, flow: number, r: number) => {
      let npv = -capex;
      for (let t = 1; t <= 15; t++) npv += flow / (1 + r) ** t;
      return npv;
    };
    const crf = (0.08 * 1.08 ** 15) / (1.08 ** 15 - 1);
    const expected: Record<string, { er: number; npv: number; lac: number }> = {};
    {
      const m = mass(13);
      const fuel = (m * 50) / 3.6;
      const gross = fuel * 0.4;
      const net = gross * 0.97;
      const heat = fuel * 0.4 * 0.5;
      const er = m * 28 + net * 0.8 - 0.995 * m * (44 / 16) - 0.005 * m * 28;
      const capex = 200000 * (gross / h8) * 1000;
      const opex = 1.5 * gross * 1000;
      const revenue = net * 6000 + heat * 1500;
      expected.d1 = { er, npv: cf(capex, revenue + Math.floor(er) * 1000 - opex, 0.08), lac: (capex * crf + opex - revenue) / er };
    }
    {
      const m = mass(2.79);
      const aux = (9 * h8) / 1000;
      const er = m * 28 - 0.9 * m * (44 / 16) - 0.1 * m * 28 - aux * 0.8;
      const capex = 10_000_000;
      const opex = 500_000 + aux * 6000;
      expected.d2 = { er, npv: cf(capex, Math.floor(er) * 1000 - opex, 0.08), lac: (capex * crf + opex) / er };
    }
    for (const [code, air, c] of [
      ["s1", 180, 0.72],
      ["s2", 90, 0.3],
    ] as const) {
      const m = mass((air * 60 * c) / 100);
      const fan = (((air * 3000) / 0.75 / 1000) * h8) / 1000;
      const er = m * 28 - 0.95 * m * (44 / 16) - 0.05 * m * 28 - fan * 0.8;
      const capex = 12_000_000 * air;
      const opex = capex * 0.02 + fan * 6000;
      expected[code] = { er, npv: cf(capex, Math.floor(er) * 1000 - opex, 0.08), lac: (capex * crf + opex) / er };
    }
    for (const stream of answer.streams) {
      const option = stream.options[0] as Record<string, number>;
      const e = expected[stream.code];
      expect(option.er_t_co2e / e.er - 1, stream.code).toBeCloseTo(0, 9);
      expect(option.npv_rub / e.npv - 1, stream.code).toBeCloseTo(0, 9);
      expect(option.lac_rub_per_t / e.lac - 1, stream.code).toBeCloseTo(0, 9);
    }
    const order = Object.entries(expected).sort((a, b) => a[1].lac - b[1].lac);
    expect(answer.macc.map((b) => b.stream)).toEqual(order.map(([code]) => code));
    let x = 0;
    for (const bar of answer.macc) {
      expect(bar.x_start).toBeCloseTo(x, 6);
      x += expected[bar.stream].er;
    }
  });

  it("offers no use option in the explosive range and says why", async () => {
    const answer = await evaluated({
      streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 30, c_ch4_pct: 10 }],
      options: { d: ["GAS_ENGINE_CHP", "VAM_RTO"] },
      params: vectorParams(),
    });
    const [stream] = answer.streams;
    expect(stream.tech_code).toBe("UNSAFE_NO_USE");
    expect(stream.options.map((o) => o.option_code)).toEqual(["VAM_RTO"]);
    expect(stream.notice).toMatch(/^Концентрация 5–25 %: взрывоопасный диапазон/);
    expect(stream.refused).toEqual([{ option_code: "GAS_ENGINE_CHP", reason: stream.notice }]);
  });

  it("a required price left empty is a 400 naming the field", async () => {
    const { price_el_rub_per_mwh: _, ...params } = vectorParams();
    const res = await evaluate({ ...constructedMineRequest(), params });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      `${fieldName("params.price_el_rub_per_mwh")}: Не задано: цена электроэнергии, ₽/МВт·ч. У цен и коэффициента энергосистемы нет значения по умолчанию (D51, D54)`,
    );
    const empty = await evaluate({ ...constructedMineRequest(), params: { ...vectorParams(), price_carbon_unit_rub: null } });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^${fieldName("params.price_carbon_unit_rub")}: Не задано: цена углеродной единицы`),
    );
    const wrong = await evaluate({
      params: vectorParams(),
      streams: [{ code: "x", kind: "drainage", q_mix_m3_min: 5, c_ch4_pct: 140 }],
    });
    expect(((await wrong.json()) as { detail: string }).detail).toBe(
      `${fieldName("streams[0].c_ch4_pct")}: Значение должно быть не больше 100`,
    );
  });
});
