// Vitest global setup of every tier: the run's temporary files (tables on disk, blobs, downloads,
// browser and LibreOffice profiles, the servers' data folders) go under one folder of the run's own,
// removed when the run ends, so a run leaves nothing behind in the system's temporary folder.
// Each tier's setup calls it; the first creates the folder and the workers, forked after it,
// inherit TMPDIR.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): (() => void) | undefined {
  if (process.env.TEST_TEMP_ROOT) return undefined;
  const root = mkdtempSync(join(tmpdir(), "fugitive-tests-"));
  process.env.TEST_TEMP_ROOT = root;
  process.env.TMPDIR = root;
  // A browser closing as the run ends may still write into its profile: removal retries then.
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
