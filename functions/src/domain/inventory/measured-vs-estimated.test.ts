// Methodology section 14 (D81–D86): the worked example is a test vector, and the builder's months and
// explanations on a mine whose December was never measured.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { uncertaintyCore } from "@core/uncertainty-node";
import { agreementLine, compareFigures, compareMines, IMPLIED_FACTOR_DENSITY_KG_M3, type ComparedLine } from "./measured-vs-estimated";

const fixture = JSON.parse(
  readFileSync(new URL("../../../../tests/fixtures/methodology/measured-vs-estimated.json", import.meta.url), "utf8"),
) as {
  density_kg_m3: number;
  vectors: Array<Record<string, number | boolean | string>>;
};
const close = (actual: number | null, expected: number) =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(1e-9 * Math.abs(expected));

describe("section 14's worked example", () => {
  it("uses the methodology's density", () => expect(IMPLIED_FACTOR_DENSITY_KG_M3).toBe(fixture.density_kg_m3));
  for (const v of fixture.vectors) {
    it(String(v.name), () => {
      const got = compareFigures({
        measured_t: v.measured_t as number,
        measured_u_pct: v.measured_u_pct as number,
        estimated_t: v.estimated_t as number,
        estimated_u_pct: v.estimated_u_pct as number,
        coal_t: v.coal_t as number,
      });
      close(got.difference_t, v.difference_t as number);
      close(got.difference_pct, v.difference_pct as number);
      close(got.combined_t, v.combined_t as number);
      close(got.implied_ef_m3_per_t, v.implied_ef_m3_per_t as number);
      expect(got.consistent).toBe(v.consistent);
    });
  }
});

const year = 2025;
const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const pad = (n: number) => String(n).padStart(2, "0");
/** A measured line of monthly periods, January to November: December left out. */
function shaft(): ComparedLine {
  const periods = days
    .slice(0, 11)
    .map((d, i) => ({ from: `${year}-${pad(i + 1)}-01`, to: `${year}-${pad(i + 1)}-${d}`, hours: d * 24, res_ch4: 1000 + i }));
  return {
    id: "c-shaft",
    name: "Ствол",
    type: "underground",
    facility: "f1",
    point: "p-shaft",
    counted: true,
    inventory_role: "primary",
    ipcc_code: "1.B.1.a.i.1",
    period: { from: `${year}-01-01`, to: `${year}-11-30` },
    gases: [{ gas: "CH4", t: periods.reduce((s, p) => s + p.res_ch4, 0) }],
    inputs: { basis: "gross" },
    results: { periods },
    coefficients: {},
  };
}
const estimate: ComparedLine = {
  id: "c-estimate",
  name: "Оценка",
  type: "underground_emission_ch4",
  facility: "f1",
  point: null,
  counted: false,
  inventory_role: "alternative",
  ipcc_code: "1.B.1.a.i.1",
  period: { from: `${year}-01-01`, to: `${year}-12-31` },
  gases: [{ gas: "CH4", t: 12_060 }],
  inputs: { volume: 1_000_000 },
  results: {},
  coefficients: { ef: { value: 18, unit: "м³/т", source: "dictionary" } as never },
};

describe("a mine whose December was never measured", () => {
  const [row] = compareMines(uncertaintyCore(), {
    year,
    lines: [shaft(), estimate],
    facilities: [{ id: "f1", name: "Шахта", kind: "underground_mine" }],
    points: [{ id: "p-shaft", facility: "f1", name: "Ствол № 1", kind: "ventilation_shaft", in_service_from: null, in_service_to: null }],
    lacking: new Map([["p-shaft", ["метана"]]]),
  });
  it("gives each month its period's t and December none", () => {
    expect(row.measured.months.map((m) => m.ch4_t)).toEqual([...days.slice(0, 11).map((_, i) => 1000 + i), null]);
    expect(row.measured.months[0]).toMatchObject({ source: "periods", completeness: 1 });
    expect(row.estimated).toMatchObject({ role: "alternative", ef: 18, monthly_basis: "days" });
    close(row.estimated!.months[1].ch4_t, (12_060 * 28) / 365);
  });
  it("names December with the t it would carry at the point's measured rate", () => {
    const measuredT = shaft().gases[0].t;
    const hours = days.slice(0, 11).reduce((s, d) => s + d * 24, 0);
    const missing = row.explanations.filter((e) => e.kind === "month_missing");
    expect(missing.map((e) => e.month)).toEqual([`${year}-12`]);
    close(missing[0].t!, (measuredT / hours) * 31 * 24);
    expect(missing[0].text).toContain("«Ствол № 1», 12.2025: нет измерения или месяц не принят");
  });
  it("carries the point's t per hour its periods state (D86's basis), not per calendar hour", () => {
    // January ran 700 of its 744 hours: 1 000 t at 1 000/700 t an hour, into February's 672 hours.
    const ran: ComparedLine = {
      ...shaft(),
      period: { from: `${year}-01-01`, to: `${year}-01-31` },
      gases: [{ gas: "CH4", t: 1_000 }],
      results: { periods: [{ from: `${year}-01-01`, to: `${year}-01-31`, hours: 700, res_ch4: 1_000 }] },
    };
    const [one] = compareMines(uncertaintyCore(), {
      year,
      today: `${year}-03-01`,
      lines: [ran, estimate],
      facilities: [{ id: "f1", name: "Шахта", kind: "underground_mine" }],
      points: [{ id: "p-shaft", facility: "f1", name: "Ствол № 1", kind: "ventilation_shaft", in_service_from: null, in_service_to: null }],
    });
    const february = one.explanations.find((e) => e.kind === "month_missing" && e.month === `${year}-02`)!;
    close(february.t!, (1_000 / 700) * 672);
  });

  it("names a shaft without its own methane channel", () => {
    expect(row.explanations.filter((e) => e.kind === "no_channels").map((e) => e.text)).toEqual([
      "«Ствол № 1», вентиляционный ствол (вентилятор): нет своего канала АГК метана — его месяцы не измеряются непрерывно",
    ]);
  });
  it("compares its 11 measured months with the estimate's share of them (D93), by the rule of D84 with the factor of D83", () => {
    const measuredT = shaft().gases[0].t;
    // The yearly estimate spread by days: January to November hold 334 of 365 days.
    const share = 334 / 365;
    expect(row.scope).toBe("measured_months");
    expect(row.measured.coverage.months).toBe(11);
    close(row.measured.coverage.hours_pct, (100 * 334) / 365);
    close(row.compared!.estimated_ch4_t, 12_060 * share);
    close(row.compared!.coal_t!, 1_000_000 * share);
    close(row.difference_t!, measuredT - 12_060 * share);
    close(row.implied_ef_m3_per_t!, (measuredT * 1000) / (1_000_000 * share * 0.67));
    // Eleven months is enough to judge (≥ 9).
    expect(row.consistent).not.toBeNull();
    expect(row.verdict_reason).toBeNull();
  });
  it("prints in the passport the months compared and their figures, of which the difference is (D93)", () => {
    // By hand: 11 055 t measured in January–November against 12 060 × 334/365 = 11 035,73 t, +19,27 t
    // (+0,2 %); the year's 11 055 t beside the whole year's 12 060 t would give −1 005 t, not the +19,27 printed.
    // (The fixture states no uncertainty, so the bound is 0 and the verdict «расходятся».)
    const line = agreementLine([row]);
    expect(line).toMatch(
      /^«Шахта»: измерение и оценка расходятся больше их неопределенности — за 11 из 12 месяцев, измеренных на всех источниках, измерено 11\s055 т CH4, доля оценки за них 11\s035,73 т, разница \+19,27 т \(\+0,2 %\), допустимо ±/,
    );
  });
});

describe("one uncertainty per shared source (D91): the verdict does not depend on how the coal is booked", () => {
  const ipcc = {
    value: 18,
    unit: "м³/т",
    source: "dictionary",
    dictionary: "get_underground_emission_ch4",
    item_id: 1,
    item_name: "Подземная добыча, Tier 1",
    item_version: 2,
    uncertainty: { lower_pct: 44, upper_pct: 39, distribution: "lognormal", source: "МГЭИК 2006", origin: "dictionary" },
  };
  const coalOf = (id: string, coal: number, from: string, to: string): ComparedLine => ({
    ...estimate,
    id,
    counted: true,
    inventory_role: "primary",
    period: { from, to },
    gases: [{ gas: "CH4", t: (coal * 18 * 0.67) / 1000 }],
    inputs: { volume: coal },
    results: { res_ch4: (coal * 18 * 0.67) / 1000, res_ch4_to_co2: (coal * 18 * 0.67 * 25) / 1000 },
    coefficients: {
      ef: ipcc as never,
      volume: {
        value: coal,
        unit: "т",
        source: "input",
        uncertainty: { lower_pct: 2, upper_pct: 2, distribution: "normal", source: "МГЭИК", origin: "activity" },
      } as never,
    },
  });
  const monthly = days.map((d, i) => coalOf(`m${i + 1}`, 125_000, `${year}-${pad(i + 1)}-01`, `${year}-${pad(i + 1)}-${d}`));
  const yearly = [coalOf("y", 1_500_000, `${year}-01-01`, `${year}-12-31`)];
  const compare = (estimates: ComparedLine[]) =>
    compareMines(uncertaintyCore(), {
      year,
      lines: [shaft(), ...estimates],
      facilities: [{ id: "f1", name: "Шахта", kind: "underground_mine" }],
      points: [{ id: "p-shaft", facility: "f1", name: "Ствол № 1", kind: "ventilation_shaft", in_service_from: null, in_service_to: null }],
    })[0];

  it("12 monthly estimates give D91's 44,00 %, one yearly 44,05 %: within 0,1 point, one verdict", () => {
    const byMonth = compare(monthly);
    const byYear = compare(yearly);
    close(byMonth.estimated!.ch4_t, 18_090);
    close(byMonth.estimated!.u_pct, Math.hypot(44 * 18_090, Math.sqrt(12) * 2 * 1_507.5) / 18_090);
    close(byYear.estimated!.u_pct, Math.hypot(44, 2));
    expect(Math.abs(byMonth.estimated!.u_pct - byYear.estimated!.u_pct)).toBeLessThan(0.1);
    // Both «согласуются». The 11 measured months hold 11 055 t; the monthly estimates' share of them is
    // their own 11 × 1 507,5 = 16 582,5 t (by coal, D85), the yearly one's 18 090 × 334/365 = 16 553,3 t (by
    // days): 5 527,5 and 5 498,3 t apart, inside the estimate's ±44 % of its share (≈ 7 290 t), while at the
    // 12,71 % of twelve independent terms (2 108 t) the monthly booking read «расходятся».
    close(byMonth.difference_t!, 11_055 - 11 * 1_507.5);
    close(byYear.difference_t!, 11_055 - (18_090 * 334) / 365);
    expect(byMonth.consistent).toBe(true);
    expect(byYear.consistent).toBe(true);
  });
});

describe("a part-year is compared with its own months (D93)", () => {
  // A new mine: January measured and accepted, February running (today 15.02), the estimate yearly.
  const january: ComparedLine = {
    ...shaft(),
    id: "c-jan",
    period: { from: `${year}-01-01`, to: `${year}-01-31` },
    gases: [{ gas: "CH4", t: 1_000 }],
    results: { periods: [{ from: `${year}-01-01`, to: `${year}-01-31`, hours: 744, res_ch4: 1_000 }] },
  };
  const estimateOf: ComparedLine = { ...estimate, gases: [{ gas: "CH4", t: 12_060 }], inputs: { volume: 1_000_000 } };
  const [row] = compareMines(uncertaintyCore(), {
    year,
    today: `${year}-02-15`,
    lines: [january, estimateOf],
    facilities: [{ id: "f1", name: "Шахта", kind: "underground_mine" }],
    points: [{ id: "p-shaft", facility: "f1", name: "Ствол № 1", kind: "ventilation_shaft", in_service_from: null, in_service_to: null }],
  });

  it("one month measured of twelve: no verdict, «судить рано: измерено 1 из 12 месяцев»", () => {
    expect(row.consistent).toBeNull();
    expect(row.verdict_reason).toBe("судить рано: измерено 1 из 12 месяцев");
    expect(row.scope).toBe("measured_months");
    expect(row.measured.coverage).toEqual({ months: 1, hours_pct: (100 * 31) / 365 });
  });

  it("compares that month with its share of the estimate and its coal", () => {
    const share = 31 / 365;
    expect(row.compared!.months).toEqual([`${year}-01`]);
    close(row.compared!.measured_ch4_t, 1_000);
    close(row.compared!.estimated_ch4_t, 12_060 * share);
    close(row.difference_t!, 1_000 - 12_060 * share);
    close(row.difference_pct!, (100 * (1_000 - 12_060 * share)) / (12_060 * share));
    // The implied factor from January's coal, not the year's (that gave 0,98 m³/t of 1 000 t).
    close(row.implied_ef_m3_per_t!, (1_000 * 1000) / (1_000_000 * share * 0.67));
  });

  it("never calls a month not yet ended missing, and totals the missing months before their lines", () => {
    const missing = row.explanations.filter((e) => e.kind === "month_missing");
    // February (running) to December (not begun) are no gap: nothing is missing yet.
    expect(missing).toEqual([]);
    expect(row.explanations.find((e) => e.kind === "months_not_ended")?.text).toBe(
      "Месяцы 02.2025–12.2025 еще не закончились — это не пропуск измерений, в сравнение они не входят",
    );
    expect(row.explanations.find((e) => e.kind === "scope")?.text).toContain(
      "Сравниваемые месяцы — 1 из 12, в которых измерены все источники",
    );
  });

  it("totals the months missing once they have ended", () => {
    const [late] = compareMines(uncertaintyCore(), {
      year,
      today: `${year + 1}-01-10`,
      lines: [january, estimateOf],
      facilities: [{ id: "f1", name: "Шахта", kind: "underground_mine" }],
      points: [{ id: "p-shaft", facility: "f1", name: "Ствол № 1", kind: "ventilation_shaft", in_service_from: null, in_service_to: null }],
    });
    const missing = late.explanations.filter((e) => e.kind === "month_missing");
    expect(missing).toHaveLength(11);
    const total = missing.reduce((sum, e) => sum + e.t!, 0);
    expect(late.explanation_totals).toEqual([
      {
        kind: "month_missing",
        count: 11,
        t: total,
        text: `не измерено или не принято: 11 месяцев, ≈ ${total.toLocaleString("ru-RU", { maximumFractionDigits: 2 })} т CH4`,
      },
    ]);
    expect(late.consistent).toBeNull();
  });
});

describe("a typed factor is one source too (D107): the verdict holds however the coal is booked", () => {
  // The mine's own gas content, 19,85 m³/t ±10 %, typed into each estimate with its justification; coal
  // ±2 % per calculation. The shaft measured 14 000 t over the 12 months at ±10 % (its meters).
  const ef = 19.85;
  const justification = "Газоносность пласта по отчету о пластовых испытаниях 2024 г.";
  const typed = (extra: Record<string, unknown> = {}) => ({
    value: ef,
    unit: "м³/т",
    source: "custom",
    justification,
    uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal", source: "Задано пользователем", origin: "user" },
    ...extra,
  });
  const ch4 = (coal: number) => (coal * ef * 0.67) / 1000;
  const coalOf = (id: string, coal: number, from: string, to: string, efUse = typed()): ComparedLine => ({
    ...estimate,
    id,
    name: `Оценка ${id}`,
    counted: true,
    inventory_role: "primary",
    period: { from, to },
    gases: [{ gas: "CH4", t: ch4(coal) }],
    inputs: { volume: coal },
    results: { res_ch4: ch4(coal), res_ch4_to_co2: ch4(coal) * 25 },
    coefficients: {
      ef: efUse as never,
      volume: {
        value: coal,
        unit: "т",
        source: "input",
        uncertainty: { lower_pct: 2, upper_pct: 2, distribution: "normal", source: "МГЭИК", origin: "activity" },
      } as never,
    },
  });
  const measuredT = 14_000;
  const shaft12: ComparedLine = {
    ...shaft(),
    period: { from: `${year}-01-01`, to: `${year}-12-31` },
    gases: [{ gas: "CH4", t: measuredT }],
    results: {
      periods: days.map((d, i) => ({
        from: `${year}-${pad(i + 1)}-01`,
        to: `${year}-${pad(i + 1)}-${d}`,
        hours: d * 24,
        res_ch4: measuredT / 12,
      })),
      res_ch4: measuredT,
      res_ch4_to_co2: measuredT * 25,
      res_co2: 0,
      sum_co2: measuredT * 25,
    },
    coefficients: {
      volume: {
        value: 1,
        unit: "тыс. м³",
        source: "input",
        uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal", source: "АГК", origin: "activity" },
      } as never,
    },
  };
  const monthly = days.map((d, i) => coalOf(`m${i + 1}`, 100_000, `${year}-${pad(i + 1)}-01`, `${year}-${pad(i + 1)}-${d}`));
  const yearly = [coalOf("y", 1_200_000, `${year}-01-01`, `${year}-12-31`)];
  const compare = (estimates: ComparedLine[]) =>
    compareMines(uncertaintyCore(), {
      year,
      lines: [shaft12, ...estimates],
      facilities: [{ id: "f1", name: "Шахта", kind: "underground_mine" }],
      points: [{ id: "p-shaft", facility: "f1", name: "Ствол № 1", kind: "ventilation_shaft", in_service_from: null, in_service_to: null }],
    })[0];

  // The test's own arithmetic. E = 1 200 000 × 19,85 × 0,67 / 1000 = 15 959,4 t; the factor is one source,
  // so its ±10 % adds linearly over the months; the coal of each month is its own.
  const E = ch4(1_200_000);
  const monthE = ch4(100_000);
  const uYear = Math.hypot(10, 2);
  const uMonths = (100 * Math.hypot(0.1 * 12 * monthE, Math.sqrt(12) * 0.02 * monthE)) / E;
  const cOf = (uE: number) => Math.hypot(0.1 * measuredT, (uE / 100) * E);
  const D = measuredT - E;

  it("the arithmetic: the yearly and monthly bookings agree, as twelve independent factors did not", () => {
    close(E, 15_959.4);
    expect(uYear.toFixed(2)).toBe("10.20");
    // Twelve independent factors gave U_E = 10,2/√12 = 2,94 % and C below |D|: «расходятся».
    const independent = uYear / Math.sqrt(12);
    expect(independent.toFixed(2)).toBe("2.94");
    expect(Math.abs(D)).toBeGreaterThan(cOf(independent));
    expect(Math.abs(D)).toBeLessThanOrEqual(cOf(uMonths));
    expect(Math.abs(D)).toBeLessThanOrEqual(cOf(uYear));
  });

  it("booked once: U_E 10,20 %, C by Eq. 3.2, «согласуются»", () => {
    const row = compare(yearly);
    close(row.measured.u_pct, 10);
    close(row.estimated!.ch4_t, E);
    close(row.estimated!.u_pct, uYear);
    close(row.difference_t!, D);
    close(row.combined_t!, cOf(uYear));
    expect(row.consistent).toBe(true);
  });

  it("booked as 12 monthly calculations: the factor one source, the same verdict", () => {
    const row = compare(monthly);
    close(row.estimated!.ch4_t, E);
    close(row.estimated!.u_pct, uMonths);
    close(row.difference_t!, D);
    close(row.combined_t!, cOf(uMonths));
    expect(row.consistent).toBe(true);
    expect(Math.abs(row.estimated!.u_pct - uYear)).toBeLessThan(0.2);
  });

  it("a typed value without justification or evidence stays each calculation's own; another justification is another source", () => {
    const bare = typed();
    delete (bare as { justification?: string }).justification;
    const unjustified = days.map((d, i) => coalOf(`u${i + 1}`, 100_000, `${year}-${pad(i + 1)}-01`, `${year}-${pad(i + 1)}-${d}`, bare));
    close(compare(unjustified).estimated!.u_pct, uYear / Math.sqrt(12));
    const two = monthly.map((line, i) =>
      i < 6 ? line : { ...line, coefficients: { ...line.coefficients, ef: typed({ justification: "Другой отчет" }) as never } },
    );
    close(compare(two).estimated!.u_pct, (100 * Math.hypot(0.1 * 6 * monthE, 0.1 * 6 * monthE, Math.sqrt(12) * 0.02 * monthE)) / E);
    // The same evidence file, no justification: one source.
    const filed = typed({ evidence: { name: "испытания-2024.pdf", size: 48_213, format: "pdf", uploaded_at: "2025-02-01" } });
    delete (filed as { justification?: string }).justification;
    const byFile = days.map((d, i) => coalOf(`f${i + 1}`, 100_000, `${year}-${pad(i + 1)}-01`, `${year}-${pad(i + 1)}-${d}`, filed));
    close(compare(byFile).estimated!.u_pct, uMonths);
  });
});

describe("a primary estimate beside the measured months (D43) is compared all the same", () => {
  const primary: ComparedLine = { ...estimate, inventory_role: "primary", counted: false };
  const [row] = compareMines(uncertaintyCore(), {
    year,
    lines: [shaft(), primary],
    facilities: [{ id: "f1", name: "Шахта", kind: "underground_mine" }],
    points: [{ id: "p-shaft", facility: "f1", name: "Ствол № 1", kind: "ventilation_shaft", in_service_from: null, in_service_to: null }],
  });

  it("gives the estimate, the difference and the verdict, and says the measurement is what counts", () => {
    expect(row.estimated).toMatchObject({ role: "not_counted", ch4_t: 12_060, calculations: ["c-estimate"] });
    expect(row.difference_t).not.toBeNull();
    expect(row.consistent).not.toBeNull();
    expect(row.explanations.map((e) => e.kind)).not.toContain("no_estimate");
    expect(row.explanations.find((e) => e.kind === "counted_side")?.text).toBe(
      "В итоге года учтено измерение: оценка по добыче угля «Оценка» стоит рядом с измеренными месяцами и не учтена " +
        "(дубликат измерения, D43) — сравнение с ней сделано все равно",
    );
  });
});
