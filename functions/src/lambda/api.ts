// The API behind API Gateway (HTTP API, payload 2.0) or a function URL. The only module that knows
// Lambda event shapes for the API; lambda.ts builds the deps and calls this.
import { timingSafeEqual } from "node:crypto";
import { Hono, type Context } from "hono";
import { handle, type LambdaEvent } from "hono/aws-lambda";
import { createApi } from "../app";
import type { Deps } from "../domain/context";
import { errorResponse, notFoundResponse } from "../http/errors";
import { requestLog } from "../http/request-log";

export const ORIGIN_VERIFY_HEADER = "x-origin-verify";

export interface LambdaApiOptions {
  /** When set, only requests carrying it in x-origin-verify (CloudFront adds it) are served. */
  originVerify?: string;
}

interface LambdaBindings {
  event: LambdaEvent;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The caller's address for login throttling. Behind CloudFront the request context holds the
 *  edge's address, so the viewer's comes from CloudFront-Viewer-Address ("ip:port"); that header is
 *  believed only when the origin check proves the request came through CloudFront. */
export function clientAddress(trustCloudFront: boolean) {
  return (c: Context<{ Bindings: LambdaBindings }>): string => {
    const viewer = c.req.header("cloudfront-viewer-address");
    if (trustCloudFront && viewer && viewer.lastIndexOf(":") > 0) return viewer.slice(0, viewer.lastIndexOf(":"));
    const context = c.env?.event?.requestContext;
    if (context && "http" in context && context.http?.sourceIp) return context.http.sourceIp;
    return "unknown";
  };
}

export function createLambdaApp(deps: Deps, options: LambdaApiOptions = {}) {
  const app = new Hono<{ Bindings: LambdaBindings }>({ strict: false });
  const expected = options.originVerify;
  app.use("*", requestLog({ host: "lambda", hostRequestId: (c) => c.env?.event?.requestContext?.requestId }));
  if (expected) {
    // The execute-api endpoint is public; without this check anyone could bypass CloudFront's
    // headers policy and forge CloudFront-Viewer-Address.
    app.use("*", async (c, next) => {
      if (!sameSecret(c.req.header(ORIGIN_VERIFY_HEADER) ?? "", expected)) {
        return c.json({ detail: "Доступ запрещен" }, 403);
      }
      await next();
    });
  }
  app.route("/", createApi(deps, { clientAddressOf: clientAddress(Boolean(expected)), liveStream: false }));
  app.notFound(notFoundResponse);
  app.onError(errorResponse);
  return app;
}

export function apiHandler(deps: Deps, options: LambdaApiOptions = {}) {
  return handle(createLambdaApp(deps, options));
}
