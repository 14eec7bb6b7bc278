// an answer given before a request's body is read (a 413 past the JSON cap or a
// route's own) is read by a client still sending: the server reads and drops what still comes, up to
// a bound, before it closes the connection (a lingering close). A client that reads only once it has
// sent its body (as Node's fetch can) once met a broken pipe and never saw the 413.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "@server/local/server";

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer({ port: 0 });
}, 60_000);
afterAll(() => server?.close());

/** A POST of `mb` MB sent in 64 KB chunks, the answer read only once all is sent: what the client read. */
function sendThenRead(path: string, mb: number): Promise<string> {
  const url = new URL(server.url);
  return new Promise((done) => {
    const socket = connect(Number(url.port), url.hostname);
    let got = "";
    socket.pause();
    socket.on("data", (chunk) => (got += chunk.toString("utf8")));
    socket.on("error", (error: NodeJS.ErrnoException) => done(`${error.code}: ${got}`));
    socket.on("end", () => done(got));
    socket.on("connect", async () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${mb * 1048576}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 32);
      for (let sent = 0; sent < mb * 1048576; sent += chunk.length) {
        if (!socket.write(chunk)) await new Promise((resolve) => socket.once("drain", resolve));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      socket.resume();
    });
  });
}

describe("a lingering close after a 413", () => {
  for (const [path, mb] of [
    ["/api/token/", 2],
    ["/api/v1/abatement/evaluate/", 2],
    ["/api/token/", 8],
  ] as const) {
    it(`a client still sending ${mb} MB to ${path} reads the 413`, async () => {
      const answer = await sendThenRead(path, mb);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/"detail":"(Слишком большой запрос|Запрос больше 640 КБ)"/);
    });
  }
});
