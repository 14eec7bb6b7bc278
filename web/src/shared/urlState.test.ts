import { describe, expect, it } from "vitest";
import { applyChanges, pageFrom } from "./urlState";

describe("pageFrom", () => {
  it("reads a positive page number and falls back to 1 for anything else", () => {
    expect(pageFrom("2")).toBe(2);
    expect(pageFrom("37")).toBe(37);
    for (const bad of [null, "", "0", "-1", "1.5", "2abc", "01", " 2", "99999999"]) expect(pageFrom(bad), String(bad)).toBe(1);
  });
});

describe("applyChanges", () => {
  it("sets, removes and keeps the other parameters", () => {
    const next = applyChanges(new URLSearchParams("type=torch_ch4&page=3"), { page: undefined, archived: "1", search: "" });
    expect(next.toString()).toBe("type=torch_ch4&archived=1");
    expect(applyChanges(next, { search: "Шахта №1" }).get("search")).toBe("Шахта №1");
  });
});
