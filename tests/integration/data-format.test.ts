// A data folder written by the release an earlier round's start (tests/fixtures/data-folder-v1, format 1:
// no data-format.json) upgrades on a start of this release: the migrations run once and are logged,
// the folder records the current format, and the demo user sees the same figures, version hashes,
// passport and pack as on that release; a second start runs none. A folder marked with a newer
// format is refused, by the server and the admin command, with its Russian message, and left as it
// was.
import { createGunzip } from "node:zlib";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { finished } from "node:stream/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startLocalServer } from "@server/local/server";
import { readTar } from "@server/local/tar";
import { CURRENT_DATA_FORMAT, DATA_FORMAT_FILE, MIGRATIONS } from "@server/local/data-format";
import { LEVELDB_DIR } from "@server/local/leveldb-migration";
import { STORE_DIR } from "@server/local/storage";
import { DEMO, signInAsDemo } from "../support/server";
import { runAdmin } from "../support/admin-command";
import { FIXTURE_NOW, folderFigures, offsetClock } from "../support/data-folder-figures";

const FIXTURE = join(import.meta.dirname, "../fixtures/data-folder-v1");
/** A pack's files that are the release's rather than the version's: its checker, the version.json a
 *  later release adds fields to, and the passport as the release prints it (its figures, the xlsx's
 *  cell values, are compared as `passports` printed each unit at one precision). */
const RELEASE_FILES = new Set(["verify.py", "version.json", "passport.pdf", "passport.xlsx", "manifest.sig.json"]);
interface PackFile {
  name: string;
  bytes: number;
  sha256: string;
}
interface PackFiles {
  manifest: { files: PackFile[] } & Record<string, unknown>;
  version: unknown;
}
const root = mkdtempSync(join(tmpdir(), "fugitive-format-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The fixture's folder unpacked into `dir`. */
async function unpack(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await readTar(createReadStream(join(FIXTURE, "data.tar.gz")).pipe(createGunzip()), (name) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    const out = createWriteStream(path);
    return {
      chunk: (bytes) => new Promise<void>((done) => (out.write(bytes) ? done() : out.once("drain", done))),
      end: async () => {
        out.end();
        await finished(out);
      },
    };
  });
  return dir;
}

/** Each passport's sheets as the numbers their cells print alone (text around a number, such as a
 *  rounding note, is the release's wording), read as numbers so a precision the release changed reads the same. */
function passportNumbers(passports: Record<string, unknown>): Record<string, Record<string, number[]>> {
  const number = /^[−-]?\d[\d\u00a0\u202f ]*(,\d+)?$/;
  return Object.fromEntries(
    Object.entries(passports as Record<string, Record<string, string[][]>>).map(([key, sheets]) => [
      key,
      Object.fromEntries(
        Object.entries(sheets).map(([name, rows]) => [
          name,
          rows
            .flat()
            .map((cell) => cell.trim())
            .filter((cell) => number.test(cell))
            .map((cell) =>
              Number(
                cell
                  .replace(/[\u00a0\u202f ]/g, "")
                  .replace(",", ".")
                  .replace("−", "-"),
              ),
            ),
        ]),
      ),
    ]),
  );
}

/** The server's own JSON log lines of `event` written while `run` ran. */
async function loggedDuring<T>(event: string, run: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const spy = vi.spyOn(console, "log");
  try {
    const result = await run();
    const lines = spy.mock.calls
      .map(([line]) => (typeof line === "string" && line.startsWith("{") ? (JSON.parse(line) as Record<string, unknown>) : undefined))
      .filter((line) => line?.event === event) as Record<string, unknown>[];
    return { result, lines };
  } finally {
    spy.mockRestore();
  }
}

describe("a data folder of an older release", () => {
  it("upgrades on start, logs each migration once, and shows the same inventory, versions, passport and pack", async () => {
    const dataDir = await unpack(join(root, "v1"));
    expect(existsSync(join(dataDir, DATA_FORMAT_FILE))).toBe(false);
    const expected = JSON.parse(readFileSync(join(FIXTURE, "figures.json"), "utf8"));
    const start = () => startLocalServer({ dataDir, port: 0, demo: DEMO, demoYear: true, clock: offsetClock(FIXTURE_NOW) });
    const first = await loggedDuring("migration", start);
    try {
      expect(first.lines.map(({ from, to }) => ({ from, to }))).toEqual(
        MIGRATIONS.map((m, i) => ({ from: i === 0 ? 1 : MIGRATIONS[i - 1]!.to, to: m.to })),
      );
      expect(first.lines[0]!.message).toMatch(/^папка данных переведена с формата 1 на 2: /);
      const recorded = JSON.parse(readFileSync(join(dataDir, DATA_FORMAT_FILE), "utf8"));
      expect(recorded.format).toBe(CURRENT_DATA_FORMAT);
      // Its LevelDB moved to the SQLite store (format 3) before the engine opened it.
      expect(existsSync(join(dataDir, STORE_DIR, "items.db"))).toBe(true);
      expect(existsSync(join(dataDir, LEVELDB_DIR))).toBe(false);
      expect(recorded.migrations.map((m: { to: number }) => m.to)).toEqual(MIGRATIONS.map((m) => m.to));
      const token = (await signInAsDemo(first.result.url)).access;
      const { packs, ...figures } = await folderFigures(first.result.url, token);
      const { packs: expectedPacks, passports: expectedPassports, ...expectedFigures } = expected;
      // Every figure, line and version as it was; a field a later release adds to an answer does not fail it.
      const { passports, ...answers } = figures;
      expect(answers).toMatchObject(expectedFigures);
      // The passports print every number they printed, in the same order and sheets: the release prints
      // them (an earlier round added rounding notes and the tier's «не применяется» one precision per unit).
      const printed = passportNumbers(expectedPassports);
      expect(Object.values(printed).flatMap((sheets) => Object.values(sheets).flat()).length).toBeGreaterThan(90);
      expect(passportNumbers(passports)).toEqual(printed);
      expect(Object.keys(packs)).toEqual(Object.keys(expectedPacks));
      for (const [key, pack] of Object.entries(packs) as [string, PackFiles][]) {
        const before = expectedPacks[key] as PackFiles;
        // The version's data are the same files to the byte: snapshot, calculations, coefficients,
        // rules, evidence, passports. The pack's verify.py is the release's own checker, and its
        // version.json may carry what a later release adds (a signature's fields): it keeps every
        // field it had, as it was; so does its manifest (the security review's R9 added its format, the company and
        // when it was made, and signs it in a file of its own).
        const { files, ...manifest } = pack.manifest;
        const { files: filesBefore, ...manifestBefore } = before.manifest;
        expect(manifest, key).toMatchObject(manifestBefore);
        const data = (list: PackFile[]) => list.filter((f) => !RELEASE_FILES.has(f.name));
        const now = new Map(data(files).map((f) => [f.name, f]));
        expect(
          data(filesBefore).map((f) => now.get(f.name)),
          key,
        ).toEqual(data(filesBefore));
        expect(pack.version, key).toMatchObject(before.version as Record<string, unknown>);
      }
    } finally {
      await first.result.close();
    }
    const second = await loggedDuring("migration", start);
    await second.result.close();
    expect(second.lines).toEqual([]);
    expect(JSON.parse(readFileSync(join(dataDir, DATA_FORMAT_FILE), "utf8")).format).toBe(CURRENT_DATA_FORMAT);
  }, 120_000); // two starts, a passport and a pack: 20-24 s at load 10-16, more when the machine is busier

  it("backed up by that release (on LevelDB), restores into the SQLite store with every record and shows the same figures", async () => {
    const dataDir = join(root, "restored-v1");
    const restored = await runAdmin(dataDir, ["restore", "--from", join(FIXTURE, "backup.tar.gz")]);
    expect(restored.stderr).toBe("");
    expect(restored.stdout).toMatch(/^Копия от .* восстановлена в .* \(записей базы данных 366 \(элементов 354\), файлов 7/);
    expect(readdirSync(join(dataDir, STORE_DIR)).sort()).toEqual(["items.db", "lock.db"]);
    expect(existsSync(join(dataDir, LEVELDB_DIR))).toBe(false);
    const expected = JSON.parse(readFileSync(join(FIXTURE, "figures.json"), "utf8"));
    const server = await startLocalServer({ dataDir, port: 0, demo: DEMO, demoYear: true, clock: offsetClock(FIXTURE_NOW) });
    try {
      const { packs, passports, ...answers } = await folderFigures(server.url, (await signInAsDemo(server.url)).access);
      const { packs: expectedPacks, passports: expectedPassports, ...expectedAnswers } = expected;
      expect(answers).toMatchObject(expectedAnswers);
      expect(passportNumbers(passports)).toEqual(passportNumbers(expectedPassports));
      expect(Object.keys(packs)).toEqual(Object.keys(expectedPacks));
    } finally {
      await server.close();
    }
  }, 120_000);

  it("with its LevelDB log cut to half, is refused naming the file, and left as it was", async () => {
    // LevelDB skipped what it could not read and «moved» 165 of the 366 records; the
    // approved 2025 came back a draft and the folder was deleted.
    const dataDir = await unpack(join(root, "torn"));
    const log = join(dataDir, LEVELDB_DIR, "000003.log");
    truncateSync(log, Math.floor(statSync(log).size / 2));
    const entries = readdirSync(dataDir).sort();
    const before = readdirSync(join(dataDir, LEVELDB_DIR)).map((name) => [
      name,
      readFileSync(join(dataDir, LEVELDB_DIR, name)).toString("base64"),
    ]);
    await expect(startLocalServer({ dataDir, port: 0, demo: DEMO })).rejects.toThrow(
      `Файл ${log} прежнего хранилища LevelDB поврежден (запись оборвана`,
    );
    const admin = await runAdmin(dataDir, ["migrate-storage"]);
    expect(admin.status).toBe(1);
    expect(admin.stderr).toMatch(
      new RegExp(
        `^Ошибка: Файл ${log.replace(/[.]/g, "\\.")} прежнего хранилища LevelDB поврежден .* Восстановите папку данных из резервной копии \\(npm run admin -- restore`,
      ),
    );
    // Nothing made beside it (no store, no copy, no endpoint file), nothing of it changed.
    expect(readdirSync(dataDir).sort()).toEqual(entries);
    expect(
      readdirSync(join(dataDir, LEVELDB_DIR)).map((name) => [name, readFileSync(join(dataDir, LEVELDB_DIR, name)).toString("base64")]),
    ).toEqual(before);
  });

  it("written by a newer release, is refused with its message and left as it was", async () => {
    const dataDir = await unpack(join(root, "newer"));
    writeFileSync(join(dataDir, DATA_FORMAT_FILE), JSON.stringify({ format: CURRENT_DATA_FORMAT + 1 }));
    const before = readdirSync(join(dataDir, LEVELDB_DIR)).sort();
    const message = `Папка данных ${dataDir} записана более новой версией платформы (формат ${CURRENT_DATA_FORMAT + 1}, эта версия понимает формат до ${CURRENT_DATA_FORMAT}). Запустите ту версию платформы, которая ее записала, или более новую; данные не изменены.`;
    await expect(startLocalServer({ dataDir, port: 0, demo: DEMO })).rejects.toThrow(message);
    const admin = await runAdmin(dataDir, ["list-users"]);
    expect(admin.status).toBe(1);
    expect(admin.stderr).toBe(`Ошибка: ${message}`);
    expect(readdirSync(join(dataDir, LEVELDB_DIR)).sort()).toEqual(before);
    expect(existsSync(join(dataDir, "dynamodb-endpoint.json"))).toBe(false);
  });
});
