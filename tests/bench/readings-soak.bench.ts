// `npm run bench -- readings-soak`: the verifier's shape pushed twice, each time at a local
// server of its own as `npm start` runs it (its own process, a new data folder): 14 meters over 12 days of
// minutes (some minutes with two readings), 3 % sent twice, shuffled, 261 246 lines in batches of 8 000
// pushed back to back without waiting for the consumer. Then the server is stopped and its folder read:
// prints per run the readings acknowledged, stored, lost (acknowledged and not stored, or stored with
// another value), stored twice, stored without being sent, the batches' `accepted` against the distinct
// readings, and the time from the first push to the last batch done. SOAK_DAYS sets the days (12).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "@server/domain/context";
import { openSharedStorage } from "@server/local/storage";
import { signInAsDemo } from "../support/server";
import { startServerProcess } from "../support/server-process";
import { callApi } from "../support/api-call";
import {
  acknowledgedModel,
  appliedCounts,
  cut,
  differences,
  meteredFacility,
  pushAll,
  seeded,
  storedReadings,
  strays,
  verifierShape,
} from "../support/readings-shape";

const DAYS = Number(process.env.SOAK_DAYS ?? 12);
const START = Date.UTC(2026, 9, 1);
const CODES = Array.from({ length: 14 }, (_, i) => `К-${i + 1}`);

async function soak(run: number) {
  const dataDir = mkdtempSync(join(tmpdir(), "readings-soak-"));
  try {
    const server = await startServerProcess(dataDir);
    const token = (await signInAsDemo(server.url)).access;
    const mine = await meteredFacility(server.url, token, CODES);
    const { readings, sent } = verifierShape({ codes: CODES, days: DAYS, start: START, random: seeded(95 + run) });
    const began = performance.now();
    const pushed = await pushAll(server.url, mine.key, cut(sent, 8000));
    // The last batch done: the consumer applies them in the order stored.
    for (const p of pushed) {
      for (;;) {
        const status = await callApi(server.url, token, "GET", `/v1/telemetry/batches/${p.batch}/`);
        if (status.body.state !== "queued") break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const applied = performance.now() - began;
    const accepted = await appliedCounts(server.url, token, pushed);
    await new Promise<void>((done) => {
      server.child.once("exit", () => done());
      server.child.kill("SIGTERM");
    });
    const storage = await openSharedStorage(dataDir);
    try {
      const { stored, twice } = await storedReadings(
        { repos: storage.repos, clock: systemClock },
        mine.company,
        mine.sensors,
        START,
        START + DAYS * 86_400_000,
      );
      const lost = differences(acknowledgedModel(pushed), stored);
      const storedCount = [...stored.values()].reduce((n, m) => n + m.size, 0);
      console.log(
        `run ${run}: ${sent.length} lines in ${pushed.length} batches (${pushed.filter((p) => p.batch).length} answered 202), ` +
          `${readings.length} distinct readings; stored ${storedCount}; lost ${lost.missing + lost.changed}` +
          `${lost.first.length > 0 ? ` (${lost.first.slice(0, 3).join("; ")})` : ""}; stored twice ${twice}; ` +
          `stored never sent ${strays(pushed, stored)}; accepted ${accepted}; applied in ${(applied / 1000).toFixed(1)} s`,
      );
    } finally {
      await storage.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run() {
  for (const n of [1, 2]) await soak(n);
}
