// low: the passport's per-gas table added up to 1 018 635,41 under «Итого 1 018 635,42»
// with no note. Rows rounded apart from their total get a note saying so whenever their sum as
// printed is other than the total as printed.
import { describe, expect, it } from "vitest";
import { roundingNote } from "./inventory-passport";

describe("a table's rounding note", () => {
  it("says the rows are rounded apart from the total when their sum as printed differs", () => {
    // 1 018 635,414 + 0,004 + 0,004: rows print 1 018 635,41, 0,00 and 0,00; the total 1 018 635,42.
    expect(roundingNote([1_018_635.414, 0.004, 0.004], 1_018_635.422)?.replace(/\s/g, " ")).toBe(
      "Строки округлены до 0,01 отдельно от итога: их сумма 1 018 635,41, итог по неокругленным значениям 1 018 635,42",
    );
    expect(roundingNote([100.25, 200.5], 300.75)).toBeUndefined();
  });
});
