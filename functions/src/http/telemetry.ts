// v1/telemetry/ served: the declarations are in routes/telemetry.ts. The push checks its own credential
// (a gateway key or a user's bearer token), so it is mounted before requireUser.
import type { Context } from "hono";
import { authenticateWithFirstRead } from "../domain/company/auth";
import { getFacility } from "../domain/company/facilities";
import { Invalid, NotFound, Unauthorized } from "../domain/errors";
import { gatewayKeyGrant } from "../domain/telemetry/register";
import { storeBatch, type ReadBody } from "../domain/telemetry/readings";
import { drainTelemetry } from "../domain/telemetry/consumer";
import {
  acceptOffersRoute,
  acknowledgeEventRoute,
  getBatchRoute,
  listEventsRoute,
  listOffersRoute,
  pushReadingsRoute,
} from "../contract/routes/telemetry";
import { acknowledgeEvent, listEvents } from "../domain/telemetry/events";
import { acceptOffers, listOffers } from "../domain/telemetry/offers";
import type { TelemetryBatch } from "../ports";
import type { AppEnv } from "./env";
import { routeApp } from "./openapi-routes";

const statusUrl = (batch: string) => `/api/v1/telemetry/batches/${batch}/`;

/** The body as sent: JSON (a facility may be named in it) or CSV bytes. */
async function readBody(c: Context<AppEnv>): Promise<ReadBody & { facility?: string }> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (type.startsWith("text/csv") || type.startsWith("text/plain")) return { csv: new Uint8Array(await c.req.arrayBuffer()) };
  if (!type.startsWith("application/json")) throw new Invalid("Ожидается тело JSON или text/csv с заголовком sensor;t;value");
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw new Invalid("Тело запроса — не JSON");
  }
  const facility = (json as { facility?: unknown } | null)?.facility;
  return { json, facility: typeof facility === "string" ? facility : undefined };
}

const view = ({ company: _company, refused_count: _count, ...batch }: TelemetryBatch) => batch;

export const telemetryPushRoutes = routeApp().openapi(pushReadingsRoute, async (c) => {
  const deps = c.get("deps");
  const header = c.req.header("Authorization") ?? "";
  const gateway = /^Gateway\s+(\S+)$/i.exec(header);
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  let company: string;
  let facility: string;
  let restrictTo: { facility: string } | undefined;
  let body: ReadBody & { facility?: string };
  if (gateway) {
    const grant = await gatewayKeyGrant(deps, gateway[1]);
    if (!grant) throw new Unauthorized("Ключ шлюза недействителен или отозван", "not_authenticated");
    body = await readBody(c);
    company = grant.company;
    restrictTo = { facility: grant.facility };
    facility = body.facility ?? c.req.query("facility") ?? grant.facility;
  } else if (bearer) {
    const actor = await (await authenticateWithFirstRead(deps, bearer[1])).actor();
    body = await readBody(c);
    const named = body.facility ?? c.req.query("facility");
    if (!named) throw new Invalid("facility: укажите площадку, чьи это датчики (в теле JSON или ?facility= для CSV)");
    facility = (await getFacility(deps, actor, named)).id;
    company = actor.company;
  } else throw new Unauthorized("Учетные данные не были предоставлены", "not_authenticated");
  const batch = await storeBatch(deps, company, facility, body, restrictTo);
  void drainTelemetry(deps);
  return c.json({ batch: batch.batch, status_url: statusUrl(batch.batch) }, 202);
});

export const telemetryRoutes = routeApp()
  .openapi(getBatchRoute, async (c) => {
    const deps = c.get("deps");
    const batch = await deps.repos.telemetry.getBatch(c.get("actor").company, c.req.valid("param").batch);
    if (!batch) throw new NotFound("Пакет показаний не найден");
    return c.json(view(batch), 200);
  })
  .openapi(listOffersRoute, async (c) => {
    const { facility, year } = c.req.valid("query");
    return c.json(await listOffers(c.get("deps"), c.get("actor"), facility, Number(year)), 200);
  })
  .openapi(acceptOffersRoute, async (c) => c.json(await acceptOffers(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(listEventsRoute, async (c) => c.json(await listEvents(c.get("deps"), c.get("actor"), c.req.valid("query")), 200))
  .openapi(acknowledgeEventRoute, async (c) =>
    c.json(await acknowledgeEvent(c.get("deps"), c.get("actor"), c.req.valid("param").event, c.req.valid("json")), 200),
  );
