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
import { CALCULATION_TYPES } from "../../../wasm-core/src/registry";
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
import { inventoryReportRoutes } from "./inventory-report";
import { declaredOperations } from "./openapi-routes";
import { userRoutes } from "./users";
import { calculationRoutes } from "./calculations";
import { evidenceRoutes } from "./evidence";
import { exportRoutes } from "./exports";
import { graphRoutes } from "./graphs";
import { uncertaintyRoutes } from "./uncertainty";
import { forecastModelRoutes } from "./forecast-models";
import { projectRoutes } from "./projects";

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

const version = z.optional(z.int());
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

const ADMIN = { scope: "admin", note: "platform operators act across companies; staff get 403" } as const;

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
  ...declaredOperations("/api/v1/inventory", inventoryReportRoutes),
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
  // Last, as app.ts mounts them: /v1/{type}/ would otherwise shadow the named resources above.
  ...declaredOperations("/api/v1", evidenceRoutes),
  ...declaredOperations("/api/v1", calculationRoutes),
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
