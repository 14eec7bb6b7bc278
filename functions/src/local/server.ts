// The local host: one Node process serving the API under /api/ and the built web app (with an
// SPA fallback) on one port. Used by `npm start` and by the integration and browser tests.
import { compactDay } from "../domain/monitoring/minutes/minutes";
import { removeExpiredMinutes } from "./expired-minutes";
import { serve, type ServerType } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { configFromEnv, type AppConfig } from "../config";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { opensslGostCms } from "../adapters/signing/gost-cms";
import { httpWebhookTransport } from "../adapters/webhooks/http-webhook-transport";
import { inProcessSpreadsheets } from "../export/in-process";
import { systemClock, type Deps } from "../domain/context";
import type { Change, Clock } from "../ports";
import { seedFirstStart, type DemoLogin, type FirstStart } from "../seed";
import { seedDictionaries } from "../domain/reference/dictionaries";
import { seedProductionCalendar } from "../domain/reference/production-calendar";
import { seedDefaultModels } from "../domain/forecast/models";
import { reconcileAllStatistics } from "../domain/inventory/statistics";
import { migrateEmissionPoints } from "../domain/company/emission-points-migration";
import { migrateSensorPlaces } from "../domain/monitoring/ingest/sensor-places-migration";
import { migrateDrainageBasis } from "../domain/monitoring/minutes/drainage-basis-migration";
import { LOCAL_TABLE, localSigningKeys, localVersionSigner, openMemoryStorage, openServerStorage } from "./storage";
import { drainReadings } from "../domain/monitoring/minutes/consumer";
import { facilitiesWrittenLately } from "../domain/monitoring/minutes/minute-window";
import { monitoringIdle } from "../domain/monitoring/live/forecaster";
import { changeBus, hostRuntime } from "../events/runtime";
import { startSchedule } from "../events/schedule";
import { fileSlotLedger, giveBackLeftSlots } from "./slot-ledger";
import { LOCAL_SUBSCRIBERS, REQUEST_THREAD_SUBSCRIBERS, type LocalSubscriber } from "./subscribers";
import { readingsConsumerThread } from "./readings-consumer";
import { webhookSender, type WebhookSender } from "../domain/monitoring/derive/webhooks";
import { closeLiveStreams } from "../http/monitoring";
import { spreadsheetThreads } from "./spreadsheet-threads";
import { scoringThreads } from "./scoring-threads";
import { carryHeavySlots, releaseHeavySlots } from "../domain/heavy-work";
import type { SigningKeys } from "../domain/signed-tokens";
import { withUploadNotifications } from "./upload-notifications";
import { passwordCostFromEnv } from "./password-cost";
import { sweepUploads } from "./upload-sweep";
import { demoFeedRounds, type DemoFeedRounds } from "./demo-feed";
import { serveWebApp } from "./web-app";
import { backupJob, type BackupSchedule } from "./backup-schedule";
import { serverLog } from "./server-log";
import { checkDataFormat, migrateDataFolder, readDataFormat } from "./data-format";
import { clientAddress, demoPasswordProblem, loopbackOnly, NetworkSettingError, webhookReceiversFromEnv, type TlsFiles } from "./network";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createHttpServer, type IncomingMessage, type RequestListener } from "node:http";
import { refusalGate } from "./refusal-gate";
import { lingeringClose } from "./lingering-close";
import { bodyDeadline, type BodyPace } from "./body-deadline";
import { openBodiesCap } from "./open-bodies";
import { type PortReservation, PortTakenError, portTakenMessage, reservePort } from "./port-reservation";
import { healthRoute } from "./health";
import { localApp } from "./api-app";
import { appThreads, laneOf, LIVE_STREAM, type AppThreads } from "./app-threads";
import { RENDERED_DOCUMENTS, sharedServices } from "./front-services";
import { refusalPace, requestPace, type RefusalPace, type RequestPace } from "../http/request-pace";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";

/** How long a stop lets webhook attempts in flight finish before it cuts them (they stay due). */
const WEBHOOK_CLOSE_GRACE_MS = 1_000;
/** How long a stop may take in all (README: 5 s), and of it how long the requests in flight are given
 *  before their connections are cut: the rest is the threads', the consumer's and the storage's close
 *  (under load a stop took 6,4 and 7,2 s when the requests alone had 5 s). Work not
 *  started is left queued for the next start (local/interrupted-jobs.ts). */
export const STOP_WITHIN_MS = 5_000;
const CLOSE_GRACE_MS = 3_500;

/** The release, as package.json names it (GET /healthz answers it). */
const PRODUCT_VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL("../../../package.json", import.meta.url)), "utf8")) as { version: string }
).version;

export const WEB_ROOT = fileURLToPath(new URL("../../../web/dist", import.meta.url));

export interface LocalServerOptions {
  /** A folder to persist in, or undefined for memory-only storage (tests). */
  dataDir?: string;
  port: number;
  host?: string;
  /** The company and user a data folder that holds no company yet gets (seed.ts); a folder that
   *  holds one gets nothing. */
  demo?: DemoLogin;
  /** With `demo`: the demo company's last reporting year filled in on the first start (`npm start`;
   *  the tests start from an empty company). */
  demoYear?: boolean;
  webRoot?: string;
  /** The server's clock; the system's unless a browser test needs another day (a notice of
   *  refusal dated after today's real date). */
  clock?: Clock;
  /** The pace of each user's requests; by default USER_REQUEST_BURST and USER_REQUESTS_PER_SECOND
   *  on the system's clock (a test gives one on a clock of its own). */
  pace?: RequestPace;
  /** Requests refused for their token, per address; by default REFUSED_PER_ADDRESS. */
  refusals?: RefusalPace;
  /** The pace of each gateway key's pushes; by default GATEWAY_REQUEST_BURST and GATEWAY_REQUESTS_PER_SECOND. */
  gatewayPace?: RequestPace;
  /** HTTPS from this certificate and key (TLS_CERT, TLS_KEY; network.ts), with HSTS; plain HTTP
   *  without. */
  tls?: TlsFiles;
  /** TRUST_PROXY=1: the client's address of a request through a reverse proxy on this machine is
   *  the one the proxy names (network.ts). */
  trustProxy?: boolean;
  /** Scheduled backups of `dataDir` (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP; backup-schedule.ts). */
  backups?: BackupSchedule;
  /** The receivers inside the mine's network webhooks may post to; WEBHOOK_ALLOWED_RECEIVERS by default. */
  webhookAllowedReceivers?: string[];
  /** The demo mine's simulated readings carried on each minute while the server runs, where the demo
   *  seed made one (demo-feed.ts): `npm start` unless DEMO_READINGS=0; the tests only when they ask. */
  demoReadings?: boolean;
  /** The least pace of a request body (LIMITS.bodies by default; a test gives a shorter one). */
  bodyPace?: BodyPace;
  /** Hears every change this process's subscribers hear, after them (a test's ear on the stream). */
  listen?(change: Change): void;
  /** The app threads the API's routes run in (app-threads.ts): `npm start` runs APP_THREADS (3 by
   *  default); 0, the tests' default, runs them on the front thread. */
  appThreads?: number;
}

export interface LocalServer {
  url: string;
  deps: Deps;
  /** The pace of each user's signed-in requests (http/request-pace.ts). */
  pace: RequestPace;
  /** What this start made in a new data folder (its password printed once), or undefined. */
  firstStart?: FirstStart;
  /** The webhook sender (domain/monitoring/derive/webhooks.ts): a test sends what is due and waits for it. */
  webhooks: WebhookSender;
  /** The demo mine's feed when `demoReadings` runs it: a test moves its clock and asks for a round. */
  demoFeed?: Pick<DemoFeedRounds, "tick">;
  /** Resolves once the in-process event handlers (table stream, upload checks) have caught up. */
  settled(): Promise<void>;
  /** The app threads, where the server runs its routes in them. */
  appThreads?: Pick<AppThreads, "state" | "stopThreadOf">;
  /** Changes the config the routes read, on the front and in every app thread (a test's lowered bound). */
  configure(patch: Partial<AppConfig>): void;
  close(): Promise<void>;
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  // The port first: one another process holds refuses the start before a data folder is made, read or
  // seeded (port-reservation.ts); it is held until the server listens on it.
  const reservation = await reservePort(options.port, options.host ?? "127.0.0.1");
  try {
    return await startOnReservedPort(options, reservation);
  } catch (error) {
    await reservation.release();
    throw error;
  }
}

async function startOnReservedPort(options: LocalServerOptions, reservation: PortReservation): Promise<LocalServer> {
  // dynalite and the table-stream handler in threads of their own: a burst of writes does not wait
  // behind the engine's or the handler's work on this event loop (in AWS the stream's own function
  // handles it).
  // A folder written by a newer release is refused before anything opens it (data-format.ts).
  const format = options.dataDir ? await checkDataFormat(options.dataDir) : undefined;
  const webhookAllowedReceivers = options.webhookAllowedReceivers ?? webhookReceiversFromEnv();
  const storage = options.dataDir
    ? await openServerStorage(options.dataDir, { threads: true })
    : await openMemoryStorage({ threads: true });
  const dataDir = options.dataDir ?? join(tmpdir(), `fugitive-${randomBytes(6).toString("hex")}`);
  mkdirSync(dataDir, { recursive: true });
  const keys: SigningKeys = options.dataDir ? localSigningKeys(dataDir) : { jwtSecret: randomBytes(48) };
  const uploads = withUploadNotifications(fsBlobStore(join(dataDir, "blobs")));
  // The consumer's thread first: its writes' stream records are handed to the storage's stream.
  const settled = async () => {
    await monitoringIdle(deps);
    await Promise.all([storage.settled(), uploads.settled()]);
  };
  // Exports and report passports are rendered in worker threads that stream them back (in AWS the
  // spreadsheet worker function renders them), and large forecast uploads are read and predicted
  // there; on real DynamoDB, in this process.
  const signer = localVersionSigner(dataDir);
  const threads = storage.endpoint
    ? spreadsheetThreads({
        signer,
        endpoint: storage.endpoint,
        connect: storage.connect,
        tableName: LOCAL_TABLE,
        blobsDir: join(dataDir, "blobs"),
        clock: options.clock,
        releaseSlots: (slots) => releaseHeavySlots(storage, slots),
        carrySlots: (slots) => carryHeavySlots(storage, slots),
        // A period job failed at start gives its project's periods back (local/interrupted-jobs.ts).
        releaseHolds: async (request) => {
          if (request.op !== "climate_period" || !request.claim) return;
          await storage.repos.climateProjects.releasePeriods({
            company: request.actor.company,
            project: request.project,
            ...request.claim,
          });
        },
        // Loading a thread's code is about 2 s of CPU, which a test's server rarely needs.
        threadAtStart: process.env.SPREADSHEET_THREAD_AT_START !== "0",
      })
    : undefined;
  // The change stream's subscribers (subscribers.ts, the local host's table), and a test's ear last.
  const ear: LocalSubscriber[] = options.listen
    ? [
        {
          name: "test",
          thread: "request",
          hears: ["ReadingsWritten", "ForecastStored", "BindingChanged", "DeliveriesDue"],
          run: (_: unknown, c: Change) => options.listen?.(c),
        },
      ]
    : [];
  const runtime = hostRuntime({ subscribers: [...LOCAL_SUBSCRIBERS, ...ear], deps: () => deps });
  const fromThread = changeBus([...REQUEST_THREAD_SUBSCRIBERS, ...ear], () => deps);
  // Batches of readings are applied in a thread of their own (in AWS the readings' function): a
  // year's file merged into its days held this event loop for minutes. The changes it publishes that
  // this thread's subscribers hear (the live tiles, the webhook sender) are posted here.
  const consumer = storage.endpoint
    ? readingsConsumerThread({
        endpoint: storage.endpoint,
        connect: storage.connect,
        tableName: LOCAL_TABLE,
        blobsDir: join(dataDir, "blobs"),
        clock: options.clock,
        changed: (change) => void fromThread.publish(change).catch(() => undefined),
        ...(storage.streamRecord ? { record: storage.streamRecord } : {}),
        failed: (reason) => serverLog.error({ event: "readings_consumer", message: `readings consumer thread: ${reason}` }),
      })
    : undefined;
  // Stored forecast models are parsed and scored in threads of their own (a large one's parse takes
  // seconds); in AWS each API instance serves one request.
  const scoring = scoringThreads({ blobsDir: join(dataDir, "blobs") });
  const deps: Deps = {
    repos: storage.repos,
    blobs: uploads.blobs,
    clock: options.clock ?? systemClock,
    config: {
      ...configFromEnv(keys.jwtSecret, keys.previousJwtSecret),
      passwordCost: passwordCostFromEnv(),
      // Inside the mine's network, webhooks post to the receivers there its operator names, nowhere
      // else private (docs/operations.md).
      webhookAllowedReceivers,
    },
    webhooksDue: () => webhooks.due(),
    spreadsheets: threads ?? inProcessSpreadsheets(() => deps),
    signer,
    ...(threads ? { uploadFiles: threads } : {}),
    modelScoring: scoring,
    yearMath: scoring,
    abatementMath: scoring,
    climateMath: scoring,
    // КЭП of climate periods: the machine's openssl with the GOST engine (libengine-gost-openssl), started
    // from a spreadsheet thread where there are threads.
    gostCms: threads?.gostCms ?? opensslGostCms(),
    ...(consumer ? { readingsConsumer: consumer } : {}),
    // The heavy-work slots its requests hold, written down for the next start.
    ...(options.dataDir ? { slotLedger: fileSlotLedger(options.dataDir) } : {}),
    runtime,
  };
  // The webhook sender: companies in turns, each receiver bounded and backed off on its own.
  const webhooks = webhookSender(deps, httpWebhookTransport, { log: (message) => serverLog.error({ event: "webhooks", message }) });
  if (options.dataDir) {
    // An older folder is brought to this release's format before anything else reads it; each
    // migration is logged (a new folder is simply marked).
    await migrateDataFolder(options.dataDir, deps, format, (step) =>
      serverLog.info({
        event: "migration",
        ...step,
        message: `папка данных переведена с формата ${step.from} на ${step.to}: ${step.name}`,
      }),
    );
  }
  if (options.dataDir) {
    // the slots the last process's requests held when it stopped, given back before
    // a request is served (a job's are its own, below).
    const left = await giveBackLeftSlots(deps.repos, options.dataDir);
    if (left > 0)
      serverLog.info({ event: "heavy_slots", message: `сняты блокировки тяжелых операций, оставленные остановкой сервера: ${left}` });
  }
  await seedDictionaries(deps);
  await seedProductionCalendar(deps);
  await seedDefaultModels(deps);
  const host = options.host ?? "127.0.0.1";
  // Open to the network while a user has the demo password, the start is refused (network.ts) before
  // the demo year, the migrations and the jobs: it ends in seconds, closing what it opened. Checked
  // past them, it came after the demo year's 45 s of writing at load 30, and `npm start` exited 78
  // that late. A refused first start keeps its user, whose password the message says to change, but
  // no demo year: a server open to the network holds the owner's data.
  const refuseExposedDemo = async () => {
    const exposed = await demoPasswordProblem(deps, host);
    if (!exposed) return;
    await Promise.all([threads?.close(), scoring.close(), consumer?.close(), webhooks.close()]);
    await uploads.settled();
    await storage.close();
    throw new NetworkSettingError(exposed);
  };
  const firstStart = options.demo
    ? await seedFirstStart(deps, options.demo, { year: options.demoYear, beforeYear: refuseExposedDemo })
    : undefined;
  await refuseExposedDemo();
  // Stream records still queued when the process was killed are gone (in AWS the stream keeps
  // them): the statistics are reconciled with the table once at start (after the seeds' own
  // records are handled, so none is on its way), so none stays behind what the table holds.
  // A company whose statistics cannot be reconciled is reported and the server starts all the same.
  // What the start reports is a JSON line of the server's log (server-log.ts).
  // D25: facilities and calculations stored before emission points get them, once per company.
  await migrateEmissionPoints(deps, {
    log: (r) => {
      if ("failed" in r)
        serverLog.error({ event: "emission-points", message: `emission points of company ${r.company} not migrated: ${r.failed}` });
      else if (r.points + r.calculations > 0) {
        serverLog.info({
          event: "emission-points",
          message: `emission points of company ${r.company}: ${r.points} «Шахта в целом» made, ${r.calculations} calculations assigned`,
        });
      }
    },
  });
  // sensors stored before places get a section and a place, and keep a point only where their place measures it.
  await migrateSensorPlaces(deps, {
    log: (r) => {
      if ("failed" in r) serverLog.error({ event: "sensor-places", message: `sensors of company ${r.company} not migrated: ${r.failed}` });
      else if (r.sensors > 0) {
        serverLog.info({
          event: "sensor-places",
          message: `sensors of company ${r.company}: ${r.sensors} given a section and place, ${r.points_cleared} no longer measure their point`,
        });
      }
    },
  });
  // D92: drainage stations' months accepted as «чистый» before D92 are made gross.
  await migrateDrainageBasis(deps, {
    log: (r) => {
      if ("failed" in r)
        serverLog.error({ event: "drainage-basis", message: `accepted months of company ${r.company} not corrected: ${r.failed}` });
      else if (r.months + r.kept > 0) {
        serverLog.info({
          event: "drainage-basis",
          message: `accepted drainage months of company ${r.company}: ${r.months} made gross, ${r.kept} kept in a sent or approved year`,
        });
      }
    },
  });
  await storage.settled();
  await reconcileAllStatistics(deps, {
    log: (r) => {
      if (r.failed !== undefined)
        serverLog.error({ event: "statistics", message: `statistics of company ${r.company} not reconciled: ${r.failed}` });
      for (const u of r.unapplied) {
        serverLog.error({
          event: "statistics",
          message:
            `statistics of company ${r.company}: the sums of project ${u.project} cannot be kept (${u.problem}): ` +
            `${u.calculations.map((c) => `${c.type} ${c.id} (${c.problem})`).join("; ")}; see npm run admin -- reconcile-statistics`,
        });
      }
      const unapplied = new Set(r.unapplied.map((u) => u.project));
      const repaired = [
        ...r.drift.map((d) => d.year),
        ...r.lists.map((l) => `${l.stored.type} of project ${l.stored.project}`),
        ...r.inventory.filter((d) => !unapplied.has(d.project)).map((d) => `inventory sums of project ${d.project}`),
        ...r.bounds.filter((d) => !unapplied.has(d.project)).map((d) => `lines counter of project ${d.project}`),
      ];
      if (repaired.length > 0)
        serverLog.info({ event: "statistics", message: `statistics of company ${r.company} repaired: ${repaired.join(", ")}` });
    },
  });

  // D57: batches of readings stored and answered 202 but not yet applied when the process stopped
  // (killed, say) are in the table's queue: applied now, in the background (the consumer's thread).
  // The facilities pushing before the stop get their minute windows read in the consumer's thread.
  if (consumer)
    consumer.resume(
      async () => (await deps.repos.monitoring.queued(1)).length > 0,
      () => facilitiesWrittenLately(deps),
    );
  else void drainReadings(deps);
  // jobs the last process left queued or running (killed) are run again, or failed
  // when interrupted twice, their holds given back; each is a line of the log.
  if (threads) {
    const interrupted = await threads.resumeInterrupted().catch((error: unknown) => {
      serverLog.error({ event: "jobs", message: `незавершенные задания не проверены: ${String(error)}` });
      return [];
    });
    for (const j of interrupted) {
      serverLog.info({
        event: "jobs",
        message: `задание ${j.job} (${j.op}) организации ${j.company} прервано остановкой сервера: ${
          j.outcome === "resumed" ? "запущено заново" : "завершено с ошибкой (прервано второй раз), его блокировки сняты"
        }`,
      });
    }
  }
  // The demo mine's readings go on each minute, from the minutes the server was down (a folder the demo
  // seed did not make has no feed).
  const demoFeed = options.demoReadings ? demoFeedRounds(deps) : undefined;
  // The periodic work (events/schedule.ts: the webhook deliveries due, the stale sweep, the hourly
  // compaction and, dynalite having no TTL, the expired minute items removed; the folder's upkeep: the
  // uploads' sweep, the backups; the demo mine's feed) on the runtime's timers.
  const schedule = startSchedule(
    {
      ...deps,
      // Told, not waited for: a round running takes the deliveries due anew (its back-offs held
      // meanwhile), and a stop waits for it with its grace (webhooks.close below).
      webhooks: { drain: async () => webhooks.due() },
      expireMinutes: async (run) => {
        const doc = storage.doc;
        if (doc && !run.stopped)
          await removeExpiredMinutes(doc, LOCAL_TABLE, storage.repos, deps.clock.now().getTime(), async (company, facility, day) => {
            if (await deps.repos.monitoring.hasMinutes(company, facility, day)) await compactDay(deps, company, facility, day);
          });
      },
      // Direct uploads never completed are deleted after a day (the bucket's lifecycle rule in AWS).
      sweepUploads: () => sweepUploads(deps, (message) => serverLog.info({ event: "upload_sweep", message })),
      ...(options.backups && options.dataDir && storage.endpoint
        ? {
            backups: backupJob(
              options.dataDir,
              options.backups,
              { endpoint: storage.endpoint, engineSecret: storage.engineSecret, dataFormat: () => readDataFormat(options.dataDir!) },
              serverLog,
            ),
          }
        : {}),
      ...(demoFeed ? { feedDemo: () => demoFeed.tick().then((round) => round?.readings) } : {}),
    },
    (work, error) =>
      serverLog.error(
        error instanceof Error ? { event: work, message: error.message, stack: error.stack } : { event: work, message: String(error) },
      ),
  );

  if (!options.tls && !loopbackOnly(host)) {
    serverLog.info({
      event: "network",
      message: `сервер открыт в сеть по HTTP без шифрования (HOST=${host}): задайте TLS_CERT и TLS_KEY или поставьте перед ним обратный прокси с TLS (docs/operations.md)`,
    });
  }

  const webRoot = resolve(options.webRoot ?? WEB_ROOT);
  // One request thread serves every company: one user's burst is paced (http/request-pace.ts).
  const pace = options.pace ?? requestPace({ burst: deps.config.userRequestBurst, perSecond: deps.config.userRequestsPerSecond });
  const trustProxy = options.trustProxy ?? false;
  // requests refused for their token, per source address (http/request-pace.ts).
  const refusals = options.refusals ?? refusalPace();
  // R7: each gateway key's pushes paced as a user's requests are.
  const gatewayPace =
    options.gatewayPace ?? requestPace({ burst: deps.config.gatewayRequestBurst, perSecond: deps.config.gatewayRequestsPerSecond });
  const addressOf = (c: Context) => clientAddress(getConnInfo(c).remote.address, (name) => c.req.header(name), trustProxy);
  // The bulkheads (app-threads.ts): the routes in app threads, a company's lane on one at a time; the
  // live tiles' streams stay here, where the changes they wait for are heard.
  const pool =
    (options.appThreads ?? 0) > 0 && storage.connect && storage.endpoint && threads
      ? appThreads({
          size: options.appThreads ?? 0,
          connect: storage.connect,
          endpoint: storage.endpoint,
          tableName: LOCAL_TABLE,
          blobsDir: join(dataDir, "blobs"),
          config: deps.config,
          tls: options.tls !== undefined,
          services: sharedServices({
            deps,
            threads,
            scoring,
            consumer,
            uploads,
            webhooks,
            pace,
            gatewayPace,
            refusals,
            ...(storage.streamRecord ? { streamRecord: storage.streamRecord } : {}),
          }),
          // A document to render crosses the front as bytes, for the spreadsheet thread to read.
          bulk: { spreadsheets: RENDERED_DOCUMENTS },
          now: () => deps.clock.now().getTime(),
          addressOf,
          laneOf: (c, address) => laneOf(deps, c, address),
          log: (message) => serverLog.error({ event: "app_threads", message }),
        })
      : undefined;
  if (!existsSync(webRoot))
    serverLog.error({ event: "web-app", message: `web app not built (${webRoot} missing): run "npm run build:web"` });
  const app = localApp(deps, {
    tls: options.tls !== undefined,
    ...(pool ? { ahead: (c, next) => (LIVE_STREAM.test(c.req.path) ? next() : pool.dispatch(c, next)) } : {}),
    health: healthRoute(deps, { dataDir: options.dataDir, backups: options.backups, version: PRODUCT_VERSION }),
    clientAddressOf: addressOf,
    pace,
    refusals,
    gatewayPace,
    // Assets compressed and cached for a year; every other GET that is not an API call gets the
    // app shell (SPA fallback), revalidated on each load.
    ...(existsSync(webRoot) ? { web: serveWebApp(webRoot) } : {}),
  });

  let server: ServerType;
  await reservation.release();
  try {
    server = await new Promise<ServerType>((resolveServer, reject) => {
      // R8: an address past its refusals is answered at the gate, before the app sees it.
      // a connection closed after an answer that left a body unread lingers.
      // Each body comes within a deadline by its size (body-deadline.ts).
      const gated = (listener: RequestListener) =>
        bodyDeadline(
          lingeringClose(
            // A user's bodies in flight are capped (open-bodies.ts).
            openBodiesCap(
              refusalGate(listener, {
                refusals,
                addressOf: (request) => clientAddress(request.socket.remoteAddress, (name) => headerOf(request, name), trustProxy),
                log: (address, refused) =>
                  serverLog.info({ event: "refusal_gate", message: `${refused} запросов с адреса ${address} отклонены (429) за минуту` }),
              }),
            ),
          ),
          deps.config.jsonBodyLimitBytes,
          options.bodyPace,
        );
      const listen = options.tls
        ? {
            createServer: ((serverOptions: object, listener: RequestListener) =>
              createHttpsServer(serverOptions, gated(listener))) as unknown as typeof createHttpsServer,
            serverOptions: { cert: options.tls.cert, key: options.tls.key },
          }
        : {
            createServer: ((serverOptions: object, listener: RequestListener) =>
              createHttpServer(serverOptions, gated(listener))) as unknown as typeof createHttpServer,
          };
      const s = serve({ fetch: app.fetch, port: options.port, hostname: host, ...listen }, () => resolveServer(s));
      s.once("error", reject);
    });
  } catch (error) {
    await Promise.all([pool?.close(), scoring.close(), consumer?.close(), webhooks.close(), schedule.stop()]);
    await storage.close();
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new PortTakenError(portTakenMessage(options.port));
    }
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  // The uploads' first sweep done: a server answers with no abandoned upload left from before.
  await schedule.started;
  let closing: Promise<void> | undefined;
  return {
    url: `${options.tls ? "https" : "http"}://${options.host && options.host !== "0.0.0.0" && options.host !== "::" ? options.host : "127.0.0.1"}:${port}`,
    deps,
    pace,
    webhooks,
    ...(firstStart ? { firstStart } : {}),
    ...(demoFeed ? { demoFeed: { tick: demoFeed.tick } } : {}),
    ...(pool ? { appThreads: pool } : {}),
    configure: (patch) => (pool ? pool.configure(patch) : Object.assign(deps.config, patch)),
    settled,
    close() {
      // Stop taking requests, let the ones in flight finish and their events be handled, then
      // close the store cleanly.
      // Its timers stopped and the work running told to stop now; waited for before the storage closes.
      const scheduled = schedule.stop();
      // The feed's round running finishes (its batch stored and kicked) before the consumer is waited for.
      const fed = demoFeed?.settled();
      // The live streams end with their close event, so the pages open them again elsewhere.
      closeLiveStreams(deps);
      // What the close waits for (the consumer's and the scoring threads' answers, the feed's round)
      // keeps no handle of this process open: once the listening socket is closed, node would end
      // the process there, the store not closed. A timer holds it until the storage is closed.
      if (closing) return closing;
      const holdOpen = setInterval(() => undefined, CLOSE_GRACE_MS);
      closing = new Promise<void>((done) => {
        server.close(() => done());
        // Idle keep-alive connections close at once; a download still running after a few
        // seconds is cut, so that a stop never hangs on a slow client.
        const http = server as Partial<Pick<Server, "closeIdleConnections" | "closeAllConnections">>;
        http.closeIdleConnections?.();
        setTimeout(() => http.closeAllConnections?.(), CLOSE_GRACE_MS).unref();
      })
        .then(() => fed)
        // The consumer's thread ends once its drains are done, or after a second whatever is queued
        // (readings-consumer.ts CLOSE_WAIT_MS: a batch cut short is applied again on the next start);
        // the webhooks it made are sent before the last wait for them.
        // The app threads end with their requests answered (their answers' streams closed with the connections).
        .then(() => pool?.close())
        .then(() => Promise.all([threads?.close(), scoring.close(), consumer ? consumer.close() : monitoringIdle(deps)]))
        .then(() => webhooks.close(WEBHOOK_CLOSE_GRACE_MS))
        .then(() => uploads.settled())
        .then(() => scheduled)
        .then(() => storage.close())
        .finally(() => clearInterval(holdOpen));
      return closing;
    },
  };
}

/** A request header as one string (the last of repeated ones, as Hono's `c.req.header` reads them joined). */
const headerOf = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
};
