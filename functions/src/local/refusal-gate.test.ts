// The local server's first gate (R8): an address past its refusals is answered 429 before
// the app's listener runs, for requests under /api/v1/ only; the app is reached for everything else
// and for an address with an allowance left. A server on 127.0.0.1, closed after the file.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusalPace } from "../http/request-pace";
import { refusalGate } from "./refusal-gate";

const clock = { now: () => 0, after: () => undefined };
const refusals = refusalPace({ burst: 1, perSecond: 1 }, clock);
let reachedApp = 0;
const logged: [string, number][] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer(
    refusalGate(
      (_req, res) => {
        reachedApp += 1;
        res.writeHead(200).end("app");
      },
      { refusals, addressOf: (req) => String(req.headers["x-test-address"]), log: (address, n) => logged.push([address, n]) },
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (path: string, address: string, init: RequestInit = {}) =>
  fetch(`${url}${path}`, { ...init, headers: { "X-Test-Address": address, ...init.headers } });

describe("the first gate", () => {
  it("lets an address with refusals left reach the app, and answers one with none 429 itself under /api/v1/ only", async () => {
    expect((await get("/api/v1/users/get_me/", "203.0.113.5")).status).toBe(200);
    refusals.take("203.0.113.5");
    const before = reachedApp;
    const refused = await get("/api/v1/users/get_me/", "203.0.113.5");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("connection")).not.toBe("close");
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /^Слишком много запросов без действительного токена с этого адреса/,
    );
    const withBody = await get("/api/v1/telemetry/readings/", "203.0.113.5", { method: "POST", body: "x".repeat(1000) });
    expect(withBody.status).toBe(429);
    expect(withBody.headers.get("connection")).toBe("close");
    expect(reachedApp).toBe(before);
    // The sign-in, the web app and another address are the app's.
    for (const [path, address] of [
      ["/api/token/", "203.0.113.5"],
      ["/settings", "203.0.113.5"],
      ["/api/v1/users/get_me/", "198.51.100.5"],
    ])
      expect((await get(path, address)).status, path).toBe(200);
    expect(reachedApp).toBe(before + 3);
    // Told once (the first refusal of the minute), not per request.
    expect(logged).toEqual([["203.0.113.5", 1]]);
  });
});
