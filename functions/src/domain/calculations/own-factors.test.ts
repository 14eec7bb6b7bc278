// Methodology D107: an own factor kept from a typed value is checked against its calculation type's
// input, and a calculation that takes it records the value D107 groups with the ones typed the same.
import { describe, expect, it } from "vitest";
import { calculationModel } from "@core/calculation-uncertainty";
import { DomainError } from "../errors";
import { checkedOwnFactor, ownFactorShare } from "./own-factors";

const WHY = "Газоносность пласта по пластовым испытаниям 2024 г., протокол № 5";
const body = {
  type: "underground_emission_ch4",
  field: "ef",
  value: 19.85,
  uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal" as const },
  justification: `  ${WHY} `,
};

const refusal = (change: Partial<typeof body> & Record<string, unknown>) => {
  try {
    checkedOwnFactor({ ...body, ...change } as typeof body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).problems?.[0]?.field;
  }
  throw new Error("accepted");
};

/** A month's estimate whose factor is typed (or taken from an entry) as the calculation records it. */
const month = (id: string, ef: { value: number; unit: string; uncertainty: object; justification: string }) =>
  calculationModel({
    id,
    type: "underground_emission_ch4",
    name: id,
    results: { res_ch4_to_co2: 1329.95 * 28, res_ch4: 1329.95 },
    coefficients: {
      volume: { value: 100_000, unit: "т", source: "custom", uncertainty: { lower_pct: 2, upper_pct: 2, distribution: "normal" } },
      ef: { value: ef.value, unit: ef.unit, source: "custom", uncertainty: ef.uncertainty as never, justification: ef.justification },
    },
  });

describe("an own factor (D107)", () => {
  it("is kept in the field's unit with its justification trimmed", () => {
    const checked = checkedOwnFactor(body);
    expect(checked).toEqual({
      type: "underground_emission_ch4",
      field: "ef",
      value: 19.85,
      unit: "м³/т",
      uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal" },
      justification: WHY,
    });
  });

  it("refuses what is no typed factor of the type, naming the field", () => {
    expect(refusal({ type: "no_such_type" })).toBe("type");
    expect(refusal({ field: "volume" })).toBe("field");
    expect(refusal({ field: "res_ch4" })).toBe("field");
    expect(refusal({ unit: "м³/мин" })).toBe("unit");
    expect(refusal({ value: -0.5 })).toBe("value");
    expect(refusal({ uncertainty: { lower_pct: 0, upper_pct: 0, distribution: "normal" } })).toBe("uncertainty");
    expect(refusal({ justification: "   " })).toBe("justification");
  });

  it("takes the same share as the value typed the same, so a calculation that takes it groups with them", () => {
    const entry = checkedOwnFactor(body);
    const typed = month("январь", { ...entry, justification: WHY });
    const taken = month("февраль", entry);
    const other = month("март", { ...entry, justification: "Газоносность по данным геологоразведки 2019 г." });
    const share = (model: typeof typed) => model?.inputs.find((i) => i.name === "ef")?.share;
    expect(share(typed)).toBeDefined();
    expect(share(taken)).toBe(share(typed));
    expect(ownFactorShare(entry)).toBe(share(typed));
    expect(share(other)).not.toBe(share(typed));
    // The coal of each month stays its own.
    const coal = (model: typeof typed) => model?.inputs.find((i) => i.name === "volume")?.share;
    expect(coal(taken)).not.toBe(coal(typed));
  });
});
