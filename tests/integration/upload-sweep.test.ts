// The local server deletes direct uploads that were PUT but never completed (still marked pending a
// day later) when it starts and then hourly (a line of the one schedule, functions/src/events/schedule.ts,
// whose test holds the timing) — the twin of the documents bucket's lifecycle rule
// in AWS (functions/src/http/UPLOADS.md, «Abandoned uploads»). Completed ones are never touched; a
// day-old temporary file of a write a crash interrupted goes as well.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { startLocalServer } from "@server/local/server";
import { sweepUploads } from "@server/local/upload-sweep";
import type { Deps } from "@server/domain/context";
import { configFromEnv } from "@server/config";

const DAY = 24 * 60 * 60 * 1000;
const dataDir = mkdtempSync(join(tmpdir(), "fugitive-sweep-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const bytes = (n: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(n));
      controller.close();
    },
  });

const backdate = (file: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  utimesSync(file, then, then);
};

describe("abandoned uploads on the local host", () => {
  it("are swept when the server starts, with calculation files no calculation names; completed ones stay", async () => {
    const blobs = fsBlobStore(join(dataDir, "blobs"));
    const abandoned = "media/instruction/0199a0a0-0000-7000-8000-00000000000a";
    const recent = "documents/0199a0a0-0000-7000-8000-00000000000b";
    const completed = "documents/0199a0a0-0000-7000-8000-00000000000c";
    const upload = "uploads/company/0199a0a0-0000-7000-8000-00000000000d";
    for (const key of [abandoned, recent, completed]) await blobs.putStream(key, bytes(10), "application/pdf", { pending: true });
    await blobs.confirmUpload(completed);
    await blobs.put(upload, new Uint8Array(10), "text/csv");
    backdate(join(dataDir, "blobs", `${abandoned}.pending`), 2 * DAY);
    for (const key of [completed, upload]) backdate(join(dataDir, "blobs", key), 30 * DAY);
    // temporary files of forecast rows and uploads left by a crash mid-write.
    const forecasts = join(dataDir, "blobs", "forecasts/company/0199a0a0-0000-7000-8000-00000000000e");
    mkdirSync(forecasts, { recursive: true });
    const crashed = [
      join(forecasts, "0199a0a0-0000-7000-8000-00000000000f.json.4242.1700000000000000001.tmp"),
      join(forecasts, "0199a0a0-0000-7000-8000-00000000000f.json.4242.1700000000000000001.tmp.type"),
      join(dataDir, "blobs", `${upload}.4242.1700000000000000002.tmp`),
    ];
    const writing = join(forecasts, "0199a0a0-0000-7000-8000-000000000010.json.4242.1700000000000000003.tmp");
    for (const file of [...crashed, writing]) writeFileSync(file, "half");
    for (const file of crashed) backdate(file, 2 * DAY);

    // A failed sweep is an error line of the server's log (local/server-log.ts).
    const warn = vi.spyOn(console, "error");
    const server = await startLocalServer({ dataDir, port: 0 });
    try {
      expect(await blobs.stat(abandoned)).toBeUndefined();
      expect(await blobs.stat(recent)).toBeDefined();
      expect(await blobs.stat(completed)).toBeDefined();
      expect(await blobs.stat(upload)).toBeUndefined();
      for (const file of crashed) expect(existsSync(file), file).toBe(false);
      // A write younger than a day may still be running: left alone.
      expect(existsSync(writing)).toBe(true);
      expect(warn.mock.calls.flat().join(" ")).not.toMatch(/upload_sweep/);
    } finally {
      warn.mockRestore();
      await server.close();
    }
  });

  it("logs what each sweep deleted; a failing sweep throws, for the schedule to log and run again", async () => {
    let calls = 0;
    let fail = false;
    const deps = {
      blobs: {
        async deletePendingUploads(areas: readonly string[], olderThan: Date) {
          calls += 1;
          expect(areas).toEqual(["documents", "media", "forecast-uploads", "telemetry-uploads"]);
          expect(Date.now() - olderThan.getTime()).toBeGreaterThanOrEqual(DAY - 1000);
          if (fail) throw new Error("disk on fire");
          return calls === 1 ? ["documents/x"] : [];
        },
      },
      clock: { now: () => new Date() },
      config: configFromEnv(Buffer.alloc(32, 1)),
    } as unknown as Deps;
    const log = vi.fn();
    expect(await sweepUploads(deps, log)).toBe(1);
    expect(log).toHaveBeenCalledWith(expect.stringContaining("documents/x"));
    expect(await sweepUploads(deps, log)).toBe(0);
    expect(log).toHaveBeenCalledTimes(1);
    fail = true;
    await expect(sweepUploads(deps, log)).rejects.toThrow("disk on fire");
    expect(calls).toBe(3);
  });
});
