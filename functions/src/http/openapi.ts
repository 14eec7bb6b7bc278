// The route table of the API and the OpenAPI 3.1 document built from it (GET /api/openapi.json).
// Every operation the app registers is declared here once: method, path as Hono mounts it, who may
// call it, which of its parameters are objects owned by a company, its body and its answers.
// tests/integration/openapi.test.ts compares this table with Hono's registered routes, so a new
// route without an entry fails; tests/integration/isolation-matrix.test.ts reads `isolation` to
// call every id-taking route as another company. Bodies reuse the zod schemas the routes validate
// with; bodies the domain validates (calculation inputs, forecast rows, uploads) get small
// documenting schemas built from the calculation registry, the one place that lists the fields.
import type { Context } from "hono";
import * as z from "zod/mini";
import { toJSONSchema, type $ZodType } from "zod/v4/core";
import { CALCULATION_TYPES, REGISTRY, type CalculationType, type NumberField } from "../../../wasm-core/src/registry";
import { FORECAST_METHODS } from "../domain/forecast-models";
import { companyCreateSchema } from "../schemas/company";
import { documentCreateSchema, documentPatchSchema } from "../schemas/document";
import {
  auditQuery,
  coefficientBody,
  companyPatchBody,
  documentCompleteBody,
  documentUploadUrlBody,
  mediaCompleteBody,
  mediaUploadUrlBody,
  resetBody,
  userCreateBody,
  userPatchBody,
} from "./admin";
import { tokenRoutes } from "./auth";
import { dictionaryRoutes } from "./dictionaries";
import { directUploadRoutes } from "./direct-uploads";
import { documentRoutes } from "./documents";
import { mediaRoutes, mediaStreamRoutes } from "./media";
import { facilityRoutes } from "./facilities";
import { inventoryRoutes } from "./inventory";
import { declaredOperations } from "./openapi-routes";
import { userRoutes } from "./users";
import { createBody, listQuery as calculationListQuery, patchBody } from "./calculations";
import { exportRoutes } from "./exports";
import { graphRoutes } from "./graphs";
import { uncertaintyRoutes } from "./uncertainty";
import { forecastModelRoutes } from "./forecast-models";
import { projectRoutes } from "./projects";
import { TEMPLATES } from "../files/template-catalogue";
import { calculationUncertaintySchema } from "../schemas/uncertainty";

/** public: no credentials; signed: a signed URL token in `?token=` (the video stream, for
 *  <video>, which sends no header; the local upload URL, which stands in for a presigned PUT);
 *  user: a bearer access token; admin: a bearer token of a platform operator (staff get 403). */
export type Auth = "public" | "signed" | "user" | "admin";

/** An object id the operation takes, owned by one company: another company's id answers 404. */
export interface OwnedId {
  in: "path" | "query" | "body";
  name: string;
  object: "project" | "calculation" | "facility";
}

export type Isolation =
  /** Takes ids of company-owned objects: another company's id is 404, like a missing one. */
  | { scope: "company"; ids: OwnedId[] }
  /** Takes no id; answers only with the caller's own company's data. */
  | { scope: "own" }
  /** Reference data or files that are the same for every company (no company owns them). */
  | { scope: "platform"; note: string }
  /** Platform operators act across companies; staff get 403. */
  | { scope: "admin"; note: string }
  | { scope: "public" };

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 411 | 413 | 415 | 416 | 429;
type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
type JsonSchema = Record<string, unknown>;

export interface Operation {
  operationId: string;
  method: Method;
  /** The path as Hono registers it (app.routes), without a trailing slash. */
  path: string;
  /** The OpenAPI path when it cannot be derived from `path` (a regular-expression parameter). */
  docPath?: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  isolation: Isolation;
  /** Descriptions of path parameters, over the shared ones in PATH_PARAMS. */
  params?: Record<string, { description: string; schema?: JsonSchema }>;
  query?: $ZodType;
  /** Extra query parameters not in a zod schema. */
  queryParams?: Array<{ name: string; description: string; schema: JsonSchema; required?: boolean }>;
  body?: { required: boolean; content: Record<string, JsonSchema | $ZodType>; description?: string };
  success: { status: 200 | 201; description: string; content?: Record<string, JsonSchema | $ZodType>; headers?: Record<string, string> };
  /** Error statuses besides the ones every operation of its kind has (401, 403 for admin, 413 with a body). */
  errors: ErrorStatus[];
  extraSuccess?: Array<{ status: 200 | 206; description: string }>;
}

// ---- documenting schemas for what the domain validates ---------------------------------------

const id = z.string();
const version = z.optional(z.int());
const dictionaryItems = z.optional(z.record(z.string(), z.nullable(z.int())));

function numberSchema(field: NumberField) {
  const checks = [z.minimum(field.min), ...(field.max !== undefined ? [z.maximum(field.max)] : [])];
  return z.number().check(...checks);
}

function numericFields(type: CalculationType, optional: boolean) {
  const def = REGISTRY[type];
  const shape: Record<string, $ZodType> = {};
  for (const field of [...def.inputs, ...def.settings] as Array<{ name: string; type: string; optional?: boolean; default?: number; fixed?: number }>) {
    if (field.type !== "number") continue;
    const required = !optional && field.optional !== true && field.default === undefined && field.fixed === undefined;
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

const fileSchema: JsonSchema = { type: "string", contentMediaType: "application/octet-stream", description: ".xlsx or .csv (UTF-8 with or without a BOM, or Windows-1251 as Russian Excel saves it; `,` or `;`, decimal commas), at most 4 MB" };

/** The JSON body of POST v1/{type}/ for one type (its own fields, named as the registry names them). */
function calculationJson(type: CalculationType, patch: boolean) {
  const common = {
    name: patch ? z.optional(z.string().check(z.maxLength(255))) : z.string().check(z.minLength(1), z.maxLength(255)),
    ...(patch ? { is_deleted: z.optional(z.boolean()), is_active: z.optional(z.boolean()), version } : { project: id }),
    dictionary_items: dictionaryItems,
    gwp_set: z.optional(z.int()),
    uncertainty: z.optional(calculationUncertaintySchema),
    // D10: why a custom coefficient («Фактическое значение») is what it is; only custom fields.
    justifications: z.optional(z.record(z.string(), z.nullable(z.string().check(z.maxLength(2000))))),
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
  return z.object({ ...common, ...numericFields(type, patch) });
}

function titled(type: CalculationType, schema: $ZodType): JsonSchema {
  return { title: type, description: REGISTRY[type].title, ...jsonSchema(schema) };
}

const jsonTypes = (patch: boolean) => ({
  anyOf: CALCULATION_TYPES.filter((t) => REGISTRY[t].kind !== "file").map((t) => titled(t, calculationJson(t, patch))),
  description: "The fields of the type in the path (wasm-core/src/registry.ts); the route checks the common ones (schema " +
    `${JSON.stringify(jsonSchema(patch ? patchBody : createBody))}), the domain the type's own, naming the field in a 400.`,
});

const multipartTypes = (patch: boolean): JsonSchema => ({
  anyOf: CALCULATION_TYPES.filter((t) => REGISTRY[t].kind !== "formula").map((t) => {
    const fields = jsonSchema(calculationJson(t, patch)) as { properties: Record<string, JsonSchema>; required?: string[] };
    const properties = { ...fields.properties, file_data: fileSchema };
    delete (properties as Record<string, unknown>).data;
    const required = patch ? [] : [...(fields.required ?? []).filter((r) => r !== "data"), ...(REGISTRY[t].kind === "file" ? ["file_data"] : [])];
    return { title: t, type: "object", properties, required, description: "Form fields are strings; numbers may use a decimal comma." };
  }),
});

const dataUpdateDoc = z.object({ data: z.array(forecastRow), version });

const pdfForm = (metadata: $ZodType, fileRequired: boolean): JsonSchema => {
  const meta = jsonSchema(metadata) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return {
    type: "object",
    properties: { ...meta.properties, file: { type: "string", contentMediaType: "application/pdf", description: "PDF, at most 50 MB" } },
    required: [...(meta.required ?? []), ...(fileRequired ? ["file"] : [])],
  };
};

/** The answer of the upload-url routes (domain/direct-uploads.ts, http/UPLOADS.md). */
const uploadGrant: JsonSchema = {
  type: "object",
  properties: {
    url: { type: "string", description: "Where to PUT the file: an S3 presigned URL in AWS, /api/v1/uploads/?token=… locally" },
    method: { type: "string", enum: ["PUT"] },
    headers: { type: "object", additionalProperties: { type: "string" }, description: "Send exactly these with the PUT (Content-Type; in AWS also If-None-Match and x-amz-tagging, which are signed)" },
    upload_id: { type: "string", description: "Signed token for …/complete/" },
    expires_at: { type: "string", format: "date-time", description: "When the URL stops working" },
  },
  required: ["url", "method", "headers", "upload_id", "expires_at"],
};

// ---- answers --------------------------------------------------------------------------------

const errorSchema: JsonSchema = {
  type: "object",
  properties: { detail: { type: "string" }, code: { type: "string" } },
  required: ["detail"],
  additionalProperties: false,
};

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const page = (item: JsonSchema): JsonSchema => ({
  type: "object",
  properties: { results: { type: "array", items: item }, count: { type: "integer" } },
  required: ["results", "count"],
});
const json = (schema: JsonSchema | $ZodType) => ({ "application/json": schema });
const anyObject: JsonSchema = { type: "object" };
const binary = (type: string) => ({ [type]: { type: "string", contentMediaType: type } as JsonSchema });

const SCHEMAS: Record<string, JsonSchema> = {
  Error: errorSchema,
  Tokens: { type: "object", properties: { access: { type: "string" }, refresh: { type: "string" } }, required: ["access"] },
  Project: {
    type: "object",
    properties: {
      id: { type: "string" },
      name: { type: "string" },
      start_date: { type: "string", format: "date" },
      end_date: { type: "string", format: "date" },
      reporting_year: {
        type: "integer",
        minimum: 1990,
        maximum: 2100,
        description: "Picks the GWP set in force (methodology D12); default and for older projects: the end date's year.",
      },
      created_at: { type: "string", format: "date-time" },
      updated_at: { type: "string", format: "date-time" },
      status: { type: "integer" },
      company: { type: "string" },
      user: { type: "string" },
      is_active: { type: "boolean" },
      is_deleted: { type: "boolean" },
      version: { type: "integer" },
    },
    required: ["id", "name", "start_date", "end_date", "company", "is_active", "is_deleted", "version"],
  },
  Calculation: {
    type: "object",
    description: "Flat: the common fields, the type's inputs and results (registry names) and `coefficients`.",
    properties: {
      id: { type: "string" },
      type: { type: "string", enum: [...CALCULATION_TYPES] },
      name: { type: "string" },
      project: { type: "string" },
      is_active: { type: "boolean" },
      is_deleted: { type: "boolean" },
      version: { type: "integer" },
      created_at: { type: "string", format: "date-time" },
      created_by: { type: "string" },
      updated_at: { type: "string", format: "date-time" },
      updated_by: { type: "string" },
      methodology_version: { type: "string" },
      coefficients: {
        type: "object",
        additionalProperties: anyObject,
        description: "Per field: value, unit, source (dictionary | custom | fixed | input | default); a custom one carries `justification` and its evidence file as `evidence` {name, size, format, uploaded_at}.",
      },
      flags: {
        type: "array",
        items: { type: "string" },
        description: "D10: `custom_without_justification:<field>` and `custom_out_of_range:<field>` (outside the plausible band).",
      },
    },
    required: ["id", "type", "name", "project", "version"],
    additionalProperties: true,
  },
};

const ERROR_TEXT: Record<ErrorStatus, string> = {
  400: "Bad input; the detail names the field",
  401: "No, bad or expired credentials, or a deactivated user",
  403: "Not allowed for this role",
  404: "Not found, or another company's object (indistinguishable)",
  409: "Conflict: a stale version or a state that forbids the change",
  411: "Content-Length required",
  413: "Body or file too large",
  415: "Unsupported file or body type",
  416: "Range not satisfiable",
  429: "Too many failed sign-ins; try later",
};

// ---- the table ------------------------------------------------------------------------------

const PATH_PARAMS: Record<string, { description: string; schema: JsonSchema }> = {
  type: { description: "Calculation type of the registry", schema: { type: "string", enum: [...CALCULATION_TYPES] } },
  n: { description: "Kept from the original client; any value", schema: { type: "string" } },
  method: { description: "Forecast method", schema: { type: "string", enum: [...FORECAST_METHODS] } },
  name: { description: "Dictionary name (v1/dictionary/ lists them)", schema: { type: "string" } },
  userId: { description: "User id", schema: { type: "string" } },
  kind: { description: "Settings video", schema: { type: "string", enum: ["instruction", "presentation"] } },
  format: { description: "Export format", schema: { type: "string", enum: ["txt", "xls", "xlsx"] } },
};

const calc = (name = "id"): OwnedId => ({ in: "path", name, object: "calculation" });
const projectPath: OwnedId = { in: "path", name: "id", object: "project" };
const ADMIN = { scope: "admin", note: "platform operators act across companies; staff get 403" } as const;
const TEMPLATE_TYPES = Object.keys(TEMPLATES);

export const OPERATIONS: Operation[] = [
  {
    operationId: "openapi",
    method: "GET",
    path: "/api/openapi.json",
    docPath: "/api/openapi.json",
    summary: "This document",
    tag: "meta",
    auth: "public",
    isolation: { scope: "public" },
    success: { status: 200, description: "OpenAPI 3.1 document", content: json(anyObject) },
    errors: [],
  },
  // Routes declared with their schemas in their own files (http/openapi-routes.ts). The prefixes
  // are where app.ts mounts them; openapi.test.ts compares the result with the routes Hono registered.
  ...declaredOperations("/api/token", tokenRoutes(() => "")),
  ...declaredOperations("/api/v1/users", userRoutes),
  ...declaredOperations("/api/v1/projects", projectRoutes),
  ...declaredOperations("/api/v1/projects", graphRoutes),
  ...declaredOperations("/api/v1/projects", uncertaintyRoutes),
  ...declaredOperations("/api/v1/projects", exportRoutes),
  ...declaredOperations("/api/v1/dictionary", dictionaryRoutes),
  ...declaredOperations("/api/v1/documents", documentRoutes),
  ...declaredOperations("/api/v1/media", mediaRoutes),
  ...declaredOperations("/api/v1/media", mediaStreamRoutes),
  ...declaredOperations("/api/v1/uploads", directUploadRoutes),
  ...declaredOperations("/api/v1/forecast_models", forecastModelRoutes),
  ...declaredOperations("/api/v1/facilities", facilityRoutes),
  ...declaredOperations("/api/v1/inventory", inventoryRoutes),
  // ---- dictionaries (reference data of the platform) ----
  // ---- forecast models (platform-wide) ----
  // ---- documents and videos (platform-wide downloads) ----
  // ---- administration ----
  {
    operationId: "adminListCompanies",
    method: "GET",
    path: "/api/v1/admin/companies",
    summary: "Every company",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    success: { status: 200, description: "`{results, count}`", content: json(anyObject) },
    errors: [],
  },
  {
    operationId: "adminCreateCompany",
    method: "POST",
    path: "/api/v1/admin/companies",
    summary: "Create a company (ОГРН/ОГРНИП and ОКВЭД checked)",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    body: { required: true, content: json(companyCreateSchema) },
    success: { status: 201, description: "The company", content: json(anyObject) },
    errors: [400, 409],
  },
  {
    operationId: "adminGetCompany",
    method: "GET",
    path: "/api/v1/admin/companies/:id",
    summary: "One company",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Company id" } },
    success: { status: 200, description: "The company", content: json(anyObject) },
    errors: [404],
  },
  {
    operationId: "adminPatchCompany",
    method: "PATCH",
    path: "/api/v1/admin/companies/:id",
    summary: "Edit a company",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Company id" } },
    body: { required: true, content: json(companyPatchBody) },
    success: { status: 200, description: "The company, version + 1", content: json(anyObject) },
    errors: [400, 404, 409],
  },
  {
    operationId: "adminListUsers",
    method: "GET",
    path: "/api/v1/admin/companies/:id/users",
    summary: "Users of a company (no password hashes)",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Company id" } },
    success: { status: 200, description: "`{results, count}`", content: json(anyObject) },
    errors: [404],
  },
  {
    operationId: "adminCreateUser",
    method: "POST",
    path: "/api/v1/admin/companies/:id/users",
    summary: "Create a user in a company",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Company id" } },
    body: { required: true, content: json(userCreateBody) },
    success: { status: 201, description: "The user", content: json(anyObject) },
    errors: [400, 404, 409],
  },
  {
    operationId: "adminPatchUser",
    method: "PATCH",
    path: "/api/v1/admin/companies/:id/users/:userId",
    summary: "Edit, (de)activate, change the role of or move a user",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Company id" } },
    body: { required: true, content: json(userPatchBody) },
    success: { status: 200, description: "The user", content: json(anyObject) },
    errors: [400, 404, 409],
  },
  {
    operationId: "adminResetPassword",
    method: "POST",
    path: "/api/v1/admin/companies/:id/users/:userId/reset_password",
    summary: "Set a password, or generate one (returned once)",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Company id" } },
    body: { required: false, content: json(resetBody) },
    success: { status: 200, description: "`{detail}` plus `{password}` when generated", content: json(anyObject) },
    errors: [400, 404],
  },
  {
    operationId: "adminChangeCoefficient",
    method: "PATCH",
    path: "/api/v1/admin/dictionary/:name/:id",
    summary: "Change a coefficient: a new version of the entry",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Entry number", schema: { type: "integer", minimum: 1 } } },
    body: { required: true, content: json(coefficientBody) },
    success: { status: 200, description: "The new current version", content: json(anyObject) },
    errors: [400, 404, 409],
  },
  {
    operationId: "adminListDocuments",
    method: "GET",
    path: "/api/v1/admin/documents",
    summary: "Every document, removed ones too",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    success: { status: 200, description: "`{results, count}`", content: json(anyObject) },
    errors: [],
  },
  {
    operationId: "adminCreateDocument",
    method: "POST",
    path: "/api/v1/admin/documents",
    summary: "Upload a normative document (PDF ≤ 50 MB)",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    body: { required: true, content: { "multipart/form-data": pdfForm(documentCreateSchema, true) } },
    success: { status: 201, description: "The document", content: json(anyObject) },
    errors: [400, 409, 415],
  },
  {
    operationId: "adminDocumentUploadUrl",
    method: "POST",
    path: "/api/v1/admin/documents/upload-url",
    summary: "Where to PUT a PDF (≤ 50 MB) for a new document or to replace a document's file",
    description:
      "Checks the declared type (application/pdf, else 415) and size (else 413). Answers a short-lived URL " +
      "(S3 presigned PUT in AWS, the API's PUT /api/v1/uploads/ locally) and an upload_id for …/complete/.",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    body: { required: true, content: json(documentUploadUrlBody) },
    success: { status: 200, description: "The upload URL and upload_id", content: json(uploadGrant) },
    errors: [400, 404, 409, 415],
  },
  {
    operationId: "adminCompleteDocumentUpload",
    method: "POST",
    path: "/api/v1/admin/documents/complete",
    summary: "Register an uploaded PDF: a new document (metadata here) or a document's new file",
    description:
      "Checks what was stored (size, first bytes %PDF-, read by range); a refused file is deleted (400/413/415). " +
      "The upload_id must be the caller's own, unexpired, and for a document.",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    body: { required: true, content: json(documentCompleteBody) },
    success: { status: 201, description: "The new document", content: json(anyObject) },
    extraSuccess: [{ status: 200, description: "The document whose PDF was replaced (or the same answer again)" }],
    errors: [400, 404, 409, 415],
  },
  {
    operationId: "adminReplaceDocumentFile",
    method: "PUT",
    path: "/api/v1/admin/documents/:id/file",
    summary: "Replace a document's PDF",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Document id" } },
    body: { required: true, content: { "multipart/form-data": pdfForm(z.object({ version }), true) } },
    success: { status: 200, description: "The document", content: json(anyObject) },
    errors: [400, 404, 409, 415],
  },
  {
    operationId: "adminPatchDocument",
    method: "PATCH",
    path: "/api/v1/admin/documents/:id",
    summary: "Edit a document's metadata, remove (is_deleted) or restore it",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    params: { id: { description: "Document id" } },
    body: { required: true, content: json(documentPatchSchema) },
    success: { status: 200, description: "The document", content: json(anyObject) },
    errors: [400, 404, 409],
  },
  {
    operationId: "adminListMedia",
    method: "GET",
    path: "/api/v1/admin/media",
    summary: "Status of both settings videos",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    success: { status: 200, description: "`{results, count}`", content: json(anyObject) },
    errors: [],
  },
  {
    operationId: "adminMediaUploadUrl",
    method: "POST",
    path: "/api/v1/admin/media/upload-url",
    summary: "Where to PUT a settings video (MP4/WebM ≤ 500 MB)",
    description:
      "Checks the kind (else 404), the declared type (video/mp4 or video/webm, else 415) and size (else 413). " +
      "Answers a short-lived URL (S3 presigned PUT in AWS, PUT /api/v1/uploads/ locally) and an upload_id.",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    body: { required: true, content: json(mediaUploadUrlBody) },
    success: { status: 200, description: "The upload URL and upload_id", content: json(uploadGrant) },
    errors: [400, 404, 415],
  },
  {
    operationId: "adminCompleteMediaUpload",
    method: "POST",
    path: "/api/v1/admin/media/complete",
    summary: "Register an uploaded video as its kind's video",
    description:
      "Checks what was stored (size, MP4 ftyp or WebM EBML by its first bytes, read by range, agreeing with the " +
      "declared type); a refused file is deleted (400/413/415).",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    body: { required: true, content: json(mediaCompleteBody) },
    success: { status: 200, description: "Status with a playback URL", content: json(anyObject) },
    errors: [400, 415],
  },
  {
    operationId: "adminUploadMedia",
    method: "PUT",
    path: "/api/v1/admin/media/:kind",
    summary: "Upload a settings video: the raw MP4/WebM (≤ 500 MB, Content-Length required)",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    body: { required: true, content: { ...binary("video/mp4"), ...binary("video/webm") } },
    success: { status: 200, description: "Status with a signed URL", content: json(anyObject) },
    errors: [400, 404, 411, 415],
  },
  {
    operationId: "adminRemoveMedia",
    method: "DELETE",
    path: "/api/v1/admin/media/:kind",
    summary: "Remove a settings video",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    success: { status: 200, description: "`{detail}`", content: json(anyObject) },
    errors: [404],
  },
  {
    operationId: "adminAudit",
    method: "GET",
    path: "/api/v1/admin/audit",
    summary: "The change log, newest first",
    tag: "admin",
    auth: "admin",
    isolation: ADMIN,
    query: auditQuery,
    success: { status: 200, description: "`{results, count}`", content: json(anyObject) },
    errors: [400],
  },
  // ---- calculations of every registry type ----
  {
    operationId: "listCalculations",
    method: "GET",
    path: "/api/v1/:type",
    summary: "A project's calculations of one type, newest first",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [{ in: "query", name: "project", object: "project" }] },
    query: calculationListQuery,
    success: { status: 200, description: "A page of calculations", content: json(page(ref("Calculation"))) },
    errors: [400, 404],
  },
  {
    operationId: "createCalculation",
    method: "POST",
    path: "/api/v1/:type",
    summary: "Create (compute and store) a calculation",
    description: "JSON for every type but filling_blanks and sensitivity; multipart with `file_data` for regres_methane (optional), filling_blanks, sensitivity.",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [{ in: "body", name: "project", object: "project" }] },
    body: { required: true, content: { "application/json": jsonTypes(false), "multipart/form-data": multipartTypes(false) } },
    success: { status: 201, description: "The calculation", content: json(ref("Calculation")) },
    errors: [400, 404, 409, 415],
  },
  {
    operationId: "calculationTemplate",
    method: "GET",
    path: "/api/v1/:type/template",
    summary: `An upload template with an example (types: ${TEMPLATE_TYPES.join(", ")}; others 404)`,
    tag: "calculations",
    auth: "user",
    isolation: { scope: "platform", note: "templates are the same for every company; no id" },
    queryParams: [{ name: "format", description: "xlsx (default) or csv", schema: { type: "string", enum: ["xlsx", "csv"] } }],
    success: {
      status: 200,
      description: "The template",
      content: { ...binary("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ...binary("text/csv") },
    },
    errors: [404],
  },
  {
    operationId: "singleCalculation",
    method: "GET",
    path: "/api/v1/:type/:id/single_calc/:n",
    summary: "One calculation (forecasts with their data rows)",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" } },
    success: { status: 200, description: "The calculation", content: json(ref("Calculation")) },
    errors: [404],
  },
  {
    operationId: "calculationFile",
    method: "GET",
    path: "/api/v1/:type/:id/file",
    summary: "The uploaded source file of a calculation",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" } },
    success: { status: 200, description: "The file as uploaded", content: { ...binary("text/csv"), ...binary("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet") } },
    errors: [404],
  },
  {
    operationId: "attachEvidence",
    method: "PUT",
    path: "/api/v1/:type/:id/evidence/:field",
    summary: "Attach (or replace) the evidence file of a custom coefficient (D10)",
    description:
      "Multipart with `file`: PDF, .xlsx, PNG or JPEG, at most 10 MB, told by its first bytes; optional `version`. Only a coefficient recorded as «Фактическое значение» (source custom) takes a file; the file it replaces is deleted.",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" }, field: { description: "The coefficient's field (ef, p_ch4, …)", schema: { type: "string" } } },
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          type: "object",
          properties: {
            file: { type: "string", contentMediaType: "application/octet-stream", description: "PDF, .xlsx, PNG or JPEG, at most 10 MB" },
            version: { type: "integer" },
          },
          required: ["file"],
        },
      },
    },
    success: { status: 200, description: "The calculation", content: json(ref("Calculation")) },
    errors: [400, 404, 409, 413, 415],
  },
  {
    operationId: "downloadEvidence",
    method: "GET",
    path: "/api/v1/:type/:id/evidence/:field",
    summary: "The evidence file of a custom coefficient",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" }, field: { description: "The coefficient's field", schema: { type: "string" } } },
    success: {
      status: 200,
      description: "The file as attached",
      content: {
        ...binary("application/pdf"),
        ...binary("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ...binary("image/png"),
        ...binary("image/jpeg"),
      },
    },
    errors: [404],
  },
  {
    operationId: "removeEvidence",
    method: "DELETE",
    path: "/api/v1/:type/:id/evidence/:field",
    summary: "Remove the evidence file of a custom coefficient",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" }, field: { description: "The coefficient's field", schema: { type: "string" } } },
    success: { status: 200, description: "The calculation", content: json(ref("Calculation")) },
    errors: [400, 404, 409],
  },
  {
    operationId: "getCalculation",
    method: "GET",
    path: "/api/v1/:type/:id",
    summary: "One calculation (same answer as single_calc)",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" } },
    success: { status: 200, description: "The calculation", content: json(ref("Calculation")) },
    errors: [404],
  },
  {
    operationId: "forecastDataUpdate",
    method: "PATCH",
    path: "/api/v1/:type/:id/data_update",
    summary: "Edit a forecast's data rows and predict again (regres_methane; other types 404)",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" } },
    body: { required: true, content: json(dataUpdateDoc) },
    success: { status: 200, description: "The forecast with its rows", content: json(ref("Calculation")) },
    errors: [400, 404, 409],
  },
  {
    operationId: "patchCalculation",
    method: "PATCH",
    path: "/api/v1/:type/:id",
    summary: "Edit (recomputed when an input changes), archive or restore a calculation",
    tag: "calculations",
    auth: "user",
    isolation: { scope: "company", ids: [calc()] },
    params: { id: { description: "Calculation id" } },
    body: { required: true, content: { "application/json": jsonTypes(true), "multipart/form-data": multipartTypes(true) } },
    success: { status: 200, description: "The calculation", content: json(ref("Calculation")) },
    errors: [400, 404, 409, 415],
  },
];

// ---- the document -----------------------------------------------------------------------------

function isZod(value: unknown): value is $ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

function jsonSchema(schema: $ZodType | JsonSchema): JsonSchema {
  if (!isZod(schema)) return schema;
  const { $schema: _drop, ...rest } = toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The OpenAPI path of an operation: `:id` → `{id}`, with the trailing slash the SPEC writes. */
export function documentPath(op: Operation): string {
  return op.docPath ?? `${op.path.replace(/:(\w+)/g, "{$1}")}/`;
}

function parameters(op: Operation): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [, name] of documentPath(op).matchAll(/\{(\w+)\}/g)) {
    const own = op.params?.[name];
    const shared = PATH_PARAMS[name];
    out.push({
      name,
      in: "path",
      required: true,
      description: own?.description ?? shared?.description ?? name,
      schema: own?.schema ?? shared?.schema ?? { type: "string" },
    });
  }
  if (op.query) {
    const query = jsonSchema(op.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      out.push({ name, in: "query", required: query.required?.includes(name) ?? false, schema });
    }
  }
  for (const q of op.queryParams ?? []) out.push({ name: q.name, in: "query", required: q.required ?? false, description: q.description, schema: q.schema });
  return out;
}

function content(map: Record<string, JsonSchema | $ZodType>): JsonSchema {
  return Object.fromEntries(Object.entries(map).map(([type, schema]) => [type, { schema: jsonSchema(schema) }]));
}

/** Every error an operation can answer: its own plus those of its kind. */
export function errorStatuses(op: Operation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(op.errors);
  if (op.auth !== "public") statuses.add(401);
  if (op.auth === "admin") statuses.add(403);
  // Every request passes the body caps of app.ts.
  if (op.body) statuses.add(413);
  if (op.operationId === "login") statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

function operationObject(op: Operation): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    [op.success.status]: { description: op.success.description, ...(op.success.content ? { content: content(op.success.content) } : {}) },
  };
  for (const extra of op.extraSuccess ?? []) responses[extra.status] = { description: extra.description };
  for (const status of errorStatuses(op)) responses[status] = { $ref: `#/components/responses/E${status}` };
  const isolation =
    op.isolation.scope === "company"
      ? { scope: "company", ids: op.isolation.ids }
      : "note" in op.isolation
        ? { scope: op.isolation.scope, note: op.isolation.note }
        : { scope: op.isolation.scope };
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.auth === "public" ? [] : op.auth === "signed" ? [{ mediaToken: [] }] : [{ bearer: [] }],
    "x-auth": op.auth,
    "x-isolation": isolation,
    parameters: parameters(op),
    ...(op.body ? { requestBody: { required: op.body.required, content: content(op.body.content) } } : {}),
    responses,
  };
}

export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of OPERATIONS) {
    const path = documentPath(op);
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = operationObject(op);
  }
  const responses = Object.fromEntries(
    (Object.keys(ERROR_TEXT).map(Number) as ErrorStatus[]).map((status) => [
      `E${status}`,
      { description: ERROR_TEXT[status], content: { "application/json": { schema: ref("Error") } } },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Цифровая платформа расчета неорганизованных выбросов — API",
      version: "1",
      description:
        "Trailing slashes are optional. Errors are always `{detail}` (sometimes with a machine `code`). " +
        "`x-auth` names who may call an operation; `x-isolation` how it is scoped to the caller's company.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: SCHEMAS,
      responses,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The access token of POST /api/token/" },
        mediaToken: {
          type: "apiKey",
          in: "query",
          name: "token",
          description: "A signed URL token: of GET /api/v1/media/ (video stream) or of an upload-url grant (the local upload URL)",
        },
      },
    },
  };
}

let cached: string | undefined;

/** GET /api/openapi.json: public, built once per process. */
export function serveOpenApi(c: Context): Response {
  cached ??= JSON.stringify(openApiDocument());
  return c.body(cached, 200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" });
}
