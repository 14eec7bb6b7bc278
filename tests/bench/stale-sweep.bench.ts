// `npm run bench -- stale-sweep`: a gateway falls silent (D65's stale channel). A
// company with STALE_FACILITIES mines of STALE_SENSORS meters each (5 000 in all unless set), 10 minutes of
// readings pushed for every meter, then the clock moved 3 minutes on: the sweep, as the local server runs
// it (in the readings consumer's thread), must mark every silent meter «нет данных» within D65's rule
// (2 expected intervals: the 2–3 minutes the sweeps of the next minutes give). Prints the sweep's time
// and the stale events it found, on the SQLite store of a new data folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany } from "@server/domain/company/users";
import { createFacility } from "@server/domain/company/facilities";
import { createSensor } from "@server/domain/monitoring/ingest/register";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { kickReadings } from "@server/domain/monitoring/minutes/consumer";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { sweepStaleChannels } from "@server/domain/monitoring/derive/events";
import { startLocalServer } from "@server/local/server";
import type { Actor } from "@server/domain/context";

const FACILITIES = Number(process.env.STALE_FACILITIES ?? 25);
const SENSORS = Number(process.env.STALE_SENSORS ?? 200);
const MINUTE = 60_000;

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "stale-sweep-"));
  // A minute's start, so the pushed minutes and the silence fall on whole minutes.
  let now = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * MINUTE;
  const server = await startLocalServer({ dataDir, port: 0, clock: { now: () => new Date(now) } });
  try {
    const company = await createCompany(server.deps, { name: "ООО «Молчащий шлюз»" });
    const actor = { id: "u-stale", company: company.id, email: "staff@stale.example", role: "staff" } as Actor;
    const facilities: string[] = [];
    const made = performance.now();
    for (let f = 0; f < FACILITIES; f++) {
      const facility = await createFacility(server.deps, actor, { name: `Шахта №${f + 1}`, kind: "underground_mine" });
      facilities.push(facility.id);
      for (let s = 0; s < SENSORS; s++)
        await createSensor(server.deps, actor, facility.id, {
          code: `М-${s + 1}`,
          kind: "methane",
          working: "Лава 1",
          place: "face",
        } as never);
      const readings = Array.from({ length: SENSORS * 10 }, (_, k) => ({
        sensor: `М-${(k % SENSORS) + 1}`,
        t: new Date(now - (9 - Math.floor(k / SENSORS)) * MINUTE + 5_000).toISOString(),
        value: 0.4,
      }));
      await kickReadings(server.deps, await storeBatch(server.deps, company.id, facility.id, { json: { readings } }));
    }
    await monitoringIdle(server.deps);
    console.log(`${FACILITIES} × ${SENSORS} meters made and 10 minutes pushed in ${((performance.now() - made) / 1000).toFixed(1)} s`);
    now += 3 * MINUTE;
    const sweep = () => server.deps.readingsConsumer?.sweepStale?.() ?? sweepStaleChannels(server.deps);
    const began = performance.now();
    const found = await sweep();
    const took = (performance.now() - began) / 1000;
    const events = (
      await Promise.all(
        facilities.map((facility) =>
          server.deps.repos.sensorEvents.listOfFacility(
            company.id,
            facility,
            new Date(now - 3_600_000).toISOString(),
            new Date(now + MINUTE).toISOString(),
          ),
        ),
      )
    )
      .flat()
      .filter((e) => e.kind === "stale" && e.end === null).length;
    console.log(`sweep: ${took.toFixed(1)} s, ${found} stale events found; open «нет данных» now: ${events} of ${FACILITIES * SENSORS}`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
