// The body of POST and PATCH v1/{type}/ (docs/api.md): one schema per calculation type, built from
// the calculation registry (wasm-core/src/registry.ts, the one place that lists a type's fields).
// The same schema validates the request (http/calculations.ts, JSON or a multipart form), is the
// body of the OpenAPI document, and types the web's create and edit bodies (z.input). Checks that
// are rules of the domain with messages of their own (a measurement period's dates and sums, a
// forecast row, a value typed in another unit, a dictionary-fed coefficient left out) stay in the
// domain and the core's facade; the schema documents those shapes.
import * as z from "zod";
import { idString } from "./common";
import { MESSAGES } from "@core/emissions-core";
import { unitFields, type EnteredValue } from "@core/entry-units";
import { INVENTORY_ROLES, type InventoryRole } from "@core/inventory";
import { MEASUREMENT_NOTES, type MeasurementNote } from "@core/measured-release";
import {
  CALCULATION_TYPES,
  METHANE_BASES,
  REGISTRY,
  type CalculationDefinition,
  type CalculationType,
  type InputField,
  type MethaneBasis,
  type NumberField,
} from "@core/registry";
import { calculationSchema } from "./answers";
import { calculationUncertaintySchema } from "./uncertainty";
import { CALCULATION_NAME_MAX, JUSTIFICATION_MAX } from "./limits";
import { LIMITS } from "./limits";
export { CALCULATION_NAME_MAX, JUSTIFICATION_MAX } from "./limits";

/** How a multipart form field becomes the JSON value the schema checks (form fields are text). */
type FormKind = "text" | "number" | "boolean" | "json";

/** A field of the type itself (an input or setting of the registry, or its unit, basis, notes):
 *  the domain takes these as the calculation's values. */
interface OwnField {
  schema: z.ZodType;
  /** Required when a calculation is created (an edit sends only what changes). */
  required: boolean;
  form: FormKind;
}

const own = (schema: z.ZodType, form: FormKind, required = false): OwnField => ({ schema, form, required });

// ---- the common fields -------------------------------------------------------------------------

/** A calculation's name: the JSON bodies' field, and the multipart forms' field through the domain. */
export const calculationNameSchema = z
  .string("введите название расчета")
  .check(
    z.trim(),
    z.minLength(1, "введите название расчета"),
    z.maxLength(CALCULATION_NAME_MAX, `название не длиннее ${CALCULATION_NAME_MAX} символов`),
  );
const version = z.number("ожидается целое число").check(z.int());

const commonShape = {
  dictionary_items: z.optional(z.record(z.string(), z.nullable(z.number("ожидается номер записи или null").check(z.int())))),
  gwp_set: z.optional(z.number("ожидается номер набора ПГП").check(z.int())),
  // docs/methodology.md, Uncertainty: the user's own uncertainty per input; null: the default again.
  uncertainty: z.optional(calculationUncertaintySchema),
  // D10: why a custom coefficient («Фактическое значение») is what it is, per field.
  justifications: z.optional(
    z.record(
      z.string(),
      z.nullable(z.string("ожидается текст").check(z.maxLength(JUSTIFICATION_MAX, `не более ${JUSTIFICATION_MAX} символов`))),
    ),
  ),
  // D15: primary counts in the year's inventory, alternative is shown and never summed.
  inventory_role: z.optional(
    z.enum(INVENTORY_ROLES as [InventoryRole, ...InventoryRole[]], {
      error: "ожидается primary (основной) или alternative (альтернативный)",
    }),
  ),
  // D19: a month, a quarter or any part of the project's dates; null: the project's dates. The
  // domain checks the dates (real, within the project's) and names the field.
  period: z.optional(
    z.nullable(
      z.object({ from: z.string("укажите даты ГГГГ-ММ-ДД"), to: z.string("укажите даты ГГГГ-ММ-ДД") }, "ожидается {from, to} или null"),
    ),
  ),
  // D25, measured and destruction types: the emission point of the project's facility
  // (v1/facilities/{id}/points/); null or absent: the facility as a whole. The domain checks it.
  point: z.optional(z.nullable(idString("ожидается идентификатор источника выбросов площадки"))),
  // D35, flares, boilers and engines: the drainage points whose gas it burns; null or absent: the
  // facility's drainage points. The domain checks them.
  drainage_points: z.optional(
    z.nullable(
      z
        .array(z.string("ожидается список идентификаторов дегазационных установок площадки"), {
          error: "ожидается список идентификаторов дегазационных установок площадки",
        })
        .check(z.maxLength(LIMITS.count.drainagePoints, `не больше ${LIMITS.count.drainagePoints} дегазационных установок`)),
    ),
  ),
};

/** The fields every type has, on create. */
const createCommon = z.object({
  name: calculationNameSchema,
  project: idString("укажите проект").check(z.minLength(1, "укажите проект")),
  ...commonShape,
});
/** The fields every type has, on an edit (archive and restore too). */
const patchCommon = z.object({
  name: z.optional(calculationNameSchema),
  is_active: z.optional(z.boolean("ожидается true или false")),
  is_deleted: z.optional(z.boolean("ожидается true или false")),
  version: z.optional(version),
  ...commonShape,
});

/** How a form sends the common fields that are not text. */
const COMMON_FORM: Record<string, FormKind> = {
  dictionary_items: "json",
  uncertainty: "json",
  justifications: "json",
  period: "json",
  drainage_points: "json",
  gwp_set: "number",
  version: "number",
  is_active: "boolean",
  is_deleted: "boolean",
};

/** A value the domain checks, with its messages; the document shows `shape`. */
function documented(shape: Record<string, unknown>, description: string) {
  return z.unknown().meta({ ...shape, description });
}

// ---- the type's own fields, from the registry -----------------------------------------------------

/** A non-negative number, with the core's messages (docs/api.md: errors name the field). Its upper
 *  bound is documented here and checked once, by the core, in the unit the value was typed in
 *  (EmissionsCore.evaluate, checkBounds: code `too_big`). */
function numberSchema(field: NumberField) {
  return z
    .number({ error: (issue) => (issue.input === undefined || issue.input === null ? MESSAGES.required : MESSAGES.nonNegative) })
    .check(z.gte(field.min, MESSAGES.nonNegative))
    .meta({ description: `${field.label}, ${field.unit}`, ...(field.max === undefined ? {} : { maximum: field.max }) });
}

const boundFields = (def: CalculationDefinition) => new Set(def.dictionaries.flatMap((d) => d.fields));

/** A number the user must send on create: not optional, no default or fixed value, no other unit
 *  to send it in (D13) and no dictionary entry to fill it (D10). */
const requiredNumber = (def: CalculationDefinition, field: NumberField) =>
  !field.optional && field.default === undefined && field.fixed === undefined && !field.units && !boundFields(def).has(field.name);

/** Rows of a table field (D14's periods, a forecast's data): each row is checked by the domain,
 *  which names the row and the column in its own words; the document shows the columns. */
function tableSchema(field: InputField) {
  const columns = field.type === "table" ? (field.columns ?? []) : [];
  const row = {
    type: "object",
    properties: Object.fromEntries(
      columns.map((c) => [
        c.name,
        {
          type: ["number", "null"],
          minimum: c.min,
          ...(c.max === undefined ? {} : { maximum: c.max }),
          description: `${c.label}, ${c.unit}`,
        },
      ]),
    ),
  };
  return z.array(z.unknown(), "ожидается список строк").meta({ items: row, description: field.label });
}

/** A forecast's data rows (PATCH …/data_update/ takes them alone). */
export const forecastRowsSchema = tableSchema(REGISTRY.regres_methane.inputs.find((f) => f.name === "data")!);

function ownFields(type: CalculationType): Record<string, OwnField> {
  const def: CalculationDefinition = REGISTRY[type];
  const fields: Record<string, OwnField> = {};
  for (const field of [...def.inputs, ...def.settings]) {
    if (field.type === "number") fields[field.name] = own(numberSchema(field), "number", requiredNumber(def, field));
    else if (field.type === "text")
      fields[field.name] = own(
        z
          .string("ожидается текст")
          .max(LIMITS.text.calculationText, `не длиннее ${LIMITS.text.calculationText} символов`)
          .meta({ description: field.label }),
        "text",
        !field.optional,
      );
    else if (field.type === "choice") {
      const options = field.options as [string, ...string[]];
      fields[field.name] = own(
        z.enum(options, { error: `выберите ${options.join(" или ")}` }).meta({ description: field.label }),
        "text",
        !field.optional,
      );
    }
    // Rows may come from a file instead (D14's periods, a forecast's data).
    else if (field.type === "table") fields[field.name] = own(tableSchema(field), "json");
    // file: the multipart form's file_data, read apart from the fields.
  }
  const units = [...unitFields(def).values()];
  if (units.length > 0) {
    // D13: as typed, in the user's unit; the field is stored in its canonical unit.
    fields.entered = own(
      documented(
        {
          type: "object",
          properties: Object.fromEntries(
            units.map((f) => [
              f.name,
              {
                type: "object",
                properties: { value: { type: "number", minimum: 0 }, unit: { enum: f.units.map((u) => u.unit) } },
                required: ["value", "unit"],
              },
            ]),
          ),
        },
        `D13: values as typed in another unit (${units.map((f) => `${f.name}: ${f.unit}`).join(", ")} stored)`,
      ),
      "json",
    );
  }
  if (def.basis) {
    fields.basis = own(
      z
        .enum(METHANE_BASES as [MethaneBasis, ...MethaneBasis[]], {
          error: "ожидается gross (валовый выброс) или net (чистый выброс)",
        })
        .meta({ description: `D17: gross or net; default ${def.basis}` }),
      "text",
    );
  }
  if (def.inputs.some((f) => f.name === "periods")) {
    // 8.1: printed on the report passport with the measurement periods.
    for (const [name, note] of Object.entries(MEASUREMENT_NOTES)) {
      fields[name] = own(
        z
          .nullable(z.string("ожидается строка").check(z.maxLength(note.max, `не длиннее ${note.max} символов`)))
          .meta({ description: note.label }),
        "text",
      );
    }
  }
  return fields;
}

// ---- the schemas ---------------------------------------------------------------------------------

const unknownField = (issue: z.core.$ZodRawIssue) =>
  issue.code === "unrecognized_keys" ? "такого поля нет у расчета этого типа" : undefined;

interface TypeBody {
  own: Record<string, OwnField>;
  schema: z.ZodObject;
}

function typeBody(type: CalculationType, mode: "create" | "patch"): TypeBody {
  const fields = ownFields(type);
  const ownShape = Object.fromEntries(
    Object.entries(fields).map(([name, f]) => [name, f.required && mode === "create" ? f.schema : z.optional(f.schema)]),
  );
  const shape = { ...(mode === "create" ? createCommon : patchCommon).shape, ...ownShape };
  return { own: fields, schema: z.strictObject(shape, { error: unknownField }).meta({ title: type, description: REGISTRY[type].title }) };
}

const BODIES = {
  create: Object.fromEntries(CALCULATION_TYPES.map((t) => [t, typeBody(t, "create")])) as Record<CalculationType, TypeBody>,
  patch: Object.fromEntries(CALCULATION_TYPES.map((t) => [t, typeBody(t, "patch")])) as Record<CalculationType, TypeBody>,
};

export type BodyMode = keyof typeof BODIES;

/** The schema of a type's create or edit body. */
export const calculationBodySchema = (type: CalculationType, mode: BodyMode): z.ZodObject => BODIES[mode][type].schema;

/** The fields every type has, as a checked body gives them. */
export type CommonFields<M extends BodyMode> = z.output<M extends "create" ? typeof createCommon : typeof patchCommon>;

/** A checked body split into the fields every type has and the type's own fields (the values the
 *  domain computes with), by the type's schema: no list of fields besides it. */
export function splitBody<M extends BodyMode>(
  type: CalculationType,
  body: Record<string, unknown>,
): { common: CommonFields<M>; values: Record<string, unknown> } {
  const fields = BODIES.create[type].own;
  const isOwn = ([name]: [string, unknown]) => Object.hasOwn(fields, name);
  const entries = Object.entries(body);
  return {
    common: Object.fromEntries(entries.filter((e) => !isOwn(e))) as CommonFields<M>,
    values: Object.fromEntries(entries.filter(isOwn)),
  };
}

/** The fields every calculation's answer has besides those of its body (schemas/answers.ts). */
const ANSWER_FIELDS = new Set(Object.keys(calculationSchema.shape));

/** Whether a value sent is the one the answer shows, walked along the answer (so a sent value
 *  nested deeper than any answer is never walked to its end). */
function sameValue(sent: unknown, shown: unknown): boolean {
  if (sent === shown) return true;
  if (typeof sent !== "object" || typeof shown !== "object" || sent === null || shown === null) return false;
  if (Array.isArray(sent) !== Array.isArray(shown)) return false;
  const names = Object.keys(shown);
  return (
    Object.keys(sent).length === names.length &&
    names.every(
      (name) => Object.hasOwn(sent, name) && sameValue((sent as Record<string, unknown>)[name], (shown as Record<string, unknown>)[name]),
    )
  );
}

/** An edit's body split against the calculation's answer (docs/api.md): the specification's client
 *  edits by sending back the whole object it fetched. A field of the answer that no edit takes (the
 *  id, the results, the audit, the coefficients used) is read-only: returned apart, for the domain
 *  to refuse only a change of what cannot change. A field the edit takes, sent back as the answer
 *  shows it, is left as it is (a unit as entered stays with the value it gave, a role the type does
 *  not have stays absent). Any other field stays in the body, for the type's schema to name. */
export function withoutAnswerFields(
  type: CalculationType,
  body: unknown,
  answer: Record<string, unknown>,
): { body: unknown; readOnly: Record<string, unknown> } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { body, readOnly: {} };
  const editable = BODIES.patch[type].schema.shape;
  const kept: Record<string, unknown> = {};
  const readOnly: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (Object.hasOwn(editable, name)) {
      if (!Object.hasOwn(answer, name) || !sameValue(value, answer[name])) kept[name] = value;
    } else if (ANSWER_FIELDS.has(name) || Object.hasOwn(answer, name)) readOnly[name] = value;
    else kept[name] = value;
  }
  return { body: kept, readOnly };
}

const formKind = (type: CalculationType, name: string): FormKind =>
  Object.hasOwn(BODIES.create[type].own, name) ? BODIES.create[type].own[name].form : (COMMON_FORM[name] ?? "text");

/** A multipart form's text fields as the JSON body the schema checks: numbers as users type them
 *  («845,5», «3 100»: readNumber), flags, and the JSON text of structured fields (undefined when it
 *  is no JSON). A field the type does not have is passed as it is, for the schema to name. */
export function formValues(
  type: CalculationType,
  form: Record<string, string>,
  readNumber: (text: string) => number | undefined,
): { body: Record<string, unknown>; notJson?: string } {
  const body: Record<string, unknown> = {};
  let notJson: string | undefined;
  for (const [name, raw] of Object.entries(form)) {
    const kind = formKind(type, name);
    if (kind === "number") body[name] = raw.trim() === "" ? undefined : (readNumber(raw) ?? Number.NaN);
    else if (kind === "boolean") body[name] = raw === "true";
    else if (kind === "json") {
      try {
        body[name] = JSON.parse(raw);
      } catch {
        notJson ??= name;
      }
    } else body[name] = raw;
  }
  return { body, notJson };
}

/** The file field of a type that takes a file (served as a multipart form). */
const fileField = (type: CalculationType) => (REGISTRY[type].inputs as readonly InputField[]).find((f) => f.type === "file");

/** Whether a type takes a multipart form (it has a file field). */
export const takesForm = (type: CalculationType) => fileField(type) !== undefined;

const FILE_SCHEMA = {
  type: "string",
  format: "binary",
  description:
    ".xlsx or .csv (UTF-8 with or without a BOM, or Windows-1251 as Russian Excel saves it; `,` or `;`, decimal commas), at most 4 MB",
};

type JsonSchema = Record<string, unknown>;

/** A forecast's history sent straight to storage instead of file_data (POST v1/forecast/upload-url/). */
export const FORECAST_UPLOAD_FIELDS: Record<string, JsonSchema> = {
  file_upload: {
    type: "string",
    description:
      "Instead of file_data: the key (file_upload) answered by POST v1/forecast/upload-url/ for a history PUT straight to storage " +
      "(up to 32 MB: the 200 000 rows a training takes, a year of 10-minute readings); read and checked as file_data would be, then deleted. Another company's key: 404",
  },
  file_upload_name: { type: "string", description: "The uploaded file's name, for display only" },
};

function inputJson(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The documented JSON bodies: one schema per type, titled by the type. */
export const calculationJsonBody = (mode: BodyMode): JsonSchema => ({
  anyOf: CALCULATION_TYPES.map((t) => inputJson(calculationBodySchema(t, mode))),
  description: "The fields of the type in the path (wasm-core/src/registry.ts).",
});

/** The documented forms: one per type that takes a file; structured fields as their JSON text. */
export const calculationFormBody = (mode: BodyMode): JsonSchema => ({
  anyOf: CALCULATION_TYPES.filter(takesForm).map((t) => {
    const json = inputJson(calculationBodySchema(t, mode)) as JsonSchema & { properties: Record<string, JsonSchema>; required?: string[] };
    const properties: Record<string, JsonSchema> = {};
    for (const [name, schema] of Object.entries(json.properties)) {
      const kind = formKind(t, name);
      // A table's rows come in the file.
      if (kind === "json" && Object.hasOwn(BODIES.create[t].own, name) && name !== "entered") continue;
      properties[name] =
        kind === "json" ? { type: "string", contentMediaType: "application/json", description: schema.description } : schema;
    }
    properties.file_data = FILE_SCHEMA;
    if (t === "regres_methane") Object.assign(properties, FORECAST_UPLOAD_FIELDS);
    const required = [...(json.required ?? []), ...(mode === "create" && !fileField(t)!.optional ? ["file_data"] : [])];
    return { ...json, properties, required, description: "Form fields are text; numbers may use a decimal comma." };
  }),
});

// ---- the web's types -----------------------------------------------------------------------------

type Def<T extends CalculationType> = (typeof REGISTRY)[T];
type FieldOf<T extends CalculationType> = Def<T>["inputs"][number] | Def<T>["settings"][number];
type BoundName<T extends CalculationType> = Def<T>["dictionaries"][number] extends infer B
  ? B extends { fields: readonly (infer F)[] }
    ? F
    : never
  : never;
type JsonField<T extends CalculationType> = Exclude<FieldOf<T>, { type: "file" }>;
/** requiredNumber above, and a text or choice that is not optional. */
type Required<T extends CalculationType, F> = F extends { optional: true } | { type: "table" }
  ? false
  : F extends { type: "number" }
    ? F extends { default: number } | { fixed: number } | { units: readonly unknown[] }
      ? false
      : F extends { name: BoundName<T> }
        ? false
        : true
    : true;
type ValueOf<F> = F extends { type: "number" }
  ? number
  : F extends { type: "text" }
    ? string
    : F extends { type: "choice"; options: readonly (infer O)[] }
      ? O
      : F extends { type: "table"; columns: readonly { name: infer C extends string }[] }
        ? Array<Partial<Record<C | "id", number | null>> | Record<string, string | number | null | undefined>>
        : never;
type UnitName<T extends CalculationType> = Extract<FieldOf<T>, { units: readonly unknown[] }>["name"];

type OwnBody<T extends CalculationType, Patch extends boolean> = {
  [F in JsonField<T> as Patch extends false ? (Required<T, F> extends true ? F["name"] : never) : never]: ValueOf<F>;
} & {
  [F in JsonField<T> as Patch extends false ? (Required<T, F> extends true ? never : F["name"]) : F["name"]]?: ValueOf<F>;
} & ([UnitName<T>] extends [never] ? unknown : { entered?: Partial<Record<UnitName<T>, EnteredValue>> }) &
  (Def<T> extends { basis: MethaneBasis } ? { basis?: MethaneBasis } : unknown) &
  (Extract<FieldOf<T>, { name: "periods" }> extends never ? unknown : { [N in MeasurementNote]?: string | null });

/** POST v1/{type}/ as JSON: the type's schema (calculationBodySchema(type, "create")) as the web sends it. */
export type CalculationCreateBody<T extends CalculationType> = T extends CalculationType
  ? z.input<typeof createCommon> & OwnBody<T, false>
  : never;
/** PATCH v1/{type}/{id}/ as JSON. */
export type CalculationPatchBody<T extends CalculationType> = T extends CalculationType
  ? z.input<typeof patchCommon> & OwnBody<T, true>
  : never;
