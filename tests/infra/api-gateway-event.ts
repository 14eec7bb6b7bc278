// API Gateway HTTP API (payload 2.0) events as CloudFront → API Gateway delivers them, built from
// a recorded-shape fixture.
import type { LambdaEvent } from "hono/aws-lambda";
import fixture from "./fixtures/apigw-v2-event.json";

type APIGatewayProxyEventV2 = Extract<LambdaEvent, { rawPath: string }>;

export interface EventInit {
  method?: string;
  path: string;
  query?: string;
  headers?: Record<string, string | undefined>;
  json?: unknown;
}

export function apiGatewayEvent(init: EventInit): APIGatewayProxyEventV2 {
  const event = structuredClone(fixture) as unknown as APIGatewayProxyEventV2;
  const method = init.method ?? (init.json === undefined ? "GET" : "POST");
  event.rawPath = init.path;
  event.rawQueryString = init.query ?? "";
  event.requestContext.http.method = method;
  event.requestContext.http.path = init.path;
  event.pathParameters = { proxy: init.path.replace(/^\/api\//, "") };
  event.body = init.json === undefined ? null : JSON.stringify(init.json);
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (value === undefined) delete event.headers[name];
    else event.headers[name] = value;
  }
  return event;
}
