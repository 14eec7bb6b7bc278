// v1/{calcType}/ (SPEC 7) for the formula types: list, create, single_calc, update / archive.
import { Hono } from "hono";
import * as z from "zod/mini";
import type { Context } from "hono";
import {
  calculationView,
  createCalculation,
  getCalculationFile,
  getCalculationWithData,
  listCalculations,
  patchCalculation,
  supportedType,
} from "../domain/calculations";
import { DomainError, Invalid, NotFound } from "../domain/errors";
import { TEMPLATES, templateCsv } from "../files/template-catalogue";
import { REGISTRY } from "../../../wasm-core/src/registry";
import type { UploadedFile } from "../files/tabular";
import { attachmentDisposition } from "./download";
import { booleanParam, pageParams } from "../schemas/common";
import { calculationUncertaintySchema } from "../schemas/uncertainty";
import type { AppEnv } from "./env";
import { parseWith, readJson, validate } from "./validate";
import { readUploadForm } from "./multipart";
import { DEFAULT_PAGE_SIZE } from "./projects";

export const listQuery = z.object({
  ...pageParams(),
  project: z.string("project: укажите проект").check(z.minLength(1, "project: укажите проект")),
  is_active: booleanParam,
  is_deleted: booleanParam,
});

// Common fields are checked here; the type's own fields (volume, ef, …) are validated against the
// registry by the domain and the core's facade, which name the field in their errors.
const common = {
  name: z.optional(z.unknown()),
  dictionary_items: z.optional(
    z.record(z.string(), z.nullable(z.number("dictionary_items: ожидается номер записи или null").check(z.int()))),
  ),
  gwp_set: z.optional(z.number("gwp_set: ожидается номер набора ПГП").check(z.int())),
  /** The user's own uncertainty per input (methodology-uncertainty.md); null: the default again. */
  uncertainty: z.optional(calculationUncertaintySchema),
  /** D10: why a custom coefficient is what it is, per field (≤ 2000 characters). */
  /** D15: primary (counts in the year's inventory) or alternative (shown, never summed). */
  inventory_role: z.optional(
    z.enum(["primary", "alternative"], { error: "inventory_role: ожидается primary (основной) или alternative (альтернативный)" }),
  ),
  justifications: z.optional(
    z.record(
      z.string(),
      z.nullable(z.string("justifications: ожидается текст").check(z.maxLength(2000, "justifications: не более 2000 символов"))),
    ),
  ),
};
export const createBody = z.looseObject({ ...common, project: z.optional(z.unknown()) });
export const patchBody = z.looseObject({
  ...common,
  is_active: z.optional(z.boolean("is_active: ожидается true или false")),
  is_deleted: z.optional(z.boolean("is_deleted: ожидается true или false")),
  version: z.optional(z.number("version: ожидается целое число").check(z.int())),
});

/** JSON, or a multipart form when a file is attached; either way checked against `schema`. */
async function readBody<S extends z.ZodMiniType>(c: Context<AppEnv>, schema: S): Promise<{ body: z.infer<S>; file?: UploadedFile }> {
  if (isMultipart(c)) {
    const { body, file } = await formBody(c, c.req.param("type")!);
    return { body: parseWith(schema, body), file };
  }
  return { body: parseWith(schema, await readJson(c)) };
}

export const dataUpdateBody = z.object({
  data: z.array(z.unknown(), "data: ожидается список строк"),
  version: z.optional(z.number("version: ожидается целое число").check(z.int())),
});

const RESERVED = new Set([
  "name", "project", "dictionary_items", "gwp_set", "uncertainty", "justifications", "inventory_role", "is_active", "is_deleted", "version", "id",
]);
const fieldValues = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED.has(key)));

const isMultipart = (c: Context) => (c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

/** A multipart form (SPEC 7: POST as multipart when a file is attached) read into the same shape
 *  as a JSON body: numbers of the type's numeric fields parsed, file_data as bytes. */
async function formBody(c: Context<AppEnv>, typeName: string): Promise<{ body: Record<string, unknown>; file?: UploadedFile }> {
  const type = supportedType(typeName);
  if (REGISTRY[type].kind === "formula") throw new DomainError(415, "Для этого типа расчета отправляйте JSON");
  const form = await readUploadForm(c, "file_data", "data");
  const numeric = new Set([...REGISTRY[type].inputs, ...REGISTRY[type].settings].filter((f) => f.type === "number").map((f) => f.name as string));
  const body: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(form.fields)) {
    if (key === "dictionary_items" || key === "uncertainty" || key === "justifications") {
      try {
        body[key] = JSON.parse(raw);
      } catch {
        throw new Invalid(`${key}: ожидается JSON`);
      }
    } else if (key === "is_deleted" || key === "is_active") {
      body[key] = raw === "true";
    } else if (numeric.has(key) || key === "gwp_set" || key === "version") {
      body[key] = raw.trim() === "" ? undefined : Number(raw.replace(",", "."));
    } else body[key] = raw;
  }
  return { body, file: form.file };
}

export const calculationRoutes = new Hono<AppEnv>({ strict: false })
  .get("/:type", validate("query", listQuery), async (c) => {
    const q = c.req.valid("query");
    const page = await listCalculations(
      c.get("deps"),
      c.get("actor"),
      c.req.param("type"),
      q.project,
      q.is_deleted === "true" ? "archived" : "active",
      { limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0 },
    );
    return c.json({ results: page.results.map(calculationView), count: page.count }, 200);
  })
  .post("/:type", async (c) => {
    const { body, file } = await readBody(c, createBody);
    const created = await createCalculation(c.get("deps"), c.get("actor"), c.req.param("type"), {
      name: body.name,
      project: body.project,
      dictionary_items: body.dictionary_items,
      gwp_set: body.gwp_set,
      uncertainty: body.uncertainty,
      justifications: body.justifications,
      inventory_role: body.inventory_role,
      values: fieldValues(body),
      file,
    });
    return c.json(calculationView(created), 201);
  })
  .get("/:type/template", async (c) => {
    const type = supportedType(c.req.param("type"));
    const template = TEMPLATES[type];
    if (!template) throw new NotFound("Для этого типа расчета шаблона нет");
    const csv = c.req.query("format") === "csv";
    // The .xlsx is made with exceljs behind the SpreadsheetWorker port (the worker function in AWS).
    const body = csv ? templateCsv(template) : await c.get("deps").spreadsheets.template(type);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": csv ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": attachmentDisposition(`Шаблон — ${template.title}.${csv ? "csv" : "xlsx"}`),
    });
  })
  .get("/:type/:id/single_calc/:n", async (c) => {
    const calculation = await getCalculationWithData(c.get("deps"), c.get("actor"), c.req.param("type"), c.req.param("id"));
    return c.json(calculationView(calculation), 200);
  })
  .get("/:type/:id/file", async (c) => {
    const file = await getCalculationFile(c.get("deps"), c.get("actor"), c.req.param("type"), c.req.param("id"));
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": attachmentDisposition(file.name),
    });
  })
  .get("/:type/:id", async (c) => {
    const calculation = await getCalculationWithData(c.get("deps"), c.get("actor"), c.req.param("type"), c.req.param("id"));
    return c.json(calculationView(calculation), 200);
  })
  .patch("/:type/:id/data_update", async (c) => {
    // SPEC 7: the regression's data rows (with their ids) edited in a second call after the main PATCH.
    const body = parseWith(dataUpdateBody, await readJson(c));
    const deps = c.get("deps");
    const actor = c.get("actor");
    const current = await getCalculationWithData(deps, actor, c.req.param("type"), c.req.param("id"));
    if (current.type !== "regres_methane") throw new NotFound("У этого типа расчета нет строк данных");
    const updated = await patchCalculation(deps, actor, current.type, current.id, {
      version: body.version,
      values: { data: body.data, method: current.inputs.method },
    });
    return c.json(calculationView(await getCalculationWithData(deps, actor, updated.type, updated.id)), 200);
  })
  .patch("/:type/:id", async (c) => {
    const { body, file } = await readBody(c, patchBody);
    const updated = await patchCalculation(c.get("deps"), c.get("actor"), c.req.param("type"), c.req.param("id"), {
      name: body.name,
      dictionary_items: body.dictionary_items,
      gwp_set: body.gwp_set,
      uncertainty: body.uncertainty,
      justifications: body.justifications,
      inventory_role: body.inventory_role,
      is_active: body.is_active,
      is_deleted: body.is_deleted,
      version: body.version,
      values: fieldValues(body),
      file,
    });
    return c.json(calculationView(updated), 200);
  });
