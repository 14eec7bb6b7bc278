// A client of the server in a thread of its own: a request sent and its answer read there, so that a
// test that watches its own thread (the server's front thread, when the server runs in the test's
// process: tests/support/loop-budget.ts, tests/integration/app-threads.test.ts) counts none of the client's work — the HTTP parser's over a
// 10 MB download, a 10 MB upload's writes — as the front's.
import { Worker } from "node:worker_threads";

export interface ClientRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: ArrayBuffer;
  /** A stream read until its text holds this, then closed. */
  until?: string;
}

export interface ClientAnswer {
  status: number;
  body: ArrayBuffer;
  /** From the request sent to its answer's body read, as the client thread saw it, ms. */
  ms: number;
}

const SOURCE = `
const { parentPort } = require("node:worker_threads");
async function streamedUntil(res, until, abort) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes(until)) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended before «" + until + "»");
    text += value;
  }
  abort.abort();
  await reader.cancel().catch(() => {});
  return new TextEncoder().encode(text).buffer;
}
parentPort.on("message", async ({ id, request }) => {
  try {
    const started = performance.now();
    const abort = new AbortController();
    const res = await fetch(request.url, { signal: abort.signal, method: request.method, headers: request.headers, body: request.body });
    const body = request.until === undefined || !res.ok ? await res.arrayBuffer() : await streamedUntil(res, request.until, abort);
    parentPort.postMessage({ id, status: res.status, body, ms: performance.now() - started }, [body]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.stack || error) });
  }
});`;

/** One thread's client; `close` ends it. */
export function clientThread() {
  const worker = new Worker(SOURCE, { eval: true });
  worker.unref();
  let next = 1;
  const waiting = new Map<number, { resolve(answer: ClientAnswer): void; reject(error: Error): void }>();
  worker.on("message", (message: { id: number; status?: number; body?: ArrayBuffer; ms?: number; error?: string }) => {
    const call = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) call?.reject(new Error(message.error));
    else call?.resolve({ status: message.status!, body: message.body!, ms: message.ms! });
  });
  return {
    send(request: ClientRequest): Promise<ClientAnswer> {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, request }, request.body ? [request.body] : []);
      });
    },
    close: () => worker.terminate(),
  };
}
