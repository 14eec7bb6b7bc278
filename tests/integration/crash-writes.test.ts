// The local server killed (SIGKILL, no chance to close anything) while calculations are being
// created, edited and archived, again and again on the same data folder: every calculation listed
// can be read (no list entry without its item), every write the server acknowledged is there, and
// the statistics and inventory sums the server keeps are what a count of the table gives.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bySize } from "../support/depth";
import { DEMO, signInAsDemo } from "../support/server";
import { LOAD_CREATE_PATH, loadCreateBody } from "../support/load-create";
import { startLocalServer } from "@server/local/server";
import { drifted, reconcileAllStatistics } from "@server/domain/inventory/statistics";
import { startServerProcess } from "../support/server-process";

const RUNS = bySize(3, 20);
/** Writers at once: each creates a calculation, then may edit or archive it, one request at a time. */
const WRITERS = 6;
/** The calculations' routes under /api. */
const CALCULATIONS = LOAD_CREATE_PATH.replace(/^\/api/, "");

/** What a calculation holds: its volume and whether it is archived. */
interface State {
  volume: number;
  archived: boolean;
}
/** Per calculation, what the server acknowledged last, and what a request still on its way when the
 *  server was killed would make of it (either may be stored). */
interface Known {
  acknowledged: State;
  inFlight?: State;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGKILL");
  });

async function send(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Writers that create, edit and archive calculations of `project` until the server stops
 *  answering; `known` keeps what each request was acknowledged or left on its way. */
async function write(url: string, token: string, project: string, known: Map<string, Known>, stop: () => boolean) {
  const writer = async () => {
    while (!stop()) {
      let created: { status: number; body: Record<string, unknown> };
      try {
        created = await send(url, token, "POST", CALCULATIONS, loadCreateBody(project));
      } catch {
        return; // the server is gone: a create on its way may or may not be stored
      }
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = String(created.body.id);
      const calculation: Known = { acknowledged: { volume: 1000, archived: false } };
      known.set(id, calculation);
      const change = Math.random();
      const next: State =
        change < 0.4
          ? { volume: 1000 + Math.floor(Math.random() * 1000), archived: false }
          : change < 0.6
            ? { volume: 1000, archived: true }
            : calculation.acknowledged;
      if (next === calculation.acknowledged) continue;
      calculation.inFlight = next;
      try {
        const body = next.archived
          ? { is_deleted: true, version: created.body.version }
          : { volume: next.volume, version: created.body.version };
        const changed = await send(url, token, "PATCH", `${CALCULATIONS}${id}/`, body);
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
        calculation.acknowledged = next;
        calculation.inFlight = undefined;
      } catch {
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

describe("a local server killed mid-write", () => {
  it(
    `keeps every acknowledged write, lists no calculation it cannot read, and its statistics match a count (${RUNS} kills)`,
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "fugitive-crash-"));
      const known = new Map<string, Known>();
      let project = "";
      let child: ChildProcess | undefined;
      try {
        for (let run = 0; run < RUNS; run++) {
          const started = await startServerProcess(dataDir);
          child = started.child;
          const token = (await signInAsDemo(started.url)).access;
          if (!project) {
            const created = await send(started.url, token, "POST", "/v1/projects/create_project/", {
              name: "Переживет сбой",
              start_date: "2024-01-01",
              end_date: "2024-12-31",
            });
            project = String(created.body.id);
          }
          // Killed at a moment of its own each run, while the writers are at it: once the server has
          // acknowledged a write of this run (a cold server on a loaded machine may take longer than
          // any fixed wait for its first), then up to 1.2 s on.
          let stopped = false;
          const before = known.size;
          const writing = write(started.url, token, project, known, () => stopped);
          while (known.size === before) await new Promise((r) => setTimeout(r, 20));
          await new Promise((r) => setTimeout(r, Math.random() * 1200));
          stopped = true;
          await killed(child);
          await writing;
        }

        const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
        try {
          const token = (await signInAsDemo(server.url)).access;
          const listed = new Map<string, State>();
          for (const archived of [false, true]) {
            let count = 0;
            for (let offset = 0; ; offset += 100) {
              const page = await send(
                server.url,
                token,
                "GET",
                `${CALCULATIONS}?project=${project}&is_deleted=${archived}&limit=100&offset=${offset}`,
              );
              expect(page.status).toBe(200);
              const results = page.body.results as { id: string; volume: number }[];
              count = page.body.count as number;
              for (const c of results) listed.set(c.id, { volume: c.volume, archived });
              if (results.length < 100) break;
            }
            expect(count, archived ? "archived count" : "active count").toBe(
              [...listed.values()].filter((s) => s.archived === archived).length,
            );
          }
          // No ghost: every listed calculation is read as listed.
          for (const [id, state] of listed) {
            const one = await send(server.url, token, "GET", `${CALCULATIONS}${id}/`);
            expect(one.status, `listed calculation ${id}`).toBe(200);
            expect({ volume: one.body.volume, archived: one.body.is_deleted }).toEqual(state);
          }
          // Nothing acknowledged lost: each calculation as acknowledged, or as a request left on its way made it.
          for (const [id, calculation] of known) {
            const stored = listed.get(id);
            const allowed = [calculation.acknowledged, ...(calculation.inFlight ? [calculation.inFlight] : [])];
            expect(allowed, `calculation ${id}`).toContainEqual(stored);
          }
          expect(known.size).toBeGreaterThan(RUNS);
          // The statistics the server keeps are a count of the table's.
          await server.settled();
          const reports = await reconcileAllStatistics(server.deps, { repair: false });
          for (const report of reports) {
            expect(report.failed, report.company).toBeUndefined();
            expect(drifted(report), JSON.stringify(report)).toBe(false);
          }
        } finally {
          await server.close();
        }
      } finally {
        if (child) await killed(child);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    bySize(180_000, 900_000),
  );
});
