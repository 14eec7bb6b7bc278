// How a route is declared once: @hono/zod-openapi's createRoute with its zod schemas (which the
// route validates with), plus who may call it and how it is scoped to a company. The sub-apps
// register their routes with app.openapi(route, handler); openapi.ts reads their registries back
// into the operations of the document, so a path, body or answer cannot be documented apart from
// the code that serves it.
import { OpenAPIHono, createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import { toJSONSchema, type $ZodType } from "zod/v4/core";
import { Invalid } from "../domain/errors";
import type { AppEnv } from "./env";
import type { Auth, ErrorStatus, Isolation, Operation } from "./openapi";
import { describeIssues } from "./validate";

/** A sub-app whose routes carry their OpenAPI description. A failed check of a declared schema is
 *  the domain's Invalid error: `{"detail": "field: message"}` with 400, as everywhere else. */
export function routeApp() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw new Invalid(describeIssues(result.error.issues));
    },
  });
}

export interface Access {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  isolation: Isolation;
  /** Error statuses besides those of its kind (401, 403 for admin, 413 with a body). */
  errors: ErrorStatus[];
}

/** createRoute with the operation's name, access and isolation as OpenAPI fields and extensions. */
export function declareRoute<const R extends RouteConfig>(access: Access, route: R): R {
  return createRoute({
    ...route,
    operationId: access.operationId,
    summary: access.summary,
    ...(access.description ? { description: access.description } : {}),
    tags: [access.tag],
    "x-auth": access.auth,
    "x-isolation": access.isolation,
    "x-errors": access.errors,
  }) as R;
}

/** A JSON body or answer. */
export const json = <S extends z.ZodType>(schema: S, description = "") => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON request body. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({ required: true, content: { "application/json": { schema } } });

/** `{results, count}`: a page of a list or a whole short list. */
export const listOf = <S extends z.ZodType>(item: S) => z.object({ results: z.array(item), count: z.int() });

/** A path parameter of plain text, with what it names. */
export const pathParam = (description: string) => z.string().meta({ description });

// ---- read back by openapi.ts -------------------------------------------------------------------

type JsonSchema = Record<string, unknown>;
type Content = Record<string, { schema?: unknown }>;

const isZod = (value: unknown): value is $ZodType => typeof value === "object" && value !== null && "_zod" in value;
/** A body, answer or parameter schema as JSON Schema: a zod one converted, a written one as it is. */
export const jsonSchema = (schema: unknown): JsonSchema => (isZod(schema) ? inputJsonSchema(schema) : (schema as JsonSchema));

/** A zod schema as the JSON Schema of a request (its input side), for bodies a handler reads itself. */
export function inputJsonSchema(schema: $ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function contentOf(content: Content | undefined) {
  return content && Object.fromEntries(Object.entries(content).map(([type, media]) => [type, media.schema as JsonSchema]));
}

/** The declared routes of a sub-app mounted at `prefix`, as operations of the document. */
export function declaredOperations(prefix: string, app: OpenAPIHono<AppEnv>): Operation[] {
  return app.openAPIRegistry.definitions.flatMap((definition) => {
    if (definition.type !== "route") return [];
    const route = definition.route as RouteConfig & Record<`x-${string}`, unknown>;
    // `{id}` is OpenAPI's and zod-openapi's spelling of Hono's `:id` (which may carry a pattern,
    // `:action{export_to_[^/]*}`); "/" is the mount point itself. The document writes the trailing
    // slash as the SPEC does.
    const path = `${prefix}${route.path === "/" ? "" : route.path}`;
    const [[status, success], ...otherSuccesses] = Object.entries(route.responses).filter(([code]) => code.startsWith("2"));
    const params = (route.request?.params ? jsonSchema(route.request.params) : {}) as { properties?: Record<string, JsonSchema> };
    const body = route.request?.body;
    return [
      {
        operationId: route.operationId!,
        method: route.method.toUpperCase() as Operation["method"],
        path: path.replace(/\/\{(\w+)\}/g, "/:$1"),
        // A file name (openapi.json) is written without the slash.
        docPath: path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}") + (/\.\w+$/.test(path) ? "" : "/"),
        summary: route.summary!,
        ...(route.description ? { description: route.description } : {}),
        tag: route.tags![0],
        auth: route["x-auth"] as Auth,
        isolation: route["x-isolation"] as Isolation,
        params: Object.fromEntries(
          Object.entries(params.properties ?? {}).map(([name, { description, ...schema }]) => [
            name,
            { description: String(description ?? name), schema },
          ]),
        ),
        ...(route.request?.query ? { query: route.request.query } : {}),
        ...(body ? { body: { required: body.required ?? false, content: contentOf(body.content as Content)! } } : {}),
        success: {
          status: Number(status) as 200 | 201,
          description: (success as { description: string }).description,
          content: contentOf((success as { content?: Content }).content),
        },
        ...(otherSuccesses.length
          ? {
              extraSuccess: otherSuccesses.map(([code, answer]) => ({
                status: Number(code) as 200 | 206,
                description: (answer as { description: string }).description,
                content: contentOf((answer as { content?: Content }).content),
              })),
            }
          : {}),
        errors: route["x-errors"] as ErrorStatus[],
      } satisfies Operation,
    ];
  });
}

/** A file in a body or an answer. */
export const binaryFile = (description?: string) => ({
  schema: { type: "string" as const, format: "binary", ...(description ? { description } : {}) },
});
