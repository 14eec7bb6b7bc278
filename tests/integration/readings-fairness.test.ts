// an earlier round's R1/R2 from the consumer's side, on the server as `npm start` runs it (a process of its own,
// the consumer in its thread), at this machine's size: while one company's heavy batch is applied (a
// dispatch file of 20 sensors × 60 days, 1,7 million readings in parts of a UTC day), another company's
// reading pushed at the same time is applied within 10 s — the companies take turns a part at a time —
// and that company's get_me p50 stays under 50 ms. Before, the file's batch held every other company's
// until its last part.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { neighbourUser } from "../support/admin-command";
import { accessToken, signInAsDemo } from "../support/server";
import { startServerProcess } from "../support/server-process";
import { callApi } from "../support/api-call";

/** A call of the API; a GET whose pooled connection the server closed as it was sent (its 5 s
 *  keep-alive, late on a loaded machine: «other side closed») is asked once more. */
const call = (url: string, token: string, method: string, path: string, body?: unknown) =>
  callApi(url, token, method, path, body).catch((error: unknown) => {
    if (method !== "GET") throw error;
    return callApi(url, token, method, path, body);
  });

const SENSORS = 20;
const DAYS = 60;
/** The file's first day: well within the 24 months a reading may be back. */
const START = Math.floor(Date.now() / 86_400_000) * 86_400_000 - (DAYS + 10) * 86_400_000;

/** A dispatch export: a column per sensor, a reading a minute, the company's clock (UTC+7), cp1251-safe.
 *  Its values 0,30–0,69 % stay under the shaft's norm (0,75 %, D87): the file is readings, not gassings
 *  (at up to 0,79 % each sensor gave 144 a day, 2 880 entries of the book a part for the record to write,
 *  5–9 s a part, and the file was not in within 4 minutes). */
function dispatchFile(): Buffer {
  const p = (n: number) => String(n).padStart(2, "0");
  const lines = [`Время;${Array.from({ length: SENSORS }, (_, s) => `S-${s}`).join(";")}`];
  for (let m = 0; m < DAYS * 1440; m++) {
    const local = new Date(START + m * 60_000 + 7 * 3_600_000);
    const time = `${p(local.getUTCDate())}.${p(local.getUTCMonth() + 1)}.${local.getUTCFullYear()} ${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:00`;
    const values = Array.from({ length: SENSORS }, (_, s) => (0.3 + ((m * 7 + s * 13) % 40) / 100).toFixed(3).replace(".", ","));
    lines.push(`${time};${values.join(";")}`);
  }
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "latin1");
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

it("applies another company's reading within 10 s while one company's dispatch file of 1,7 million readings is applied, its get_me p50 under 50 ms", async () => {
  // Made first: seconds of CPU on a loaded machine, during which a pooled connection would sit idle
  // past the server's 5 s keep-alive and be closed as the next request goes out on it.
  const file = dispatchFile();
  const dataDir = mkdtempSync(join(tmpdir(), "readings-fairness-"));
  const server = await startServerProcess(dataDir);
  let log = "";
  server.child.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  server.child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  server.child.once("exit", (code, signal) => (log += `\n[server ended: ${code ?? signal}]`));
  try {
    const a = (await signInAsDemo(server.url)).access;
    const facility = await call(server.url, a, "POST", "/v1/facilities/", { name: "Шахта «Год»", kind: "underground_mine" });
    const point = await call(server.url, a, "POST", `/v1/facilities/${facility.body.id}/points/`, {
      name: "Ствол",
      kind: "ventilation_shaft",
    });
    for (let s = 0; s < SENSORS; s++) {
      const made = await call(server.url, a, "POST", `/v1/facilities/${facility.body.id}/sensors/`, {
        code: `S-${s}`,
        kind: "methane",
        point: point.body.id,
      });
      expect(made.status).toBe(201);
    }
    const neighbour = await neighbourUser(dataDir, "neighbour@fairness.example");
    const b = await accessToken(server.url, neighbour);
    const near = await call(server.url, b, "POST", "/v1/facilities/", { name: "Шахта «Соседняя»", kind: "underground_mine" });
    const nearPoint = await call(server.url, b, "POST", `/v1/facilities/${near.body.id}/points/`, {
      name: "Ствол",
      kind: "ventilation_shaft",
    });
    expect(
      (
        await call(server.url, b, "POST", `/v1/facilities/${near.body.id}/sensors/`, {
          code: "N-1",
          kind: "methane",
          point: nearPoint.body.id,
        })
      ).status,
    ).toBe(201);

    // The heavy batch: the file uploaded straight to storage and named.
    const grant = await call(server.url, a, "POST", "/v1/telemetry/upload-url/", {
      facility: facility.body.id,
      content_type: "text/csv",
      size: file.byteLength,
      name: "АГК.csv",
    });
    expect(grant.status).toBe(200);
    const put = await fetch(`${server.url}${grant.body.url as string}`, {
      method: "PUT",
      headers: { ...(grant.body.headers as Record<string, string>), "Content-Length": String(file.byteLength) },
      body: file,
    });
    expect(put.status).toBe(200);
    const named = await call(server.url, a, "POST", "/v1/telemetry/files/", {
      facility: facility.body.id,
      file_upload: grant.body.file_upload,
    });
    expect(named.status).toBe(202);
    const heavy = String(named.body.batch);
    const state = async (token: string, batch: string) =>
      String((await call(server.url, token, "GET", `/v1/telemetry/batches/${batch}/`)).body.state);

    // Once the file is being applied, the neighbour pushes, and asks get_me meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const pushedAt = Date.now();
    const pushed = await call(server.url, b, "POST", "/v1/telemetry/readings/", {
      facility: near.body.id,
      readings: [{ sensor: "N-1", t: new Date(START + 60_000).toISOString(), value: 0.2 }],
    });
    expect(pushed.status).toBe(202);
    const latencies: number[] = [];
    let appliedMs: number | undefined;
    let heavyWhenApplied = "";
    while (appliedMs === undefined && Date.now() - pushedAt < 10_000) {
      const started = performance.now();
      const me = await call(server.url, b, "GET", "/v1/users/get_me/");
      expect(me.status).toBe(200);
      latencies.push(performance.now() - started);
      if ((await state(b, String(pushed.body.batch))) === "done") {
        appliedMs = Date.now() - pushedAt;
        heavyWhenApplied = await state(a, heavy);
      } else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(appliedMs, "the neighbour's reading was not applied within 10 s").toBeDefined();
    // Applied while the file still was: its turn came between the file's parts.
    expect(heavyWhenApplied).toBe("queued");
    // get_me asked until the file is applied too.
    const fileStarted = Date.now();
    while ((await state(a, heavy)) === "queued" && Date.now() - fileStarted < 240_000) {
      const started = performance.now();
      await call(server.url, b, "GET", "/v1/users/get_me/");
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const done = (await call(server.url, a, "GET", `/v1/telemetry/batches/${heavy}/`)).body;
    expect(done).toMatchObject({ state: "done", accepted: SENSORS * DAYS * 1440 });
    console.log(
      `fairness: the neighbour's reading applied in ${appliedMs} ms while the file was applied (${((Date.now() - pushedAt) / 1000).toFixed(1)} s from the push to the file done); get_me p50 ${median(latencies).toFixed(1)} ms of ${latencies.length}`,
    );
    expect(median(latencies)).toBeLessThan(50);
  } catch (error) {
    console.log(`the server's log:\n${log.slice(-4000)}`);
    throw error;
  } finally {
    server.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 420_000);
