// a certificate's names under the product's text rules.
import { describe, expect, it } from "vitest";
import { certificateText, unescapedName } from "./certificate-text";

describe("a certificate's names as shown and stored", () => {
  it("strips bidi overrides and isolates, zero-width characters and marks", () => {
    expect(certificateText("Иванов\u202Eвонави\u2066И\u2069\u200B\u200F")).toBe("ИвановвонавиИ");
  });
  it("decodes node:crypto's escapes of control bytes and then strips them", () => {
    expect(certificateText(unescapedName("A\\01\\07\\1B[31mX"))).toBe("A[31mX");
    expect(unescapedName('ООО \\"Шахта\\", АО')).toBe('ООО "Шахта", АО');
  });
  it("cuts a long name with a mark, never inside a character", () => {
    const cut = certificateText("Ж".repeat(20_000));
    expect(Array.from(cut)).toHaveLength(255);
    expect(cut.endsWith("…")).toBe(true);
    expect(Array.from(certificateText("😀".repeat(300))).at(-2)).toBe("😀");
  });
  it("makes a name NFC", () => {
    expect(certificateText("Ии\u0306")).toBe("Ий");
  });
});
