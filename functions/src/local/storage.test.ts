// Issue 87, item 17: a second server started on a data folder in use failed with «dynalite thread:
// Database is closed»; it now refuses to start, saying in Russian that another server holds the folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { engineOf, openServerStorage } from "./storage";

const dir = mkdtempSync(join(tmpdir(), "storage-in-use-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("refuses a second server on a data folder another server holds, leaving the first's endpoint", async () => {
  const first = await openServerStorage(dir);
  try {
    const endpoint = engineOf(dir);
    // Another process's server, as the endpoint file names it (this process's pid is its own).
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "dynamodb-endpoint.json"), JSON.stringify({ ...endpoint, pid: process.ppid }));
    await expect(openServerStorage(dir)).rejects.toThrow(
      `Папка данных ${dir} занята другим сервером (процесс ${process.ppid}): остановите его или запустите этот с другой папкой (DATA_DIR).`,
    );
    expect(engineOf(dir)?.endpoint).toBe(endpoint?.endpoint);
  } finally {
    await first.close();
  }
});
