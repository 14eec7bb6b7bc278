// The local host's dynalite engine (packages/dynalite, the project's fork of dynalite 4.0.0: its
// README lists what the fork changes and why, in its source): its HTTP server on a loopback port,
// which answers only a caller naming this start's secret (the security review's R18) and also answers a snapshot
// of the whole store (backup.ts), and the store the engine answers from, which this process's own
// clients are handed (dynalite-answer.ts, without HTTP). The engine's thread loads it as it is (Node
// strips the types, no loader): erasable TypeScript only.
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import dynalite from "dynalite";

/** The path on the engine's loopback port that answers a snapshot of the whole store (backup.ts). */
export const SNAPSHOT_PATH = "/fugitive/snapshot";
/** Records per line batch of a snapshot. */
const SNAPSHOT_BATCH = 1000;

/** Writes every key and value of the store as they were when the request came, one JSON line
 *  `[key, value]` (both as stored, UTF-8) each, then `{"end": count}`: the store's iterator reads
 *  through a read transaction begun when it is made, so writes made meanwhile are not in it, and
 *  every write acknowledged before is. A cut answer lacks its last line. */
async function answerSnapshot(store: dynalite.Store, response: ServerResponse): Promise<void> {
  const iterator = store.db.iterator({ keyEncoding: "utf8", valueEncoding: "utf8" });
  response.writeHead(200, { "Content-Type": "application/x-ndjson" });
  let count = 0;
  try {
    for (;;) {
      const entries = await iterator.nextv(SNAPSHOT_BATCH);
      if (entries.length === 0) break;
      count += entries.length;
      const lines = entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
      if (!response.write(lines)) await new Promise<void>((resolve) => response.once("drain", () => resolve()));
      if (response.destroyed) return;
    }
    response.end(`${JSON.stringify({ end: count })}\n`);
  } catch (error) {
    response.destroy(error as Error);
  } finally {
    await iterator.close();
  }
}

/** dynalite's HTTP server for `options`, the store it answers from (the one a request of this
 *  process is handed to, dynalite-answer.ts), and `opened`, which settles once the store is open:
 *  rejected with the store's own error (LEVEL_LOCKED: the folder is another process's;
 *  LEVEL_CORRUPTION: its database failed its check, sqlite-level.mts). dynalite opens its store on
 *  its own and keeps the failure to itself (every call then fails with «Database is closed»), so the
 *  open is asked for here, before it starts, and waited for before the port is taken. Its loopback
 *  port also answers GET SNAPSHOT_PATH. */
export function createEngine(options: dynalite.Options & { secret?: string }): {
  server: Server;
  store: dynalite.Store;
  opened: Promise<void>;
} {
  const { secret, ...engineOptions } = options;
  const server = dynalite(engineOptions);
  const { store } = server;
  // abstract-level wraps an open's failure as «Database failed to open»; its cause is the store's.
  const opened = store.db.open().catch((error: { code?: string; cause?: unknown }) => {
    throw error?.code === "LEVEL_DATABASE_NOT_OPEN" && error.cause ? error.cause : error;
  });
  const [answer] = server.listeners("request") as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    // the security review's R18: with a secret, the loopback port answers only a caller who names it: any local
    // process could reach the port, and dynalite checks no signature.
    if (secret !== undefined && !carriesSecret(request, secret)) return refuseUnnamed(request, response);
    if (request.method === "GET" && request.url === SNAPSHOT_PATH) answerSnapshot(store, response);
    else answer(request, response);
  });
  return { server, store, opened };
}

/** The header a caller of the snapshot (or any plain HTTP call) names the engine's secret in; an SDK
 *  client names it as its access key id (the SigV4 Authorization's Credential=…/). */
export const ENGINE_SECRET_HEADER = "x-engine-secret";

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(String(a));
  const y = Buffer.from(String(b));
  return x.length === y.length && timingSafeEqual(x, y);
}

function carriesSecret(request: IncomingMessage, secret: string): boolean {
  const named = request.headers[ENGINE_SECRET_HEADER];
  if (typeof named === "string" && sameText(named, secret)) return true;
  const credential = /Credential=([^/,\s]+)\//.exec(String(request.headers.authorization ?? ""))?.[1];
  return credential !== undefined && sameText(credential, secret);
}

/** DynamoDB's own answer to a key it does not know, after the request's body is read. */
function refuseUnnamed(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  request.once("end", () => {
    response.writeHead(400, { "Content-Type": "application/x-amz-json-1.0" });
    response.end(
      JSON.stringify({
        __type: "com.amazonaws.dynamodb.v20120810#UnrecognizedClientException",
        message: "The security token included in the request is invalid.",
      }),
    );
  });
}
