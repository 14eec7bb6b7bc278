// The sub-apps that serve declared routes (routes/declare.ts): they register each with
// app.openapi(route, handler), and openapi.ts generates the document from their registries, so a
// path, body or answer cannot be documented apart from the code that serves it.
import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import type { Auth, BodyCap, Cost, ErrorStatus, Isolation } from "../contract/routes/declare";
import { invalidIssues } from "./validate";

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** A declared route as the route table and the tests read it (declaredOperations below). */
export interface Operation {
  operationId: string;
  method: Method;
  /** The path as Hono registers it (app.routes), without a trailing slash. */
  path: string;
  /** The path as the document writes it. */
  docPath: string;
  summary: string;
  tag: string;
  auth: Auth;
  isolation: Isolation;
  /** What its work grows with (routes/declare.ts Cost): a heavy one's slot is taken by http/heavy-bodies.ts. */
  cost: Cost;
  /** The media types of its body, if it takes one. */
  body?: { content: Record<string, unknown> };
  /** Its file body's cap (routes/declare.ts), applied by http/uploads.ts. */
  bodyCap?: BodyCap;
  /** Its JSON body's cap below the server's (routes/declare.ts jsonCap), applied by http/uploads.ts. */
  jsonCap?: number;
  /** Every error status it answers (routes/declare.ts errorStatuses). */
  errors: ErrorStatus[];
}

/** A sub-app whose routes carry their OpenAPI description. A failed check of a declared schema is
 *  the domain's Invalid error: `{"detail": "field: message"}` with 400, as everywhere else. */
export function routeApp() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw invalidIssues(result.error.issues);
    },
  });
}

// ---- read back by openapi.ts -------------------------------------------------------------------

/** The declared routes of a sub-app mounted at `prefix`, as operations of the route table. */
export function declaredOperations(prefix: string, app: OpenAPIHono<AppEnv>): Operation[] {
  return app.openAPIRegistry.definitions.flatMap((definition) => {
    if (definition.type !== "route") return [];
    const route = definition.route as RouteConfig & Record<`x-${string}`, unknown>;
    // "/" is the mount point itself.
    const path = `${prefix}${route.path === "/" ? "" : route.path}`;
    const body = route.request?.body;
    return [
      {
        operationId: route.operationId!,
        method: route.method.toUpperCase() as Operation["method"],
        // Hono's spelling: `:id`, which may carry a pattern (`:action{export_to_[^\x2f]*}`).
        path: path.replace(/\/\{(\w+)\}/g, "/:$1"),
        docPath: documentPath(path),
        summary: route.summary!,
        tag: route.tags![0],
        auth: route["x-auth"] as Auth,
        isolation: route["x-isolation"] as Isolation,
        cost: route["x-cost"] === "light" ? "light" : route["x-shared-answer"] ? "shared" : "heavy",
        ...(body ? { body: { content: body.content as Record<string, unknown> } } : {}),
        ...(route["x-body-cap"] ? { bodyCap: route["x-body-cap"] as BodyCap } : {}),
        ...(route["x-json-cap"] ? { jsonCap: route["x-json-cap"] as number } : {}),
        errors: Object.keys(route.responses)
          .map(Number)
          .filter((status) => status >= 400) as ErrorStatus[],
      } satisfies Operation,
    ];
  });
}

/** The path as the document writes it: `{id}` for Hono's `:id` (with or without a pattern), and
 *  the trailing slash docs/api.md writes (a file name, openapi.json, has none). */
export function documentPath(path: string): string {
  const templated = path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
  return /\.\w+$/.test(templated) || templated.endsWith("/") ? templated : `${templated}/`;
}
