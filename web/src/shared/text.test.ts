import { describe, expect, it } from "vitest";
import { orAbsent, truncate } from "./text";

describe("truncate", () => {
  it("keeps a name of at most 25 characters as it is", () => {
    expect(truncate("Шахта Северная", 25)).toBe("Шахта Северная");
    expect(truncate("а".repeat(25), 25)).toBe("а".repeat(25));
  });

  it("cuts a longer name to 25 characters and adds an ellipsis", () => {
    expect(truncate("Разрез Восточный, участок номер 2", 25)).toBe("Разрез Восточный, участок…");
  });

  it("counts characters, not UTF-16 units", () => {
    expect(truncate("😀".repeat(30), 25)).toBe(`${"😀".repeat(25)}…`);
  });
});

describe("orAbsent", () => {
  it("shows «Отсутствует» for empty, blank and missing values", () => {
    expect(orAbsent("")).toBe("Отсутствует");
    expect(orAbsent("   ")).toBe("Отсутствует");
    expect(orAbsent(null)).toBe("Отсутствует");
    expect(orAbsent(undefined)).toBe("Отсутствует");
  });

  it("shows a present value", () => {
    expect(orAbsent("1027700132195")).toBe("1027700132195");
    expect(orAbsent(0)).toBe("0");
  });
});
