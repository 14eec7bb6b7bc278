// The local host's app, on its front thread and in each app thread (app-thread.ts): each request's
// log line, the security headers, the one app (app.ts), the web app where the front serves it, and
// JSON for what no route answers.
import { Hono, type Handler, type MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { createApi, type AppOptions } from "../app";
import { CSP_DIRECTIVES } from "../http/content-security-policy";
import { errorResponse, notFoundResponse } from "../http/errors";
import { requestLog } from "../http/request-log";
import type { Deps } from "../domain/context";
import { HSTS } from "./network";

export interface LocalAppOptions extends AppOptions {
  /** This server itself speaks HTTPS: HSTS (behind a proxy, the proxy sends it). */
  tls: boolean;
  /** Ahead of everything under /api/: the app threads' dispatch on the front (app-threads.ts). */
  ahead?: MiddlewareHandler;
  /** GET /healthz (the front's). */
  health?: Handler;
  /** The built web app, after the API (the front's). */
  web?: MiddlewareHandler;
}

export function localApp(deps: Deps, options: LocalAppOptions): Hono {
  const app = new Hono({ strict: false });
  if (options.ahead) app.use("/api/*", options.ahead);
  app.use("*", requestLog({ host: "local" }));
  // 'self' only: on this host the browser talks to nothing but this server (uploads included).
  app.use("*", secureHeaders({ contentSecurityPolicy: CSP_DIRECTIVES, strictTransportSecurity: options.tls ? HSTS : false }));
  if (options.health) app.get("/healthz", options.health);
  app.route("/", createApi(deps, options));
  if (options.web) app.use("/*", options.web);
  app.notFound(notFoundResponse);
  app.onError(errorResponse);
  return app;
}
