// The local twin of the documents bucket's lifecycle rule (infra/lib/stack.ts): direct uploads PUT
// to DATA_DIR/blobs but never completed are deleted once pending for a day
// (domain/files/direct-uploads.ts, sweepAbandonedUploads). It also deletes the calculation files no
// calculation refers to and the day-old temporary files of writes a crash interrupted
// (domain/files/orphan-blobs.ts), as the daily OrphanBlobSweepFunction does in AWS (where a PUT leaves none),
// and the export jobs' states and files once as old as the exports bucket's lifecycle rule lets them be.
// Run when the server starts, then hourly, on a timer that never keeps the process alive. A failed
// sweep is logged and tried again next time.
import type { Deps } from "../domain/context";
import { sweepAbandonedUploads } from "../domain/files/direct-uploads";
import { sweepOrphanBlobs } from "../domain/files/orphan-blobs";
import { deleteExpiredJobFiles } from "../adapters/spreadsheets/jobs";

export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface UploadSweep {
  /** Resolves once the sweep run at start has finished. */
  first: Promise<void>;
  stop(): void;
}

export function startUploadSweep(
  deps: Deps,
  { intervalMs = UPLOAD_SWEEP_INTERVAL_MS, log = console }: { intervalMs?: number; log?: Pick<Console, "info" | "warn"> } = {},
): UploadSweep {
  let running: Promise<void> | undefined;
  const sweep = () =>
    (running ??= sweepAbandonedUploads(deps)
      .then((keys) => {
        if (keys.length > 0) log.info(`abandoned uploads deleted (never completed): ${keys.join(", ")}`);
        return sweepOrphanBlobs(deps);
      })
      .then((keys) => {
        if (keys.length > 0) log.info(`orphan files deleted (no calculation refers to them): ${keys.join(", ")}`);
        return deleteExpiredJobFiles(deps.blobs, deps.clock.now());
      })
      .then((keys) => {
        if (keys.length > 0) log.info(`expired export job files deleted: ${keys.length}`);
      })
      .catch((error: unknown) => log.warn(`abandoned uploads not swept: ${String(error)}`))
      .finally(() => {
        running = undefined;
      }));
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return { first: sweep(), stop: () => clearInterval(timer) };
}
