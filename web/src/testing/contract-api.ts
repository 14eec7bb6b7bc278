// The server as component tests meet it: a stand-in for fetch that answers the web's API client
// (web/src/api/client.ts) through the contract's route declarations (functions/src/contract/routes).
// A call is matched to its declared route by the mount table's prefix and the route's path; what the
// page sends is checked against the route's declared body, and every answer a test gives — a fixture
// or an error — against the route's declared answer for that status, so a fixture cannot drift from
// what the server answers. A call no test answered, a body the route refuses and a fixture that is
// not the declared answer are `mistakes` (answered 500): a test expects none.
import { vi } from "vitest";
import type { RouteConfig } from "@hono/zod-openapi";
import type * as z from "zod";
import { MOUNTS, type Mount } from "@server/contract";
import { ABATEMENT_ROUTES } from "@server/contract/routes/abatement";
import { ADMIN_ROUTES } from "@server/contract/routes/admin";
import { TOKEN_ROUTES } from "@server/contract/routes/auth";
import { CALCULATION_ROUTES } from "@server/contract/routes/calculations";
import { CLIMATE_ROUTES } from "@server/contract/routes/climate";
import { DICTIONARY_ROUTES } from "@server/contract/routes/dictionaries";
import { REFERENCE_ROUTES } from "@server/contract/routes/reference";
import { DIRECT_UPLOAD_ROUTES } from "@server/contract/routes/direct-uploads";
import { SIGNING_KEY_ROUTES } from "@server/contract/routes/signing-keys";
import { DOCUMENT_ROUTES } from "@server/contract/routes/documents";
import { EVIDENCE_ROUTES } from "@server/contract/routes/evidence";
import { EXPORT_JOB_ROUTES } from "@server/contract/routes/export-jobs";
import { EXPORT_ROUTES } from "@server/contract/routes/exports";
import { FACILITY_ROUTES } from "@server/contract/routes/facilities";
import { INSTRUMENT_ROUTES } from "@server/contract/routes/instruments";
import { READINGS_AUDIT_ROUTES } from "@server/contract/routes/readings-audit";
import { FORECAST_MODEL_ROUTES } from "@server/contract/routes/forecast-models";
import { FORECAST_ROUTES } from "@server/contract/routes/forecast";
import { GRAPH_ROUTES } from "@server/contract/routes/graphs";
import { INVENTORY_ROUTES } from "@server/contract/routes/inventory";
import { INVENTORY_REPORT_ROUTES } from "@server/contract/routes/inventory-report";
import { MEDIA_ROUTES, MEDIA_STREAM_ROUTES } from "@server/contract/routes/media";
import { OPENAPI_ROUTES } from "@server/contract/routes/openapi";
import { PROJECT_ROUTES } from "@server/contract/routes/projects";
import { MONITORING_PUSH_ROUTES, MONITORING_ROUTES } from "@server/contract/routes/monitoring";
import { WEBHOOK_ROUTES } from "@server/contract/routes/webhooks";
import { OWN_FACTOR_ROUTES } from "@server/contract/routes/own-factors";
import { UNCERTAINTY_ROUTES } from "@server/contract/routes/uncertainty";
import { USER_ROUTES } from "@server/contract/routes/users";
import { calculationBodySchema } from "@server/contract/schemas/calculation-body";
import type { CalculationType } from "@core/registry";
import { errorAnswer, type Said } from "./refusal";

/** Each group of the mount table with its declared routes (contract/route-types.ts MountRoutes). */
const ROUTES: Record<Mount, readonly RouteConfig[]> = {
  token: TOKEN_ROUTES,
  openapi: OPENAPI_ROUTES,
  mediaStream: MEDIA_STREAM_ROUTES,
  directUploads: DIRECT_UPLOAD_ROUTES,
  signingKeys: SIGNING_KEY_ROUTES,
  monitoringPush: MONITORING_PUSH_ROUTES,
  users: USER_ROUTES,
  projects: PROJECT_ROUTES,
  graphs: GRAPH_ROUTES,
  uncertainty: UNCERTAINTY_ROUTES,
  exports: EXPORT_ROUTES,
  dictionaries: DICTIONARY_ROUTES,
  reference: REFERENCE_ROUTES,
  forecastModels: FORECAST_MODEL_ROUTES,
  forecast: FORECAST_ROUTES,
  documents: DOCUMENT_ROUTES,
  media: MEDIA_ROUTES,
  admin: ADMIN_ROUTES,
  facilities: FACILITY_ROUTES,
  instruments: INSTRUMENT_ROUTES,
  readingsAudit: READINGS_AUDIT_ROUTES,
  inventory: INVENTORY_ROUTES,
  inventoryReport: INVENTORY_REPORT_ROUTES,
  monitoring: MONITORING_ROUTES,
  webhooks: WEBHOOK_ROUTES,
  ownFactors: OWN_FACTOR_ROUTES,
  abatement: ABATEMENT_ROUTES,
  climate: CLIMATE_ROUTES,
  evidence: EVIDENCE_ROUTES,
  exportJobs: EXPORT_JOB_ROUTES,
  calculations: CALCULATION_ROUTES,
};

/** The operations by name, as the OpenAPI document names them (declareRoute's operationId). */
type Operation = (typeof ROUTES)[Mount][number]["operationId"] & string;

interface Matcher {
  route: RouteConfig;
  method: string;
  pattern: RegExp;
  names: string[];
}

/** `/{type}/{id}` (and hono's `:action{regex}`) as a pattern over the path after /api. */
function matcher(prefix: string, route: RouteConfig): Matcher {
  const names: string[] = [];
  const path = `${prefix === "/" ? "" : prefix}${route.path}`.replace(/\/$/, "");
  const source = path
    .split("/")
    .map((segment) => {
      const braced = /^\{(\w+)\}$/.exec(segment);
      if (braced) {
        names.push(braced[1]);
        return "([^/]+)";
      }
      const colon = /^:(\w+)\{(.+)\}$/.exec(segment);
      if (colon) {
        names.push(colon[1]);
        return `(${colon[2]})`;
      }
      return segment.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { route, method: route.method.toUpperCase(), pattern: new RegExp(`^${source}/?$`), names };
}

// In the order app.ts mounts the groups: the first declared route that matches answers, as on the server.
const MATCHERS: Matcher[] = (Object.keys(MOUNTS) as Mount[]).flatMap((mount) =>
  ROUTES[mount].map((route) => matcher(MOUNTS[mount].prefix, route)),
);

export interface FakeRequest {
  operation: Operation;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body as sent (already checked against the route's declared body), or a FormData. */
  body: unknown;
}

/** An answer with its status: a declared success with a body, or an error with its detail. */
export interface Answer {
  status: number;
  body: unknown;
}

/** A handler answers a body (status 200, 201 for a create with a 201 declared) or a full Answer, or a
 *  promise of one: a page held while it waits. */
export type Handler = (request: FakeRequest) => unknown;

/** `{status, detail}` as the server answers an error (the detail, or the problems at their fields):
 *  checked against the route's declared errors. */
export const failure = (status: number, said: Said): Answer & { failure: true } => ({
  status,
  body: errorAnswer(said),
  failure: true,
});

/** A success of another declared status than the route's usual one: a dry run's 200 beside a create's 201. */
export const success = (status: number, body: unknown): Answer & { answered: true } => ({ status, body, answered: true });

const isAnswer = (value: unknown): value is Answer =>
  typeof value === "object" &&
  value !== null &&
  ((value as { failure?: unknown }).failure === true || (value as { answered?: unknown }).answered === true);

type ZodLike = z.ZodType;
const isZod = (schema: unknown): schema is ZodLike => typeof (schema as { safeParse?: unknown } | undefined)?.safeParse === "function";

function jsonSchemaOf(content: unknown): unknown {
  return (content as { "application/json"?: { schema?: unknown } } | undefined)?.["application/json"]?.schema;
}

/** The zod schema the route checks a JSON body with; a calculation's body is declared per type. */
function bodySchema(route: RouteConfig, params: Record<string, string>): ZodLike | undefined {
  const body = route.request?.body as { content?: unknown } | undefined;
  const declared = jsonSchemaOf(body?.content);
  if (isZod(declared)) return declared;
  if (route.operationId === "createCalculation") return calculationBodySchema(params.type as CalculationType, "create");
  if (route.operationId === "patchCalculation") return calculationBodySchema(params.type as CalculationType, "patch");
  return undefined;
}

function problems(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}

/** Checks an answer against what the route declares for its status; throws naming what differs. */
function checkedAnswer(route: RouteConfig, answer: Answer): Answer {
  const declared = (route.responses as Record<string, { content?: unknown; $ref?: string }>)[String(answer.status)];
  if (!declared)
    throw new Error(`${route.operationId} never answers ${answer.status} (its declaration lists ${Object.keys(route.responses)})`);
  if (answer.status >= 400) {
    const detail = (answer.body as { detail?: unknown }).detail;
    if (typeof detail !== "string" || !detail) throw new Error(`${route.operationId} ${answer.status}: an error answers {"detail": "..."}`);
    return answer;
  }
  const schema = jsonSchemaOf(declared.content);
  if (isZod(schema)) {
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success)
      throw new Error(`${route.operationId} ${answer.status}: the fixture is not the declared answer: ${problems(parsed.error)}`);
  }
  return answer;
}

/** The first 2xx the route declares: what a plain body answers with. */
function successStatus(route: RouteConfig): number {
  const statuses = Object.keys(route.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return statuses.includes(201) ? 201 : (statuses[0] ?? 200);
}

export interface ContractApi {
  /** Answers an operation with a fixture, or with a handler of each call; replaces an earlier answer. */
  on(operation: Operation, answer: Handler | object): ContractApi;
  /** The calls made to an operation, in order. */
  calls(operation: Operation): FakeRequest[];
  /** Calls no test answered, bodies the routes refuse, fixtures that are not the declared answers. */
  readonly mistakes: string[];
}

/** Installs the stand-in as the page's fetch (vi.stubGlobal; vi.unstubAllGlobals removes it). */
export function contractApi(): ContractApi {
  const handlers = new Map<string, Handler>();
  const seen = new Map<string, FakeRequest[]>();
  const mistakes: string[] = [];

  async function respond(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input), "http://localhost");
    const method = (init.method ?? request?.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/^\/api/, "");
    let found: { matcher: Matcher; params: Record<string, string> } | undefined;
    for (const candidate of MATCHERS) {
      if (candidate.method !== method) continue;
      const match = candidate.pattern.exec(path);
      if (!match) continue;
      found = {
        matcher: candidate,
        params: Object.fromEntries(candidate.names.map((name, i) => [name, decodeURIComponent(match[i + 1])])),
      };
      break;
    }
    if (!found) throw new Error(`${method} ${url.pathname}: no such route in the contract`);
    const { route } = found.matcher;
    const operation = route.operationId as Operation;
    const handler = handlers.get(operation);
    if (!handler) throw new Error(`${method} ${url.pathname}: no answer given for ${operation}`);
    const raw = init.body ?? (request ? await request.text() : undefined);
    let body: unknown = raw;
    if (typeof raw === "string" && raw) {
      body = JSON.parse(raw);
      const schema = bodySchema(route, found.params);
      const checked = schema?.safeParse(body);
      if (checked && !checked.success) throw new Error(`${operation}: the page sent a body the route refuses: ${problems(checked.error)}`);
    }
    const call: FakeRequest = { operation, params: found.params, query: url.searchParams, body };
    seen.set(operation, [...(seen.get(operation) ?? []), call]);
    const given = await handler(call);
    const answer = isAnswer(given) ? given : { status: successStatus(route), body: given };
    return json(checkedAnswer(route, answer));
  }

  // A mistake is answered as a server's failure, so the page goes on; the test then fails on it.
  const answer = async (input: RequestInfo | URL, init?: RequestInit) => {
    try {
      return await respond(input, init);
    } catch (error) {
      mistakes.push(error instanceof Error ? error.message : String(error));
      return json({ status: 500, body: { detail: "Внутренняя ошибка сервера" } });
    }
  };
  vi.stubGlobal("fetch", vi.fn(answer));
  const api: ContractApi = {
    on(operation, answer) {
      handlers.set(operation, typeof answer === "function" ? (answer as Handler) : () => structuredClone(answer));
      return api;
    },
    calls: (operation) => seen.get(operation) ?? [],
    mistakes,
  };
  return api;
}

function json({ status, body }: Answer): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}
