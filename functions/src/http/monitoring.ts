// v1/telemetry/ served: the declarations are in routes/monitoring.ts. The push checks its own credential
// (a gateway key or a user's bearer token), so it is mounted before requireUser.
import { dateText } from "@core/company-clock";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { getFacility } from "../domain/company/facilities";
import { Invalid, invalidAt, NotFound, Unauthorized } from "../domain/errors";
import { gatewayKeyGrant } from "../domain/monitoring/ingest/register";
import { batchSender, listBatches, storeKeyedBatch, type ReadBody } from "../domain/monitoring/ingest/readings";
import { failureShown, kickReadings } from "../domain/monitoring/minutes/consumer";
import {
  acceptOffersRoute,
  acknowledgeEventRoute,
  acknowledgeEventsRoute,
  bindLiveModelRoute,
  createReconciliationRoute,
  fillReconciliationRoute,
  getReconciliationRoute,
  reconciliationXlsxRoute,
  getBatchRoute,
  getLiveRoute,
  getSchemeRoute,
  importFileRoute,
  listBatchesRoute,
  listEventsRoute,
  listLiveModelsRoute,
  liveChartRoute,
  listOffersRoute,
  listPointChannelsRoute,
  pushReadingsRoute,
  streamLiveRoute,
  shiftReportRoute,
  journalRoute,
  listGassingsRoute,
  registerGassingRoute,
  confirmGassingRoute,
  readingsUploadUrlRoute,
} from "../contract/routes/monitoring";
import type { Journal } from "../domain/monitoring/derive/journal";
import { currentLiveView, minutesRead } from "../domain/monitoring/live/minute-reads";
import { confirmGassing, registerGassing } from "../domain/monitoring/derive/gassing-book";
import { attachmentDisposition } from "../files/file-names";
import { heavyFileAnswer } from "./heavy-file";
import { fileTurns, heavyFile } from "../domain/heavy-work";
import { acknowledgeEvent, acknowledgeEvents, listEvents } from "../domain/monitoring/derive/events";
import { LIMITS } from "../contract/schemas/limits";
import { bindLiveModel, listLiveModels, type LiveView } from "../domain/monitoring/live/live";
import { watchLive } from "../domain/monitoring/live/live-watch";
import { facilityScheme } from "../domain/monitoring/live/scheme";
import type { Deps } from "../domain/context";
import { importReadingsFile, readingsUploadUrl } from "../domain/monitoring/ingest/files";
import { listPointChannels } from "../domain/monitoring/minutes/offers";
import { fillReconciliation, getReconciliation, reconciliationXlsx, startReconciliation } from "../domain/monitoring/ingest/reconciliation";
import { EXPORT_FORMATS } from "../export/formats";
import type { ListedBatch, ReadingsBatch } from "../ports";
import { keptState } from "../ports/runtime";
import type { AppEnv } from "./env";
import { pacedBearer, takeRefusal } from "./auth";
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

/** A batch as the API shows it: without what only the platform keeps of it (its company, its file, its
 *  attempts, its queue mark, where its readings are, its body's fingerprint). */
const shown = <T extends ListedBatch>({
  company: _company,
  file: _file,
  attempts: _attempts,
  retry_at: _retry,
  queue_mark: _mark,
  readings_in: _readingsIn,
  body_sha256: _body,
  failure: kept,
  ...batch
}: T) => {
  const failure = failureShown({ state: batch.state, failure: kept });
  return failure === undefined ? batch : { ...batch, failure };
};
/** A batch's own status: its refused lines listed, not counted. */
const view = (batch: ReadingsBatch) => {
  const { refused_count: _count, ...status } = shown(batch);
  return status;
};

export const monitoringPushRoutes = routeApp().openapi(pushReadingsRoute, async (c) => {
  const deps = c.get("deps");
  const header = c.req.header("Authorization") ?? "";
  const gateway = /^Gateway\s+(\S+)$/i.exec(header);
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  let company: string;
  let facility: string;
  let restrictTo: { facility: string } | undefined;
  let body: ReadBody & { facility?: string };
  let sentBy: string;
  // R7: the push is paced as every other route. An address past its refusals is answered
  // 429 before its key is hashed or its token's signature checked; a gateway key that holds waits its
  // turn in its own line (GATEWAY_REQUEST_BURST, GATEWAY_REQUESTS_PER_SECOND), a user's token in the
  // user's (http/auth.ts).
  const giveBack = await takeRefusal(c);
  if (gateway) {
    const grant = await gatewayKeyGrant(deps, gateway[1]);
    if (!grant) throw new Unauthorized("Ключ шлюза недействителен или отозван", "not_authenticated");
    giveBack();
    await c.get("gatewayPace")?.take(`${grant.company}/${grant.id}`);
    body = await readBody(c);
    company = grant.company;
    restrictTo = { facility: grant.facility };
    facility = body.facility ?? c.req.query("facility") ?? grant.facility;
    sentBy = await batchSender(deps, { gateway: grant });
  } else if (bearer) {
    const actor = await (await pacedBearer(c, bearer[1], giveBack)).actor();
    body = await readBody(c);
    const named = body.facility ?? c.req.query("facility");
    if (!named) throw invalidAt("facility", "укажите площадку, чьи это датчики (в теле JSON или ?facility= для CSV)");
    facility = (await getFacility(deps, actor, named)).id;
    company = actor.company;
    sentBy = await batchSender(deps, { user: actor });
  } else throw new Unauthorized("Учетные данные не были предоставлены", "not_authenticated");
  const { batch, again } = await storeKeyedBatch(deps, company, facility, body, restrictTo, c.req.header("Idempotency-Key"), sentBy);
  if (!again) await kickReadings(deps, batch);
  return c.json({ batch: batch.batch, status_url: statusUrl(batch.batch) }, 202);
});

export const monitoringRoutes = routeApp()
  .openapi(getBatchRoute, async (c) => {
    const deps = c.get("deps");
    const batch = await deps.repos.monitoring.getBatch(c.get("actor").company, c.req.valid("param").batch);
    if (!batch) throw new NotFound("Пакет показаний не найден");
    return c.json(view(batch), 200);
  })
  .openapi(listBatchesRoute, async (c) => {
    const listed = await listBatches(c.get("deps"), c.get("actor"), c.req.valid("query").facility);
    return c.json(listed.map(shown), 200);
  })
  .openapi(listOffersRoute, async (c) => {
    const { facility, year } = c.req.valid("query");
    // A year of each point's minutes folded off the request thread.
    const text = await minutesRead(c.get("deps"), c.get("actor"), { read: "offers", query: { facility, year: Number(year) } });
    return c.body(text, 200, { "Content-Type": "application/json" }) as never;
  })
  .openapi(listPointChannelsRoute, async (c) =>
    c.json(await listPointChannels(c.get("deps"), c.get("actor"), c.req.valid("query").facility), 200),
  )
  // Each month's minutes read off the request thread where the host can (211 and
  // 798 ms at load 13 on the request thread), as the offers' list reads them.
  .openapi(acceptOffersRoute, async (c) => {
    const text = await minutesRead(c.get("deps"), c.get("actor"), { read: "accept_offers", query: c.req.valid("json") });
    return c.body(text, 201, { "Content-Type": "application/json" }) as never;
  })
  .openapi(listEventsRoute, async (c) => c.json(await listEvents(c.get("deps"), c.get("actor"), c.req.valid("query")), 200))
  .openapi(acknowledgeEventRoute, async (c) =>
    c.json(await acknowledgeEvent(c.get("deps"), c.get("actor"), c.req.valid("param").event, c.req.valid("json")), 200),
  )
  .openapi(acknowledgeEventsRoute, async (c) => c.json(await acknowledgeEvents(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(getLiveRoute, async (c) => {
    const deps = c.get("deps");
    const actor = c.get("actor");
    const facility = await getFacility(deps, actor, c.req.valid("query").facility);
    // from a watch's tiles, else the facility's kept heads; where they cannot answer (none
    // kept yet, a bound model's forecast not stored), computed off the request thread.
    const view = await currentLiveView(deps, actor, facility);
    c.header("ETag", view.etag);
    c.header("Cache-Control", "no-cache");
    if (c.req.header("If-None-Match") === view.etag) return c.body(null, 304);
    return c.json(view, 200);
  })
  .openapi(getSchemeRoute, async (c) => c.json(await facilityScheme(c.get("deps"), c.get("actor"), c.req.valid("query").facility), 200))
  .openapi(streamLiveRoute, async (c) => {
    const deps = c.get("deps");
    const actor = c.get("actor");
    const { facility: named, max_events } = c.req.valid("query");
    const facility = await getFacility(deps, actor, named);
    if (c.get("noLiveStream")) throw new NotFound(LIVE_STREAM_ABSENT);
    const most = Math.min(
      max_events === undefined ? LIMITS.monitoring.liveStreamEvents : Number(max_events),
      LIMITS.monitoring.liveStreamEvents,
    );
    return streamSSE(c, (stream) => streamViews(deps, actor.company, facility, stream, most)) as never;
  })
  .openapi(liveChartRoute, async (c) => {
    const { facility, working } = c.req.valid("query");
    // A day of minutes folded and the models run off the request thread, in a heavy slot.
    const text = await minutesRead(c.get("deps"), c.get("actor"), { read: "live_chart", query: { facility, working } });
    return c.body(text, 200, { "Content-Type": "application/json" }) as never;
  })
  .openapi(listLiveModelsRoute, async (c) =>
    c.json(await listLiveModels(c.get("deps"), c.get("actor"), c.req.valid("query").facility), 200),
  )
  .openapi(bindLiveModelRoute, async (c) => {
    const deps = c.get("deps");
    const actor = c.get("actor");
    const body = c.req.valid("json");
    const bindings = await bindLiveModel(deps, actor, body);
    await deps.runtime.changes.publish({ type: "BindingChanged", company: actor.company, facility: body.facility });
    return c.json(bindings, 200);
  })
  .openapi(shiftReportRoute, async (c) => {
    // Rendered by the spreadsheet worker: exceljs and pdfkit are not in the API's bundle.
    return heavyFileAnswer(c, () => c.get("deps").spreadsheets.shiftReport(c.get("actor"), c.req.valid("query")), false) as never;
  })
  .openapi(journalRoute, async (c) => {
    const deps = c.get("deps");
    const { format, ...query } = c.req.valid("query");
    // Its minutes folded off the request thread, as the gassings register's.
    const text = await minutesRead(deps, c.get("actor"), { read: "journal", query });
    if (!format) return c.body(text, 200, { "Content-Type": "application/json" }) as never;
    const journal = JSON.parse(text) as Journal;
    // through the heavy-file path, in the company's turn, as the other report files.
    const bytes = await heavyFile(deps, c.get("actor"), () => deps.spreadsheets.monitoringFile({ kind: "journal", journal, format }));
    return fileBody(c, bytes, format, `Журнал оператора АГК ${journal.facility_name} ${dateText(journal.date, "UTC")}.${format}`);
  })
  .openapi(listGassingsRoute, async (c) => {
    const { format, ...query } = c.req.valid("query");
    // The register of up to 92 days folds their minutes off the request thread.
    if (!format)
      return c.body(await minutesRead(c.get("deps"), c.get("actor"), { read: "gassings", query }), 200, {
        "Content-Type": "application/json",
      }) as never;
    // The book is read (the minutes of up to 92 days) and rendered by the spreadsheet worker, in the
    // company's turn as the other report files; the route's heavy-work slot is
    // handed on to the file.
    const deps = c.get("deps");
    const actor = c.get("actor");
    return heavyFileAnswer(c, () =>
      deps.runtime.kept(fileTurns).run(actor.company, () => deps.spreadsheets.gassingBook(actor, { ...query, format })),
    ) as never;
  })
  .openapi(registerGassingRoute, async (c) =>
    c.json(await registerGassing(c.get("deps"), c.get("actor"), c.req.valid("param").gassing, c.req.valid("json")), 200),
  )
  .openapi(confirmGassingRoute, async (c) =>
    c.json(await confirmGassing(c.get("deps"), c.get("actor"), c.req.valid("param").gassing, c.req.valid("json")), 200),
  )
  .openapi(readingsUploadUrlRoute, async (c) => c.json(await readingsUploadUrl(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(importFileRoute, async (c) => {
    const deps = c.get("deps");
    const batch = await importReadingsFile(deps, c.get("actor"), c.req.valid("json"));
    await kickReadings(deps, batch);
    return c.json({ batch: batch.batch, status_url: statusUrl(batch.batch) }, 202);
  })
  .openapi(createReconciliationRoute, async (c) =>
    c.json(await startReconciliation(c.get("deps"), c.get("actor"), c.req.valid("json")), 202, { "Cache-Control": "no-store" }),
  )
  .openapi(getReconciliationRoute, async (c) =>
    c.json(await getReconciliation(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("query")), 200, {
      "Cache-Control": "no-store",
    }),
  )
  .openapi(fillReconciliationRoute, async (c) => {
    const deps = c.get("deps");
    const batch = await fillReconciliation(deps, c.get("actor"), c.req.valid("param").id);
    await kickReadings(deps, batch);
    return c.json({ batch: batch.batch, status_url: statusUrl(batch.batch) }, 202);
  })
  .openapi(reconciliationXlsxRoute, async (c) => {
    const file = await reconciliationXlsx(c.get("deps"), c.get("actor"), c.req.valid("param").id);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": EXPORT_FORMATS.xlsx.contentType,
      "Content-Disposition": attachmentDisposition(file.fileName),
      "Cache-Control": "no-store",
    }) as never;
  });

const FILE_TYPES = { xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", pdf: "application/pdf" } as const;

/** A rendered monitoring file as the answer (the operator's journal). */
const fileBody = (c: Context<AppEnv>, bytes: Uint8Array, format: keyof typeof FILE_TYPES, name: string) =>
  c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": FILE_TYPES[format],
    "Content-Disposition": attachmentDisposition(name),
    "Cache-Control": "no-store",
  }) as never;

/** In AWS the screen polls GET v1/telemetry/live/ with its ETag instead (docs/architecture.md). */
export const LIVE_STREAM_ABSENT = "Поток обновлений есть только на локальном сервере: запрашивайте плитки раз в 15 с с ETag";

type Stream = Parameters<Parameters<typeof streamSSE>[1]>[0];

/** The live stream: the tiles now, each change, a heartbeat, and a close event before it ends (after
 *  `most` updates, the stream's longest life, the client going away or the server stopping). */
async function streamViews(deps: Deps, company: string, facility: { id: string; name: string }, stream: Stream, most: number) {
  const queue: LiveView[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const finish = () => {
    done = true;
    wake?.();
  };
  const stop = watchLive(deps, company, facility, (view) => {
    queue.push(view);
    wake?.();
  });
  stream.onAbort(finish);
  const heartbeat = setInterval(() => {
    stream.writeSSE({ event: "heartbeat", data: new Date().toISOString() }).catch(finish);
  }, LIMITS.monitoring.liveHeartbeatSeconds * 1000);
  const end = setTimeout(finish, LIMITS.monitoring.liveStreamMinutes * 60_000);
  const stopping = liveStopping(deps, finish);
  let sent = 0;
  try {
    while (!done && sent < most) {
      const view = queue.shift();
      if (!view) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      // Only the newest of the views that came meanwhile.
      const newest = queue.length > 0 ? (queue.splice(0).at(-1) as LiveView) : view;
      await stream.writeSSE({ event: "live", id: newest.etag.replaceAll('"', ""), data: JSON.stringify(newest) });
      sent++;
    }
    if (!stream.aborted) await stream.writeSSE({ event: "close", data: "" });
  } finally {
    clearInterval(heartbeat);
    clearTimeout(end);
    stopping();
    stop();
  }
}

/** What ends each open live stream (closeLiveStreams). */
const liveStreams = keptState("live streams", () => new Set<() => void>());

/** Calls `listener` when the host stops (closeLiveStreams; the host keeps them, liveStreams);
 *  returns what forgets it. */
function liveStopping(deps: Pick<Deps, "runtime">, listener: () => void): () => void {
  const set = deps.runtime.kept(liveStreams);
  set.add(listener);
  return () => set.delete(listener);
}

/** Ends every live stream of these deps with its close event: the local host calls it when it stops. */
export function closeLiveStreams(deps: Pick<Deps, "runtime">): void {
  for (const listener of [...deps.runtime.kept(liveStreams)]) listener();
}
