// A signed-in user's bodies in flight are capped (open-bodies.ts, LIMITS.bodies.openPerUser) on the local
// server: with that many bodies still coming, the next request with a body is 429 at once naming the
// figure, before its body is read; a request whose body has come no longer counts, so the next is taken.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../contract/schemas/limits";
import { type LocalServer, startLocalServer } from "./server";

let server: LocalServer;
let token = "";

beforeAll(async () => {
  server = await startLocalServer({
    port: 0,
    demo: { email: "owner@open-bodies.ru", password: "open-bodies-2026", company: "ООО «Тела в пути»" },
  });
  const res = await fetch(`${server.url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "owner@open-bodies.ru", password: "open-bodies-2026" }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  token = ((await res.json()) as { access: string }).access;
});
afterAll(() => server.close());

/** A POST whose 100-byte body has sent its first 10 bytes. */
async function trickling(): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const answer = new Promise<string>((resolve) => socket.once("close", () => resolve(Buffer.concat(received).toString("utf8"))));
  socket.write(
    `POST /api/v1/facilities/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
      "Content-Length: 100\r\nConnection: close\r\n\r\n",
  );
  socket.write('{"name": "');
  return { socket, answer };
}

const create = (name: string) =>
  fetch(`${server.url}/api/v1/facilities/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name, kind: "underground_mine" }),
  });

describe("a user's bodies in flight", () => {
  it("are capped: the next is 429 naming the figure; once a body has come the next is taken", async () => {
    const max = LIMITS.bodies.openPerUser;
    const open = await Promise.all(Array.from({ length: max }, trickling));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await create("Шахта «Лишняя»");
    expect(refused.status, await refused.clone().text()).toBe(429);
    expect(((await refused.json()) as { detail: string }).detail).toContain(`У вас уже ${max} запросов с телом в пути`);

    // One body comes whole (the rest of its 100 bytes): it counts no more.
    const [first] = open;
    const rest = Buffer.from('Шахта «Пришедшая»", "kind": "underground_mine"}');
    first!.socket.write(Buffer.concat([rest, Buffer.alloc(90 - rest.byteLength, " ")]));
    const written = await first!.answer;
    expect(written).toMatch(/^HTTP\/1\.1 201 /);
    const taken = await create("Шахта «Следующая»");
    expect(taken.status, await taken.clone().text()).toBe(201);
    for (const { socket } of open) socket.destroy();
  }, 30_000);
});
