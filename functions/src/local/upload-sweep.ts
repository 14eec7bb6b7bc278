// The local twin of the documents bucket's lifecycle rule (infra/lib/stack.ts): direct uploads PUT
// to DATA_DIR/blobs but never completed are deleted once pending for a day
// (domain/files/direct-uploads.ts, sweepAbandonedUploads). It also deletes the calculation files no
// calculation refers to and the day-old temporary files of writes a crash interrupted
// (domain/files/orphan-blobs.ts), as the daily OrphanBlobSweepFunction does in AWS (where a PUT leaves none),
// and the export jobs' states and files once as old as the exports bucket's lifecycle rule lets them be.
// A line of the one schedule (events/schedule.ts, «upload_sweep»): when the server starts, which waits
// for it, then hourly; a failed sweep is logged by the schedule and tried again next time.
import type { Deps } from "../domain/context";
import { sweepAbandonedUploads } from "../domain/files/direct-uploads";
import { sweepOrphanBlobs } from "../domain/files/orphan-blobs";
import { deleteExpiredJobFiles } from "../adapters/spreadsheets/jobs";

/** One sweep: each kind of file deleted is a line of `log`; answers how many files went. */
export async function sweepUploads(deps: Deps, log: (message: string) => void): Promise<number> {
  const abandoned = await sweepAbandonedUploads(deps);
  if (abandoned.length > 0) log(`abandoned uploads deleted (never completed): ${abandoned.join(", ")}`);
  const orphans = await sweepOrphanBlobs(deps);
  if (orphans.length > 0) log(`orphan files deleted (no calculation refers to them): ${orphans.join(", ")}`);
  const expired = await deleteExpiredJobFiles(deps.blobs, deps.clock.now());
  if (expired.length > 0) log(`expired export job files deleted: ${expired.length}`);
  return abandoned.length + orphans.length + expired.length;
}
