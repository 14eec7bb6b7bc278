// Bodies over a cap on a real socket: the 413 closes the connection cleanly, so a keep-alive client
// carries on with a new one; and a JSON body labelled as a form gets no larger cap than JSON.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import { startLocalServer, type LocalServer } from "@server/local/server";

const dataDir = mkdtempSync(join(tmpdir(), "fugitive-413-"));
const demo = { email: "demo@example.com", password: "demo-password" };
let server: LocalServer;
let token: string;
// One kept-alive connection for every request, as a browser or an HTTP client library would hold.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The connection it came on. */
  socket: Socket;
}

/** Resolves once the connection an answer came on is closed (the server closes it after a 413). */
function connectionClosed(answer: Answer): Promise<void> {
  return answer.socket.closed ? Promise.resolve() : new Promise((resolve) => answer.socket.once("close", () => resolve()));
}

function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? "GET", headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ statusCode: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString(), socket: res.socket }),
      );
      res.on("error", reject);
    });
    // The server may answer and close before the whole body is sent; the answer is what counts.
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    req.end(init.body);
  });
}

async function formBytes(form: FormData): Promise<{ body: Uint8Array; type: string }> {
  const encoded = new Request("http://localhost/", { method: "POST", body: form });
  return { body: new Uint8Array(await encoded.arrayBuffer()), type: encoded.headers.get("content-type")! };
}

beforeAll(async () => {
  server = await startLocalServer({ dataDir, port: 0, demo });
  const res = await request(`${server.url}/api/token/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...demo, guardant_code: "" }),
  });
  token = (JSON.parse(res.text) as { access: string }).access;
});
afterAll(async () => {
  agent.destroy();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const bearer = () => ({ authorization: `Bearer ${token}` });

async function getMe() {
  return (await request(`${server.url}/api/v1/users/get_me/`, { headers: bearer() })).statusCode;
}

describe("oversized bodies", () => {
  it("answers a 2 MB JSON POST with 413 and Connection: close; the next request on the same agent gets 200", async () => {
    const res = await request(`${server.url}/api/v1/projects/create_project/`, {
      method: "POST",
      headers: { ...bearer(), "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe("close");
    expect(JSON.parse(res.text)).toEqual({ detail: expect.any(String) });
    await connectionClosed(res);
    expect(await getMe()).toBe(200);
  });

  it("does the same for a multipart upload over its cap", async () => {
    const form = new FormData();
    form.append("name", "Прогноз");
    form.append("file_data", new File([new Uint8Array(6 * 1024 * 1024).fill(65)], "big.csv", { type: "text/csv" }));
    const { body, type } = await formBytes(form);
    const res = await request(`${server.url}/api/v1/regres_methane/`, {
      method: "POST",
      headers: { ...bearer(), "content-type": type },
      body,
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe("close");
    await connectionClosed(res);
    expect(await getMe()).toBe(200);
  });

  it("refuses a JSON body labelled as a form where JSON is expected (no way around the 1 MB cap)", async () => {
    const boundary = "----x";
    const res = await request(`${server.url}/api/v1/regres_methane/some-id/data_update/`, {
      method: "PATCH",
      headers: { ...bearer(), "content-type": `multipart/form-data; boundary=${boundary}` },
      body: JSON.stringify({ data: Array.from({ length: 30_000 }, (_, i) => ({ id: i, value: "x".repeat(100) })) }),
    });
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.text)).toEqual({ detail: expect.stringContaining("JSON") });
    // Refused unread like a 413, and the connection goes on just as well.
    await connectionClosed(res);
    expect(await getMe()).toBe(200);
  });

  it("caps the text fields of a form at the JSON body's limit", async () => {
    const form = new FormData();
    form.append("name", "x".repeat(3 * 1024 * 1024));
    const { body, type } = await formBytes(form);
    const res = await request(`${server.url}/api/v1/regres_methane/`, {
      method: "POST",
      headers: { ...bearer(), "content-type": type },
      body,
    });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.text)).toEqual({ detail: "Слишком большой запрос" });
  });
});
