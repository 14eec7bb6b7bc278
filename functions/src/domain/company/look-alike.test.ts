import { describe, expect, it } from "vitest";
import { lookAlikeKey, sameName } from "./look-alike";

describe("a company's name as it reads", () => {
  it("is the same with another dash, an invisible character, Latin look-alikes, other quotes, spaces or case", () => {
    const name = "Демо-компания";
    for (const twin of [
      "Демо\u2010компания",
      "Демо\u2011компания",
      "Демо—компания",
      "Де\u200bмо-компания",
      "Дeмo-компания",
      "ДЕМО-КОМПАНИЯ",
      " Демо  компания ",
      "Демо-кoмпaния\u00ad",
    ]) {
      expect(sameName(twin, name), twin).toBe(true);
    }
    expect(sameName("ООО «Ёлка»", 'ООО "Елка"')).toBe(true);
    expect(lookAlikeKey("Демо-компания")).toBe("демо компания");
  });

  it("tells different names apart", () => {
    expect(sameName("Демо-компания 2", "Демо-компания")).toBe(false);
    expect(sameName("Разрез Южный", "Разрез Северный")).toBe(false);
    expect(sameName("Demo", "Демо")).toBe(false);
  });
});
