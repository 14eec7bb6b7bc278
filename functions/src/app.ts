// The one Hono app. Hosts (local.ts, lambda.ts) build it from injected ports; no route logic
// lives in a host.
import { Hono } from "hono";
import type { Deps } from "./domain/context";
import { requireUser } from "./http/auth";
import type { AppEnv, ClientAddressOf } from "./http/env";
import { errorResponse, notFoundResponse } from "./http/errors";
import { bodyLimits, routeOf } from "./http/uploads";
import { heavyBodies } from "./http/heavy-bodies";
import { OPERATIONS, PUBLIC_MOUNTS, USER_MOUNTS } from "./http/openapi";
import { withYearWrites } from "./domain/inventory/writes";
import type { RefusalPace, RequestPace } from "./http/request-pace";
import { textHygiene } from "./http/text-hygiene";

export interface AppOptions {
  clientAddressOf: ClientAddressOf;
  /** Each user's requests paced (http/request-pace.ts): the local server's one request thread
   *  serves every company; an AWS instance serves one request at a time and paces nothing. */
  pace?: RequestPace;
  /** requests refused for their token paced per source address, before any signature is
   *  checked (the local server; in AWS API Gateway's throttle bounds them). */
  refusals?: RefusalPace;
  /** R7: each gateway key's pushes paced as a user's requests are (the local server). */
  gatewayPace?: RequestPace;
  /** whether the host holds server-sent streams open (the local server); false in AWS,
   *  whose screen polls the tiles with their ETag instead (docs/architecture.md). */
  liveStream?: boolean;
}

export function createApi(deps: Deps, options: AppOptions) {
  const api = new Hono<AppEnv>({ strict: false });
  api.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("clientAddressOf", options.clientAddressOf);
    if (options.pace) c.set("pace", options.pace);
    if (options.refusals) c.set("refusals", options.refusals);
    if (options.gatewayPace) c.set("gatewayPace", options.gatewayPace);
    if (options.liveStream === false) c.set("noLiveStream", true);
    await next();
    // Answers carry a company's figures or tokens: no browser or proxy keeps them, unless a route
    // chose its own caching for what is no company's data (the OpenAPI document, a forecast model,
    // a regulatory document, a video).
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  });
  // Each body to its cap: JSON's, or the one its route declares for a file (http/uploads.ts).
  api.use("*", bodyLimits(deps.config, OPERATIONS));
  // no control or bidi-override characters, no invalid UTF-8; names in NFC. A signed-in
  // user's body is checked after their pace and a heavy route's slot (http/heavy-bodies.ts).
  const signedIn = routeOf(OPERATIONS.filter((op) => op.auth === "user" || op.auth === "admin"));
  api.use("*", (c, next) => (signedIn(c.req.method, c.req.path) ? next() : textHygiene(c, next)));
  // The mount points and their order are listed once, with the document read from them (http/openapi.ts).
  for (const [prefix, routes] of PUBLIC_MOUNTS) api.route(prefix, routes);
  api.use("/v1/*", requireUser);
  api.use("/v1/*", heavyBodies(OPERATIONS));
  api.use("/v1/*", (c, next) => (signedIn(c.req.method, c.req.path) ? textHygiene(c, next) : next()));
  // D32: the year writes a request begins end before it answers (domain/inventory/writes.ts).
  api.use("/v1/*", (c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : withYearWrites(deps, next)));
  for (const [prefix, routes] of USER_MOUNTS) api.route(prefix, routes);
  api.onError(errorResponse);

  const app = new Hono({ strict: false });
  // A refused body (too large, wrong type, no token) may be left unread, and the server then
  // closes the connection shortly after the answer: saying so in the answer keeps a keep-alive
  // client from sending its next request into a closing connection.
  app.use("*", async (c, next) => {
    await next();
    const hasBody = Number(c.req.header("content-length") ?? 0) > 0 || c.req.header("transfer-encoding") !== undefined;
    if (c.res.status === 413 || (c.res.status >= 400 && hasBody)) c.res.headers.set("Connection", "close");
  });
  app.route("/api", api);
  app.onError(errorResponse);
  app.notFound(notFoundResponse);
  return app;
}

export type ApiApp = ReturnType<typeof createApi>;
