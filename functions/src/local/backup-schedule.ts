// Scheduled backups of the local server (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP; docs/operations.md):
// every BACKUP_EVERY since the newest backup in BACKUP_DIR (so a restart neither skips one nor takes
// an extra), a backup named by its time (backup.ts, written beside and renamed when whole), then the
// oldest beyond BACKUP_KEEP deleted. Only whole backups are counted and deleted: a backup cut by a
// crash is a `.partial` file, removed by the next one, and never takes the place of a good one. A
// line of the one schedule (events/schedule.ts, «backup»), timed by this job: a failed backup is
// logged by the schedule and tried again after a while.
import { readdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { TimedJob } from "../events/schedule";
import { takeBackup, describeBackup, type BackupOptions } from "./backup";
import { alive } from "./storage";

export const BACKUP_NAME = /^fugitive-backup-(\d{8}T\d{6}Z)\.tar\.gz$/;
const PARTIAL = /^fugitive-backup-\d{8}T\d{6}Z\.tar\.gz\.(\d+)\.partial$/;
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
export const DEFAULT_BACKUP_EVERY_MS = UNITS.d!;
export const DEFAULT_BACKUP_KEEP = 7;
/** The wait before a failed scheduled backup is tried again (at most BACKUP_EVERY). */
const RETRY_MS = 10 * 60_000;

/** A backup setting the server cannot read (the start is refused with it). */
export class BackupSettingError extends Error {}

export interface BackupSchedule {
  dir: string;
  everyMs: number;
  keep: number;
}

/** BACKUP_DIR, BACKUP_EVERY (`30m`, `6h`, `1d`; 24 h by default) and BACKUP_KEEP (7), or undefined
 *  without BACKUP_DIR; a value it cannot read is refused with its name. */
export function backupScheduleFromEnv(env: NodeJS.ProcessEnv = process.env): BackupSchedule | undefined {
  if (!env.BACKUP_DIR) return undefined;
  let everyMs = DEFAULT_BACKUP_EVERY_MS;
  if (env.BACKUP_EVERY) {
    const match = /^(\d+)\s*([smhd])$/.exec(env.BACKUP_EVERY.trim());
    if (!match || Number(match[1]) === 0) {
      throw new BackupSettingError(`BACKUP_EVERY=${env.BACKUP_EVERY}: укажите промежуток числом и единицей — 30m, 6h, 1d`);
    }
    everyMs = Number(match[1]) * UNITS[match[2]!]!;
  }
  const keep = env.BACKUP_KEEP ? Number(env.BACKUP_KEEP) : DEFAULT_BACKUP_KEEP;
  if (!Number.isInteger(keep) || keep < 1)
    throw new BackupSettingError(`BACKUP_KEEP=${env.BACKUP_KEEP}: укажите, сколько копий хранить (1 и больше)`);
  return { dir: resolve(env.BACKUP_DIR), everyMs, keep };
}

const stamp = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** The whole backups in `dir`, oldest first. */
export async function backupsIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => BACKUP_NAME.test(name)).sort();
}

export interface BackupLog {
  info(line: Record<string, unknown>): void;
}

/** One scheduled backup: the partial files of dead processes removed, a new backup, the oldest
 *  beyond `keep` deleted. */
export async function scheduledBackup(dataDir: string, schedule: BackupSchedule, options: BackupOptions = {}, at = new Date()) {
  for (const name of await readdir(schedule.dir).catch(() => [] as string[])) {
    const pid = PARTIAL.exec(name)?.[1];
    if (pid && Number(pid) !== process.pid && !alive(Number(pid))) await rm(join(schedule.dir, name), { force: true });
  }
  const report = await takeBackup(dataDir, join(schedule.dir, `fugitive-backup-${stamp(at)}.tar.gz`), options);
  const whole = await backupsIn(schedule.dir);
  const deleted = whole.slice(0, Math.max(0, whole.length - schedule.keep));
  for (const name of deleted) await rm(join(schedule.dir, name), { force: true });
  return { report, deleted };
}

/** The scheduled backups of `dataDir` as the schedule's job: the next BACKUP_EVERY after the newest
 *  backup on disk (at once without one), and after a failure (a full disk) not before a while has
 *  passed rather than at once; each backup a line of `log`. */
export function backupJob(dataDir: string, schedule: BackupSchedule, options: BackupOptions, log: BackupLog): TimedJob {
  return {
    async next(now, failed) {
      const newest = (await backupsIn(schedule.dir)).at(-1);
      const last = newest ? (await stat(join(schedule.dir, newest)).catch(() => undefined))?.mtimeMs : undefined;
      return Math.max(last === undefined ? now : last + schedule.everyMs, failed ? now + Math.min(schedule.everyMs, RETRY_MS) : now);
    },
    async run() {
      const { report, deleted } = await scheduledBackup(dataDir, schedule, options).catch((error: unknown) => {
        throw new Error(`резервная копия не записана: ${(error as Error).message}`, { cause: error });
      });
      log.info({
        event: "backup",
        file: report.file,
        records: report.manifest.dynamodb.records,
        files: report.manifest.files.count,
        duration_ms: report.duration_ms,
        deleted,
        message: `резервная копия записана: ${describeBackup(report.manifest)}`,
      });
      return 1;
    },
  };
}
