// The documented bodies of v1/{type}/: one route serves every registry type, as JSON or (types
// with a file) as a multipart form, so its body is one schema per type, built from the calculation
// registry (the one place that lists the fields). The route checks the common fields
// (routes/calculations.ts createBody/patchBody); the domain and the core's facade check the type's own
// and name the field in a 400, which is why these are described here rather than validated.
import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import {
  CALCULATION_TYPES,
  FORECAST_METHODS,
  MEASURED_PERIOD,
  METHANE_BASES,
  REGISTRY,
  uploadColumns,
  type CalculationType,
  type NumberField,
} from "@core/registry";
import { unitFields } from "@core/entry-units";
import { calculationUncertaintySchema } from "../schemas/uncertainty";
import { inputJsonSchema } from "./declare";

type JsonSchema = Record<string, unknown>;

const version = z.optional(z.int());

function numberSchema(field: NumberField) {
  const checks = [z.minimum(field.min), ...(field.max !== undefined ? [z.maximum(field.max)] : [])];
  return z.number().check(...checks);
}

function numericFields(type: CalculationType, optional: boolean) {
  const def = REGISTRY[type];
  const shape: Record<string, $ZodType> = {};
  for (const field of [...def.inputs, ...def.settings] as Array<{
    name: string;
    type: string;
    optional?: boolean;
    default?: number;
    fixed?: number;
    units?: unknown;
  }>) {
    if (field.type !== "number") continue;
    // A field with entry units (D13) may come as `entered` instead.
    const required = !optional && field.optional !== true && field.default === undefined && field.fixed === undefined && !field.units;
    const schema = numberSchema(field as NumberField);
    shape[field.name] = required ? schema : z.optional(schema);
  }
  return shape;
}

const FORECAST_COLUMNS = (REGISTRY.regres_methane.inputs.find((f) => f.name === "data") as { columns: readonly NumberField[] }).columns;
const forecastRow = z.object({
  id: z.optional(z.int().check(z.positive())),
  ...Object.fromEntries(FORECAST_COLUMNS.map((c) => [c.name, z.optional(z.nullable(numberSchema(c)))])),
});

const fileSchema: JsonSchema = {
  type: "string",
  format: "binary",
  description:
    ".xlsx or .csv (UTF-8 with or without a BOM, or Windows-1251 as Russian Excel saves it; `,` or `;`, decimal commas), at most 4 MB",
};

/** The JSON body of one type (its own fields, named as the registry names them). */
function calculationJson(type: CalculationType, patch: boolean) {
  const common = {
    name: patch ? z.optional(z.string().check(z.maxLength(255))) : z.string().check(z.minLength(1), z.maxLength(255)),
    ...(patch ? { is_deleted: z.optional(z.boolean()), is_active: z.optional(z.boolean()), version } : { project: z.string() }),
    dictionary_items: z.optional(z.record(z.string(), z.nullable(z.int()))),
    gwp_set: z.optional(z.int()),
    uncertainty: z.optional(calculationUncertaintySchema),
    // D10: why a custom coefficient («Фактическое значение») is what it is; only custom fields.
    justifications: z.optional(z.record(z.string(), z.nullable(z.string().check(z.maxLength(2000))))),
    // D15: primary counts in the year's inventory, alternative is shown and never summed.
    inventory_role: z.optional(z.enum(["primary", "alternative"])),
    // D19: a month, a quarter or any part of the project's dates; null or absent: the project's dates.
    period: z.optional(
      z.nullable(z.object({ from: z.string().check(z.describe("ГГГГ-ММ-ДД")), to: z.string().check(z.describe("ГГГГ-ММ-ДД")) })),
    ),
    ...(enteredSchema(type) ? { entered: z.optional(enteredSchema(type)!) } : {}),
    // D17: gross (all methane liberated) or net (what reached the atmosphere); default by type.
    ...("basis" in REGISTRY[type]
      ? {
          basis: z.optional(z.enum(METHANE_BASES).check(z.describe(`gross | net; default ${(REGISTRY[type] as { basis: string }).basis}`))),
        }
      : {}),
  };
  const def = REGISTRY[type];
  if (def.kind === "forecast") {
    return z.object({
      ...common,
      method: patch ? z.optional(z.enum(FORECAST_METHODS)) : z.enum(FORECAST_METHODS),
      data: z.optional(z.array(forecastRow)),
    });
  }
  if (type === "filling_blanks") {
    return z.object({ ...common, name_value: patch ? z.optional(z.string()) : z.string(), name_element: z.optional(z.string()) });
  }
  if (type === "underground") {
    // D14: one volume, or measurement periods (then volume and contents come from them).
    return z.object({
      ...common,
      ...numericFields(type, true),
      periods: z.optional(z.array(measuredPeriod)),
      // Methodology 8.1: printed on the report passport with the periods.
      measurement_frequency: z.optional(z.nullable(z.string().check(z.maxLength(200), z.describe("Периодичность измерений")))),
      measurement_instruments: z.optional(z.nullable(z.string().check(z.maxLength(500), z.describe("Средства измерений")))),
    });
  }
  return z.object({ ...common, ...numericFields(type, patch) });
}

/** D13: `entered: {<field>: {value, unit}}`, the fields a type lets users type in their own unit. */
function enteredSchema(type: CalculationType) {
  const fields = [...unitFields(REGISTRY[type]).values()];
  if (fields.length === 0) return undefined;
  return z
    .object(
      Object.fromEntries(
        fields.map((f) => [
          f.name,
          z.optional(z.object({ value: z.number().check(z.minimum(0)), unit: z.enum(f.units.map((u) => u.unit)) })),
        ]),
      ),
    )
    .check(
      z.describe(
        `As typed, in the user's unit; the field is stored in its canonical unit (${fields.map((f) => `${f.name}: ${f.unit}`).join(", ")})`,
      ),
    );
}

const measuredPeriod = z.object({
  ...Object.fromEntries(MEASURED_PERIOD.dates.map((c) => [c.name, z.string().check(z.describe(`${c.label}: ДД.ММ.ГГГГ или ГГГГ-ММ-ДД`))])),
  ...Object.fromEntries(MEASURED_PERIOD.numbers.map((f) => [f.name, numberSchema(f).check(z.describe(`${f.label}, ${f.unit}`))])),
});

/** One schema per type that takes JSON (all but the file types). */
export const calculationJsonBody = (patch: boolean): JsonSchema => ({
  anyOf: CALCULATION_TYPES.filter((t) => REGISTRY[t].kind !== "file").map((t) => ({
    title: t,
    description: REGISTRY[t].title,
    ...inputJsonSchema(calculationJson(t, patch)),
  })),
  description: "The fields of the type in the path (wasm-core/src/registry.ts).",
});

/** One form per type that takes a file; its `file_data` as a binary field. */
export const calculationFormBody = (patch: boolean): JsonSchema => ({
  anyOf: CALCULATION_TYPES.filter((t) => uploadColumns(t).length > 0).map((t) => {
    const fields = inputJsonSchema(calculationJson(t, patch)) as { properties: Record<string, JsonSchema>; required?: string[] };
    const { data: _rows, periods: _periods, ...properties }: Record<string, JsonSchema> = { ...fields.properties, file_data: fileSchema };
    const required = patch
      ? []
      : [...(fields.required ?? []).filter((r) => r !== "data"), ...(REGISTRY[t].kind === "file" ? ["file_data"] : [])];
    return { title: t, type: "object", properties, required, description: "Form fields are strings; numbers may use a decimal comma." };
  }),
});

/** PATCH {id}/data_update/: a forecast's rows, each column within the registry's bounds. */
export const forecastRowsBody: JsonSchema = inputJsonSchema(z.object({ data: z.array(forecastRow), version }));
