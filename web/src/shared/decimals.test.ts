import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../testing/fakes";
import {
  NOT_AN_INTEGER,
  NOT_A_NUMBER,
  NOT_NEGATIVE,
  clampDecimals,
  decimalPlaces,
  formatResult,
  formatStored,
  inputDecimals,
  formatStoredIn,
  groupedNumberText,
  numberText,
  numericInputProblem,
  parseNumericInput,
  readStoredDecimals,
  storeDecimals,
  formatStoredAtMost,
} from "./decimals";

describe("clampDecimals", () => {
  it("keeps 0..4 as they are", () => {
    for (const value of [0, 1, 2, 3, 4]) expect(clampDecimals(value)).toBe(value);
  });

  it("clamps out-of-range numbers to 0..4 and drops fractions", () => {
    expect(clampDecimals(-3)).toBe(0);
    expect(clampDecimals(9)).toBe(4);
    expect(clampDecimals(2.7)).toBe(2);
  });

  it("reads stored strings", () => {
    expect(clampDecimals("3")).toBe(3);
    expect(clampDecimals(" 1 ")).toBe(1);
  });

  it("falls back for a missing or non-numeric value", () => {
    expect(clampDecimals(null)).toBe(4);
    expect(clampDecimals("")).toBe(4);
    expect(clampDecimals("abc")).toBe(4);
    expect(clampDecimals(Number.NaN)).toBe(4);
    expect(clampDecimals(undefined, 2)).toBe(2);
  });
});

describe("stored decimals", () => {
  beforeEach(() => vi.stubGlobal("localStorage", memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it("defaults to 4 and round-trips through local storage key `comma`", () => {
    expect(readStoredDecimals()).toBe(4);
    expect(storeDecimals(2)).toBe(2);
    expect(localStorage.getItem("comma")).toBe("2");
    expect(readStoredDecimals()).toBe(2);
  });

  it("stores the clamped value", () => {
    expect(storeDecimals(7)).toBe(4);
    expect(localStorage.getItem("comma")).toBe("4");
  });
});

describe("inputDecimals", () => {
  it("uses the stored setting clamped to 0..4 in both modes", () => {
    expect(inputDecimals("create", "3")).toBe(3);
    expect(inputDecimals("edit", "3")).toBe(3);
    expect(inputDecimals("create", "0")).toBe(0);
    expect(inputDecimals("edit", "9")).toBe(4);
    expect(inputDecimals("create", "-1")).toBe(0);
  });

  it("falls back to 4 on create and 2 on edit when the setting is missing or not a number", () => {
    for (const stored of [null, "", "  ", "abc", "NaN"]) {
      expect(inputDecimals("create", stored)).toBe(4);
      expect(inputDecimals("edit", stored)).toBe(2);
    }
  });

  describe("reading local storage", () => {
    beforeEach(() => vi.stubGlobal("localStorage", memoryStorage()));
    afterEach(() => vi.unstubAllGlobals());

    it("reads key `comma` when no value is given", () => {
      expect(inputDecimals("edit")).toBe(2);
      localStorage.setItem("comma", "1");
      expect(inputDecimals("edit")).toBe(1);
      expect(inputDecimals("create")).toBe(1);
    });
  });
});

describe("numericInputProblem", () => {
  it("accepts a decimal comma or dot and up to the allowed decimals, as typed key by key", () => {
    for (const text of ["", "8", "84", "845", "845,", "845,5", "845.5", "1000.", ".5", ",5", "12,3456", " 845,5 "]) {
      expect(numericInputProblem(text, { decimals: 4 }), text).toBeUndefined();
    }
    expect(numericInputProblem("12,34", { decimals: 2 })).toBeUndefined();
  });

  it("refuses a minus where negatives are not allowed, and keeps it where they are", () => {
    for (const text of ["-", "-5", "-0,5", "−5"]) expect(numericInputProblem(text, { decimals: 4 }), text).toBe(NOT_NEGATIVE);
    for (const text of ["-5", "-0,5", "-,5"]) expect(numericInputProblem(text, { decimals: 4, negative: true }), text).toBeUndefined();
  });

  it("says what is wrong with anything that is not a number", () => {
    for (const text of ["a", "abc", "12a", "+1", "1.2.3", "1,2,3", "1e3", ",", ".", "5-", "--5"]) {
      expect(numericInputProblem(text, { decimals: 4, negative: true }), text).toBe(NOT_A_NUMBER);
    }
  });

  it("accepts digits grouped by spaces, as the app prints them", () => {
    for (const text of ["3 100", "3 100,0", "1 250 000", "3\u00a0100", "12\u00a0480,7504", "3\u202f100"]) {
      expect(numericInputProblem(text, { decimals: 4 }), text).toBeUndefined();
    }
    expect(parseNumericInput("3 100")).toBe(3100);
    expect(parseNumericInput("12\u00a0480,7504")).toBe(12480.7504);
    expect(decimalPlaces("12 480,7504")).toBe(4);
  });

  it("says how to write a number whose separators are ambiguous or whose groups are wrong", () => {
    expect(numericInputProblem("1.250,5", { decimals: 4 })).toMatch(/отделяйте разряды пробелом, а дробь запятой/);
    expect(numericInputProblem("1,250.5", { decimals: 4 })).toMatch(/отделяйте разряды пробелом, а дробь запятой/);
    expect(numericInputProblem("31 00", { decimals: 4 })).toMatch(/по три цифры/);
  });

  it("names the limit when there are too many decimals", () => {
    expect(numericInputProblem("12,34567", { decimals: 4 })).toBe("Не больше 4 знаков после запятой");
    expect(numericInputProblem("12.345", { decimals: 2 })).toBe("Не больше 2 знаков после запятой");
    expect(numericInputProblem("12,34", { decimals: 1 })).toBe("Не больше 1 знака после запятой");
  });

  it("asks for an integer with 0 decimals", () => {
    expect(numericInputProblem("12", { decimals: 0 })).toBeUndefined();
    for (const text of ["12,", "12,5", "abc"]) expect(numericInputProblem(text, { decimals: 0 }), text).toBe(NOT_AN_INTEGER);
  });

  it("lets a field carry more decimals than the setting's 0..4 (k_tr 0,003149)", () => {
    expect(numericInputProblem("0,003149", { decimals: 6 })).toBeUndefined();
    expect(numericInputProblem("0,0031491", { decimals: 6 })).toBe("Не больше 6 знаков после запятой");
  });
});

describe("parseNumericInput", () => {
  it("reads a decimal comma as a dot", () => {
    expect(parseNumericInput("845,5")).toBe(845.5);
    expect(parseNumericInput("845.5")).toBe(845.5);
    expect(parseNumericInput("1000")).toBe(1000);
    expect(parseNumericInput("12,")).toBe(12);
    expect(parseNumericInput(",5")).toBe(0.5);
    expect(parseNumericInput(".5")).toBe(0.5);
    expect(parseNumericInput(" 0,668 ")).toBe(0.668);
  });

  it("keeps the minus sign (the field decides whether it is allowed)", () => {
    expect(parseNumericInput("-5")).toBe(-5);
    expect(parseNumericInput("-0,25")).toBe(-0.25);
  });

  it("reads the same double as Number() does from the dotted text", () => {
    for (const text of ["0.1", "0.668", "1.8393", "123456789.1234", "0.00125", "2662.48"]) {
      expect(parseNumericInput(text.replace(".", ","))).toBe(Number(text));
    }
  });

  it("has no number for an empty field, a lone separator or minus, or text", () => {
    for (const text of ["", " ", ".", ",", "-", "abc", "12a", "1.000,5", "1,2,3", "1e3"]) {
      expect(parseNumericInput(text), text).toBeUndefined();
    }
  });
});

describe("numberText and decimalPlaces", () => {
  it("writes a stored number as an input starts with it: a comma, no grouping, no exponent", () => {
    expect(numberText(845.5)).toBe("845,5");
    expect(numberText(1_000_000)).toBe("1000000");
    expect(numberText(1e-7)).toBe("0,0000001");
    expect(numberText(undefined)).toBe("");
    expect(parseNumericInput(numberText(0.03308))).toBe(0.03308);
  });

  it("reopens an edit field grouped as typed from five digits on, a year whole", () => {
    expect(groupedNumberText(1_250_000)).toBe("1 250 000");
    expect(groupedNumberText(12480.7504)).toBe("12 480,7504");
    expect(groupedNumberText(-12345)).toBe("-12 345");
    expect(groupedNumberText(2024)).toBe("2024");
    expect(groupedNumberText(845.5)).toBe("845,5");
    expect(groupedNumberText(1e-7)).toBe("0,0000001");
    expect(groupedNumberText(undefined)).toBe("");
    expect(parseNumericInput(groupedNumberText(1_250_000.25))).toBe(1_250_000.25);
  });

  it("counts the decimals of a text", () => {
    expect(decimalPlaces("0,03308")).toBe(5);
    expect(decimalPlaces("845.5")).toBe(1);
    expect(decimalPlaces("845")).toBe(0);
    expect(decimalPlaces("abc")).toBe(0);
  });
});

describe("formatResult", () => {
  it("rounds to the given decimals and keeps trailing zeros", () => {
    expect(formatResult(0.668, 4)).toBe("0,6680");
    expect(formatResult(0.668, 3)).toBe("0,668");
    expect(formatResult(0.668, 2)).toBe("0,67");
    expect(formatResult(1.8393, 4)).toBe("1,8393");
    expect(formatResult(1.8393, 0)).toBe("2");
  });

  it("rounds decimal halves up, whatever their binary form", () => {
    expect(formatResult(1.005, 2)).toBe("1,01");
    expect(formatResult(0.00125, 4)).toBe("0,0013");
    expect(formatResult(2.5, 0)).toBe("3");
    expect(formatResult(-2.5, 0)).toBe("-3");
  });

  it("handles very small and large magnitudes", () => {
    expect(formatResult(1e-7, 4)).toBe("0,0000");
    expect(formatResult(-1e-7, 2)).toBe("0,00");
    expect(formatResult(123456789.12345, 2)).toBe("123\u00a0456\u00a0789,12");
    expect(formatResult(2662.4821, 2)).toBe("2\u00a0662,48");
  });

  it("shows nothing for a missing or non-finite value", () => {
    expect(formatResult(undefined, 2)).toBe("");
    expect(formatResult(null, 2)).toBe("");
    expect(formatResult(Number.NaN, 2)).toBe("");
    expect(formatResult(Number.POSITIVE_INFINITY, 2)).toBe("");
  });
});

describe("formatStored", () => {
  it("shows a stored value unrounded, Russian style", () => {
    expect(formatStored(0.668)).toBe("0,668");
    expect(formatStored(1_000_000)).toBe("1\u00a0000\u00a0000");
    expect(formatStored(-2.5)).toBe("-2,5");
    expect(formatStored("0.668")).toBe("");
  });
});

describe("formatStoredIn", () => {
  it("writes a year as a year, and says what 0 and 9999 mean", () => {
    expect(formatStoredIn(1990, "год")).toBe("1990");
    expect(formatStoredIn(0, "год")).toBe("не назначен");
    expect(formatStoredIn(9999, "год")).toBe("без ограничения");
    expect(formatStoredIn(1990, "т")).toBe("1\u00a0990");
    expect(formatStoredIn(0.668, "т/м³")).toBe("0,668");
  });
});

describe("formatStoredAtMost", () => {
  it("rounds a worked-out figure to the places given and leaves a typed one as typed", () => {
    expect(formatStoredAtMost(0.7979142750187174, 4)).toBe("0,7979");
    expect(formatStoredAtMost(1.8393, 4)).toBe("1,8393");
    expect(formatStoredAtMost(0.668, 4)).toBe("0,668");
    expect(formatStoredAtMost("x", 4)).toBe("");
  });
});
