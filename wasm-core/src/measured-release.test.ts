// D14: measured release from periods — the volume is Σ flow × hours × 60 / 1000, and periods of equal
// contents give what their summed volume gives (underground's worked examples, the first).
import { describe, expect, it } from "vitest";
import { FieldError, calculate, emissionsCore } from "./emissions";
import { checkPeriods, measuredRelease, periodDate, periodVolume } from "./measured-release";

const DENSITIES_20C = { p_co2: 1.8393, p_ch4: 0.668 };

describe("measured periods (D14)", () => {
  it("a period's volume is flow × hours × 60 / 1000 thousand m³", () => {
    expect(periodVolume({ flow_m3_min: 12.5, hours: 720 })).toBeCloseTo(540, 12);
  });

  it("periods of equal contents give the result of their summed volume", () => {
    const periods = checkPeriods([
      { from: "01.01.2025", to: "31.01.2025", flow_m3_min: 100, hours: 744, w_ch4: 76, w_co2: 10.6 },
      { from: "2025-02-01", to: "2025-02-28", flow_m3_min: 80.5, hours: 600, w_ch4: 76, w_co2: 10.6 },
    ]);
    const release = measuredRelease(emissionsCore(), periods, DENSITIES_20C, 25);
    const volume = (100 * 744 * 60) / 1000 + (80.5 * 600 * 60) / 1000;
    expect(release.volume).toBeCloseTo(volume, 9);
    const whole = calculate("underground", { volume, ef_ch4: 76, ef_co2: 10.6, ...DENSITIES_20C }, { gwp_ch4: 25 });
    for (const name of ["res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"] as const) {
      expect(release[name]).toBeCloseTo(whole[name], 6);
    }
    expect(release.ef_ch4).toBeCloseTo(76, 12);
    expect(release.periods.map((p) => p.volume)).toEqual([4464, 2898]);
    expect(release.periods[0].res_ch4 + release.periods[1].res_ch4).toBeCloseTo(release.res_ch4, 9);
  });

  it("each period takes its own contents", () => {
    const periods = checkPeriods([
      { from: "2025-01-01", to: "2025-01-01", flow_m3_min: 1000, hours: 24, w_ch4: 0.4, w_co2: 0 },
      { from: "2025-01-02", to: "2025-01-02", flow_m3_min: 10, hours: 24, w_ch4: 50, w_co2: 5 },
    ]);
    const release = measuredRelease(emissionsCore(), periods, DENSITIES_20C, 25);
    expect(release.res_ch4).toBeCloseTo((1440 * 0.4 * 0.668) / 100 + (14.4 * 50 * 0.668) / 100, 9);
    expect(release.ef_ch4).toBeCloseTo((1440 * 0.4 + 14.4 * 50) / 1454.4, 12);
  });

  it("names the period and the field it refuses", () => {
    const ok = { from: "01.03.2025", to: "02.03.2025", flow_m3_min: 1, hours: 48, w_ch4: 1, w_co2: 0 };
    const refused = (row: Record<string, unknown>) => {
      try {
        checkPeriods([ok, { ...ok, from: "03.03.2025", to: "04.03.2025", ...row }]);
      } catch (error) {
        if (error instanceof FieldError) return `${error.field}: ${error.message}`;
        throw error;
      }
      return "accepted";
    };
    expect(refused({})).toBe("accepted");
    expect(refused({ hours: 48.5 })).toBe(
      "periods[1].hours: Период 2 (03.03.2025–04.03.2025), «Время работы за период»: Время работы больше продолжительности периода (48 ч)",
    );
    expect(refused({ from: "05.03.2025" })).toMatch(/^periods\[1\]\.to: Период 2 \(05\.03\.2025–04\.03\.2025\)/);
    expect(refused({ from: "31.02.2025" })).toBe("periods[1].from: Период 2, «Начало периода»: Такой даты нет в календаре: 31.02.2025");
    expect(refused({ from: "1 марта 2025" })).toBe("periods[1].from: Период 2, «Начало периода»: Укажите дату в виде ДД.ММ.ГГГГ");
    expect(refused({ flow_m3_min: -1 })).toMatch(/^periods\[1\]\.flow_m3_min: Период 2 .*«Расход газовой смеси»/);
    expect(refused({ w_ch4: 100.5 })).toMatch(/^periods\[1\]\.w_ch4: .*Значение должно быть не больше 100/);
    expect(refused({ w_co2: undefined })).toMatch(/^periods\[1\]\.w_co2: .*Поле обязательно/);
    expect(() => checkPeriods([])).toThrow(FieldError);
  });

  // three identical periods were all counted, CH4 + CO2 could be 200 %, periods could lie
  // outside the project's dates, and an overflowing flow was reported as «volume».
  it("refuses overlapping periods, naming both by number and dates", () => {
    const period = { from: "01.01.2025", to: "31.01.2025", flow_m3_min: 1, hours: 10, w_ch4: 50, w_co2: 5 };
    expect(() => checkPeriods([period, period, period])).toThrow(
      "Период 2 (01.01.2025–31.01.2025), «Начало периода»: пересекается с периодом 1 (01.01.2025–31.01.2025)",
    );
    // Touching ends share a day; out of order but disjoint is fine.
    const next = { ...period, from: "01.02.2025", to: "28.02.2025" };
    expect(() => checkPeriods([{ ...period, to: "01.02.2025" }, next])).toThrow(/Период 2 .*пересекается с периодом 1/);
    expect(checkPeriods([next, period])).toHaveLength(2);
    expect(() => checkPeriods([next, { ...period, to: "15.02.2025" }, { ...period, from: "01.03.2025", to: "02.03.2025" }])).toThrow(
      /^Период 2 \(01\.01\.2025–15\.02\.2025\), «Начало периода»: пересекается с периодом 1 \(01\.02\.2025–28\.02\.2025\)/,
    );
  });

  it("refuses contents of one mixture that sum above 100 %, in labels, not field names", () => {
    const period = { from: "01.01.2025", to: "31.01.2025", flow_m3_min: 1, hours: 10, w_ch4: 100, w_co2: 100 };
    let error: unknown;
    try {
      checkPeriods([period]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FieldError);
    expect((error as FieldError).field).toBe("periods[0].w_co2");
    expect((error as FieldError).message).toBe(
      "Период 1 (01.01.2025–31.01.2025): Сумма содержаний («Содержание CH4 в смеси» + «Содержание CO2 в смеси») должна быть не больше 100 % об., получено 200",
    );
    expect(checkPeriods([{ ...period, w_ch4: 90, w_co2: 10 }])).toHaveLength(1);
  });

  it("keeps every period within the project's dates when they are given", () => {
    const bounds = { start: "2025-01-01", end: "2025-12-31" };
    const period = { from: "01.01.2025", to: "31.01.2025", flow_m3_min: 1, hours: 10, w_ch4: 50, w_co2: 5 };
    expect(checkPeriods([period], bounds)).toHaveLength(1);
    expect(() => checkPeriods([period, { ...period, from: "31.12.2025", to: "01.01.2026" }], bounds)).toThrow(
      "Период 2 (31.12.2025–01.01.2026), «Конец периода»: выходит за даты проекта (01.01.2025–31.12.2025)",
    );
    expect(() => checkPeriods([{ ...period, from: "31.12.2024" }], bounds)).toThrow(
      /^Период 1 .*«Начало периода»: выходит за даты проекта/,
    );
  });

  it("refuses a flow over its physical bound against the flow, in its unit", () => {
    const period = { from: "01.01.2025", to: "31.01.2025", flow_m3_min: 1e308, hours: 744, w_ch4: 50, w_co2: 5 };
    try {
      checkPeriods([period]);
      throw new Error("accepted");
    } catch (error) {
      expect((error as FieldError).field).toBe("periods[0].flow_m3_min");
      expect((error as FieldError).message).toBe(
        "Период 1 (01.01.2025–31.01.2025), «Расход газовой смеси»: Значение должно быть не больше 100 000 м³/мин",
      );
    }
  });

  it("reads an Excel date cell's serial number", () => {
    expect(periodDate(45658)).toBe("2025-01-01");
    expect(periodDate("7.1.2025")).toBe("2025-01-07");
    expect(periodDate("2025-13-01")).toBeUndefined();
  });
});
