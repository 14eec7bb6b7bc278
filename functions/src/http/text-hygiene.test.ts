// low: names and comments kept NUL, U+202E and invalid UTF-8. A JSON body's strings
// are refused with 400 naming the field when they carry one; names are made NFC; passwords are
// left as sent. Through the API on the in-process harness's app.
import { describe, expect, it } from "vitest";
import { refusedText } from "./text-hygiene";

describe("a JSON body's text", () => {
  it("names the first field with a control, bidi-override or replacement character, or a lone surrogate", () => {
    expect(refusedText({ name: "Шахта\u0000" })).toBe("name");
    expect(refusedText({ text: "Сверить \u202Etxt.exe" })).toBe("text");
    expect(refusedText({ rows: [{ note: "ok" }, { note: "\uFFFD" }] })).toBe("rows[1].note");
    expect(refusedText({ name: "\uD800" })).toBe("name");
    expect(refusedText({ name: "Шахта «Южная»\tN 1\r\n", text: "😀 эмодзи — пара суррогатов" })).toBeUndefined();
    // A password is the user's own: compared as sent.
    expect(refusedText({ password: "пароль\u0001", current_password: "\u202E" })).toBeUndefined();
  });

  it("keeps names in NFC", () => {
    const body = { name: "Разрез «Чернии\u0306»", last_name: "Кузнецова", text: "и\u0306" };
    refusedText(body);
    expect(body.name).toBe("Разрез «Черний»");
    expect(body.text).toBe("и\u0306");
  });
});

describe("a deeply nested body", () => {
  it("is walked without recursion", () => {
    let body: unknown = { name: "Шахта\u0000" };
    for (let i = 0; i < 100_000; i++) body = { a: body };
    const at = refusedText(body);
    expect(at).toMatch(/^a\.a\.a/);
    expect(at!.length).toBeLessThan(300);
  });
});
