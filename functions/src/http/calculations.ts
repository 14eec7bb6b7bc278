// v1/{calcType}/ (SPEC 7) for the formula types: list, create, single_calc, update / archive.
import * as z from "zod";
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
import { CALCULATION_TYPES, REGISTRY, uploadColumns } from "../../../wasm-core/src/registry";
import type { UploadedFile } from "../files/tabular";
import { attachmentDisposition } from "./download";
import { calculationSchema } from "../schemas/answers";
import { booleanParam, pageParams } from "../schemas/common";
import { calculationUncertaintySchema } from "../schemas/uncertainty";
import type { AppEnv } from "./env";
import { calculationFormBody, calculationJsonBody, forecastRowsBody } from "./calculation-bodies";
import type { OwnedId } from "./openapi";
import { binaryFile, declareRoute, json, listOf, pathParam, routeApp, type Access } from "./openapi-routes";
import { parseWith, readJson } from "./validate";
import { readUploadForm } from "./multipart";
import { DEFAULT_PAGE_SIZE } from "./projects";

export const listQuery = z.object({
  ...pageParams(),
  project: z.string("project: укажите проект").min(1, "project: укажите проект"),
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
async function readBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<{ body: z.infer<S>; file?: UploadedFile }> {
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
  "name",
  "project",
  "dictionary_items",
  "gwp_set",
  "uncertainty",
  "justifications",
  "inventory_role",
  "is_active",
  "is_deleted",
  "version",
  "id",
]);
const fieldValues = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED.has(key)));

const isMultipart = (c: Context) => (c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

/** A multipart form (SPEC 7: POST as multipart when a file is attached) read into the same shape
 *  as a JSON body: numbers of the type's numeric fields parsed, file_data as bytes. */
async function formBody(c: Context<AppEnv>, typeName: string): Promise<{ body: Record<string, unknown>; file?: UploadedFile }> {
  const type = supportedType(typeName);
  // Formula types take JSON, but for one with an upload (underground's measurement periods, D14).
  if (uploadColumns(type).length === 0) throw new DomainError(415, "Для этого типа расчета отправляйте JSON");
  const form = await readUploadForm(c, "file_data", "data");
  const numeric = new Set(
    [...REGISTRY[type].inputs, ...REGISTRY[type].settings].filter((f) => f.type === "number").map((f) => f.name as string),
  );
  const body: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(form.fields)) {
    if (key === "dictionary_items" || key === "uncertainty" || key === "justifications" || key === "entered") {
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

// ---- the routes ----

/** The calculation type in the path; another one answers 404 (domain/calculations.ts). */
export const calculationTypeParam = pathParam("Calculation type of the registry").meta({ enum: [...CALCULATION_TYPES] });
const calculationParams = z.object({ type: calculationTypeParam, id: pathParam("Calculation id") });
const ownCalculation: OwnedId = { in: "path", name: "id", object: "calculation" };
const calculations = (access: Omit<Access, "tag" | "auth">): Access => ({ ...access, tag: "calculations", auth: "user" });
/** Takes a calculation id: isolation by company. */
export const calculationScoped = (access: Omit<Access, "tag" | "auth" | "isolation">): Access =>
  calculations({ ...access, isolation: { scope: "company", ids: [ownCalculation] } });

const calculationAnswer = (description: string) => json(calculationSchema, description);
/** JSON for every type but the file types; a multipart form with `file_data` for those that take a file. */
const calculationBody = (patch: boolean) => ({
  required: true,
  content: { "application/json": { schema: calculationJsonBody(patch) }, "multipart/form-data": { schema: calculationFormBody(patch) } },
});

const listRoute = declareRoute(
  calculations({
    operationId: "listCalculations",
    summary: "A project's calculations of one type, newest first",
    isolation: { scope: "company", ids: [{ in: "query", name: "project", object: "project" }] },
    errors: [400, 404],
  }),
  {
    method: "get",
    path: "/{type}",
    request: { params: z.object({ type: calculationTypeParam }), query: listQuery },
    responses: { 200: json(listOf(calculationSchema), "A page of calculations") },
  },
);

const createRoute = declareRoute(
  calculations({
    operationId: "createCalculation",
    summary: "Create (compute and store) a calculation",
    description:
      "JSON for every type but filling_blanks and sensitivity; multipart with `file_data` for underground (measurement periods, optional), regres_methane (optional), filling_blanks, sensitivity.",
    isolation: { scope: "company", ids: [{ in: "body", name: "project", object: "project" }] },
    errors: [400, 404, 409, 415],
  }),
  {
    method: "post",
    path: "/{type}",
    request: { params: z.object({ type: calculationTypeParam }), body: calculationBody(false) },
    responses: { 201: calculationAnswer("The calculation") },
  },
);

const templateRoute = declareRoute(
  calculations({
    operationId: "calculationTemplate",
    summary: `An upload template with an example (types: ${Object.keys(TEMPLATES).join(", ")}; others 404)`,
    isolation: { scope: "platform", note: "templates are the same for every company; no id" },
    errors: [404],
  }),
  {
    method: "get",
    path: "/{type}/template",
    request: {
      params: z.object({ type: calculationTypeParam }),
      // Anything but csv is the workbook.
      query: z.object({ format: z.optional(z.string().meta({ description: "xlsx (default) or csv" })) }),
    },
    responses: {
      200: {
        description: "The template",
        content: { "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": binaryFile(), "text/csv": binaryFile() },
      },
    },
  },
);

const singleRoute = declareRoute(
  calculationScoped({ operationId: "singleCalculation", summary: "One calculation (forecasts with their data rows)", errors: [404] }),
  {
    method: "get",
    path: "/{type}/{id}/single_calc/{n}",
    request: { params: calculationParams.extend({ n: pathParam("Kept from the original client; any value") }) },
    responses: { 200: calculationAnswer("The calculation") },
  },
);

const fileRoute = declareRoute(
  calculationScoped({ operationId: "calculationFile", summary: "The uploaded source file of a calculation", errors: [404] }),
  {
    method: "get",
    path: "/{type}/{id}/file",
    request: { params: calculationParams },
    responses: {
      200: {
        description: "The file as uploaded",
        content: { "text/csv": binaryFile(), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": binaryFile() },
      },
    },
  },
);

const getRoute = declareRoute(
  calculationScoped({ operationId: "getCalculation", summary: "One calculation (same answer as single_calc)", errors: [404] }),
  { method: "get", path: "/{type}/{id}", request: { params: calculationParams }, responses: { 200: calculationAnswer("The calculation") } },
);

// Read by the handler (readJson): a form labelled body answers 415, as before the document was generated.
const dataUpdateRoute = declareRoute(
  calculationScoped({
    operationId: "forecastDataUpdate",
    summary: "Edit a forecast's data rows and predict again (regres_methane; other types 404)",
    errors: [400, 404, 409],
  }),
  {
    method: "patch",
    path: "/{type}/{id}/data_update",
    request: { params: calculationParams, body: { required: true, content: { "application/json": { schema: forecastRowsBody } } } },
    responses: { 200: calculationAnswer("The forecast with its rows") },
  },
);

const patchRoute = declareRoute(
  calculationScoped({
    operationId: "patchCalculation",
    summary: "Edit (recomputed when an input changes), archive or restore a calculation",
    errors: [400, 404, 409, 415],
  }),
  {
    method: "patch",
    path: "/{type}/{id}",
    request: { params: calculationParams, body: calculationBody(true) },
    responses: { 200: calculationAnswer("The calculation") },
  },
);

export const calculationRoutes = routeApp()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const page = await listCalculations(
      c.get("deps"),
      c.get("actor"),
      c.req.valid("param").type,
      q.project,
      q.is_deleted === "true" ? "archived" : "active",
      { limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0 },
    );
    return c.json({ results: page.results.map(calculationView), count: page.count }, 200);
  })
  .openapi(createRoute, async (c) => {
    const { body, file } = await readBody(c, createBody);
    const created = await createCalculation(c.get("deps"), c.get("actor"), c.req.valid("param").type, {
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
  .openapi(templateRoute, async (c) => {
    const type = supportedType(c.req.valid("param").type);
    const template = TEMPLATES[type];
    if (!template) throw new NotFound("Для этого типа расчета шаблона нет");
    const csv = c.req.valid("query").format === "csv";
    // The .xlsx is made with exceljs behind the SpreadsheetWorker port (the worker function in AWS).
    const body = csv ? templateCsv(template) : await c.get("deps").spreadsheets.template(type);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": csv ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": attachmentDisposition(`Шаблон — ${template.title}.${csv ? "csv" : "xlsx"}`),
    });
  })
  .openapi(singleRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    return c.json(calculationView(await getCalculationWithData(c.get("deps"), c.get("actor"), type, id)), 200);
  })
  .openapi(fileRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    const file = await getCalculationFile(c.get("deps"), c.get("actor"), type, id);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": attachmentDisposition(file.name),
    });
  })
  .openapi(getRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    return c.json(calculationView(await getCalculationWithData(c.get("deps"), c.get("actor"), type, id)), 200);
  })
  .openapi(dataUpdateRoute, async (c) => {
    // SPEC 7: the regression's data rows (with their ids) edited in a second call after the main PATCH.
    const body = parseWith(dataUpdateBody, await readJson(c));
    const deps = c.get("deps");
    const actor = c.get("actor");
    const { type, id } = c.req.valid("param");
    const current = await getCalculationWithData(deps, actor, type, id);
    if (current.type !== "regres_methane") throw new NotFound("У этого типа расчета нет строк данных");
    const updated = await patchCalculation(deps, actor, current.type, current.id, {
      version: body.version,
      values: { data: body.data, method: current.inputs.method },
    });
    return c.json(calculationView(await getCalculationWithData(deps, actor, updated.type, updated.id)), 200);
  })
  .openapi(patchRoute, async (c) => {
    const { body, file } = await readBody(c, patchBody);
    const { type, id } = c.req.valid("param");
    const updated = await patchCalculation(c.get("deps"), c.get("actor"), type, id, {
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
