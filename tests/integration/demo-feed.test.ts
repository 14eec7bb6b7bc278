// The demo mine's readings go on while the local server runs (functions/src/local/demo-feed.ts), on a
// server of a clock this file moves: on the folder `npm start` seeds, each minute the clock reaches is
// pushed for every demo sensor as a gateway pushes (the consumer's thread applies it), «Мониторинг»'s
// «последнее показание» moves with it, the open stream sends the tiles again, and the values are the
// seed's simulator's at the same minutes, bit for bit; after a stop the minutes the server was down are
// filled. Nothing is written for a company of its own, on the demo's folder or on a folder of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { simulateReadings } from "@server/demo-readings";
import { readingsBetween } from "@server/domain/monitoring/ingest/stored-readings";
import { createCompany, createUser } from "@server/domain/company/users";
import { DEMO, accessToken } from "../support/server";
import { eventStreamText } from "../support/event-stream";

const dataDir = mkdtempSync(join(tmpdir(), "demo-feed-"));
const ownDir = mkdtempSync(join(tmpdir(), "demo-feed-own-"));
let now = Date.now();
const clock = { now: () => new Date(now) };
const minuteOf = (t: number) => Math.floor(t / MINUTE_MS) * MINUTE_MS;
let server: LocalServer | undefined;
let own: LocalServer | undefined;
afterAll(async () => {
  await Promise.all([server?.close(), own?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(ownDir, { recursive: true, force: true });
});

const start = () => startLocalServer({ dataDir, port: 0, demo: DEMO, demoYear: true, demoReadings: true, clock });

interface Tile {
  working: string;
  updated_at: string | null;
  meters: { code: string; value: number | null; stale_minutes: number | null }[];
}

let token: string;
let mine: string;
async function tiles(): Promise<Tile[]> {
  const res = await fetch(`${server!.url}/api/v1/telemetry/live/?facility=${mine}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { tiles: Tile[] }).tiles;
}
const longwall = async () => (await tiles()).find((t) => t.working === "Лава 24-15")!;

/** A round of the feed now, and the consumer's thread done with what it pushed. */
async function fed() {
  const round = await server!.demoFeed!.tick();
  await server!.settled();
  return round;
}

describe("the demo mine's readings while the server runs", () => {
  let company: string;
  let other: { company: string; sensor: string };

  it("go on from the seed's last minute: the longwall's «последнее показание» is the clock's minute", async () => {
    server = await start();
    const companies = await server.deps.repos.companies.list();
    company = companies[0].id;
    mine = (await server.deps.repos.facilities.list(company)).find((f) => f.kind === "underground_mine")!.id;
    // The round the start ran (the minute the seed ended at) is done before this one.
    await fed();
    token = await accessToken(server.url, DEMO);
    const tile = await longwall();
    expect(tile.updated_at).toBe(new Date(minuteOf(now)).toISOString());
    expect(tile.meters.map((m) => m.stale_minutes)).toEqual([null, null]);
    // A company of its own on the same server, with a meter of the demo's code.
    const made = await createCompany(server.deps, { name: "ООО «Своя шахта»" });
    const user = { email: "own@example.com", password: "own-password-1" };
    await createUser(server.deps, { companyId: made.id, ...user });
    const ownToken = await accessToken(server.url, user);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server!.url}/api/${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${ownToken}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as { id: string };
    };
    const facility = (await post("v1/facilities/", { name: "Шахта «Своя»", kind: "underground_mine" })).id;
    const point = (await post(`v1/facilities/${facility}/points/`, { name: "Ствол", kind: "ventilation_shaft" })).id;
    const sensor = (await post(`v1/facilities/${facility}/sensors/`, { code: "М-11", kind: "methane", point, working: "Лава 24-15" })).id;
    other = { company: made.id, sensor };
  }, 120_000);

  it("push each minute the clock reaches, the seed's simulator's values to the bit, and the open stream sends the tiles again", async () => {
    const before = await longwall();
    const stream = await fetch(`${server!.url}/api/v1/telemetry/live/stream/?facility=${mine}&max_events=2`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const { until, text } = eventStreamText(stream);
    expect(await until(/event: live\ndata: .*\n/)).toBe(true);

    now += 3 * MINUTE_MS;
    // Ten channels a minute: the shaft's air and methane, the longwall's АС-24, М-11 and М-12, the
    // drainage's four and the shearer's run channel РК-24 (D104's cut-off audit reads it).
    expect(await fed()).toEqual({ batches: 1, readings: 3 * 10 });
    const after = await longwall();
    expect(after.updated_at).toBe(new Date(minuteOf(now)).toISOString());
    expect(Date.parse(after.updated_at!) - Date.parse(before.updated_at!)).toBe(3 * MINUTE_MS);
    expect(await until(/event: close\n/)).toBe(true);
    const views = [...text().matchAll(/event: live\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]) as { tiles: Tile[] });
    expect(views.at(-1)!.tiles.find((t) => t.working === "Лава 24-15")!.updated_at).toBe(after.updated_at);

    // The values stored are the one stretch's from the seed's first minute (the feed's anchor).
    const [feed] = await server!.deps.repos.monitoring.demoFeeds();
    const through = minuteOf(now) + MINUTE_MS;
    const series = simulateReadings(feed.anchor, (through - feed.anchor) / MINUTE_MS, feed.zone);
    const sensors = await server!.deps.repos.sensors.listOfFacility(company, mine);
    for (const { sensor, values } of series) {
      const id = sensors.find((s) => s.code === sensor.register.code)!.id;
      const stored = await readingsBetween(server!.deps, company, id, through - 10 * MINUTE_MS, through);
      const expected = values.subarray(values.length - 10).filter((v) => !Number.isNaN(v));
      expect(Buffer.from(stored.values.buffer).equals(Buffer.from(expected.buffer)), sensor.register.code).toBe(true);
      expect(stored.demo).toBe(true);
    }
    expect(after.meters.find((m) => m.code === "М-11")!.value).toBe(series.find((s) => s.sensor.register.code === "М-11")!.values.at(-1));
  }, 60_000);

  it("fill the minutes the server was down after a restart, and write nothing for a company of its own", async () => {
    await server!.close();
    now += 2 * 60 * MINUTE_MS;
    server = await start();
    await fed();
    // Two hours on, the access token has expired.
    token = await accessToken(server.url, DEMO);
    const tile = await longwall();
    expect(tile.updated_at).toBe(new Date(minuteOf(now)).toISOString());
    const sensors = await server.deps.repos.sensors.listOfFacility(company, mine);
    const m11 = sensors.find((s) => s.code === "М-11")!.id;
    const hours = await readingsBetween(server.deps, company, m11, minuteOf(now) - 2 * 60 * MINUTE_MS, minuteOf(now) + MINUTE_MS);
    expect(hours.times.length).toBe(121);
    expect(await server.deps.repos.monitoring.queued(1)).toEqual([]);
    const theirs = await readingsBetween(server.deps, other.company, other.sensor, 0, now + MINUTE_MS);
    expect(theirs.times.length).toBe(0);
  }, 120_000);

  it("never run on a folder of a company of its own (no demo seeded)", async () => {
    own = await startLocalServer({
      dataDir: ownDir,
      port: 0,
      demo: { email: "owner@example.com", password: "owner-password-1", company: "ООО «Без демо»" },
      demoYear: true,
      demoReadings: true,
      clock,
    });
    now += 5 * MINUTE_MS;
    expect(await own.demoFeed!.tick()).toEqual({ batches: 0, readings: 0 });
    expect(await own.deps.repos.monitoring.demoFeeds()).toEqual([]);
    expect(await own.deps.repos.monitoring.queued(1)).toEqual([]);
  }, 60_000);
});
