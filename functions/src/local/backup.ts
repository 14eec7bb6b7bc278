// Backups of a local installation's data folder (docs/operations.md, «Резервные копии»): one
// `.tar.gz` holding a snapshot of the engine's store (every key and value as they were at
// one instant, taken by the engine that holds the folder: the running server's, or one this process
// starts when none runs), every other file of the folder (the file store, the signing secrets, the
// format version: whatever the folder holds) and, last, manifest.json with the counts and the
// SHA-256 of each part. Written beside its name and renamed when whole, so an interrupted backup
// never replaces the last good one. `verify-backup` checks a file offline; `restore` checks it
// first and then fills an empty data folder.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, type Stats } from "node:fs";
import { mkdir, open, readdir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { Readable, type Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import { createGunzip, createGzip } from "node:zlib";
import { ENGINE_SECRET_HEADER, SNAPSHOT_PATH } from "./dynalite-engine";
import { isKeptLevelDb, LEVELDB_DIR } from "./leveldb-migration";
import { SqliteLevel } from "dynalite/db/sqlite-level.mts";
import { engineOf, STORE_DIR, startFolderEngine } from "./storage";
import type { RunningDynalite } from "./dynalite";
import { endArchive, endEntry, readTar, startEntry, TarError, writeChunk } from "./tar";

export const BACKUP_KIND = "fugitive-emissions-backup";
export const BACKUP_VERSION = 1;
/** The archive's folder of the engine's records: its name since the engine kept them in LevelDB
 *  under DATA_DIR/dynamodb (a backup of either store restores into the SQLite one). */
const DATABASE_DIR = "dynamodb";
/** The engine's folders in a data folder, which are copied as records, never as files: its store,
 *  one being moved from LevelDB, and an older release's LevelDB. */
const ENGINE_FOLDERS = new Set([STORE_DIR, `${STORE_DIR}.migrating`, LEVELDB_DIR]);
/** The file that names a running server's engine (storage.ts). */
const ENDPOINT_FILE = "dynamodb-endpoint.json";
const MANIFEST = "manifest.json";
/** Snapshot records gathered into one archive part before it is written (and hashed). */
const PART_BYTES = 8 * 1024 * 1024;
/** Files being written in the folder (the file store's, a secret's, a backup's): not yet data. */
/** A backup's own file name (backup-schedule.ts names them so). */
const BACKUP_FILE = /^fugitive-backup-.*\.tar\.gz$/;
const TEMPORARY = /\.(tmp(\.type|\.pending)?|partial)$/;
/** the security review's R16: a snapshot part's record (one engine key and value as a JSON line) at most this
 *  long. An item is at most 400 KB (DynamoDB's bound, which dynalite holds), its index entries less;
 *  a longer line is no backup's, and reading it whole once threw RangeError (a 600 MB line). */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;
/** The manifest is read into memory: at most this long (it lists every file of the folder). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
/** The names of a backup's database parts, as takeBackup writes them. */
const DATABASE_PART = /^dynamodb\/\d{6}\.jsonl$/;

export interface BackupPart {
  /** The part's path in the archive. */
  path: string;
  bytes: number;
  sha256: string;
  /** For a snapshot part: its engine records. */
  records?: number;
}

export interface BackupManifest {
  kind: typeof BACKUP_KIND;
  version: number;
  created_at: string;
  host: string;
  /** The data folder's format version (data-format.ts) when it was copied. */
  data_format?: number;
  dynamodb: {
    /** The engine's records (items, index entries, table descriptions). */
    records: number;
    /** Items per table. */
    items: Record<string, number>;
    parts: BackupPart[];
  };
  files: { count: number; bytes: number; list: BackupPart[] };
}

export class BackupError extends Error {}

function formatError(file: string, message: string): BackupError {
  return new BackupError(`Резервная копия ${file} повреждена или неполна: ${message}`);
}

/** The engine of the server running on `dataDir`, if one answers (its endpoint and the secret its
 *  port asks R18). */
async function runningEngine(dataDir: string): Promise<{ endpoint: string; secret?: string } | undefined> {
  const running = engineOf(dataDir);
  if (!running) return undefined;
  try {
    const res = await fetch(running.endpoint, { signal: AbortSignal.timeout(2000), headers: secretHeader(running.secret) });
    await res.body?.cancel();
    return running;
  } catch {
    return undefined;
  }
}

const secretHeader = (secret: string | undefined): Record<string, string> => (secret ? { [ENGINE_SECRET_HEADER]: secret } : {});

/** The lines of a text stream. */
async function* lines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of body) {
    rest += decoder.decode(chunk, { stream: true });
    let at = rest.indexOf("\n");
    let from = 0;
    while (at >= 0) {
      yield rest.slice(from, at);
      from = at + 1;
      at = rest.indexOf("\n", from);
    }
    rest = rest.slice(from);
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

async function write(out: Writable, chunk: Buffer): Promise<void> {
  await writeChunk(out, chunk);
}

/** Writes `bytes` as the archive's file `path` and returns its part. */
async function writePart(out: Writable, path: string, bytes: Buffer, records?: number): Promise<BackupPart> {
  await startEntry(out, path, bytes.length);
  await write(out, bytes);
  await endEntry(out, bytes.length);
  return {
    path,
    bytes: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    ...(records === undefined ? {} : { records }),
  };
}

/** The folder's files that a backup copies (relative, with `/`), but for the engine's own. */
async function dataFiles(dataDir: string, skip: (path: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (skip(path)) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && !TEMPORARY.test(entry.name)) found.push(relative(dataDir, path).split(sep).join("/"));
    }
  };
  await walk(dataDir);
  return found;
}

/** Copies one file into the archive from an open descriptor: a file replaced meanwhile (the file
 *  store writes beside and renames) is copied as it was when opened; one deleted meanwhile is left
 *  out. */
async function copyFile(out: Writable, dataDir: string, path: string): Promise<BackupPart | undefined> {
  let handle;
  try {
    handle = await open(join(dataDir, path), "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const { size } = (await handle.stat()) as Stats;
    const name = `files/${path}`;
    await startEntry(out, name, size);
    const hash = createHash("sha256");
    let copied = 0;
    if (size > 0) {
      for await (const chunk of handle.createReadStream({ start: 0, end: size - 1, autoClose: false }) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        copied += chunk.length;
        await write(out, chunk);
      }
    }
    if (copied !== size) throw new BackupError(`файл ${path} изменился во время копирования: повторите копирование`);
    await endEntry(out, size);
    return { path: name, bytes: size, sha256: hash.digest("hex") };
  } finally {
    await handle.close();
  }
}

export interface BackupReport {
  file: string;
  manifest: BackupManifest;
  duration_ms: number;
}

export interface BackupOptions {
  /** The engine to snapshot; by default the running server's on `dataDir`, else one started here. */
  endpoint?: string;
  /** The secret that engine's port asks (the security review's R18). */
  engineSecret?: string;
  /** The data folder's format version to record (data-format.ts). */
  dataFormat?: () => Promise<number | undefined>;
}

/** Copies `dataDir` into the archive `file`, written beside it (`file.<pid>.partial`) and renamed
 *  into place once whole and on disk. */
export async function takeBackup(dataDir: string, file: string, options: BackupOptions = {}): Promise<BackupReport> {
  const started = performance.now();
  const target = resolve(file);
  const source = resolve(dataDir);
  if (!existsSync(join(source, STORE_DIR)) && !existsSync(join(source, LEVELDB_DIR)))
    throw new BackupError(`в папке ${source} нет данных (папки ${STORE_DIR})`);
  if (target === source || [...ENGINE_FOLDERS].some((folder) => target.startsWith(join(source, folder) + sep)))
    throw new BackupError("копию нельзя записать в папку базы данных");
  const running = options.endpoint ? { endpoint: options.endpoint, secret: options.engineSecret } : await runningEngine(source);
  let endpoint = running?.endpoint;
  let engine: RunningDynalite | undefined;
  if (!endpoint) {
    engine = await startFolderEngine(source);
    endpoint = engine.endpoint;
  }
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  const gzip = createGzip({ level: 6 });
  const output = createWriteStream(partial, { mode: 0o600 });
  gzip.pipe(output);
  try {
    const dataFormat = await options.dataFormat?.();
    const res = await fetch(`${endpoint}${SNAPSHOT_PATH}`, { headers: secretHeader(running?.secret) });
    if (!res.ok || !res.body) throw new BackupError(`база данных не дала снимок (HTTP ${res.status})`);
    const manifest: BackupManifest = {
      kind: BACKUP_KIND,
      version: BACKUP_VERSION,
      created_at: new Date().toISOString(),
      host: hostname(),
      ...(dataFormat === undefined ? {} : { data_format: dataFormat }),
      dynamodb: { records: 0, items: {}, parts: [] },
      files: { count: 0, bytes: 0, list: [] },
    };
    let batch: string[] = [];
    let batchBytes = 0;
    let ended: number | undefined;
    const flush = async () => {
      if (batch.length === 0) return;
      const name = `${DATABASE_DIR}/${String(manifest.dynamodb.parts.length + 1).padStart(6, "0")}.jsonl`;
      manifest.dynamodb.parts.push(await writePart(gzip, name, Buffer.from(batch.join(""), "utf8"), batch.length));
      batch = [];
      batchBytes = 0;
    };
    for await (const line of lines(Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>))) {
      if (line.startsWith("{")) {
        ended = (JSON.parse(line) as { end: number }).end;
        break;
      }
      const table = /^\["item-([^~"]+)~/.exec(line)?.[1];
      if (table) manifest.dynamodb.items[table] = (manifest.dynamodb.items[table] ?? 0) + 1;
      manifest.dynamodb.records += 1;
      batch.push(`${line}\n`);
      batchBytes += line.length + 1;
      if (batchBytes >= PART_BYTES) await flush();
    }
    await flush();
    if (ended !== manifest.dynamodb.records) throw new BackupError("снимок базы данных оборвался: повторите копирование");
    const engineFolders = new Set([...ENGINE_FOLDERS].map((folder) => join(source, folder)));
    // A backup folder inside the data folder (this backup's, or the scheduled ones') and the
    // backups in it are not copied into each backup.
    const inside = (folder: string | undefined) => (folder && folder !== source && folder.startsWith(source + sep) ? folder : undefined);
    const backupFolders = new Set([inside(dirname(target)), inside(process.env.BACKUP_DIR && resolve(process.env.BACKUP_DIR))]);
    const skip = (path: string) =>
      engineFolders.has(path) ||
      // An old LevelDB kept after its move: its records are the store's, copied above.
      (dirname(path) === source && isKeptLevelDb(basename(path))) ||
      path === join(source, ENDPOINT_FILE) ||
      path === target ||
      backupFolders.has(path) ||
      BACKUP_FILE.test(basename(path));
    for (const path of await dataFiles(source, skip)) {
      const part = await copyFile(gzip, source, path);
      if (!part) continue;
      manifest.files.list.push(part);
      manifest.files.count += 1;
      manifest.files.bytes += part.bytes;
    }
    await writePart(gzip, MANIFEST, Buffer.from(JSON.stringify(manifest, null, 1), "utf8"));
    await endArchive(gzip);
    gzip.end();
    await finished(output);
    // On disk before it takes the name: a power cut after the rename finds the whole file.
    const handle = await open(partial, "r+");
    await handle.sync();
    await handle.close();
    await rename(partial, target);
    const folder = await open(dirname(target), "r");
    await folder.sync().catch(() => {});
    await folder.close();
    return { file: target, manifest, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    gzip.destroy();
    output.destroy();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await engine?.close();
  }
}

/** Reads an archive, handing each file's bytes to `sink(name, size)`; the parts as read. */
async function readArchive(
  file: string,
  sink?: (name: string, size: number) => { chunk(bytes: Buffer): void | Promise<void>; end(): void | Promise<void> } | undefined,
): Promise<{ parts: Map<string, BackupPart>; manifest?: BackupManifest }> {
  const parts = new Map<string, BackupPart>();
  const refused: string[] = [];
  let manifestText = "";
  const source = createReadStream(file);
  const gunzip = source.pipe(createGunzip());
  try {
    await readTar(gunzip as AsyncIterable<Buffer>, (name, size) => {
      const hash = createHash("sha256");
      const isManifest = name === MANIFEST;
      const isDatabase = DATABASE_PART.test(name);
      // the security review's R16: only what a backup writes is read on (and restored); the rest is named.
      const written = isManifest || isDatabase || restorableFile(name) !== undefined;
      if (!written) refused.push(name);
      if (isManifest && size > MAX_MANIFEST_BYTES) throw formatError(file, `опись (manifest.json) больше ${MAX_MANIFEST_BYTES} байт`);
      const inner = written ? sink?.(name, size) : undefined;
      let records = 0;
      let bytes = 0;
      let line = 0;
      return {
        async chunk(chunk) {
          hash.update(chunk);
          bytes += chunk.length;
          if (isManifest) manifestText += chunk.toString("utf8");
          if (isDatabase) {
            for (const byte of chunk) {
              if (byte === 10) {
                records += 1;
                line = 0;
              } else if (++line > MAX_RECORD_BYTES) {
                throw formatError(
                  file,
                  `в части ${name} запись ${records + 1} длиннее ${MAX_RECORD_BYTES / 1024 / 1024} МБ: резервная копия платформы таких не пишет`,
                );
              }
            }
          }
          await inner?.chunk(chunk);
        },
        async end() {
          parts.set(name, { path: name, bytes, sha256: hash.digest("hex"), ...(isDatabase ? { records } : {}) });
          await inner?.end();
        },
      };
    });
  } catch (error) {
    source.destroy();
    gunzip.destroy();
    if (error instanceof TarError) throw formatError(file, error.message);
    if ((error as NodeJS.ErrnoException).code === "Z_BUF_ERROR" || (error as NodeJS.ErrnoException).code === "Z_DATA_ERROR") {
      throw formatError(file, "сжатие нарушено (файл обрезан или изменен)");
    }
    throw error;
  }
  if (refused.length > 0) {
    throw formatError(
      file,
      `в ней есть части, которых резервная копия платформы не пишет, и ни одна из них не восстанавливается: ${refused
        .slice(0, 5)
        .map((name) => `«${name}»`)
        .join(", ")}${refused.length > 5 ? ` и еще ${refused.length - 5}` : ""}`,
    );
  }
  let manifest: BackupManifest | undefined;
  if (manifestText) {
    try {
      manifest = JSON.parse(manifestText) as BackupManifest;
    } catch {
      throw formatError(file, "опись (manifest.json) не читается");
    }
  }
  return { parts, manifest };
}

/** Checks `file` against its manifest: every part present with its size, SHA-256 and records, no
 *  other file in it. Reads the file alone (offline). */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  if (!existsSync(file)) throw new BackupError(`файла ${file} нет`);
  const { parts, manifest } = await readArchive(file);
  return checkParts(file, parts, manifest);
}

function checkParts(file: string, parts: Map<string, BackupPart>, manifest: BackupManifest | undefined): BackupManifest {
  if (!manifest) throw formatError(file, "в ней нет описи (manifest.json)");
  if (manifest.kind !== BACKUP_KIND) throw formatError(file, "это не резервная копия платформы");
  if (manifest.version > BACKUP_VERSION) {
    throw new BackupError(
      `Резервная копия ${file} сделана более новой версией платформы (формат ${manifest.version}): восстановите ее той версией или более новой`,
    );
  }
  const listed = [...manifest.dynamodb.parts, ...manifest.files.list];
  for (const part of listed) {
    const read = parts.get(part.path);
    if (!read) throw formatError(file, `нет части ${part.path}`);
    if (read.bytes !== part.bytes || read.sha256 !== part.sha256)
      throw formatError(file, `часть ${part.path} не совпадает с описью (SHA-256)`);
    if (part.records !== undefined && read.records !== part.records) throw formatError(file, `в части ${part.path} не то число записей`);
  }
  const extra = [...parts.keys()].filter((path) => path !== MANIFEST && !listed.some((part) => part.path === path));
  if (extra.length > 0) throw formatError(file, `части, которых нет в описи: ${extra.slice(0, 3).join(", ")}`);
  const records = manifest.dynamodb.parts.reduce((sum, part) => sum + (part.records ?? 0), 0);
  if (records !== manifest.dynamodb.records) throw formatError(file, "число записей базы данных не сходится с описью");
  if (manifest.files.list.length !== manifest.files.count) throw formatError(file, "число файлов не сходится с описью");
  return manifest;
}

/** the security review's R16: the folder's path of an archive's `files/…` part that a backup writes (takeBackup's
 *  dataFiles, less what it skips), or undefined: a path that would leave the folder (absolute, `..`,
 *  an empty or `.` segment, a backslash, NUL), the engine's folder, the file that names a running
 *  server's engine (a restored one would send the next admin command to the archive's URL), a
 *  temporary file or a backup. */
function restorableFile(name: string): string | undefined {
  if (!name.startsWith("files/")) return undefined;
  const path = name.slice("files/".length);
  const segments = path.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === ".." || /[\\\0]/.test(segment))) return undefined;
  const base = segments.at(-1)!;
  if (
    ENGINE_FOLDERS.has(segments[0]!) ||
    isKeptLevelDb(segments[0]!) ||
    path === ENDPOINT_FILE ||
    TEMPORARY.test(base) ||
    BACKUP_FILE.test(base)
  )
    return undefined;
  return path;
}

/** The archive path of a copied file as a path under the folder being restored. */
function restoredPath(root: string, name: string): string | undefined {
  const path = restorableFile(name);
  if (path === undefined) return undefined;
  const full = resolve(root, path);
  return full.startsWith(root + sep) ? full : undefined;
}

/** Restores `file` into `dataDir`, which must be empty or absent: the archive is checked whole
 *  first (and its manifest handed to `accept`, which may refuse it), then unpacked into a folder
 *  beside it that takes its name once complete. */
export async function restoreBackup(file: string, dataDir: string, accept?: (manifest: BackupManifest) => void): Promise<BackupManifest> {
  const root = resolve(dataDir);
  const present = existsSync(root) ? await readdir(root) : [];
  if (present.length > 0) {
    throw new BackupError(`Папка ${root} не пуста: восстановление идет только в пустую или новую папку (укажите другую в DATA_DIR)`);
  }
  const manifest = await verifyBackup(file);
  accept?.(manifest);
  const staging = `${root}.restoring-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  // The folder is its owner's alone, as a server's own start leaves it under the unit's UMask.
  await mkdir(join(staging, STORE_DIR), { recursive: true, mode: 0o700 });
  const db = new SqliteLevel(join(staging, STORE_DIR), { keyEncoding: "utf8", valueEncoding: "utf8" });
  await db.open();
  let closed = false;
  try {
    const { parts } = await readArchive(file, (name) => {
      if (DATABASE_PART.test(name)) {
        // the security review's R16: a record at a time (readArchive bounds each line), written 1 000 a batch;
        // the part was read whole into one string before, which a 600 MB line could not be.
        const decoder = new StringDecoder("utf8");
        let rest = "";
        let batch: { type: "put"; key: string; value: string }[] = [];
        const put = async (line: string) => {
          if (line.length === 0) return;
          const [key, value] = JSON.parse(line) as [string, string];
          if (typeof key !== "string" || typeof value !== "string") throw formatError(file, `в части ${name} запись не пара строк`);
          batch.push({ type: "put", key, value });
          if (batch.length >= 1000) {
            await db.batch(batch);
            batch = [];
          }
        };
        return {
          async chunk(bytes) {
            rest += decoder.write(bytes);
            let from = 0;
            for (let at = rest.indexOf("\n"); at >= 0; at = rest.indexOf("\n", from)) {
              await put(rest.slice(from, at));
              from = at + 1;
            }
            rest = rest.slice(from);
          },
          async end() {
            await put(rest + decoder.end());
            rest = "";
            if (batch.length > 0) await db.batch(batch);
            batch = [];
          },
        };
      }
      const path = restoredPath(staging, name);
      if (!path) return undefined;
      // The data folder's files are its owner's alone (the secrets among them).
      let out: Writable | undefined;
      return {
        async chunk(bytes) {
          if (!out) {
            await mkdir(dirname(path), { recursive: true, mode: 0o700 });
            out = createWriteStream(path, { mode: 0o600 });
          }
          await write(out, bytes);
        },
        async end() {
          if (!out) {
            await mkdir(dirname(path), { recursive: true, mode: 0o700 });
            await writeFile(path, "", { mode: 0o600 });
            return;
          }
          out.end();
          await finished(out);
        },
      };
    });
    // The same file read again: it must still be what was checked.
    checkParts(file, parts, manifest);
    await db.close();
    closed = true;
    if (existsSync(root)) await rmdir(root);
    await rename(staging, root);
    return manifest;
  } catch (error) {
    if (!closed) await db.close().catch(() => {});
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** A backup's sizes for a line of the log or the terminal. */
export function describeBackup(manifest: BackupManifest): string {
  const items = Object.values(manifest.dynamodb.items).reduce((sum, n) => sum + n, 0);
  return `записей базы данных ${manifest.dynamodb.records} (элементов ${items}), файлов ${manifest.files.count} (${manifest.files.bytes} байт)`;
}
