// Where each sub-app is mounted under /api/ (app.ts mounts them from here) and the OpenAPI 3.1
// document read from them (GET /api/openapi.json): every route file declares its routes once with
// createRoute and their zod schemas (http/openapi-routes.ts), and OPERATIONS reads each sub-app's
// registry back at its mount point. tests/integration/openapi.test.ts compares OPERATIONS with
// Hono's registered routes; tests/integration/isolation-matrix.test.ts reads `isolation` to call
// every id-taking route as another company.
import type { Context } from "hono";
import type { $ZodType } from "zod/v4/core";
import { adminRoutes } from "./admin";
import { tokenRoutes } from "./auth";
import { calculationRoutes } from "./calculations";
import { dictionaryRoutes } from "./dictionaries";
import { directUploadRoutes } from "./direct-uploads";
import { documentRoutes } from "./documents";
import { evidenceRoutes } from "./evidence";
import { exportRoutes } from "./exports";
import { exportJobRoutes } from "./export-jobs";
import { facilityRoutes } from "./facilities";
import { forecastModelRoutes } from "./forecast-models";
import { graphRoutes } from "./graphs";
import { inventoryRoutes } from "./inventory";
import { inventoryReportRoutes } from "./inventory-report";
import { mediaRoutes, mediaStreamRoutes } from "./media";
import { declaredOperations, jsonSchema, routeApp } from "./openapi-routes";
import type { Auth, ErrorStatus, Isolation } from "../contract/routes/declare";
import { openApiRoute } from "../contract/routes/openapi";
import { projectRoutes } from "./projects";
import { uncertaintyRoutes } from "./uncertainty";
import { userRoutes } from "./users";

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
type JsonSchema = Record<string, unknown>;

/** A declared route as the document and the tests read it (openapi-routes.ts declaredOperations). */
export interface Operation {
  operationId: string;
  method: Method;
  /** The path as Hono registers it (app.routes), without a trailing slash. */
  path: string;
  /** The path as OpenAPI writes it. */
  docPath: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  isolation: Isolation;
  /** The path parameters: what each names and its schema. */
  params: Record<string, { description: string; schema?: JsonSchema }>;
  query?: $ZodType;
  body?: { required: boolean; content: Record<string, JsonSchema | $ZodType> };
  success: { status: 200 | 201; description: string; content?: Record<string, JsonSchema | $ZodType> };
  /** Error statuses besides the ones every operation of its kind has (401, 403 for admin, 413 with a body). */
  errors: ErrorStatus[];
  extraSuccess?: Array<{ status: 200 | 206; description: string; content?: Record<string, JsonSchema | $ZodType> }>;
}

// ---- answers --------------------------------------------------------------------------------

const errorSchema: JsonSchema = {
  type: "object",
  properties: { detail: { type: "string" }, code: { type: "string" } },
  required: ["detail"],
  additionalProperties: false,
};

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const SCHEMAS: Record<string, JsonSchema> = { Error: errorSchema };

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
  429: "Too many failed sign-ins, or too many heavy operations in flight (Retry-After); try later",
};

// ---- the operations -----------------------------------------------------------------------------

/** GET /api/openapi.json: public, built once per process. */
export const openApiRoutes = routeApp().openapi(openApiRoute, serveOpenApi);

/** Mounted before requireUser: their own credential or none. */
export const PUBLIC_MOUNTS = [
  ["/token", tokenRoutes],
  ["/", openApiRoutes],
  // <video> sends no bearer header: the stream checks its signed URL token itself.
  ["/v1/media", mediaStreamRoutes],
  // The local stand-in for a presigned PUT (admin uploads): its signed token is its credential.
  ["/v1/uploads", directUploadRoutes],
] as const;

/** Mounted after requireUser, in this order. */
export const USER_MOUNTS = [
  ["/v1/users", userRoutes],
  ["/v1/projects", projectRoutes],
  ["/v1/projects", graphRoutes],
  ["/v1/projects", uncertaintyRoutes],
  ["/v1/projects", exportRoutes],
  ["/v1/dictionary", dictionaryRoutes],
  ["/v1/forecast_models", forecastModelRoutes],
  ["/v1/documents", documentRoutes],
  ["/v1/media", mediaRoutes],
  ["/v1/admin", adminRoutes],
  ["/v1/facilities", facilityRoutes],
  ["/v1/inventory", inventoryRoutes],
  ["/v1/inventory", inventoryReportRoutes],
  // Last: /v1/{type}/ would otherwise shadow the named resources above.
  ["/v1", evidenceRoutes],
  ["/v1/export_jobs", exportJobRoutes],
  ["/v1", calculationRoutes],
] as const;

export const OPERATIONS: Operation[] = [...PUBLIC_MOUNTS, ...USER_MOUNTS].flatMap(([prefix, routes]) =>
  declaredOperations(prefix === "/" ? "/api" : `/api${prefix}`, routes),
);

// ---- the document -----------------------------------------------------------------------------

/** The OpenAPI path of an operation (`{id}`, with the trailing slash docs/api.md writes). */
export function documentPath(op: Operation): string {
  return op.docPath;
}

function parameters(op: Operation): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [, name] of documentPath(op).matchAll(/\{(\w+)\}/g)) {
    const declared = op.params[name];
    out.push({
      name,
      in: "path",
      required: true,
      description: declared?.description ?? name,
      schema: declared?.schema ?? { type: "string" },
    });
  }
  if (op.query) {
    const query = jsonSchema(op.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      out.push({ name, in: "query", required: query.required?.includes(name) ?? false, schema });
    }
  }
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
  return [...statuses].sort((a, b) => a - b);
}

function operationObject(op: Operation): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    [op.success.status]: { description: op.success.description, ...(op.success.content ? { content: content(op.success.content) } : {}) },
  };
  for (const extra of op.extraSuccess ?? []) {
    responses[extra.status] = { description: extra.description, ...(extra.content ? { content: content(extra.content) } : {}) };
  }
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

function serveOpenApi(c: Context) {
  cached ??= JSON.stringify(openApiDocument());
  // The document as text, built once: zod-openapi types a JSON answer by its schema.
  return c.body(cached, 200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" }) as never;
}
