// A dynalite engine in a worker thread of its own (dynalite.ts): the engine's request parsing,
// expression evaluation and store calls run beside the server's event loop, not on it. Node loads it
// as it is, stripping the types, so the thread starts without a TypeScript loader: erasable
// TypeScript only, its own imports named with `.ts`.
// Two ways in: its loopback port (other processes: the admin command, a second server's check), and
// message ports of this process's own clients (dynalite-port.ts), which hand it the SDK's request as
// it would have gone over HTTP and take its answer back, without a socket, an HTTP parser or a
// signature on either side. Both reach the same engine, validation and actions, so it answers alike.
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { type MessagePort, parentPort as parent, workerData } from "node:worker_threads";
import { answerRequest } from "./dynalite-answer.ts";
import { createEngine } from "./dynalite-engine.ts";
import { engineTurns, operationOf } from "./engine-turns.ts";

/** The thread's own port to the thread that started it (a worker thread always has one). */
const parentPort = parent!;
const { path, port, secret } = workerData as { path?: string; port: number; secret?: string };
const { server, store, opened } = createEngine({ path, secret, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
const failed = (error: Error & { code?: string; file?: unknown; found?: unknown }) =>
  parentPort.postMessage({
    type: "error",
    message: error.message,
    code: error.code,
    ...(typeof error.file === "string" ? { file: error.file, found: error.found } : {}),
  });
server.once("error", failed);
// The port is taken once the store is open: a store another process holds, or one that fails its
// check, fails the start with its own error (dynalite-engine.ts, createEngine).
opened.then(
  () => server.listen(port, "127.0.0.1", () => parentPort.postMessage({ type: "listening", port: (server.address() as AddressInfo).port })),
  failed,
);

/** ENGINE_CALLS_FILE (the create bench): every call the engine answered on its message ports, all
 *  this process's clients together (the request path's and the table stream handler's), by its
 *  operation, written there as JSON at most twice a second: calls counted, not timed, so the figure
 *  holds on a loaded machine. */
const callsFile = process.env.ENGINE_CALLS_FILE;
const calls: Record<string, number> = {};
let writing = false;
function counted(headers: Record<string, string>) {
  const operation = String(headers["x-amz-target"] ?? "").split(".")[1] ?? "?";
  calls[operation] = (calls[operation] ?? 0) + 1;
  if (writing) return;
  writing = true;
  setTimeout(() => {
    writing = false;
    writeFileSync(callsFile!, JSON.stringify(calls));
  }, 500).unref();
}

/** How long a close waits for the requests being answered before it closes the store under them. */
const CLOSE_WAIT_MS = 10_000;
/** The message ports served, and the requests taken from them and not yet answered: a close lets
 *  those finish first. A query's value stream still reading when the store (then LevelDB) closed threw («Iterator is
 *  not open») and took the thread down with it. */
const channels = new Set<MessagePort>();
let answering = 0;
let closing = false;
let idle: (() => void) | undefined;

/** The heavy reads taken in turn by lane (engine-turns.ts). */
const turns = engineTurns();

/** Answers the requests that come in on `channel` (dynalite-port.ts: { id, headers, body, lane })
 *  with { id, status, headers, body }, with the engine the HTTP server uses (dynalite-answer.ts), a
 *  heavy read in its lane's turn where an app thread names the request's lane. Once the thread is
 *  closing, a request is left to the port's close, which fails it as a refused connection
 *  would. */
function serve(channel: MessagePort) {
  channels.add(channel);
  // A client's port closed (a thread that ended) is forgotten.
  channel.once("close", () => channels.delete(channel));
  channel.on("message", ({ id, headers, body, lane }: { id: number; headers: Record<string, string>; body: string; lane?: string }) => {
    if (closing) return;
    if (callsFile) counted(headers);
    answering++;
    turns.take(lane, operationOf(headers["x-amz-target"]), (done) =>
      answerRequest(store, headers, body, (answer) => {
        done();
        channel.postMessage({ id, ...answer });
        answering--;
        if (answering === 0) idle?.();
      }),
    );
  });
}

/** Resolves once no request is being answered, or after CLOSE_WAIT_MS (an engine error that never
 *  answers). */
const answered = () =>
  new Promise<void>((done) => {
    if (answering === 0) return done();
    idle = done;
    setTimeout(done, CLOSE_WAIT_MS).unref();
  });

parentPort.on("message", async (message: "close" | { type: "connect"; port: MessagePort }) => {
  if (typeof message === "object" && message?.type === "connect") {
    if (closing) message.port.close();
    else serve(message.port);
    return;
  }
  if (message !== "close" || closing) return;
  closing = true;
  await answered();
  for (const channel of channels) channel.close();
  // dynalite's close stops the HTTP server and then closes its store cleanly.
  server.close((error) => parentPort.postMessage({ type: "closed", message: error?.message }));
});
