import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readTypedNumber } from "./typed-numbers";

const readOut = (text: string) => {
  const read = readTypedNumber(text);
  return read.ok ? read.value : read.problem;
};

describe("readTypedNumber", () => {
  it("reads digits grouped by a space, a no-break space or a narrow no-break space", () => {
    expect(readOut("3 100")).toBe(3100);
    expect(readOut("3 100,0")).toBe(3100);
    expect(readOut("1 250 000")).toBe(1250000);
    expect(readOut("3\u00a0100")).toBe(3100);
    expect(readOut("3\u202f100,5")).toBe(3100.5);
    expect(readOut("12 480,7504")).toBe(12480.7504);
  });

  it("reads a decimal comma or dot and a leading minus", () => {
    expect(readOut("845,5")).toBe(845.5);
    expect(readOut("845.5")).toBe(845.5);
    expect(readOut("-0,25")).toBe(-0.25);
    expect(readOut("\u22121 250,5")).toBe(-1250.5);
    expect(readOut(",5")).toBe(0.5);
  });

  it("refuses a text mixing comma and dot instead of guessing", () => {
    expect(readOut("1.250,5")).toBe("ambiguous");
    expect(readOut("1,250.5")).toBe("ambiguous");
  });

  it("refuses groups that are not of three digits", () => {
    expect(readOut("31 00")).toBe("grouping");
    expect(readOut("3 1000")).toBe("grouping");
    expect(readOut("1 25,5")).toBe("grouping");
  });

  it("refuses what is not a number", () => {
    expect(readOut("")).toBe("empty");
    expect(readOut("abc")).toBe("not_a_number");
    expect(readOut("1e5")).toBe("not_a_number");
    expect(readOut("--1")).toBe("not_a_number");
    expect(readOut("1,2,3")).toBe("not_a_number");
  });

  it("reads back every number printed Russian style with grouping", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.integer({ min: 0, max: 6 }), (value, places) => {
        const printed = new Intl.NumberFormat("ru-RU", { minimumFractionDigits: places, maximumFractionDigits: places }).format(value);
        const plain = Number(printed.replace(/[\s\u2212]/g, (c) => (c === "\u2212" ? "-" : "")).replace(",", "."));
        expect(readOut(printed)).toBe(plain);
      }),
    );
  });
});
