// A body has a deadline by its size (body-deadline.ts, LIMITS.bodies): 10 MB in 60 s, a small one in
// its least time. A signed-in user's body trickling at 100 B/s was held 325 s (Node's requestTimeout):
// now it is answered 408 at its deadline and the connection closed, and the server answers on.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyDeadlineMs } from "./body-deadline";
import { type LocalServer, startLocalServer } from "./server";

describe("a body's deadline by its size", () => {
  it("is 60 s for 10 MB, proportionally less for less, never under the least", () => {
    expect(bodyDeadlineMs(10 * 1024 * 1024)).toBe(60_000);
    expect(bodyDeadlineMs(5 * 1024 * 1024)).toBe(30_000);
    expect(bodyDeadlineMs(1024)).toBe(10_000);
  });
});

describe("a body trickling on the local server", () => {
  let server: LocalServer;
  beforeAll(async () => {
    // 1 000 B a second, at least 0,5 s: a 2 000-byte body has 2 s.
    server = await startLocalServer({ port: 0, bodyPace: { bytesPerSecond: 1_000, minMs: 500 } });
  });
  afterAll(() => server.close());

  it("is answered 408 at its deadline and its connection closed; the server answers on", async () => {
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(performance.now())));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const started = performance.now();
    socket.write("POST /api/token/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n");
    // 100 B a second, as the finding's client sent.
    const trickle = setInterval(() => socket.writable && socket.write("x".repeat(100)), 1_000);
    const at = await closed;
    clearInterval(trickle);
    const answer = Buffer.concat(received).toString("utf8");
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain("Тело запроса (2 КБ) не получено за 2 с");
    expect(at - started).toBeGreaterThan(1_900);
    expect(at - started).toBeLessThan(5_000);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 20_000);

  it("lets a body that comes in time through", async () => {
    const res = await fetch(`${server.url}/api/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password" }),
    });
    expect(res.status).toBe(401);
  });
});
