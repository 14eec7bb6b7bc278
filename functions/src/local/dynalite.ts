// dynalite, the DynamoDB implementation, on a loopback port. With a path the data persist there, in
// its SQLite store (sqlite-level.mts); without one it keeps everything in memory (tests). In this process's event loop,
// or with `thread` in a worker thread of its own (dynalite-thread.ts): the local server's engine
// then takes none of the time its requests' event loop needs. Either way this process's clients
// reach it without its loopback port (`requestHandler`, dynalite-port.ts): through message ports to
// its thread, or straight to the engine in this event loop.
import { createEngine } from "./dynalite-engine";
import type { AddressInfo } from "node:net";
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { engineRequestHandler, portRequestHandler, type SdkRequestHandler } from "./dynalite-port";
import { serverLog } from "./server-log";
import { threadExecArgv, threadResourceLimits } from "./heap-limits";

export interface RunningDynalite {
  endpoint: string;
  /** The secret its loopback port asks of every caller (the security review's R18), when started with one. */
  secret?: string;
  /** In a thread: a new way in for a client of this process (dynalite-port.ts), which may be
   *  handed on to another thread. */
  connect?(): MessagePort;
  /** A new transport for a client of this process (the SDK's `requestHandler`): through a port of
   *  its own to the engine's thread, or straight to the engine in this event loop; either way
   *  without the loopback port (dynalite-port.ts). */
  requestHandler(): SdkRequestHandler;
  close(): Promise<void>;
}

export interface DynaliteOptions {
  /** A folder to persist in; in memory without one. */
  path?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Run the engine in a worker thread of its own. */
  thread?: boolean;
  /** the security review's R18: the loopback port answers only a caller who names this (an SDK client as its
   *  access key id, `createDocumentClient`'s `engineSecret`; a plain call in ENGINE_SECRET_HEADER).
   *  This process's own clients reach the engine through ports and name nothing. */
  secret?: string;
}

export async function startDynalite(options: DynaliteOptions = {}): Promise<RunningDynalite> {
  const { path, port = 0, secret } = options;
  if (options.thread) return startDynaliteThread(path, port, secret);
  const { server, store, opened } = createEngine({ path, secret, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  // A store that does not open (another process's, damaged) fails the start with its own error.
  await opened.catch(async (error: Error) => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${actualPort}`,
    ...(secret === undefined ? {} : { secret }),
    requestHandler: () => engineRequestHandler(store),
    // dynalite's close stops the HTTP server and then closes its store cleanly.
    close: () => new Promise<void>((resolve, reject) => server.close((err?: Error) => (err ? reject(err) : resolve()))),
  };
}

type ThreadMessage =
  | { type: "listening"; port: number }
  | { type: "error"; message: string; code?: string; file?: string; found?: string }
  | { type: "closed"; message?: string };

const THREAD = new URL("./dynalite-thread.ts", import.meta.url);

async function startDynaliteThread(path: string | undefined, port: number, secret: string | undefined): Promise<RunningDynalite> {
  const worker = new Worker(THREAD, {
    workerData: { path, port, secret },
    execArgv: threadExecArgv(),
    resourceLimits: threadResourceLimits(),
  });
  const next = () =>
    new Promise<ThreadMessage>((resolve, reject) => {
      const settle = (message: ThreadMessage | Error) => {
        worker.off("message", settle);
        worker.off("error", settle);
        worker.off("exit", exited);
        if (message instanceof Error) reject(message);
        else resolve(message);
      };
      const exited = (code: number) => settle(new Error(`dynalite thread exited with code ${code}`));
      worker.on("message", settle);
      worker.on("error", settle);
      worker.on("exit", exited);
    });
  const started = await next();
  if (started.type !== "listening") {
    await worker.terminate();
    if (started.type !== "error") throw new Error("dynalite thread did not start");
    const { type: _, message, ...details } = started;
    throw Object.assign(new Error(message), details);
  }
  // A thread that fails later leaves its endpoint refusing: the callers' requests fail and say so.
  worker.on("error", (error) => serverLog.error({ event: "database", message: `dynalite thread: ${error.message}`, stack: error.stack }));
  // The thread does not keep the process alive by itself (a caller's requests to it do).
  worker.unref();
  let closing: Promise<void> | undefined;
  const connect = () => {
    const { port1, port2 } = new MessageChannel();
    worker.postMessage({ type: "connect", port: port2 }, [port2]);
    return port1;
  };
  return {
    endpoint: `http://127.0.0.1:${started.port}`,
    ...(secret === undefined ? {} : { secret }),
    connect,
    requestHandler: () => portRequestHandler(connect()),
    close() {
      closing ??= (async () => {
        const closed = next();
        worker.postMessage("close");
        const answer = await closed;
        await worker.terminate();
        if (answer.type === "closed" && answer.message) throw new Error(answer.message);
      })();
      return closing;
    },
  };
}
