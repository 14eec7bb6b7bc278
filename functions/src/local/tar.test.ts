// The backup's archive (tar.ts): what startEntry/writeChunk/endEntry/endArchive write, readTar reads
// back file by file, names longer than ustar's 100 bytes included, and a damaged or cut archive is
// refused in words, never read as fewer files.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { endArchive, endEntry, readTar, startEntry, TarError, writeChunk } from "./tar";
import { backupScheduleFromEnv, BackupSettingError, BACKUP_NAME, DEFAULT_BACKUP_EVERY_MS, DEFAULT_BACKUP_KEEP } from "./backup-schedule";

async function archive(files: Array<[string, Buffer]>): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on("data", (chunk: Buffer) => parts.push(chunk));
  for (const [name, bytes] of files) {
    await startEntry(out, name, bytes.length, Date.UTC(2026, 10, 26));
    // In two chunks, as the backup streams a file.
    await writeChunk(out, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await writeChunk(out, bytes.subarray(Math.floor(bytes.length / 2)));
    await endEntry(out, bytes.length);
  }
  await endArchive(out);
  out.end();
  return Buffer.concat(parts);
}

async function* inPieces(bytes: Buffer, size: number): AsyncIterable<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(bytes: Buffer, pieceSize = 333): Promise<Array<[string, Buffer]>> {
  const files: Array<[string, Buffer]> = [];
  await readTar(inPieces(bytes, pieceSize), (name) => {
    const parts: Buffer[] = [];
    return {
      chunk: (piece) => {
        parts.push(Buffer.from(piece));
      },
      end: () => {
        files.push([name, Buffer.concat(parts)]);
      },
    };
  });
  return files;
}

describe("the backup's tar", () => {
  const long = `файлы/${"очень-длинное-имя-".repeat(8)}.ldb`;
  const files: Array<[string, Buffer]> = [
    ["manifest.json", Buffer.from('{"format":1}')],
    ["db/000005.ldb", Buffer.alloc(1536, 7)],
    ["empty", Buffer.alloc(0)],
    [long, Buffer.from("x".repeat(513))],
  ];

  it("reads back every file, in order and to the byte, whatever the stream's pieces", async () => {
    const bytes = await archive(files);
    expect(bytes.length % 512).toBe(0);
    expect(Buffer.byteLength(long)).toBeGreaterThan(100);
    for (const piece of [1, 333, 512, 1 << 16]) expect(await read(bytes, piece)).toEqual(files);
  });

  it("refuses a cut archive and a damaged header in words", async () => {
    const bytes = await archive(files);
    await expect(read(bytes.subarray(0, bytes.length - 1024))).rejects.toThrow(TarError);
    await expect(read(bytes.subarray(0, 700))).rejects.toThrow(/архив обрывается/);
    const damaged = Buffer.from(bytes);
    damaged[3] = damaged[3]! ^ 0xff;
    await expect(read(damaged)).rejects.toThrow("поврежден заголовок файла в архиве");
  });
});

describe("the backup schedule's settings", () => {
  it("is off without BACKUP_DIR and reads BACKUP_EVERY and BACKUP_KEEP", () => {
    expect(backupScheduleFromEnv({})).toBeUndefined();
    expect(backupScheduleFromEnv({ BACKUP_DIR: "/var/backups/x" })).toEqual({
      dir: "/var/backups/x",
      everyMs: DEFAULT_BACKUP_EVERY_MS,
      keep: DEFAULT_BACKUP_KEEP,
    });
    expect(backupScheduleFromEnv({ BACKUP_DIR: "/b", BACKUP_EVERY: "30m", BACKUP_KEEP: "3" })).toEqual({
      dir: "/b",
      everyMs: 1_800_000,
      keep: 3,
    });
    expect(backupScheduleFromEnv({ BACKUP_DIR: "/b", BACKUP_EVERY: " 6h " })?.everyMs).toBe(21_600_000);
  });

  it("refuses a setting it cannot read, naming it", () => {
    expect(() => backupScheduleFromEnv({ BACKUP_DIR: "/b", BACKUP_EVERY: "0h" })).toThrow(BackupSettingError);
    expect(() => backupScheduleFromEnv({ BACKUP_DIR: "/b", BACKUP_EVERY: "каждый день" })).toThrow(/^BACKUP_EVERY=каждый день: /);
    expect(() => backupScheduleFromEnv({ BACKUP_DIR: "/b", BACKUP_KEEP: "0" })).toThrow(/^BACKUP_KEEP=0: /);
    expect(() => backupScheduleFromEnv({ BACKUP_DIR: "/b", BACKUP_KEEP: "2,5" })).toThrow(BackupSettingError);
  });

  it("names a backup by its instant", () => {
    expect(BACKUP_NAME.test("fugitive-backup-20261126T221500Z.tar.gz")).toBe(true);
    expect(BACKUP_NAME.test("fugitive-backup-20261126T221500Z.tar.gz.partial")).toBe(false);
  });
});
