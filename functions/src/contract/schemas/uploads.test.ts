// low: a message that sets two sizes side by side said «62 КБ вместо 62 КБ». Each is now
// written with as many decimals as tell them apart, in bytes when three more do not.
import { describe, expect, it } from "vitest";
import { fileSize, fileSizesApart } from "./uploads";

describe("sizes side by side", () => {
  it("read apart", () => {
    expect(fileSize(63_488)).toBe("62 КБ");
    expect(fileSizesApart(63_488, 63_600)).toEqual(["62 КБ", "62,1 КБ"]);
    expect(fileSizesApart(63_488, 63_489)).toEqual(["62 КБ", "62,001 КБ"]);
    expect(fileSizesApart(10_485_760, 10_485_761)).toEqual(["10 485 760 Б", "10 485 761 Б"]);
    expect(fileSizesApart(3_000_000, 3_100_000)).toEqual(["2,9 МБ", "3 МБ"]);
    expect(fileSizesApart(500, 700)).toEqual(["500 Б", "700 Б"]);
  });
});
