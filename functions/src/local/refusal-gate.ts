// The local server's first gate (R8): a source address that has spent its refusals
// (REFUSED_PER_ADDRESS, http/request-pace.ts: requests refused for their token or gateway key) is
// answered 429 here, as the request arrives, for every request under /api/v1/ until its allowance
// comes back — before the app sees it: no Request object built, no middleware run, no log line
// written per request. Junk tokens from one address at a flood rate used to be refused in the app's
// own middleware, which still cost the one request thread enough to put another company's get_me at
// p50 135 ms (1 025 a second); here each costs the HTTP parse and a few header bytes. What the gate
// refused is logged once a minute per address with its count.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { RefusalPace } from "../http/request-pace";

/** How often an address's refusals at the gate are told in the server log. */
const LOGGED_EVERY_MS = 60_000;

/** The 429 body, as the app's own (http/auth.ts) says it. */
const body = (wait: number) =>
  JSON.stringify({ detail: `Слишком много запросов без действительного токена с этого адреса. Повторите через ${wait} с` });

export interface RefusalGateOptions {
  refusals: RefusalPace;
  /** The request's client address as the app counts it (network.ts clientAddress). */
  addressOf(request: IncomingMessage): string;
  /** Told once a minute per address: how many it refused since. */
  log?(address: string, refused: number): void;
}

/** Wraps the server's request listener with the gate. */
export function refusalGate(listener: RequestListener, options: RefusalGateOptions): RequestListener {
  const told = new Map<string, { at: number; refused: number }>();
  return (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.startsWith("/api/v1/")) return listener(request, response);
    const address = options.addressOf(request);
    const wait = options.refusals.wait(address);
    if (wait === 0) return listener(request, response);
    const text = body(wait);
    const hasBody = request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined;
    response.writeHead(429, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
      "Retry-After": String(wait),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      // A body left unread: the client's next request goes on a fresh connection (app.ts).
      ...(hasBody ? { Connection: "close" } : {}),
    });
    response.end(text);
    if (options.log) {
      const now = Date.now();
      let entry = told.get(address);
      if (!entry) told.set(address, (entry = { at: now - LOGGED_EVERY_MS, refused: 0 }));
      entry.refused += 1;
      if (now - entry.at >= LOGGED_EVERY_MS) {
        options.log(address, entry.refused);
        entry.at = now;
        entry.refused = 0;
      }
      if (told.size > 1_000) for (const [key, e] of told) if (now - e.at >= LOGGED_EVERY_MS) told.delete(key);
    }
  };
}
