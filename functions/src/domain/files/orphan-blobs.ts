// The sweep of files no record refers to. A calculation's uploaded file (uploads/) and its
// forecast rows (forecasts/) are written before its item; a refused request deletes what it wrote
// (calculations.ts, discardWrittenBlobs), but a process that dies between the two leaves a file
// behind. Files older than a day that no calculation of their company names are deleted: by then
// no request that wrote them can still be running, and a file no item names is never named later
// (every write makes a new key), so the sweep cannot race a save. A sensor verification's certificate
// scan is kept under uploads/ too, written before the verification names it: the company's
// verifications count among what names a file. The temporary files of a write
// that a crash interrupted (the local store's `*.tmp`, of forecast rows and uploads) go as well once
// a day old: no write that is still running is that old.
import type { Deps } from "../context";

/** The areas whose keys are `{area}/{company}/{calculation}/{file}`, named by calculation items. */
export const CALCULATION_BLOB_AREAS = ["uploads", "forecasts"] as const;
export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

export async function sweepOrphanBlobs(deps: Pick<Deps, "blobs" | "repos" | "clock">): Promise<string[]> {
  const { keysWrittenBefore } = deps.blobs;
  if (!keysWrittenBefore) return [];
  const before = new Date(deps.clock.now().getTime() - ORPHAN_AGE_MS);
  const leftovers = (await deps.blobs.deleteWriteLeftovers?.(CALCULATION_BLOB_AREAS, before)) ?? [];
  const referencedBy = new Map<string, Promise<Set<string>>>();
  const referenced = (companyId: string) => {
    let keys = referencedBy.get(companyId);
    if (!keys) referencedBy.set(companyId, (keys = namedByCompany(deps, companyId)));
    return keys;
  };
  const deleted: string[] = [...leftovers];
  for (const area of CALCULATION_BLOB_AREAS) {
    for await (const page of keysWrittenBefore.call(deps.blobs, area, before)) {
      for (const key of page) {
        const companyId = key.split("/")[1];
        if (!companyId || (await referenced(companyId)).has(key)) continue;
        await deps.blobs.delete(key);
        deleted.push(key);
      }
    }
  }
  return deleted;
}

/** The blob keys the company's records name: its calculations' files and its verifications' certificate scans. */
async function namedByCompany(deps: Pick<Deps, "repos">, companyId: string): Promise<Set<string>> {
  const [calculations, certificates] = await Promise.all([
    deps.repos.calculations.blobKeysOfCompany(companyId),
    deps.repos.sensorChecks.certificateKeysOfCompany(companyId),
  ]);
  return new Set([...calculations, ...certificates]);
}
