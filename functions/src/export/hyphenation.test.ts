// where a Russian word may break in a PDF's narrow column (hyphenation.ts), and the wrapping
// that breaks a word only there, with «-».
import { describe, expect, it } from "vitest";
import { hyphenPoints, wrapText } from "./hyphenation";

const broken = (word: string) => hyphenPoints(word).map((i) => `${word.slice(0, i)}-${word.slice(i)}`);

describe("hyphenPoints", () => {
  it("breaks by syllables: a vowel in each part, no single letter, й ь ъ with the letter before, a cluster after its first consonant", () => {
    expect(broken("страница")).toEqual(["стра-ница", "страни-ца"]);
    expect(broken("сестра")).toEqual(["сес-тра"]);
    expect(broken("касса")).toEqual(["кас-са"]);
    expect(broken("длительность")).toEqual(["дли-тельность", "длитель-ность"]);
    expect(broken("майка")).toEqual(["май-ка"]);
    expect(broken("район")).toEqual(["рай-он"]);
    expect(broken("подъезд")).toEqual(["по-дъезд", "подъ-езд"]);
    expect(broken("коньки")).toEqual(["конь-ки"]);
    expect(broken("акация")).toEqual(["ака-ция"]);
    expect(broken("окно")).toEqual(["ок-но"]);
    expect(broken("загазирование")).toEqual(["за-газирование", "зага-зирование", "загази-рование", "загазиро-вание", "загазирова-ние"]);
  });

  it("leaves abbreviations, codes, numbers and short words whole", () => {
    for (const word of ["АГК", "ВМП", "ГОСТ", "М-7", "CH4", "2662,48", "шёлк", "Methane"]) expect(hyphenPoints(word)).toEqual([]);
  });
});

describe("wrapText", () => {
  // A letter a unit wide: the line's width is its length.
  const measure = (text: string) => text.length;
  const LONG = "Разгерметизация высокопроизводительного электрооборудования вентиляторной установки, М-7 и М-8";

  it("keeps every line within the width and breaks a word only where it may, with «-»", () => {
    for (let width = 9; width <= 40; width++) {
      const lines = wrapText(LONG, width, measure).split("\n");
      for (const line of lines) expect(line.length, `${width}: ${line}`).toBeLessThanOrEqual(width);
      // Joined again at each hyphen that ends a line, the words are the text's.
      const words = lines.join("\n").replace(/-\n/g, "").replace(/\n/g, " ");
      expect(words).toBe(LONG);
      lines.forEach((line, i) => {
        if (!line.endsWith("-") || i === lines.length - 1) return;
        const head = line.split(" ").pop()!.slice(0, -1);
        const word = LONG.split(/[ ,]+/).find((w) => w.includes(head + lines[i + 1].split(" ")[0].replace(/[-,]$/, "")))!;
        const at = word.indexOf(head) + head.length;
        expect({ line, allowed: hyphenPoints(word).includes(at) }).toEqual({ line, allowed: true });
      });
    }
  });

  it("carries a word that fits a line of its own to the next line whole, and keeps the text's own breaks", () => {
    expect(wrapText("отказ датчика", 10, measure)).toBe("отказ\nдатчика");
    expect(wrapText("норма\n1,00 %", 20, measure)).toBe("норма\n1,00 %");
  });

  it("cuts, with «-», only what has no allowed break and fits no line", () => {
    expect(wrapText("ABCDEFGHIJ", 6, measure)).toBe("ABCDE-\nFGHIJ");
  });
});
