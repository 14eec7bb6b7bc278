// Opens the product's storage for a process on this machine: dynalite under DATA_DIR (its store
// on SQLite, sqlite-level.mts; or in memory), or real DynamoDB when STORAGE=dynamodb. The server
// records its dynalite endpoint in DATA_DIR so that the admin command can use it while the server
// holds the store's lock.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { MessagePort } from "node:worker_threads";
import { createDocumentClient, ensureTable } from "../adapters/dynamodb/client";
import { dynamoRepositories } from "../adapters/dynamodb/repositories";
import type { Repositories } from "../ports";
import type { SigningKeys } from "../domain/signed-tokens";
import type { SigningKey, VersionSigner } from "../ports";
import { newRsaKey, rsaSigner, signingKeyOf } from "../adapters/signing/rsa-signer";
import type { StreamRecord } from "../events/table-changes";
import { type DynaliteOptions, startDynalite, type RunningDynalite } from "./dynalite";
import type { SdkRequestHandler } from "./dynalite-port";
import { eventQueue } from "./event-queue";
import { inProcessStreamHandler, recordIdentifier, threadStreamHandler } from "./stream-handler";
import { captureTableChanges } from "./table-stream";
import { keptLevelDbs, migrateLevelDb, type OtherLevelDb, otherLevelDbs } from "./leveldb-migration";
import { serverLog } from "./server-log";
import { lostStoreProblem } from "./store-presence";

// The SDK's notice about its own future support of a Node release is not something a user of
// `npm start` can act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

export const LOCAL_TABLE = "fugitive-emissions";
const ENDPOINT_FILE = "dynamodb-endpoint.json";
/** How often the running server looks for its endpoint file, ms (openServerStorage). */
const ENDPOINT_CHECK_MS = 1000;
/** The engine's store in a data folder (SQLite, sqlite-level.mts). */
export const STORE_DIR = "sqlite";

/** The store of `dataDir` for the engine to open: a folder an older release wrote on LevelDB is
 *  moved to it first (leveldb-migration.ts), counted record for record, and the move logged; an old
 *  folder kept after its move is named at every start while it is there. */
export async function storeOf(dataDir: string): Promise<string> {
  let other: OtherLevelDb | undefined;
  const moved = await migrateLevelDb(dataDir, STORE_DIR, new Date(), (found) => {
    other = found;
  });
  if (moved) {
    serverLog.info({
      event: "storage-migration",
      records: moved.to.records,
      items: moved.to.items,
      duration_ms: moved.duration_ms,
      message: `хранилище перенесено из LevelDB в SQLite: записей ${moved.to.records}, каждая сверена с прежней; прежняя папка сохранена как ${moved.kept}`,
    });
  }
  for (const kept of keptLevelDbs(dataDir)) {
    serverLog.info({
      event: "storage-migration-kept",
      folder: kept,
      message: `прежнее хранилище LevelDB сохранено в ${kept} (данные уже в SQLite): удалите эту папку, когда убедитесь, что данные на месте (docs/operations.md, «Перенос хранилища в SQLite»)`,
    });
  }
  // A LevelDB found beside the migrated store with other data than the move's: both kept, said at `warn`
  // at every start while it is there (leveldb-migration.ts).
  for (const folder of otherLevelDbs(dataDir)) {
    const counted = other?.folder === folder ? ` (в ней записей ${other.records}, перенесено в SQLite ${other.migrated})` : "";
    serverLog.warn({
      event: "storage-migration-other",
      folder,
      message:
        `рядом с перенесенным хранилищем SQLite найдено хранилище LevelDB с другими данными${counted}: оно сохранено в ${folder}, сервер работает на SQLite. ` +
        "Сравните данные и перенесите нужное вручную или удалите папку, когда убедитесь, что она не нужна (docs/operations.md, «Перенос хранилища в SQLite»)",
    });
  }
  return join(dataDir, STORE_DIR);
}

export interface OpenStorage {
  repos: Repositories;
  endpoint?: string;
  /** The secret the engine's loopback port asks of a caller over HTTP (the security review's R18). */
  engineSecret?: string;
  /** With the engine in a thread of this process: a new way in to it for another thread
   *  (dynalite-port.ts), without HTTP. */
  connect?(): MessagePort;
  /** With the engine in this process: a new transport to it for a client of this process (the
   *  SDK's `requestHandler`, dynalite-port.ts), without HTTP. */
  requestHandler?(): SdkRequestHandler;
  /** The document client the repositories write through (a bench counts its calls). */
  doc?: DynamoDBDocumentClient;
  /** A write's record made by another thread's client (the readings consumer's, whose writes
   *  table-stream.ts turns into records there), handed to this storage's stream. */
  streamRecord?(record: StreamRecord): void;
  /** Resolves once the table's stream handler has seen every write made so far. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export function dataDirFromEnv(): string {
  return resolve(process.env.DATA_DIR || ".data");
}

/** The JWT signing secret of a local installation, generated once and kept in DATA_DIR, and the
 *  one before the last rotation while it is still accepted (`jwt-secret-previous.json`). */
export function localSigningKeys(dataDir: string): SigningKeys {
  const file = join(dataDir, "jwt-secret");
  if (!existsSync(file)) writeSecretFile(file, newJwtSecret());
  const keys: SigningKeys = { jwtSecret: new TextEncoder().encode(readFileSync(file, "utf8").trim()) };
  const previousFile = join(dataDir, "jwt-secret-previous.json");
  if (existsSync(previousFile)) {
    const previous = JSON.parse(readFileSync(previousFile, "utf8")) as { secret: string; valid_until: string };
    keys.previousJwtSecret = { secret: new TextEncoder().encode(previous.secret), validUntil: new Date(previous.valid_until) };
  }
  return keys;
}

/** A fresh signing secret: 48 random bytes as base64 (64 characters). */
export function newJwtSecret(): string {
  return randomBytes(48).toString("base64");
}

/** Replaces the local signing secret, keeping the old one accepted until `validUntil`. A running
 *  server reads the secrets when it starts. */
export function rotateLocalJwtSecret(dataDir: string, validUntil: Date): void {
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) {
    const secret = readFileSync(file, "utf8").trim();
    writeSecretFile(join(dataDir, "jwt-secret-previous.json"), JSON.stringify({ secret, valid_until: validUntil.toISOString() }));
  }
  writeSecretFile(file, newJwtSecret());
}

const SIGNING_KEY_FILE = "version-signing-key.pem";
const SIGNING_KEYS_FILE = "version-signing-keys.json";
type StoredPublicKey = { pem: string; from: string; to?: string };

/** the key that signs approved versions, made once in DATA_DIR (PKCS#8, 0600) with the
 *  public keys of it and of those it replaced (`version-signing-keys.json`, oldest first). */
export function localVersionSigner(dataDir: string, now = new Date()): VersionSigner {
  const file = join(dataDir, SIGNING_KEY_FILE);
  const listFile = join(dataDir, SIGNING_KEYS_FILE);
  if (!existsSync(file)) rotateLocalSigningKey(dataDir, now);
  const stored = JSON.parse(readFileSync(listFile, "utf8")) as StoredPublicKey[];
  return rsaSigner(
    readFileSync(file, "utf8"),
    stored.map((k) => signingKeyOf(k.pem, k.from, k.to)),
  );
}

/** A new signing key from `now`: the old one's public key stays listed, ending now, so the versions
 *  it signed stay verifiable. A running server reads the key when it starts. */
export function rotateLocalSigningKey(dataDir: string, now: Date): SigningKey {
  const listFile = join(dataDir, SIGNING_KEYS_FILE);
  const stored: StoredPublicKey[] = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, "utf8")) as StoredPublicKey[]) : [];
  const at = now.toISOString();
  const last = stored.at(-1);
  if (last && !last.to) last.to = at;
  const { privateKey, publicKey } = newRsaKey();
  stored.push({ pem: publicKey, from: at });
  // The key first, then the list naming it: a server starting between the two reads a key the list
  // does not name yet and makes none; it is named at once after.
  writeSecretFile(join(dataDir, SIGNING_KEY_FILE), privateKey);
  writeSecretFile(listFile, `${JSON.stringify(stored, null, 2)}\n`);
  return signingKeyOf(publicKey, at);
}

function writeSecretFile(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  // Written beside and renamed, so a server starting meanwhile reads the old or the new file whole.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

async function reachable(endpoint: string, engineSecret?: string): Promise<boolean> {
  try {
    const doc = createDocumentClient({ tableName: LOCAL_TABLE, endpoint, engineSecret });
    await doc.send(new ListTablesCommand({}));
    doc.destroy();
    return true;
  } catch {
    return false;
  }
}

export interface StorageOptions {
  /** dynalite and the table-stream handler each in a worker thread of its own (the local server):
   *  neither holds the event loop that answers requests. Without, both run in this process. */
  threads?: boolean;
}

/** The table on a dynalite endpoint, with the stream DynamoDB would have: this process's writes
 *  go to the handler that the table's stream feeds in AWS (events/table-changes.ts), in this
 *  process or in a thread of its own. An engine of this process (`engine`) is reached without
 *  HTTP: in its thread through message ports, by this process's client and the handler's thread
 *  alike; in this event loop straight (dynalite-port.ts). */
async function fromEndpoint(
  endpoint: string,
  closeEngine: () => Promise<void>,
  options: StorageOptions = {},
  engine?: RunningDynalite,
  /** The secret of another process's engine, reached over its loopback port. */
  engineSecret = engine?.secret,
): Promise<OpenStorage> {
  const doc = createDocumentClient({
    tableName: LOCAL_TABLE,
    endpoint,
    engineSecret,
    ...(engine ? { requestHandler: engine.requestHandler() } : {}),
  });
  await ensureTable(doc, LOCAL_TABLE);
  const repos = dynamoRepositories(doc, LOCAL_TABLE);
  const handler = options.threads
    ? threadStreamHandler(endpoint, LOCAL_TABLE, engine?.connect)
    : inProcessStreamHandler(endpoint, LOCAL_TABLE, engine?.requestHandler(), engineSecret);
  const stream = eventQueue<StreamRecord>(
    async (records) => {
      const failed = new Set(await handler.handle(records));
      return records.filter((record) => failed.has(recordIdentifier(record)));
    },
    // Lambda gathers for up to 5 s (infra/lib/stack.ts); a shorter wait keeps the local profile fresh
    // while still folding a burst of writes into one refresh per company.
    { name: "table stream", windowMs: 200 },
  );
  captureTableChanges(doc, (record) => stream.push(record), { imagesWithUpdates: engine !== undefined });
  return {
    repos,
    endpoint,
    ...(engineSecret === undefined ? {} : { engineSecret }),
    ...(engine?.connect ? { connect: engine.connect } : {}),
    ...(engine ? { requestHandler: engine.requestHandler } : {}),
    doc,
    streamRecord: (record) => void stream.push(record),
    settled: () => stream.settled(),
    async close() {
      await stream.settled();
      doc.destroy();
      await handler.close();
      await closeEngine();
    },
  };
}

/** Storage in memory: every call gets its own empty table (tests). */
export async function openMemoryStorage(options: StorageOptions = {}): Promise<OpenStorage> {
  const engine = await startDynalite({ thread: options.threads });
  return fromEndpoint(engine.endpoint, engine.close, options, engine);
}

/** What dynamodb-endpoint.json says: where the running server's engine listens, and the secret its
 *  port asks of every caller (the security review's R18; the file is its owner's alone, 0600). */
interface EndpointFile {
  endpoint: string;
  pid?: number;
  secret?: string;
}

/** Whether a process of this id runs (signal 0 checks without sending; EPERM: it runs as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running server's engine on `dataDir` as its endpoint file names it, if the file is there. */
export function engineOf(dataDir: string): EndpointFile | undefined {
  const endpointFile = join(dataDir, ENDPOINT_FILE);
  if (!existsSync(endpointFile)) return undefined;
  try {
    return JSON.parse(readFileSync(endpointFile, "utf8")) as EndpointFile;
  } catch {
    return undefined;
  }
}

/** The server's storage: owns dynalite on DATA_DIR and advertises its endpoint there, with a secret
 *  of this start that the engine's loopback port asks of every caller (the security review's R18): any process of
 *  the machine reaches a loopback port, only the folder's owner reads the file. */
export async function openServerStorage(dataDir: string, options: StorageOptions = {}): Promise<OpenStorage> {
  // made 0700, as the systemd unit's UMask=0077 makes it (it holds password hashes and
  // secrets); `npm start` sets that umask for its files (local.ts).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("hex");
  // The folder is this server's once its store is open: the store's lock refuses a second one
  // (a check of the endpoint file let a second server through once a clean-up had
  // removed the file, and it wrote its own over it). A server refused writes nothing.
  const engine = await startFolderEngine(dataDir, { thread: options.threads, secret });
  const endpointFile = join(dataDir, ENDPOINT_FILE);
  const advertised = JSON.stringify({ endpoint: engine.endpoint, pid: process.pid, secret } satisfies EndpointFile);
  writeSecretFile(endpointFile, advertised);
  // The file is the only way to this engine's port and secret: a clean-up that removed it left the
  // admin command and a backup refused by the store's lock until the server was restarted (issue
  // 119), so the running server writes it again once it is gone.
  const keeper = setInterval(() => {
    if (existsSync(endpointFile)) return;
    try {
      writeSecretFile(endpointFile, advertised);
    } catch {
      // The folder itself gone or read-only: the store's own writes fail and say so.
    }
  }, ENDPOINT_CHECK_MS);
  keeper.unref();
  return fromEndpoint(
    engine.endpoint,
    async () => {
      clearInterval(keeper);
      rmSync(endpointFile, { force: true });
      await engine.close();
    },
    options,
    engine,
  );
}

/** A start refused for its data folder's database (exit 78: a restart would not change it). */
export class StoreRefusedError extends Error {}

/** The engine on `dataDir`'s store (moved from LevelDB first, storeOf), or the reason it cannot be
 *  opened, in words an operator can act on: the folder another process's (the store's lock), or its
 *  database damaged (sqlite-level.mts's check), naming the file, the check and the way back. */
export async function startFolderEngine(dataDir: string, options: Omit<DynaliteOptions, "path"> = {}): Promise<RunningDynalite> {
  const path = await storeOf(dataDir);
  // A used folder whose store was emptied or removed is refused, never started as a new one (store-presence.ts).
  const lost = lostStoreProblem(dataDir, path);
  if (lost) throw new StoreRefusedError(lost);
  try {
    return await startDynalite({ ...options, path });
  } catch (error) {
    const { code, file, found } = error as { code?: string; file?: string; found?: string };
    if (code === "LEVEL_LOCKED") {
      const running = engineOf(dataDir);
      const holder =
        running?.pid !== undefined && running.pid !== process.pid && alive(running.pid)
          ? `другим сервером (процесс ${running.pid})`
          : "другим процессом (сервером или командой npm run admin)";
      throw new Error(`Папка данных ${dataDir} занята ${holder}: остановите его или запустите этот с другой папкой (DATA_DIR).`);
    }
    if (code === "LEVEL_CORRUPTION") {
      throw new StoreRefusedError(
        `База данных ${file ?? join(path, "items.db")} повреждена: проверка PRAGMA quick_check не прошла (${found ?? "нет ответа"}). ` +
          "Сервер не запущен, файл не изменен. Восстановите данные из последней резервной копии в новую папку " +
          "(DATA_DIR=<новая папка> npm run admin -- restore --from <файл копии>) и запустите сервер на ней (docs/operations.md, «Резервные копии»).",
      );
    }
    throw error;
  }
}

/** For a command that may run beside the server: use the server's engine when it is up, else
 *  open DATA_DIR itself; with STORAGE=dynamodb use the AWS table named by TABLE_NAME. */
export async function openSharedStorage(dataDir: string): Promise<OpenStorage> {
  if (process.env.STORAGE === "dynamodb") {
    const tableName = process.env.TABLE_NAME;
    if (!tableName) throw new Error("STORAGE=dynamodb needs TABLE_NAME (the stack output)");
    // The table's own stream runs the handlers in AWS.
    const doc = createDocumentClient({ tableName, region: process.env.AWS_REGION });
    return { repos: dynamoRepositories(doc, tableName), settled: async () => {}, close: async () => doc.destroy() };
  }
  const running = engineOf(dataDir);
  if (running && (await reachable(running.endpoint, running.secret)))
    return fromEndpoint(running.endpoint, async () => {}, {}, undefined, running.secret);
  mkdirSync(dataDir, { recursive: true });
  const engine = await startFolderEngine(dataDir);
  return fromEndpoint(engine.endpoint, engine.close, {}, engine);
}
