// what a start does with the jobs the last process left on record.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { reconciliationKey } from "../domain/monitoring/ingest/reconciliation";
import { type InFlight, inFlightKey, recordInFlight, RESUMED_DETAIL, takeUpInterrupted } from "./interrupted-jobs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const store = () => {
  const dir = mkdtempSync(join(tmpdir(), "interrupted-"));
  dirs.push(dir);
  return fsBlobStore(dir);
};
const actor = { id: "u1", company: "c1", email: "a@example.com", role: "staff" as const };
const period: InFlight = {
  request: {
    op: "climate_period",
    actor,
    project: "p1",
    claim: { token: "t1", at: "2026-06-01T00:00:00.000Z" },
    body: { start: "2026-06-01T00:00", end: "2026-06-01T03:00" },
  },
  slots: [{ key: "heavy-user#u1", windowStart: 1 }],
  resumed: 0,
};
const stateOf = async (blobs: ReturnType<typeof store>, job: string) =>
  JSON.parse(new TextDecoder().decode((await blobs.get(`exports/c1/jobs/${job}.json`))!.body)) as { state: string; detail?: string };

describe("jobs left unfinished by a killed process", () => {
  it("runs a job interrupted once again, its state queued with what happened", async () => {
    const blobs = store();
    await recordInFlight(blobs, "j1", period);
    const resumed: string[] = [];
    const found = await takeUpInterrupted(
      blobs,
      async (job) => void resumed.push(job),
      async () => {},
    );
    expect(found).toEqual([{ company: "c1", job: "j1", op: "climate_period", outcome: "resumed" }]);
    expect(resumed).toEqual(["j1"]);
    expect(await stateOf(blobs, "j1")).toMatchObject({ state: "queued", detail: RESUMED_DETAIL });
  });

  it("fails a job interrupted a second time with a Russian message, its hold and slots given back", async () => {
    const blobs = store();
    await recordInFlight(blobs, "j2", { ...period, resumed: 1 });
    const released: InFlight[] = [];
    const found = await takeUpInterrupted(
      blobs,
      async () => {},
      async (record) => void released.push(record),
    );
    expect(found).toMatchObject([{ job: "j2", outcome: "failed" }]);
    expect(released.map((r) => r.slots)).toEqual([period.slots]);
    expect(await stateOf(blobs, "j2")).toMatchObject({
      state: "failed",
      detail: expect.stringMatching(/сервер дважды останавливался.*повторите расчет/),
    });
    expect(await blobs.get(inFlightKey("c1", "j2"))).toBeUndefined();
  });

  it("forgets a job whose state says it ended", async () => {
    const blobs = store();
    await recordInFlight(blobs, "j3", period);
    await blobs.put("exports/c1/jobs/j3.json", new TextEncoder().encode('{"job":"j3","state":"done","progress":100}'), "application/json");
    expect(
      await takeUpInterrupted(
        blobs,
        async () => {},
        async () => {},
      ),
    ).toEqual([]);
    expect(await blobs.get(inFlightKey("c1", "j3"))).toBeUndefined();
  });

  it("does not run again a reconciliation whose record says it ended: its state done, its slots given back", async () => {
    const blobs = store();
    const id = "0193a1b2-0000-7000-8000-000000000001";
    const reconciliation: InFlight = {
      request: { op: "telemetry_reconciliation", actor, reconciliation: id },
      slots: period.slots,
      resumed: 1,
    };
    await recordInFlight(blobs, "j4", reconciliation);
    // Written done by the job before the kill; the job's own state still says running.
    await blobs.put(
      reconciliationKey("c1", id),
      new TextEncoder().encode(JSON.stringify({ id, company: "c1", state: "done" })),
      "application/json",
    );
    await blobs.put(
      "exports/c1/jobs/j4.json",
      new TextEncoder().encode('{"job":"j4","state":"running","progress":10}'),
      "application/json",
    );
    const resumed: string[] = [];
    const released: InFlight[] = [];
    const found = await takeUpInterrupted(
      blobs,
      async (job) => void resumed.push(job),
      async (record) => void released.push(record),
    );
    expect(found).toEqual([{ company: "c1", job: "j4", op: "telemetry_reconciliation", outcome: "ended" }]);
    expect(resumed).toEqual([]);
    expect(released.map((r) => r.slots)).toEqual([period.slots]);
    expect(await stateOf(blobs, "j4")).toMatchObject({ state: "done" });
    expect(await blobs.get(inFlightKey("c1", "j4"))).toBeUndefined();
  });
});
