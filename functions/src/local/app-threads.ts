// The local server's app threads: the bulkheads of docs/architecture.md («The front thread and the
// app threads»). The front thread accepts a request, holds its connection's layers (server.ts) and
// streams its body and its answer; the API's routes run in a small pool of worker threads, each the
// whole app over ports of its own (app-thread.ts), as each Lambda instance is in AWS. A request waits
// in its company's lane: a lane runs on one thread at a time, and a new lane takes the thread the
// fewest lanes hold, so that one company's heavy requests, however many, fold on its own thread while
// another company's run on another. Bodies and answers cross as transferred streams, never read whole
// or parsed here; what the threads share stays here and is called (thread-calls.ts).
import { MessageChannel, Worker, type MessagePort, type Transferable } from "node:worker_threads";
import type { Context, MiddlewareHandler } from "hono";
import { answerCalls, shapeOf, type ServiceShape } from "./thread-calls";
import { threadExecArgv, threadResourceLimits } from "./heap-limits";
import type { AppConfig } from "../config";
import type { Deps } from "../domain/context";
import { verifyJwt } from "../domain/signed-tokens";
import { gatewayKeyHash } from "../domain/monitoring/ingest/register";

const BOOT = new URL("./thread-boot.ts", import.meta.url);
const ENTRY = new URL("./app-thread.ts", import.meta.url).href;

/** The app threads `npm start` runs (APP_THREADS): three, so that a company flooding its lane's thread
 *  leaves another company's users and another's gateway a thread each; 0 runs the routes on the front. */
export const APP_THREADS = 3;

/** APP_THREADS set to what is not a count of threads: the start is refused (exit 78). */
export class AppThreadsSettingError extends Error {}

export function appThreadsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.APP_THREADS?.trim();
  if (!given) return APP_THREADS;
  const count = Number(given);
  if (!Number.isInteger(count) || count < 0 || count > 16)
    throw new AppThreadsSettingError(`APP_THREADS: целое число от 0 до 16, указано «${given}»`);
  return count;
}

/** A lane's requests in its thread at once; the next wait their turn here, in order. */
export const LANE_IN_FLIGHT = 6;
/** An app thread's heap bound, MB: one that runs out fails its requests and is replaced. */
const APP_THREAD_HEAP_MB = 2048;

/** What an app thread is started with (app-thread.ts). */
export interface AppThreadData {
  engine: MessagePort;
  calls: MessagePort;
  endpoint: string;
  tableName: string;
  blobsDir: string;
  config: AppConfig;
  tls: boolean;
  shapes: Record<string, ServiceShape>;
  readingsRetryFirstMs?: number;
}

/** A request sent to an app thread. */
export interface ThreadRequest {
  type: "request";
  id: number;
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: ReadableStream<Uint8Array> | null;
  /** The client's address as the front tells it (network.ts clientAddress). */
  address: string;
  /** Its lane (its company's where the front can tell it): the engine takes its heavy reads in the
   *  lane's turn (engine-turns.ts). */
  lane: string;
  /** The server's clock when the front sent it, ms: the thread's runs on from it. */
  now: number;
}

/** A change of the config, sent to every thread (a test's lower bound of a job, say). */
export interface ThreadConfig {
  type: "config";
  patch: Partial<AppConfig>;
}

/** What an app thread answers: the head with its body's stream, then that the body has ended. */
export type ThreadAnswer =
  | { type: "head"; id: number; status: number; headers: Array<[string, string]>; body: ReadableStream<Uint8Array> | null }
  | { type: "done"; id: number };

interface InFlight {
  head(answer: Response): void;
  done(): void;
}

interface AppThread {
  worker: Worker;
  lanes: number;
  requests: Map<number, InFlight>;
}

interface Lane {
  thread?: AppThread;
  inFlight: number;
  waiting: Array<() => void>;
}

export interface AppThreadsOptions {
  size: number;
  /** A new way in to the engine's thread for each app thread (storage.connect). */
  connect(): MessagePort;
  endpoint: string;
  tableName: string;
  blobsDir: string;
  config: AppConfig;
  tls: boolean;
  readingsRetryFirstMs?: number;
  /** What the threads share, by name (thread-calls.ts). */
  services: Record<string, object>;
  /** By service, the methods whose object arguments cross as serialized bytes (thread-calls.ts ServiceShape). */
  bulk?: Record<string, string[]>;
  /** The server's clock, ms. */
  now(): number;
  /** The client's address of a request. */
  addressOf(c: Context): string;
  /** The lane a request waits in: its company's where the front can tell it. */
  laneOf(c: Context, address: string): Promise<string>;
  log(message: string): void;
}

export interface AppThreads {
  /** Hands a request to its lane's thread and answers what the thread answers. */
  dispatch: MiddlewareHandler;
  /** Threads, lanes and requests now (the pool's tests). */
  state(): { threads: number[]; lanes: Map<string, { thread: number; inFlight: number; waiting: number }> };
  /** `patch` made to the config every thread reads (the front's object, which a new thread starts with). */
  configure(patch: Partial<AppConfig>): void;
  /** Ends the thread `lane` runs on, as if it had died (its requests answered 503, a new one started). */
  stopThreadOf(lane: string): Promise<void>;
  close(): Promise<void>;
}

const unavailable = (detail: string) =>
  new Response(JSON.stringify({ detail }), { status: 503, headers: { "Content-Type": "application/json", "Retry-After": "5" } });

export function appThreads(options: AppThreadsOptions): AppThreads {
  const shapes = Object.fromEntries(
    Object.entries(options.services).map(([name, service]) => [name, shapeOf(service, options.bulk?.[name])]),
  );
  const threads: AppThread[] = [];
  const lanes = new Map<string, Lane>();
  let nextId = 1;
  let closed = false;

  function spawn(): AppThread {
    const engine = options.connect();
    const { port1, port2 } = new MessageChannel();
    answerCalls(port1, options.services);
    port1.unref();
    const data: AppThreadData = {
      engine,
      calls: port2,
      endpoint: options.endpoint,
      tableName: options.tableName,
      blobsDir: options.blobsDir,
      config: options.config,
      tls: options.tls,
      shapes,
      ...(options.readingsRetryFirstMs === undefined ? {} : { readingsRetryFirstMs: options.readingsRetryFirstMs }),
    };
    const worker = new Worker(BOOT, {
      workerData: { ...data, entry: ENTRY },
      transferList: [engine, port2],
      execArgv: threadExecArgv(),
      resourceLimits: threadResourceLimits(APP_THREAD_HEAP_MB),
    });
    const thread: AppThread = { worker, lanes: 0, requests: new Map() };
    worker.on("message", (answer: ThreadAnswer) => {
      const request = thread.requests.get(answer.id);
      if (!request) return;
      if (answer.type === "head") {
        request.head(new Response(answer.body, { status: answer.status, headers: answer.headers }));
      } else {
        thread.requests.delete(answer.id);
        request.done();
      }
    });
    const retire = (reason: string) => {
      const at = threads.indexOf(thread);
      if (at < 0) return;
      // Replaced at once: the lanes it held take the new one with their next request.
      threads[at] = closed ? thread : spawn();
      if (!closed) options.log(`поток приложения остановился (${reason}): его запросы получили 503, запущен новый`);
      for (const request of thread.requests.values()) {
        request.head(unavailable("Сервер перезапускает поток обработки запросов, повторите запрос"));
        request.done();
      }
      thread.requests.clear();
      for (const lane of lanes.values()) if (lane.thread === thread) lane.thread = undefined;
    };
    worker.on("error", (error) => retire(error.message));
    worker.on("exit", (code) => retire(`код ${code}`));
    worker.unref();
    return thread;
  }

  for (let i = 0; i < options.size; i++) threads.push(spawn());

  /** The thread the fewest lanes hold, of those the fewest requests are in. */
  const leastHeld = () =>
    threads.reduce((a, b) => (b.lanes < a.lanes || (b.lanes === a.lanes && b.requests.size < a.requests.size) ? b : a));

  async function enter(key: string): Promise<{ lane: Lane; thread: AppThread }> {
    let lane = lanes.get(key);
    if (!lane) {
      lane = { inFlight: 0, waiting: [] };
      lanes.set(key, lane);
    }
    if (lane.inFlight >= LANE_IN_FLIGHT) await new Promise<void>((turn) => lane.waiting.push(turn));
    else lane.inFlight++;
    if (!lane.thread || !threads.includes(lane.thread)) {
      lane.thread = leastHeld();
      lane.thread.lanes++;
    }
    return { lane, thread: lane.thread };
  }

  function leave(key: string, lane: Lane): void {
    const next = lane.waiting.shift();
    // The turn passes on with the place in flight it frees.
    if (next) {
      next();
      return;
    }
    lane.inFlight--;
    if (lane.inFlight > 0) return;
    if (lane.thread) lane.thread.lanes--;
    lanes.delete(key);
  }

  const dispatch: MiddlewareHandler = async (c) => {
    if (closed) return unavailable("Сервер останавливается");
    const address = options.addressOf(c);
    const key = await options.laneOf(c, address);
    const { lane, thread } = await enter(key);
    const id = nextId++;
    const raw = c.req.raw;
    const body = raw.method === "GET" || raw.method === "HEAD" ? null : raw.body;
    let left = false;
    const done = () => {
      if (left) return;
      left = true;
      leave(key, lane);
    };
    const answered = new Promise<Response>((head) => thread.requests.set(id, { head, done }));
    const request: ThreadRequest = {
      type: "request",
      id,
      method: raw.method,
      url: raw.url,
      headers: [...raw.headers],
      body,
      address,
      lane: key,
      now: options.now(),
    };
    try {
      thread.worker.postMessage(request, body ? [body as unknown as Transferable] : []);
    } catch (error) {
      thread.requests.delete(id);
      done();
      throw error;
    }
    return answered;
  };

  return {
    dispatch,
    state: () => ({
      threads: threads.map((t) => t.requests.size),
      lanes: new Map(
        [...lanes].map(([key, lane]) => [
          key,
          { thread: lane.thread ? threads.indexOf(lane.thread) : -1, inFlight: lane.inFlight, waiting: lane.waiting.length },
        ]),
      ),
    }),
    configure(patch) {
      Object.assign(options.config, patch);
      for (const thread of threads) thread.worker.postMessage({ type: "config", patch } satisfies ThreadConfig);
    },
    async stopThreadOf(key) {
      await lanes.get(key)?.thread?.worker.terminate();
    },
    async close() {
      closed = true;
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

/** The live tiles' stream: held on the front, where the changes it waits for are heard. */
export const LIVE_STREAM = /\/live\/stream\/?$/;

/** A request's lane: its company's for a token the front's key signed, a gateway key's own, else its
 *  address's. A lane is only where a request waits: the thread checks its credential as ever. */
export async function laneOf(deps: Pick<Deps, "config" | "clock" | "runtime">, c: Context, address: string): Promise<string> {
  const header = c.req.header("Authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) {
    try {
      const payload = await verifyJwt(deps.config, bearer[1], { now: deps.clock.now(), requiredClaims: ["sub", "exp"] }, deps.runtime);
      if (typeof payload.cid === "string") return `company:${payload.cid}`;
    } catch {
      // Refused in its thread, as on the front.
    }
  }
  const gateway = /^Gateway\s+(\S+)$/i.exec(header);
  if (gateway) return `gateway:${gatewayKeyHash(gateway[1])}`;
  return `address:${address}`;
}
