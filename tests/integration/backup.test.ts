// Backups of a local installation (functions/src/local/backup.ts, docs/operations.md): taken while
// the server runs and 5 writers create calculations, a backup holds every write acknowledged before
// it began, restores into a new folder whose server starts with the statistics a count of its table
// gives, and a backup taken once the writers stopped restores every year's figures as the server
// showed them. A backup killed (SIGKILL) midway leaves the previous one whole; a damaged or cut file
// is refused by verify-backup and by restore, which also refuses a folder that is not empty.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEMO, signInAsDemo } from "../support/server";
import { runAdmin } from "../support/admin-command";
import { LOAD_CREATE_PATH, loadCreateBody } from "../support/load-create";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { drifted, reconcileAllStatistics } from "@server/domain/inventory/statistics";
import { scheduledBackup, backupsIn } from "@server/local/backup-schedule";
import { verifyBackup } from "@server/local/backup";
import { callApi as call } from "../support/api-call";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const WRITERS = 5;
/** Three servers or a backup command's process and four reads of a 16 MB backup: 12-30 s on the
 *  shared two-core machine at load 10-18, over the tier's 30 s when it is busier. */
const PROCESS_TEST_MS = 120_000;

/** Every year's figures the company's user sees: the totals per year and each year's inventory. */
async function figures(url: string): Promise<unknown> {
  const token = (await signInAsDemo(url)).access;
  const years = await call(url, token, "GET", "/v1/inventory/years/");
  expect(years.status).toBe(200);
  const list = years.body as unknown as { year: number }[];
  expect(list.length).toBeGreaterThan(0);
  const each: Record<number, unknown> = {};
  for (const { year } of list) {
    const inventory = await call(url, token, "GET", `/v1/inventory/?year=${year}`);
    expect(inventory.status).toBe(200);
    each[year] = inventory.body;
  }
  return { years: list, each };
}

async function calculationIds(url: string, project: string): Promise<Set<string>> {
  const token = (await signInAsDemo(url)).access;
  const ids = new Set<string>();
  const path = LOAD_CREATE_PATH.replace(/^\/api/, "");
  for (let offset = 0; ; offset += 100) {
    const page = await call(url, token, "GET", `${path}?project=${project}&limit=100&offset=${offset}`);
    expect(page.status).toBe(200);
    const results = page.body.results as { id: string }[];
    for (const c of results) ids.add(c.id);
    if (results.length < 100) return ids;
  }
}

/** The files of a data folder but the engine's own (its store, the running engine's endpoint),
 *  relative, sorted. */
function folderFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith("sqlite") && path !== "dynamodb-endpoint.json" && !path.endsWith(".tmp"))
    .sort();
}

async function restoredServer(file: string, dataDir: string): Promise<LocalServer> {
  const restored = await runAdmin(dataDir, ["restore", "--from", file]);
  expect(restored.stderr).toBe("");
  expect(restored.status).toBe(0);
  return startLocalServer({ dataDir, port: 0, demo: DEMO, demoYear: true });
}

async function noDrift(server: LocalServer) {
  await server.settled();
  for (const report of await reconcileAllStatistics(server.deps, { repair: false })) {
    expect(report.failed, report.company).toBeUndefined();
    expect(drifted(report), JSON.stringify(report)).toBe(false);
  }
}

describe("a backup of a running server", () => {
  it(
    "holds every write acknowledged before it began, restores into a new folder that starts, and a backup at rest restores every year's figures",
    async () => {
      const root = mkdtempSync(join(tmpdir(), "fugitive-backup-"));
      const dataDir = join(root, "data");
      const server = await startLocalServer({ dataDir, port: 0, demo: DEMO, demoYear: true });
      let restored: LocalServer | undefined;
      try {
        const token = (await signInAsDemo(server.url)).access;
        const project = String(
          (
            await call(server.url, token, "POST", "/v1/projects/create_project/", {
              name: "Копия",
              start_date: "2024-01-01",
              end_date: "2024-12-31",
            })
          ).body.id,
        );
        const acknowledged = new Set<string>();
        let stop = false;
        const writer = async () => {
          while (!stop) {
            const created = await call(server.url, token, "POST", LOAD_CREATE_PATH.replace(/^\/api/, ""), loadCreateBody(project));
            expect(created.status, JSON.stringify(created.body)).toBe(201);
            acknowledged.add(String(created.body.id));
          }
        };
        const writing = Promise.all(Array.from({ length: WRITERS }, writer));
        while (acknowledged.size < 20) await new Promise((r) => setTimeout(r, 20));
        const before = new Set(acknowledged);
        const during = join(root, "during.tar.gz");
        const taken = await runAdmin(dataDir, ["backup", "--to", during]);
        const after = acknowledged.size;
        stop = true;
        await writing;
        expect(taken.stderr).toBe("");
        expect(taken.status).toBe(0);
        expect(taken.stdout).toMatch(/^Резервная копия записана: .*during\.tar\.gz \(записей базы данных \d+/);
        // The writers went on while it was taken.
        expect(after).toBeGreaterThan(before.size);

        await server.settled();
        const atRest = join(root, "at-rest.tar.gz");
        expect((await runAdmin(dataDir, ["backup", "--to", atRest])).status).toBe(0);
        const shown = await figures(server.url);
        const verified = await runAdmin(dataDir, ["verify-backup", atRest]);
        expect(verified.status).toBe(0);
        expect(verified.stdout).toMatch(/^Копия цела: /);

        restored = await restoredServer(during, join(root, "restored-during"));
        const ids = await calculationIds(restored.url, project);
        const lost = [...before].filter((id) => !ids.has(id));
        expect(lost, "acknowledged before the backup began").toEqual([]);
        // What it holds beyond them was written while it was taken, by these writers.
        expect([...ids].every((id) => acknowledged.has(id))).toBe(true);
        await noDrift(restored);
        // Every year's totals as the server showed them once the writers stopped: the demo year,
        // which no writer touched, and the writers' year, whose creates are one source measured again
        // and again (the inventory counts one of them; how many there are, noDrift checks against
        // the table).
        const totals = (shownFigures: unknown) =>
          (shownFigures as { years: { year: number; total_t_co2e: number }[] }).years.map((y) => [y.year, y.total_t_co2e]);
        expect(totals(await figures(restored.url))).toEqual(totals(shown));
        await restored.close();

        restored = await restoredServer(atRest, join(root, "restored-at-rest"));
        expect(await figures(restored.url)).toEqual(shown);
        expect((await calculationIds(restored.url, project)).size).toBe(acknowledged.size);
        // Every other file of the folder came back as it was (the file store, the token-signing
        // secret, the versions' signing key and its public keys, the format), readable by its owner alone.
        const restoredDir = join(root, "restored-at-rest");
        const held = folderFiles(dataDir);
        expect(held).toEqual(
          expect.arrayContaining(["jwt-secret", "version-signing-key.pem", "version-signing-keys.json", "data-format.json"]),
        );
        expect(folderFiles(restoredDir)).toEqual(held);
        expect(statSync(restoredDir).mode & 0o777).toBe(0o700);
        for (const file of held) {
          expect(readFileSync(join(restoredDir, file)).equals(readFileSync(join(dataDir, file))), file).toBe(true);
          expect(statSync(join(restoredDir, file)).mode & 0o777, file).toBe(0o600);
        }
        await noDrift(restored);
      } finally {
        await restored?.close();
        await server.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
    PROCESS_TEST_MS,
  );
});

describe("a backup file", () => {
  it(
    "killed midway leaves the previous backup whole; damaged or cut, it is refused; restore wants an empty folder",
    async () => {
      const root = mkdtempSync(join(tmpdir(), "fugitive-backup-kill-"));
      const dataDir = join(root, "data");
      try {
        const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
        await server.close();
        // A large file in the store, so that a backup takes long enough to be killed in the middle.
        mkdirSync(join(dataDir, "blobs", "evidence"), { recursive: true });
        writeFileSync(join(dataDir, "blobs", "evidence", "large"), randomBytes(16 * 1024 * 1024));
        const file = join(root, "backup.tar.gz");
        expect((await runAdmin(dataDir, ["backup", "--to", file])).status).toBe(0);
        const good = await verifyBackup(file);
        const goodBytes = statSync(file).size;

        const child = spawn(process.execPath, ["--import", "tsx", "functions/src/admin/cli.ts", "backup", "--to", file], {
          cwd: repoRoot,
          env: { ...process.env, DATA_DIR: dataDir },
          stdio: "ignore",
        });
        const exited = new Promise((done) => child.once("exit", done));
        const partial = () => readdirSync(root).find((name) => name.endsWith(".partial"));
        // Killed once it has written part of the new file.
        for (;;) {
          const name = partial();
          if (name && statSync(join(root, name)).size > 1024 * 1024) break;
          if (child.exitCode !== null) throw new Error("the backup ended before it could be killed");
          await new Promise((r) => setTimeout(r, 5));
        }
        child.kill("SIGKILL");
        await exited;
        expect(partial(), "the cut file stays beside, under its own name").toBeDefined();
        expect(statSync(file).size).toBe(goodBytes);
        expect((await verifyBackup(file)).created_at).toBe(good.created_at);
        const cut = join(root, partial()!);
        const refused = await runAdmin(dataDir, ["verify-backup", cut]);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toMatch(/^Ошибка: Резервная копия .* повреждена или неполна: /);

        // A byte changed inside: the gzip check or the manifest's SHA-256 refuses it, and restore
        // writes nothing.
        const damaged = join(root, "damaged.tar.gz");
        const bytes = readFileSync(file);
        bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
        writeFileSync(damaged, bytes);
        const target = join(root, "restored");
        const restoreDamaged = await runAdmin(target, ["restore", "--from", damaged]);
        expect(restoreDamaged.status).toBe(1);
        expect(restoreDamaged.stderr).toMatch(/повреждена или неполна/);
        expect(existsSync(target)).toBe(false);
        const truncated = join(root, "truncated.tar.gz");
        writeFileSync(truncated, readFileSync(file));
        truncateSync(truncated, goodBytes - 4096);
        expect((await runAdmin(target, ["verify-backup", truncated])).stderr).toMatch(/повреждена или неполна/);

        const notEmpty = await runAdmin(dataDir, ["restore", "--from", file]);
        expect(notEmpty.status).toBe(1);
        expect(notEmpty.stderr).toMatch(/^Ошибка: Папка .* не пуста: восстановление идет только в пустую или новую папку/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
    PROCESS_TEST_MS,
  );

  it("scheduled, keeps the newest N whole ones and removes what a killed one left", async () => {
    const root = mkdtempSync(join(tmpdir(), "fugitive-backup-schedule-"));
    const dataDir = join(root, "data");
    const dir = join(dataDir, "backups");
    try {
      const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
      try {
        mkdirSync(dir, { recursive: true });
        // What a backup killed by a crash left (its process is gone).
        const dead = join(dir, "fugitive-backup-20260101T000000Z.tar.gz.999999999.partial");
        writeFileSync(dead, "cut");
        const schedule = { dir, everyMs: 60_000, keep: 2 };
        const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 10, minute));
        for (const minute of [1, 2, 3]) {
          await scheduledBackup(dataDir, schedule, {}, at(minute));
        }
        expect(await backupsIn(dir)).toEqual(["fugitive-backup-20261126T100200Z.tar.gz", "fugitive-backup-20261126T100300Z.tar.gz"]);
        expect(existsSync(dead)).toBe(false);
        // The folder's own backups are not copied into the next one.
        const manifest = await verifyBackup(join(dir, "fugitive-backup-20261126T100300Z.tar.gz"));
        expect(manifest.files.list.map((f) => f.path).filter((p) => p.includes("backups"))).toEqual([]);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
