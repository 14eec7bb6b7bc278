// The local server's consumer of readings runs off its request thread (local/readings-consumer.ts):
// batches pushed and answered 202 are applied while the request thread is held still (Atomics.wait,
// its event loop runs nothing), which a consumer on that thread could not do; a watcher in a thread of
// the test's reads the batches over the engine's endpoint and wakes it once every one is done. What the
// consumer changed still reaches this thread's listeners (the live tiles', changes.ts), as typed arrays
// per sensor; another company's get_me is answered as soon as the thread runs again.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get } from "node:http";
import { Worker } from "node:worker_threads";
import { expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { LOCAL_TABLE } from "@server/local/storage";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import type { Change, ReadingsWritten } from "@server/ports";
import { createCompany, createUser } from "@server/domain/company/users";
import { bySize } from "../support/depth";
import { DEMO, accessToken, signInAsDemo } from "../support/server";
import { callApi as call } from "../support/api-call";

const SENSORS = 20;
const PER_BATCH = 10_000;
// Four pushes here, 40 (400 000 readings) in the deep tier: all applied while the request thread is held.
const BATCHES = bySize(4, 40);
const START = Date.UTC(2026, 0, 1);
/** How long the request thread is held at most: the batches are applied in seconds. */
const HOLD_MS = 120_000;

const batchBody = (index: number) => {
  const readings: { sensor: string; t: string; value: number }[] = [];
  const minutes = PER_BATCH / SENSORS;
  for (let m = index * minutes; m < (index + 1) * minutes; m++) {
    for (let s = 0; s < SENSORS; s++)
      readings.push({ sensor: `S-${s}`, t: new Date(START + m * 60_000).toISOString(), value: 0.3 + s / 100 });
  }
  return { readings };
};

/** A GET answered on a connection opened for it, not one of fetch's pooled ones. */
function getOnNewConnection(url: string, token: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    get(`${url}${path}`, { agent: false, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

/** A watcher thread of the test's (tests/support/batch-watch-thread.ts), loaded as the server's threads are. */
async function watcher(endpoint: string, engineSecret?: string): Promise<Worker> {
  const worker = new Worker(new URL("../../functions/src/local/thread-boot.ts", import.meta.url), {
    workerData: {
      endpoint,
      engineSecret,
      tableName: LOCAL_TABLE,
      entry: new URL("../support/batch-watch-thread.ts", import.meta.url).href,
    },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  return worker;
}

it(
  "applies pushed batches while the request thread is held, and tells this thread's listeners what they changed",
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "readings-thread-"));
    const heard: Change[] = [];
    const server = await startLocalServer({ dataDir, port: 0, demo: DEMO, listen: (change) => heard.push(change) });
    let worker: Worker | undefined;
    const changes = () => heard.filter((c): c is ReadingsWritten => c.type === "ReadingsWritten");
    try {
      const token = (await signInAsDemo(server.url)).access;
      const facility = await call(server.url, token, "POST", "/v1/facilities/", { name: "Шахта «Поток»", kind: "underground_mine" });
      const point = await call(server.url, token, "POST", `/v1/facilities/${facility.body.id}/points/`, {
        name: "Ствол",
        kind: "ventilation_shaft",
      });
      for (let s = 0; s < SENSORS; s++) {
        const made = await call(server.url, token, "POST", `/v1/facilities/${facility.body.id}/sensors/`, {
          code: `S-${s}`,
          kind: "methane",
          point: point.body.id,
        });
        expect(made.status).toBe(201);
      }
      const other = await createCompany(server.deps, { name: "ООО «Соседи»" });
      await createUser(server.deps, { companyId: other.id, email: "neighbour@example.com", password: "neighbour-password-1" });
      const otherToken = await accessToken(server.url, { email: "neighbour@example.com", password: "neighbour-password-1" });

      const { endpoint, secret } = JSON.parse(readFileSync(join(dataDir, "dynamodb-endpoint.json"), "utf8")) as {
        endpoint: string;
        secret: string;
      };
      worker = await watcher(endpoint, secret);
      // Four at a time, as a gateway's pushers (readings-crash.test.ts).
      const answers: Awaited<ReturnType<typeof call>>[] = [];
      for (let i = 0; i < BATCHES; i += 4) {
        const group = Array.from({ length: Math.min(4, BATCHES - i) }, (_, j) => i + j);
        answers.push(
          ...(await Promise.all(
            group.map((n) => call(server.url, token, "POST", "/v1/telemetry/readings/", { facility: facility.body.id, ...batchBody(n) })),
          )),
        );
      }
      for (const answer of answers) expect(answer.status).toBe(202);
      const batches = answers.map((answer) => String(answer.body.batch));
      const flag = new Int32Array(new SharedArrayBuffer(4));
      worker.postMessage({ company: String(facility.body.company), batches, flag: flag.buffer });
      // From here until the watcher wakes it this thread (the server's request thread) runs nothing.
      const woken = Atomics.wait(flag, 0, 0, HOLD_MS);
      expect(woken, "the batches were not applied while the request thread was held").toBe("ok");
      expect(Atomics.load(flag, 0), "a batch was seen queued, then every one done, while the request thread was held").toBe(1);

      // The request thread answers another company at once (on a connection of its own: the pooled
      // ones sat idle while this thread was held, and the server closes them as its keep-alive timers
      // fire on waking, so a request sent on one then was reset).
      const me = await getOnNewConnection(server.url, otherToken, "/api/v1/users/get_me/");
      expect(me.status).toBe(200);
      expect(me.body.email).toBe("neighbour@example.com");

      await monitoringIdle(server.deps);
      for (const answer of answers) {
        const status = await call(server.url, token, "GET", `/v1/telemetry/batches/${answer.body.batch}/`);
        expect(status.body).toMatchObject({ state: "done", accepted: PER_BATCH, duplicate: 0, corrected: 0 });
      }
      // Each batch's days published on the consumer's thread, posted back and heard here, their
      // readings per sensor in typed arrays.
      expect(new Set(changes().flatMap((c) => c.batches))).toEqual(new Set(answers.map((a) => String(a.body.batch))));
      const told = changes().flatMap((c) => c.readings);
      expect(told.every((r) => r.times instanceof Float64Array && r.values instanceof Float64Array)).toBe(true);
      expect(told.reduce((n, r) => n + r.times.length, 0)).toBe(BATCHES * PER_BATCH);
      expect(changes().every((c) => new Set(c.readings.map((r) => r.sensor)).size === SENSORS)).toBe(true);
    } finally {
      await worker?.terminate();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  HOLD_MS + 120_000,
);
