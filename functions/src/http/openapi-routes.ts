// The sub-apps that serve declared routes (routes/declare.ts): they register each with
// app.openapi(route, handler), and openapi.ts reads their registries back into the operations of
// the document, so a path, body or answer cannot be documented apart from the code that serves it.
import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { $ZodType } from "zod/v4/core";
import { Invalid } from "../domain/errors";
import type { AppEnv } from "./env";
import { inputJsonSchema, type Auth, type ErrorStatus, type Isolation } from "../contract/routes/declare";
import type { Operation } from "./openapi";
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

// ---- read back by openapi.ts -------------------------------------------------------------------

type JsonSchema = Record<string, unknown>;
type Content = Record<string, { schema?: unknown }>;

const isZod = (value: unknown): value is $ZodType => typeof value === "object" && value !== null && "_zod" in value;
/** A body, answer or parameter schema as JSON Schema: a zod one converted, a written one as it is. */
export const jsonSchema = (schema: unknown): JsonSchema => (isZod(schema) ? inputJsonSchema(schema) : (schema as JsonSchema));

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
    // slash as docs/api.md writes them.
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
