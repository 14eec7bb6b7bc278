import { describe, expect, it } from "vitest";
import { formatAmount, formatStored, sourceText, withUnit } from "./format";

const nbsp = (text: string) => text.replace(/ /g, "\u00a0");

describe("formatAmount", () => {
  it("groups thousands with a no-break space and writes a decimal comma, 2 decimals kept", () => {
    expect(formatAmount(12060, 2)).toBe(nbsp("12 060,00"));
    expect(formatAmount(301500, 2)).toBe(nbsp("301 500,00"));
    expect(formatAmount(5076.8, 2)).toBe(nbsp("5 076,80"));
    expect(formatAmount(128869.658, 2)).toBe(nbsp("128 869,66"));
    expect(formatAmount(13.4, 2)).toBe("13,40");
    expect(formatAmount(0, 2)).toBe("0,00");
  });

  it("rounds half away from zero like the shared rounding", () => {
    expect(formatAmount(1.005, 2)).toBe("1,01");
    expect(formatAmount(-1234.5, 0)).toBe(nbsp("-1 235"));
  });

  it("writes nothing for a missing value", () => {
    expect(formatAmount(undefined, 2)).toBe("");
    expect(formatAmount(Number.NaN, 2)).toBe("");
  });
});

describe("formatStored", () => {
  it("shows a stored value unrounded", () => {
    expect(formatStored(1_000_000)).toBe(nbsp("1 000 000"));
    expect(formatStored(0.668)).toBe("0,668");
    expect(formatStored(1.8393)).toBe("1,8393");
    expect(formatStored(0.03308)).toBe("0,03308");
    expect(formatStored("x")).toBe("");
  });

  it("adds the unit only to a value", () => {
    expect(withUnit("0,668", "кг/м³")).toBe("0,668 кг/м³");
    expect(withUnit("", "кг/м³")).toBe("");
  });
});

describe("sourceText", () => {
  it("names the dictionary entry and its version, or the kind of value", () => {
    expect(sourceText({ value: 18, unit: "м³/т", source: "dictionary", item_id: 1, item_name: "Подземная добыча", item_version: 2 })).toBe(
      "Подземная добыча, версия 2",
    );
    expect(sourceText({ value: 1.7, unit: "м³/т", source: "custom" })).toBe("Фактическое значение");
    expect(sourceText({ value: 0.67, unit: "кг/м³", source: "fixed" })).toBe("Фиксированное значение");
    expect(sourceText({ value: 100, unit: "т", source: "input" })).toBe("Введено пользователем");
    // D14: a content derived from the measurement periods was typed by no one.
    expect(sourceText({ value: 35.23237299620733, unit: "% об.", source: "periods" })).toBe("Рассчитано по периодам");
  });
});
