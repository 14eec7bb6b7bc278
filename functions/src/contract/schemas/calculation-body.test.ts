// The body of v1/{type}/ per type (calculation-body.ts): what the schema of a type accepts and
// refuses, and that the web's body types (checked by the type check) follow the same registry.
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { REGISTRY } from "@core/registry";
import {
  calculationBodySchema,
  calculationFormBody,
  formValues,
  splitBody,
  type CalculationCreateBody,
  type CalculationPatchBody,
} from "./calculation-body";

const issues = (result: z.ZodSafeParseResult<unknown>) => (result.success ? [] : result.error.issues.map((i) => i.message));

describe("one schema per calculation type", () => {
  it("requires on create what the registry gives no default, unit or dictionary for", () => {
    const create = calculationBodySchema("recycle_technology", "create");
    expect(create.safeParse({ name: "Выбор", project: "p", metan: 40, a_metan: 8 }).success).toBe(true);
    expect(issues(create.safeParse({ name: "Выбор", project: "p", metan: 40 }))).toEqual(["Поле обязательно для заполнения"]);
    // ef and k of stationary combustion come from the fuel's dictionary entry.
    const stat = calculationBodySchema("disposal_co2_stat_sources", "create");
    expect(
      stat.safeParse({ name: "Котельная", project: "p", volume: 1, dictionary_items: { get_disposal_co2_stat_sources: 1 } }).success,
    ).toBe(true);
    // An edit sends only what changes.
    expect(calculationBodySchema("recycle_technology", "patch").safeParse({ version: 2 }).success).toBe(true);
  });

  it("leaves a value's upper bound to the core's one check, and names a field the type does not have", () => {
    const create = calculationBodySchema("underground", "create");
    // The bound is the core's (EmissionsCore.evaluate), checked once in the unit typed: not here.
    expect(create.safeParse({ name: "x", project: "p", ef_ch4: 101 }).success).toBe(true);
    expect(issues(create.safeParse({ name: "x", project: "p", ef_ch4: -1 }))).toEqual(["Значение должно быть неотрицательным числом"]);
    const unknown = calculationBodySchema("torch_ch4", "create").safeParse({ name: "x", project: "p", volume: 1, basis: "net" });
    expect(unknown.error?.issues.map((i) => [i.code, i.message, "keys" in i ? i.keys : []])).toEqual([
      ["unrecognized_keys", "такого поля нет у расчета этого типа", ["basis"]],
    ]);
  });

  it("has each registry input and setting of a formula type as a field", () => {
    for (const type of ["underground", "torch_composition", "sensitivity"] as const) {
      const shape = calculationBodySchema(type, "patch").shape;
      for (const field of [...REGISTRY[type].inputs, ...REGISTRY[type].settings]) {
        if (field.type !== "file") expect(Object.keys(shape), `${type}.${field.name}`).toContain(field.name);
      }
    }
  });

  it("splits a body into the common fields and the type's own values", () => {
    const { common, values } = splitBody<"create">("underground", { name: "x", project: "p", volume: 1, basis: "net", periods: [] });
    expect(common).toEqual({ name: "x", project: "p" });
    expect(values).toEqual({ volume: 1, basis: "net", periods: [] });
  });

  it("reads a form's text as the schema's values, and documents one form per type with a file", () => {
    const read = formValues("sensitivity", { name: "Ряд", rho: "0,67", is_deleted: "true", dictionary_items: "{}" }, (t) =>
      Number(t.replace(",", ".")),
    );
    expect(read).toEqual({ body: { name: "Ряд", rho: 0.67, is_deleted: true, dictionary_items: {} }, notJson: undefined });
    const forms = calculationFormBody("create").anyOf as Array<{ title: string; required: string[] }>;
    expect(forms.map((f) => f.title)).toEqual(["underground", "regres_methane", "filling_blanks", "sensitivity"]);
    expect(forms.find((f) => f.title === "sensitivity")!.required).toContain("file_data");
  });

  it("types the web's bodies from the same registry", () => {
    const create: CalculationCreateBody<"recycle_technology"> = { name: "Выбор", project: "p", metan: 40, a_metan: 8 };
    // @ts-expect-error a_metan is required: no default, unit or dictionary gives it
    const missing: CalculationCreateBody<"recycle_technology"> = { name: "Выбор", project: "p", metan: 40 };
    // @ts-expect-error torch_ch4 has no basis (D17)
    const basis: CalculationPatchBody<"torch_ch4"> = { basis: "net" };
    const forecast: CalculationCreateBody<"regres_methane"> = { name: "П", project: "p", method: "xgboost", data: [{ x1: 1, x7: null }] };
    // @ts-expect-error the method is one of the forecast libraries
    const svm: CalculationPatchBody<"regres_methane"> = { method: "svm" };
    expect([create, missing, basis, forecast, svm]).toHaveLength(5);
  });
});
