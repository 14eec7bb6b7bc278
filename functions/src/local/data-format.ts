// The format version of a local data folder (docs/operations.md, «Обновление»): recorded in
// DATA_DIR/data-format.json, so that a release knows what wrote the folder. A start runs, in order,
// the migrations a folder of an older format needs (each idempotent: run again after a crash it
// changes nothing it already changed), logs each, and records the new format; a folder written by
// a newer release is refused before anything opens it, since this release could misread or
// overwrite what it does not know. A folder without the file but with a database is format 1: the
// releases before the file existed.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, open, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../domain/context";
import { LEVELDB_DIR } from "./leveldb-migration";

export const DATA_FORMAT_FILE = "data-format.json";

export interface Migration {
  /** The format the folder has once it ran. */
  to: number;
  name: string;
  run(deps: Deps): Promise<void>;
}

/** Every migration, oldest first; the last one's `to` is this release's format. */
export const MIGRATIONS: readonly Migration[] = [
  {
    to: 2,
    name: "формат папки данных записан в data-format.json (данные не меняются)",
    run: async () => {},
  },
  {
    // The move itself runs before the engine opens the folder (storage.ts, storeOf): by now the
    // folder's LevelDB is copied, counted against the store and kept under another name.
    to: 3,
    name: "хранилище перенесено из LevelDB в SQLite (каждая запись сверена с прежней)",
    run: async () => {},
  },
];

export const CURRENT_DATA_FORMAT = MIGRATIONS[MIGRATIONS.length - 1]!.to;

export class DataFormatError extends Error {}

interface FormatFile {
  format: number;
  /** The migrations run on this folder, when. */
  migrations?: { to: number; name: string; at: string }[];
}

function readFormatFile(dataDir: string): FormatFile | undefined {
  const file = join(dataDir, DATA_FORMAT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as FormatFile;
    if (!Number.isInteger(parsed.format) || parsed.format < 1) throw new Error("format");
    return parsed;
  } catch {
    throw new DataFormatError(
      `Файл ${file} поврежден: в нем должна быть версия формата папки данных, например {"format": ${CURRENT_DATA_FORMAT}}`,
    );
  }
}

/** The folder's format: its file's, 1 for a database without one, undefined for a new folder. */
export async function readDataFormat(dataDir: string): Promise<number | undefined> {
  return readFormatFile(dataDir)?.format ?? (existsSync(join(dataDir, LEVELDB_DIR)) ? 1 : undefined);
}

/** Refuses a folder written by a newer release (before its storage is opened). */
export async function checkDataFormat(dataDir: string): Promise<number | undefined> {
  const format = await readDataFormat(dataDir);
  if (format !== undefined && format > CURRENT_DATA_FORMAT) {
    throw new DataFormatError(
      `Папка данных ${dataDir} записана более новой версией платформы (формат ${format}, эта версия понимает формат до ${CURRENT_DATA_FORMAT}). ` +
        "Запустите ту версию платформы, которая ее записала, или более новую; данные не изменены.",
    );
  }
  return format;
}

async function writeFormatFile(dataDir: string, content: FormatFile): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, DATA_FORMAT_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(content, null, 1)}\n`, { mode: 0o600 });
  const handle = await open(temporary, "r+");
  await handle.sync();
  await handle.close();
  await rename(temporary, file);
}

export type MigrationLog = (line: { from: number; to: number; name: string; duration_ms: number }) => void;

/** Brings a folder of format `from` (undefined: new) to this release's: runs each migration it
 *  lacks, recording the format after each, so a start killed midway resumes where it stopped. */
export async function migrateDataFolder(dataDir: string, deps: Deps, from: number | undefined, log: MigrationLog): Promise<void> {
  const recorded = readFormatFile(dataDir);
  if (from === undefined) {
    await writeFormatFile(dataDir, { format: CURRENT_DATA_FORMAT, migrations: [] });
    return;
  }
  let format = from;
  const migrations = [...(recorded?.migrations ?? [])];
  for (const migration of MIGRATIONS) {
    if (migration.to <= format) continue;
    const started = performance.now();
    await migration.run(deps);
    migrations.push({ to: migration.to, name: migration.name, at: new Date().toISOString() });
    await writeFormatFile(dataDir, { format: migration.to, migrations });
    log({ from: format, to: migration.to, name: migration.name, duration_ms: Math.round(performance.now() - started) });
    format = migration.to;
  }
}
