// The scheduled backups' timing (local/backup-schedule.ts backupJob, a line of events/schedule.ts):
// BACKUP_EVERY after the newest whole backup on disk, so a restart neither skips one nor adds one,
// and a failed one tried again after a while rather than at once.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backupJob } from "./backup-schedule";

const NOW = Date.UTC(2026, 2, 2, 10, 0);
const HOUR = 3_600_000;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fugitive-backup-timing-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const backupAt = (name: string, at: number) => {
  writeFileSync(join(dir, name), "");
  utimesSync(join(dir, name), new Date(at), new Date(at));
};

const job = (everyMs: number) => backupJob(join(dir, "data"), { dir, everyMs, keep: 2 }, {}, { info: () => {} });

describe("the scheduled backups' next time", () => {
  it("is at once without a backup, else the period after the newest whole one", async () => {
    expect(await job(6 * HOUR).next(NOW, false)).toBe(NOW);
    backupAt("fugitive-backup-20260302T050000Z.tar.gz", NOW - 5 * HOUR);
    backupAt("fugitive-backup-20260302T080000Z.tar.gz", NOW - 2 * HOUR);
    // A backup a crash cut is no backup: it does not put the next one off.
    backupAt(`fugitive-backup-20260302T093000Z.tar.gz.${process.pid}.partial`, NOW - HOUR / 2);
    expect(await job(6 * HOUR).next(NOW, false)).toBe(NOW + 4 * HOUR);
    // One overdue (the server was down past its time) is taken at once.
    expect(await job(HOUR).next(NOW, false)).toBe(NOW);
  });

  it("after a failure waits 10 minutes, or the period where it is shorter", async () => {
    backupAt("fugitive-backup-20260301T100000Z.tar.gz", NOW - 24 * HOUR);
    expect(await job(24 * HOUR).next(NOW, true)).toBe(NOW + 10 * 60_000);
    expect(await job(60_000).next(NOW, true)).toBe(NOW + 60_000);
  });
});
