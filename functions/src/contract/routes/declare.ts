// How a route is declared once: @hono/zod-openapi's createRoute with its zod schemas (which the
// route validates with), plus who may call it and how it is scoped to a company. The modules of
// this folder declare the API (paths, bodies, answers, access) and nothing else: http/ serves the
// declarations with handlers, openapi.ts documents them, and the web's typed client takes its
// types from them (contract/index.ts) without reaching the domain, the adapters or Node.
import { createRoute, type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Env } from "hono";
import type { BlankSchema } from "hono/types";
import { toJSONSchema, type $ZodType } from "zod/v4/core";
import { ID_MAX_LENGTH } from "../schemas/common";

/** public: no credentials; signed: a signed URL token in `?token=` (the video stream, for
 *  <video>, which sends no header; the local upload URL, which stands in for a presigned PUT);
 *  user: a bearer access token; admin: a bearer token of a platform operator (staff get 403);
 *  gateway: a facility's gateway key (`Authorization: Gateway <key>`) or a user's bearer token, checked
 *  by the route itself (the readings push, methodology D57). */
export type Auth = "public" | "signed" | "user" | "admin" | "gateway";

/** An object id the operation takes, owned by one company: another company's id answers 404. */
export interface OwnedId {
  in: "path" | "query" | "body";
  name: string;
  object: "project" | "calculation" | "facility" | "abatement" | "climateProject";
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

/** The cap a route's file body is held to before it is read (app.ts, http/uploads.ts): `form` a
 *  multipart form with a tabular file (MAX_TABULAR_UPLOAD_BYTES and room for its fields),
 *  `document` a form with a PDF (the server's document cap), `evidence` a form with a coefficient's
 *  evidence file (EVIDENCE_MAX_BYTES), `video` a raw video (the server's video cap) and `direct`
 *  the local upload URL's raw PDF or video (the larger of the two), both streamed, so they must
 *  declare their length; `readings` a CSV of a mine's readings, held to the JSON cap as its JSON twin. A JSON body is held to the JSON cap on every route. */
export type BodyCap = "form" | "document" | "evidence" | "video" | "direct" | "readings";

/** What an operation's work grows with (docs/security.md, «Ninth round»): `light`, bounded by the
 *  request (a stored item or a page of them, a body under its cap); `heavy`, with stored data or a
 *  file (minutes folded, a record read whole, a file rendered or read). A heavy operation takes the
 *  user's and the company's heavy-work slot before it reads its body or the store (http/heavy-bodies.ts)
 *  and renders its files through the heavy-file path (domain/heavy-work.ts heavyFile); past the
 *  budgets it is refused 429. `shared`: heavy, but its answer is computed once per the company's data
 *  and shared by the requests that come meanwhile (domain/heavy-reads.ts heavyRead): the computation
 *  takes the slot, a kept answer none, so a page's several reads are not refused for each other. */
export type Cost = "light" | "heavy" | "shared";

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 411 | 413 | 415 | 416 | 422 | 429 | 503;

export interface Access {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  isolation: Isolation;
  /** Error statuses besides those of its kind (401, 403 for admin, 413 with a body). */
  errors: ErrorStatus[];
  /** What its work grows with (Cost above); every route says. */
  cost?: Cost;
  /** Its file body's cap (above); a route without one takes JSON bodies only. */
  bodyCap?: BodyCap;
  /** Its JSON body's cap in bytes where it is below the server's JSON cap (an abatement request: what
   *  50 streams need R4); applied by http/uploads.ts before the body is read. */
  jsonCap?: number;
}

/** The access of a tag's routes called alike and scoped alike, a route's in a line: `const own =
 *  access("users", "user", { scope: "own" })`, then `route(own(operationId, summary, errors,
 *  description), { get: "/get_me", 200: json(…) })`. */
export const access =
  (tag: string, auth: Auth, isolation: Isolation) =>
  (operationId: string, summary: string, errors: ErrorStatus[], description?: string): Access => ({
    operationId,
    summary,
    ...(description ? { description } : {}),
    tag,
    auth,
    isolation,
    errors,
  });

/** The access of a tag's routes a signed-in user calls, scoped alike (access above). */
export const userAccess = (tag: string, isolation: Isolation) => access(tag, "user", isolation);

/** What each error status means: the document's shared answers (components/responses/E<status>). */
export const ERROR_TEXT: Record<ErrorStatus, string> = {
  400: "Bad input; the detail names the field",
  401: "No, bad or expired credentials, or a deactivated user",
  403: "Not allowed for this role",
  404: "Not found, or another company's object (indistinguishable)",
  409: "Conflict: a stale version or a state that forbids the change",
  411: "Content-Length required",
  413: "Body or file too large",
  415: "Unsupported file or body type",
  416: "Range not satisfiable",
  422: "Well formed, but not to be done as sent: an Idempotency-Key already used with another body",
  429: "Too many failed sign-ins, or too many heavy operations in flight (Retry-After); try later",
  503: "A tool this operation needs is not on this server (the detail names it)",
};

/** Every error an operation can answer: its own plus those of its kind (401 with credentials, 403
 *  for admins only, 413 with a body: every request passes the body caps of app.ts). */
export function errorStatuses(access: Pick<Access, "auth" | "errors">, hasBody: boolean): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(access.errors);
  if (access.auth !== "public") statuses.add(401);
  if (access.auth === "admin") statuses.add(403);
  if (hasBody) statuses.add(413);
  return [...statuses].sort((a, b) => a - b);
}

const SECURITY: Record<Auth, Array<Record<string, string[]>>> = {
  public: [],
  signed: [{ mediaToken: [] }],
  user: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  gateway: [{ gatewayKey: [] }, { bearer: [] }],
};

/** createRoute with the operation's name, its security and error answers, and who may call it,
 *  how it is scoped and its file body's cap (the extensions x-auth, x-isolation and x-body-cap)
 *  written on the route itself: the
 *  OpenAPI document is generated from these (http/openapi.ts). */
export function declareRoute<const R extends RouteConfig>(access: Access, route: R): R {
  if (!access.cost) throw new Error(`${access.operationId}: say its cost (light, heavy or shared)`);
  const errors = errorStatuses(access, route.request?.body !== undefined);
  return createRoute({
    ...route,
    operationId: access.operationId,
    summary: access.summary,
    ...(access.description ? { description: access.description } : {}),
    tags: [access.tag],
    security: SECURITY[access.auth],
    responses: {
      ...route.responses,
      ...Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/E${status}` }])),
    },
    "x-auth": access.auth,
    "x-isolation": access.isolation,
    // The document says light or heavy; a shared heavy read says so beside it.
    "x-cost": access.cost === "light" ? "light" : "heavy",
    ...(access.cost === "shared" ? { "x-shared-answer": true } : {}),
    ...(access.bodyCap ? { "x-body-cap": access.bodyCap } : {}),
    ...(access.jsonCap ? { "x-json-cap": access.jsonCap } : {}),
  }) as R;
}

/** A JSON body or answer. */
export const json = <S extends z.ZodType>(schema: S, description = "") => ({
  description,
  content: { "application/json": { schema } },
});

/** What a request body's media type is described with: a zod schema or an OpenAPI schema object. */
type BodyMediaType = NonNullable<NonNullable<NonNullable<RouteConfig["request"]>["body"]>["content"][string]>;
type BodySchema = NonNullable<Extract<BodyMediaType, { schema?: unknown }>["schema"]>;

/** A required multipart form, read by its route's handler: described here, checked there. */
export const formBody = (schema: BodySchema) => ({ required: true, content: { "multipart/form-data": { schema } } });

/** `?dry_run=1` of a route that reads an uploaded file: the file previewed as read, nothing stored. */
export const dryRunQuery = (what: string) =>
  z.object({
    dry_run: z.optional(
      z.enum(["1", "0", "true", "false"], { error: "ожидается 1 или 0" }).meta({ description: `1: preview the ${what}, store nothing` }),
    ),
  });

/** A required JSON request body. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({ required: true, content: { "application/json": { schema } } });

type Request = NonNullable<RouteConfig["request"]>;
type Method = "get" | "post" | "put" | "patch" | "delete";
const METHODS: Method[] = ["get", "post", "put", "patch", "delete"];

/** A route's method and path, what it takes and its answers, in a line or two: `{ patch: "/{id}",
 *  params, body, 200: json(…) }`. Its path under its method; the path's and the query's schemas; its
 *  body, a zod schema for a required JSON body (jsonBody) or the body as RouteConfig writes it (a
 *  form, a file, an optional body), and the cap of a file body; and each answer under its status. */
export type Endpoint = { [M in Method]?: string } & {
  /** What its work grows with: every route says (Cost above). */
  cost: Cost;
  params?: Request["params"];
  query?: Request["query"];
  body?: z.ZodType | Request["body"];
  bodyCap?: BodyCap;
  jsonCap?: number;
  [status: number]: Answer;
};

type Answer = RouteConfig["responses"][number];
type MethodOf<E> = Extract<keyof E, Method>;
type Takes<E> = Extract<keyof E, "params" | "query" | "body">;

/** The config createRoute is given for an endpoint, as a route written out has it: what it takes
 *  under `request` (none when it takes nothing), its answers under `responses`, so the handlers and
 *  the typed client read it alike. */
type RouteOf<E extends Endpoint> = { method: MethodOf<E>; path: NonNullable<E[MethodOf<E>]> } & ([Takes<E>] extends [never]
  ? unknown
  : { request: { [K in Takes<E>]: K extends "body" ? (E[K] extends z.ZodType ? ReturnType<typeof jsonBody<E[K]>> : E[K]) : E[K] } }) & {
    responses: { [K in Extract<keyof E, number>]: Extract<E[K], Answer> };
  };

/** A route declared in a few lines: who may call it (`access` above), then its endpoint (above). */
export function route<const E extends Endpoint>(access: Access, endpoint: E) {
  const { params, query, body, bodyCap, jsonCap, cost, ...rest } = endpoint;
  const methods = METHODS.filter((method) => rest[method] !== undefined);
  if (methods.length !== 1) throw new Error(`${access.operationId}: one method and its path, not ${methods.join(", ") || "none"}`);
  const [method] = methods;
  const answers = Object.fromEntries(Object.entries(rest).filter(([status]) => /^\d+$/.test(status)));
  const request = {
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(body ? { body: body instanceof z.ZodType ? jsonBody(body) : body } : {}),
  };
  const config = { method, path: rest[method], ...(Object.keys(request).length > 0 ? { request } : {}), responses: answers };
  return declareRoute(
    { ...access, cost, ...(bodyCap ? { bodyCap } : {}), ...(jsonCap ? { jsonCap } : {}) },
    config as RouteConfig as RouteOf<E>,
  );
}

/** What a tag's access function (`access` above) makes of a route's name, summary, errors and description. */
type AccessOf = ReturnType<typeof access>;

/** A change's own errors besides a versioned change's (400, 404, 409), its description, its JSON body's
 *  cap and its cost (light unless it says). */
interface ChangeMore {
  errors?: ErrorStatus[];
  cost?: Cost;
  description?: string;
  jsonCap?: number;
}

/** One stored, versioned object at its path's ids, `what` naming it in its answers («The project»):
 *  `get` answers it as stored (404 when it is missing or another company's, as the access scopes it);
 *  `patch` takes its change with the version read and answers it, version + 1 (400 a bad change, 409
 *  a stale version). The object's path, ids and schema said once for both. */
export function storedObject<const P extends string, Params extends z.ZodObject, S extends z.ZodType>(
  scoped: AccessOf,
  at: { path: P; params: Params },
  schema: S,
  what: string,
) {
  return {
    get: (operationId: string, summary: string) =>
      route(scoped(operationId, summary, [404]), { get: at.path, cost: "light", params: at.params, 200: json(schema, what) }),
    patch: <B extends z.ZodType>(operationId: string, summary: string, body: B, more: ChangeMore = {}) =>
      route(scoped(operationId, summary, [400, 404, 409, ...(more.errors ?? [])], more.description), {
        patch: at.path,
        cost: more.cost ?? "light",
        params: at.params,
        body,
        jsonCap: more.jsonCap,
        200: json(schema, `${what}, version + 1`),
      }),
  };
}

/** `{results, count}`: a page of a list or a whole short list. */
export const listOf = <S extends z.ZodType>(item: S) => z.object({ results: z.array(item), count: z.int() });

/** A whole short list answered as `listOf` declares it: every item, and how many. */
export const wholeList = <T>(results: T[]) => ({ results, count: results.length });

/** A path parameter of plain text, with what it names. */
/** A path's part (an id, a type, a year): never longer than an id may be (the hook names the part). */
export const pathParam = (description: string) =>
  z.string().max(ID_MAX_LENGTH, `не длиннее ${ID_MAX_LENGTH} символов`).meta({ description });

/** A file in a body or an answer. */
export const binaryFile = (description?: string) => ({
  schema: { type: "string" as const, format: "binary", ...(description ? { description } : {}) },
});

/** A required multipart form of one file, `file_data` (described by `what`), read by its route's handler. */
export const fileForm = (what: string) =>
  formBody({ type: "object", properties: { file_data: binaryFile(what).schema }, required: ["file_data"] });

/** The media type of an .xlsx workbook, which several files answer in. */
export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A file answer: one binary media type per type the file may be, in the order given. */
export const fileAnswer = <const T extends readonly string[]>(description: string, ...types: T) => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, binaryFile()])) as { [K in T[number]]: ReturnType<typeof binaryFile> },
});

/** A zod schema as the JSON Schema of a request (its input side), for bodies a handler reads itself. */
export function inputJsonSchema(schema: $ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

// ---- the type of a served sub-app, from its declarations alone ----------------------------------

declare const anyApp: OpenAPIHono;
/** What serving route R adds to an app's schema: the same type `app.openapi(R, handler)` gives,
 *  which depends on the declaration only, never on the handler. */
type SchemaOf<R extends RouteConfig> = ReturnType<typeof anyApp.openapi<R>> extends OpenAPIHono<Env, infer S, "/"> ? S : never;
type SchemasOf<Routes> = Routes extends readonly [infer R extends RouteConfig, ...infer Rest] ? SchemaOf<R> & SchemasOf<Rest> : BlankSchema;

/** The type of a sub-app serving these declared routes, as hono/client's hc reads it: the web's
 *  typed client is built from it (contract/index.ts), and http/ serves the same declarations. */
export type Served<Routes extends readonly RouteConfig[]> = OpenAPIHono<Env, SchemasOf<Routes>, "/">;
