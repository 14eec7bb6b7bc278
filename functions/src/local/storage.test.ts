// a second server started on a data folder in use failed with «dynalite thread:
// Database is closed»; it now refuses to start, saying in Russian that another server holds the folder.
// the refusal is the store's lock, not the endpoint file (a clean-up that removed
// the file let a second server write its own over it and die, and the first one's admin commands
// then crashed): a refused server leaves nothing behind, and the running server writes its file
// again. A damaged items.db stops the start naming
// the file, the check that failed and the way back.
import {
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, describe, expect, it } from "vitest";
import { engineOf, LOCAL_TABLE, openServerStorage, openSharedStorage, STORE_DIR, StoreRefusedError } from "./storage";

const root = mkdtempSync(join(tmpdir(), "storage-in-use-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a second server on a data folder in use", () => {
  it("is refused by the store's lock, with or without the endpoint file, and leaves the first's", async () => {
    const dir = join(root, "in-use");
    const first = await openServerStorage(dir, { threads: true });
    try {
      const endpointFile = join(dir, "dynamodb-endpoint.json");
      const written = readFileSync(endpointFile, "utf8");
      // Another process's server, as the endpoint file names it (this process's pid is its own).
      writeFileSync(endpointFile, JSON.stringify({ ...engineOf(dir), pid: process.ppid }));
      const named = readFileSync(endpointFile, "utf8");
      await expect(openServerStorage(dir, { threads: true })).rejects.toThrow(
        `Папка данных ${dir} занята другим сервером (процесс ${process.ppid}): остановите его или запустите этот с другой папкой (DATA_DIR).`,
      );
      expect(readFileSync(endpointFile, "utf8")).toBe(named);

      // A clean-up removed the file: the lock still refuses, and no file is written or removed.
      rmSync(endpointFile);
      await expect(openServerStorage(dir, { threads: true })).rejects.toThrow(
        `Папка данных ${dir} занята другим процессом (сервером или командой npm run admin): остановите его или запустите этот с другой папкой (DATA_DIR).`,
      );
      expect(existsSync(endpointFile)).toBe(false);

      // The running server writes its file again within a second or two, so that a command beside
      // it (npm run admin, a backup) reaches its engine without a restart: before, the command found
      // no file and was refused by the lock until the server was restarted.
      const back = Date.now() + 5_000;
      while (!existsSync(endpointFile) && Date.now() < back) await new Promise((r) => setTimeout(r, 100));
      expect(readFileSync(endpointFile, "utf8")).toBe(written);
      const shared = await openSharedStorage(dir);
      try {
        const tables = await shared.doc!.send(new ListTablesCommand({}));
        expect(tables.TableNames).toEqual([LOCAL_TABLE]);
      } finally {
        await shared.close();
      }
    } finally {
      await first.close();
    }
  }, 60_000);
});

/** A data folder whose store was written and closed, with `damage` done to its items.db. */
async function damagedFolder(name: string, damage: (file: string) => void): Promise<{ dir: string; file: string }> {
  const dir = join(root, name);
  const storage = await openServerStorage(dir);
  for (let i = 0; i < 100; i++) {
    await storage.doc!.send(new PutCommand({ TableName: LOCAL_TABLE, Item: { PK: `K#${i}`, SK: "A", text: "ж".repeat(300) } }));
  }
  await storage.close();
  const file = join(dir, STORE_DIR, "items.db");
  expect(statSync(file).size).toBeGreaterThan(64 * 1024);
  damage(file);
  return { dir, file };
}

const overwrite = (file: string, at: number, bytes: Buffer) => {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, bytes, 0, bytes.length, at);
  } finally {
    closeSync(fd);
  }
};

describe("a data folder whose items.db is damaged", () => {
  it.each([
    ["cut to half", (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2 / 1024) * 1024)],
    ["with pages overwritten", (file: string) => overwrite(file, 2048, Buffer.alloc(4096, 0x5a))],
    ["with its header zeroed", (file: string) => overwrite(file, 0, Buffer.alloc(100))],
  ])(
    "%s stops the start naming the file, the check and the way back",
    async (name, damage) => {
      const { dir, file } = await damagedFolder(name.replace(/ /g, "-"), damage);
      const before = readFileSync(file);
      for (const threads of [true, false]) {
        const refusal = openServerStorage(dir, { threads });
        await expect(refusal).rejects.toThrow(StoreRefusedError);
        await expect(refusal).rejects.toThrow(
          new RegExp(
            `^База данных ${file.replace(/[.]/g, "\\.")} повреждена: проверка PRAGMA quick_check не прошла \\(.+\\)\\. Сервер не запущен, файл не изменен\\. ` +
              "Восстановите данные из последней резервной копии в новую папку \\(DATA_DIR=<новая папка> npm run admin -- restore --from <файл копии>\\)",
          ),
        );
        expect(existsSync(join(dir, "dynamodb-endpoint.json"))).toBe(false);
      }
      // The admin command's way in is the same.
      await expect(openSharedStorage(dir)).rejects.toThrow(StoreRefusedError);
      expect(readFileSync(file).equals(before)).toBe(true);
    },
    60_000,
  );
});
