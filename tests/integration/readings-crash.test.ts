// The local server killed (SIGKILL) while a mine's gateway pushes readings, batches of 10 000 four at a
// time (a million readings in the deep tier, 100 000 here): after a restart on the same data folder every
// batch that was answered 202 is applied exactly once — its 10 000 readings accepted, none a duplicate —
// and every one of its readings is in its sensor's days with its value, once (methodology D57).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { readingsBetween } from "@server/domain/monitoring/minutes/consumer";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { bySize } from "../support/depth";
import { DEMO, signInAsDemo } from "../support/server";
import { startServerProcess } from "../support/server-process";
import { callApi as call } from "../support/api-call";

const SENSORS = 20;
const PER_BATCH = 10_000;
const MINUTES_PER_BATCH = PER_BATCH / SENSORS;
const READINGS = bySize(100_000, 1_000_000);
const BATCHES = READINGS / PER_BATCH;
const START = Date.UTC(2026, 0, 1);
const readingOf = (sensor: number, minute: number) => Math.round((0.3 + ((minute * 7 + sensor * 13) % 50) / 100) * 1000) / 1000;

const batchBody = (index: number) => {
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = index * MINUTES_PER_BATCH; m < (index + 1) * MINUTES_PER_BATCH; m++) {
    for (let s = 0; s < SENSORS; s++)
      readings.push({ sensor: `S-${s}`, t: new Date(START + m * 60_000).toISOString(), value: readingOf(s, m) });
  }
  return { readings };
};

it(
  `applies every batch answered 202 exactly once after a SIGKILL during a push of ${READINGS.toLocaleString("en")} readings`,
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "readings-crash-"));
    try {
      const first = await startServerProcess(dataDir);
      const token = (await signInAsDemo(first.url)).access;
      const facility = await call(first.url, token, "POST", "/v1/facilities/", { name: "Шахта «Сбой»", kind: "underground_mine" });
      const point = await call(first.url, token, "POST", `/v1/facilities/${facility.body.id}/points/`, {
        name: "Ствол",
        kind: "ventilation_shaft",
      });
      const keyAnswer = await call(first.url, token, "POST", `/v1/facilities/${facility.body.id}/gateway-keys/`, { label: "Шлюз" });
      const sensorIds: string[] = [];
      for (let s = 0; s < SENSORS; s++) {
        const made = await call(first.url, token, "POST", `/v1/facilities/${facility.body.id}/sensors/`, {
          code: `S-${s}`,
          kind: "methane",
          point: point.body.id,
        });
        expect(made.status).toBe(201);
        sensorIds.push(String(made.body.id));
      }
      const acknowledged = new Map<number, string>();
      let next = 0;
      // Killed once a third of the batches were answered, with pushes on their way.
      const killAfter = Math.max(2, Math.floor(BATCHES / 3));
      let killing: Promise<void> | undefined;
      const pusher = async () => {
        while (next < BATCHES) {
          const index = next++;
          const res = await fetch(`${first.url}/api/v1/telemetry/readings/`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Authorization: `Gateway ${keyAnswer.body.key}` },
            body: JSON.stringify(batchBody(index)),
          }).catch(() => undefined);
          if (!res) return;
          if (res.status === 202) acknowledged.set(index, String(((await res.json()) as { batch: string }).batch));
          if (acknowledged.size >= killAfter && !killing) {
            killing = new Promise<void>((done) => {
              first.child.once("exit", () => done());
              first.child.kill("SIGKILL");
            });
          }
        }
      };
      await Promise.all([pusher(), pusher(), pusher(), pusher()]);
      await killing;
      expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter);
      expect(acknowledged.size).toBeLessThan(BATCHES);

      const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
      try {
        await monitoringIdle(server.deps);
        const company = String(facility.body.company);
        for (const [index, batch] of acknowledged) {
          // Done once the start's drains are: a batch whose attempt the kill cut short, waiting out its
          // back-off, is the drain's still (readings-interrupted-restart.test.ts).
          const stored = await server.deps.repos.monitoring.getBatch(company, batch);
          expect(stored, `batch ${index}`).toMatchObject({ state: "done", accepted: PER_BATCH, duplicate: 0, corrected: 0, refused: [] });
        }
        // Every acknowledged reading is in its sensor's days with its value, once.
        for (let s = 0; s < SENSORS; s += 7) {
          const all = await readingsBetween(server.deps, company, sensorIds[s], START, START + BATCHES * MINUTES_PER_BATCH * 60_000);
          const byMinute = new Map<number, number>();
          all.times.forEach((t, i) => {
            expect(byMinute.has(t)).toBe(false);
            byMinute.set(t, all.values[i]);
          });
          for (const index of acknowledged.keys()) {
            for (let m = index * MINUTES_PER_BATCH; m < (index + 1) * MINUTES_PER_BATCH; m++) {
              expect(byMinute.get(START + m * 60_000)).toBe(readingOf(s, m));
            }
          }
        }
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  bySize(180_000, 900_000),
);
