// the local server killed (SIGKILL) while a climate period's job and a pack's job are
// queued: the next start takes them up at once — each run again (a period computed again, a pack made
// again) or failed with a Russian message — and the period job's hold on its project is given back, so
// within 30 s of the restart both jobs have ended and the project takes a new period. Before, the
// period job read «running» for 16,5 minutes and the project refused new periods (409) for 35.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { callApi } from "../support/api-call";
import { CASE_A_METHODOLOGY, caseAReadings } from "../support/climate-case-a";
import { signInAsDemo } from "../support/server";
import { startServerProcess } from "../support/server-process";

/** 2026-06-01 00:00 on the company's clock (UTC+7). */
const JUNE_1 = Date.UTC(2026, 4, 31, 17, 0);
/** Short periods' jobs (3 h × 3 meters), and no spreadsheet thread loaded before the first job: the
 *  jobs wait the thread's seconds of loading, in which the test kills the process. */
const ENV = { CLIMATE_PERIOD_JOB_METER_HOURS: "1", CLIMATE_PACK_JOB_METER_HOURS: "1", SPREADSHEET_THREAD_AT_START: "0" };

const ended = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill(signal);
  });

type Job = { job: string; state: string; status_url: string; detail?: string; period_id?: string };

it("takes up a period job and a pack job killed with their server within 30 s of the restart; the project takes a new period", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "interrupted-jobs-"));
  const children: ChildProcess[] = [];
  const start = async () => {
    const server = await startServerProcess(dataDir, [], ENV);
    children.push(server.child);
    const token = (await signInAsDemo(server.url)).access;
    return { ...server, token, call: (method: string, path: string, body?: unknown) => callApi(server.url, token, method, path, body) };
  };
  try {
    const first = await start();
    const { call } = first;
    const facility = await call("POST", "/v1/facilities/", { name: "Шахта «Перезапуск»", kind: "underground_mine" });
    const point = await call("POST", `/v1/facilities/${facility.body.id}/points/`, {
      name: "ДС-1",
      kind: "drainage_station",
      instrument: "АГК",
    });
    const sensors: string[] = [];
    for (const [code, kind] of [
      ["Q-A", "flow"],
      ["C-A", "methane_high"],
      ["FL-A", "flame"],
    ]) {
      const made = await call("POST", `/v1/facilities/${facility.body.id}/sensors/`, {
        code,
        kind,
        point: point.body.id,
        in_service_from: "2026-01-15",
        in_service_to: "2027-01-14",
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      sensors.push(String(made.body.id));
    }
    const pushed = await call("POST", "/v1/telemetry/readings/", {
      facility: facility.body.id,
      readings: caseAReadings(JUNE_1, { q: "Q-A", c: "C-A", flame: "FL-A" }),
    });
    expect(pushed.status).toBe(202);
    await expect
      .poll(
        async () =>
          (
            (await call("GET", `/v1/facilities/${facility.body.id}/sensors/${sensors[0]}/day/?date=2026-06-01`)).body.value as unknown[]
          ).filter((v) => v !== null).length,
        { timeout: 90_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(335);
    const device = {
      name: "Ф-1",
      point: point.body.id,
      kind: "flare_open",
      flow_basis: "normal_0C",
      sensors: { q: "Q-A", c: "C-A", flame: "FL-A" },
    };
    const project = await call("POST", "/v1/climate-projects/", {
      name: "Факел после сбоя",
      facility: facility.body.id,
      start: "2026-06-01",
      methodology: CASE_A_METHODOLOGY,
      devices: [device],
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const periods = `/v1/climate-projects/${project.body.id}/periods/`;
    const jobState = async (server: typeof first, job: Job) => (await server.call("GET", `/${job.status_url}`)).body as unknown as Job;
    const made = await call("POST", periods, { start: "2026-06-01T00:00", end: "2026-06-01T03:00" });
    expect(made.status, JSON.stringify(made.body)).toBe(202);
    await expect.poll(async () => (await jobState(first, made.body as unknown as Job)).state, { timeout: 60_000 }).toBe("done");
    const period = String((await jobState(first, made.body as unknown as Job)).period_id);
    await ended(first.child, "SIGTERM");

    // A start with no thread loaded: the two jobs wait for it, and the process is killed meanwhile.
    const second = await start();
    const pack = await second.call("GET", `${periods}${period}/pack/`);
    expect(pack.status, JSON.stringify(pack.body)).toBe(202);
    const next = await second.call("POST", periods, { start: "2026-06-01T03:00", end: "2026-06-01T06:00" });
    expect(next.status, JSON.stringify(next.body)).toBe(202);
    const jobs = [pack.body, next.body] as unknown as Job[];
    for (const job of jobs) expect(["queued", "running"]).toContain((await jobState(second, job)).state);
    await ended(second.child, "SIGKILL");

    const third = await start();
    const restarted = performance.now();
    for (const job of jobs) {
      await expect.poll(async () => (await jobState(third, job)).state, { timeout: 30_000, interval: 250 }).toMatch(/^(done|failed)$/);
    }
    const took = (performance.now() - restarted) / 1000;
    const states = await Promise.all(jobs.map((job) => jobState(third, job)));
    console.log(
      `both jobs ended ${took.toFixed(1)} s after the restart: ${states.map((s) => `${s.state}${s.detail ? ` (${s.detail})` : ""}`).join(", ")}`,
    );
    for (const state of states) if (state.state === "failed") expect(state.detail).toMatch(/сервер/);
    // The period job's hold is given back: the project takes a new period.
    const another = await third.call("POST", periods, { start: "2026-06-01T06:00", end: "2026-06-01T07:00" });
    expect([201, 202], JSON.stringify(another.body)).toContain(another.status);
    await ended(third.child, "SIGTERM");
  } finally {
    await Promise.all(children.map((child) => ended(child, "SIGKILL")));
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 300_000);
