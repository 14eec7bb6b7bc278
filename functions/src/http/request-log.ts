// One JSON line on stdout per request, on both hosts (docs/operations.md): the request id, the
// route pattern (never the raw path, which holds ids), method, status, duration and a hash of the
// caller's company; a 5xx adds the error's message, and but for a 503 its stack. No header, query or body is read
// into it, so no token or user text can reach the logs. A logger of our own: the bundle carries
// no logging library for one line of JSON.
import { createHash, randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { REQUEST_ID_PATTERN } from "../contract/schemas/limits";

export const REQUEST_ID_HEADER = "x-request-id";

/** A caller's id is kept only if it is plainly an id: nothing that could forge a log line. */
const REQUEST_ID = REQUEST_ID_PATTERN;

export interface RequestLogOptions {
  /** Which host wrote the line. */
  host: "local" | "lambda";
  /** The host's own id of the request (API Gateway's requestContext.requestId), if it has one. */
  hostRequestId?: (c: Context) => string | undefined;
}

export interface RequestLogLine {
  time: string;
  level: "info" | "error";
  host: "local" | "lambda";
  request_id: string;
  method: string;
  route: string | null;
  status: number;
  duration_ms: number;
  /** The first 16 hex digits of the SHA-256 of the company id: requests of one company group
   *  together without the log naming it. */
  company?: string;
  error?: { message: string; stack?: string };
}

/** REQUEST_LOG=off writes nothing, =errors only 5xx lines (the test runs), anything else all. */
function wanted(status: number): boolean {
  const mode = process.env.REQUEST_LOG;
  return mode !== "off" && (mode !== "errors" || status >= 500);
}

export function companyHash(company: string): string {
  return createHash("sha256").update(company).digest("hex").slice(0, 16);
}

export function requestLog(options: RequestLogOptions): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header(REQUEST_ID_HEADER);
    const requestId = given && REQUEST_ID.test(given) ? given : (options.hostRequestId?.(c) ?? randomUUID());
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
    const status = c.res.status;
    if (!wanted(status)) return;
    const actor = (c.var as { actor?: { company?: string } }).actor;
    const line: RequestLogLine = {
      time: new Date().toISOString(),
      level: status >= 500 ? "error" : "info",
      host: options.host,
      request_id: requestId,
      method: c.req.method,
      route: routePath(c) || null,
      status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (actor?.company) line.company = companyHash(actor.company);
    // A 503 is a refusal the answer names (a tool missing, the storage gone as the server stops): its message, no stack.
    if (status >= 500 && c.error)
      line.error = status === 503 ? { message: c.error.message } : { message: c.error.message, stack: c.error.stack };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  };
}
