// A thin local API Gateway (HTTP API, payload format 2.0) on a port, with CloudFront in front of
// it: real HTTP requests are matched against the template's routes and turned into the events the
// integration's function receives, and its answer into the HTTP response. Two doors:
// - `url`: as CloudFront forwards /api/* — it sets the origin's custom headers (the origin-verify
//   secret), overwriting any the viewer sent;
// - `directUrl`: API Gateway's own endpoint, reached without CloudFront.
// Lambda's limits apply: a request event over 6 MB is refused with 413, an answer over 6 MB or a
// function error is API Gateway's 500.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ACCOUNT } from "./template";

export interface Route {
  routeKey: string;
  functionName: string;
  payloadFormat: string;
}

export interface Gateway {
  url: string;
  directUrl: string;
  close(): Promise<void>;
}

/** Lambda's payload limit for a synchronous invocation, request and answer alike. */
const PAYLOAD_LIMIT = 6 * 1024 * 1024;

/** The route a request takes: an exact `METHOD /path` or `ANY`, with `{name}` and a greedy `{proxy+}`. */
export function matchRoute(
  routes: Route[],
  method: string,
  path: string,
): { route: Route; parameters: Record<string, string> } | undefined {
  for (const route of routes) {
    const [routeMethod, routePath] = route.routeKey === "$default" ? ["ANY", "/{proxy+}"] : route.routeKey.split(" ");
    if (routeMethod !== "ANY" && routeMethod !== method) continue;
    const names: string[] = [];
    const source = routePath.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{([^}]+?)(\\\+)?\}/g, (_, name: string, greedy?: string) => {
      names.push(name);
      return greedy ? "(.+)" : "([^/]+)";
    });
    const match = new RegExp(`^${source}$`).exec(path);
    if (match) return { route, parameters: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])])) };
  }
  return undefined;
}

const TEXT_TYPES = /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript))/;

function eventOf(req: IncomingMessage, body: Buffer, route: Route, parameters: Record<string, string>, sourceIp: string) {
  const url = new URL(req.url ?? "/", "http://local");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === "cookie" || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  const text = TEXT_TYPES.test(String(req.headers["content-type"] ?? ""));
  const now = new Date();
  return {
    version: "2.0",
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(req.headers.cookie ? { cookies: req.headers.cookie.split(/;\s*/) } : {}),
    headers,
    ...(url.search ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: ACCOUNT,
      apiId: "rehearsal",
      domainName: String(req.headers.host),
      domainPrefix: "rehearsal",
      http: {
        method: req.method,
        path: url.pathname,
        protocol: "HTTP/1.1",
        sourceIp,
        userAgent: String(req.headers["user-agent"] ?? ""),
      },
      requestId: randomUUID(),
      routeKey: route.routeKey,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(Object.keys(parameters).length ? { pathParameters: parameters } : {}),
    ...(body.length ? { body: text ? body.toString("utf8") : body.toString("base64") } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

export async function startGateway(
  routes: Route[],
  originHeaders: Record<string, string>,
  invoke: (functionName: string, event: unknown) => Promise<{ result?: any; error?: string }>,
  onError: (message: string) => void,
): Promise<Gateway> {
  const handle = async (req: IncomingMessage, res: ServerResponse, viaCloudFront: boolean) => {
    if (viaCloudFront) Object.assign(req.headers, originHeaders);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const json = (status: number, message: string) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ message }));
    const url = new URL(req.url ?? "/", "http://local");
    const matched = matchRoute(routes, req.method ?? "GET", url.pathname);
    if (!matched) return json(404, "Not Found");
    const event = eventOf(req, body, matched.route, matched.parameters, String(req.socket.remoteAddress));
    if (JSON.stringify(event).length > PAYLOAD_LIMIT) return json(413, "Request Entity Too Large");
    const { result, error } = await invoke(matched.route.functionName, event);
    if (error !== undefined) {
      onError(`${matched.route.functionName}: ${req.method} ${url.pathname} failed: ${error}`);
      return json(500, "Internal Server Error");
    }
    if (JSON.stringify(result ?? null).length > PAYLOAD_LIMIT) {
      onError(`${matched.route.functionName}: ${req.method} ${url.pathname} answered over Lambda's 6 MB`);
      return json(500, "Internal Server Error");
    }
    // Payload 2.0: an answer without statusCode is a JSON body with status 200.
    if (result === null || typeof result !== "object" || result.statusCode === undefined) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
      return;
    }
    const headers: Record<string, string | string[]> = { ...(result.headers ?? {}) };
    if (result.cookies?.length) headers["set-cookie"] = result.cookies;
    const out = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8");
    res.writeHead(result.statusCode, headers).end(out);
  };
  const listen = async (viaCloudFront: boolean) => {
    const server: Server = createServer((req, res) => {
      handle(req, res, viaCloudFront).catch((error: Error) => {
        onError(`gateway: ${error.message}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return server;
  };
  const cloudFront = await listen(true);
  const direct = await listen(false);
  const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: urlOf(cloudFront),
    directUrl: urlOf(direct),
    async close() {
      for (const server of [cloudFront, direct]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
