// `displaces_grid` was documented as an override yet refused true and false.
import { expect, it } from "vitest";
import { abatementInputSchema } from "./abatement";

it("takes displaces_grid as true/false or 1/0", () => {
  const input = (displaces_grid: unknown) => ({
    streams: [],
    params: {},
    overrides: { drainage_1: { GAS_ENGINE_CHP: { displaces_grid } } },
  });
  const read = (value: unknown) => {
    const parsed = abatementInputSchema.safeParse(input(value));
    return parsed.success ? parsed.data.overrides?.drainage_1?.GAS_ENGINE_CHP?.displaces_grid : parsed.error.issues[0]?.message;
  };
  expect([read(true), read(false), read(1), read(0)]).toEqual([1, 0, 1, 0]);
  expect(abatementInputSchema.safeParse(input("да")).success).toBe(false);
});
