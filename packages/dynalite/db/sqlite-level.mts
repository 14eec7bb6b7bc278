// dynalite's store for a data folder (db/index.js opens a path with it; fugitive's change to dynalite,
// README.md): an abstract-level 3 database on SQLite (Node's built-in `node:sqlite`), where upstream
// opened LevelDB through `level`: nothing to compile at install, and one engine whose writes are
// atomic and kept through a crash (the platform's docs/architecture.md, «The local engine's store»).
// TypeScript of erasable syntax only, an ES module: dynalite's CommonJS requires it as it is (Node 24
// strips the types and requires ESM), and the platform's tsc and biome check it.
//
// - One table of keys and values, both BLOBs (SQLite compares BLOBs byte by byte, as LevelDB's
//   default comparator does, so ranges and order are LevelDB's), WITHOUT ROWID: one B-tree, the key
//   its only index. Chosen over a rowid table with a unique index of the keys by what each writes: a
//   new item or its delete changes the key's leaf and its overflow page here, there the index's leaf
//   and its overflow page (dynalite's keys, 240 B, overflow an index cell on 1 KB pages too) and the
//   table's leaf: 17-22 % more bytes written a reading on the holding bench's commits replayed, a
//   file 18-35 % larger, for point reads 2-6 times faster and ranges alike (docs/performance.md,
//   «The store's layout»).
// - WAL, synchronous=NORMAL: a write is answered once its commit is in the WAL, so a process killed
//   (SIGKILL, a crash) loses nothing acknowledged; only a power cut may lose the last transactions, as
//   LevelDB without `sync` could. The writes (puts, dels, batches) called in one moment share one
//   transaction (#write); a batch is all or nothing.
// - Reads run synchronously on the writing connection, so a get sees exactly what was written before
//   it was called (abstract-level's implicit snapshot); so do an iterator's first rows. The rest of a
//   longer range, and an explicit snapshot, are read through a connection of its own holding a read
//   transaction opened when it was made: WAL gives it the database as it was then, whatever is
//   written meanwhile (a backup's snapshot, a query's pages).
// - The folder is one process's: a lock database beside the data, held in an exclusive transaction
//   while open, refuses a second opener (another process or thread) as LevelDB's LOCK did; the kernel
//   drops it with the process.
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type * as Level from "abstract-level";
import type ModuleErrorClass from "module-error";

const require = createRequire(import.meta.url);
const { AbstractLevel, AbstractIterator, AbstractKeyIterator, AbstractValueIterator, AbstractSnapshot } =
  require("abstract-level") as typeof Level;
const ModuleError = require("module-error") as typeof ModuleErrorClass;

/** A key or value as SQLite binds and returns it. */
type Bytes = Uint8Array;
/** A bound of a range: `key` and how a key compares with it. */
interface Bound {
  op: string;
  key: Bytes;
}
/** A row SQLite returned: its key, and its value when asked. */
interface Row {
  k: Bytes;
  v?: Bytes;
}
/** An iterator's (or a clear's) options as abstract-level hands them on. */
interface RangeOptions {
  gt?: string | Bytes;
  gte?: string | Bytes;
  lt?: string | Bytes;
  lte?: string | Bytes;
  reverse?: boolean;
  limit: number;
  keyEncoding?: string;
  valueEncoding?: string;
  snapshot?: SqliteSnapshot;
}
/** A read's options as abstract-level hands them on. */
interface ReadOptions {
  valueEncoding?: string;
  snapshot?: SqliteSnapshot;
}
/** What the readers of a range and the snapshots ask of their store. */
interface ViewSource {
  openView(): ReadView;
  viewFor(snapshot: SqliteSnapshot | undefined): ReadView | undefined;
  releaseView(view: ReadView): void;
  writerStatements(): Statements;
}
interface Connection {
  db: DatabaseSync;
  statements: Statements;
}
interface Writer extends Connection {
  put: StatementSync;
  del: StatementSync;
}
interface Operation {
  type: "put" | "del";
  key: Bytes;
  value?: Bytes;
}
/** A write queued for the next commit, and how its caller is answered. */
interface QueuedWrite {
  operations: Operation[];
  resolve: () => void;
  reject: (error: unknown) => void;
  failed?: unknown;
}

/** The files in the store's folder. */
export const DATA_FILE = "items.db";
export const LOCK_FILE = "lock.db";

/** The database's page, for a new database (one made with another keeps its own): a commit appends
 *  each page it changed to the WAL and the checkpoint copies it again, and most of the engine's writes
 *  are single small items, so a commit costs its pages, not its bytes. The holding bench's minutes
 *  replayed on the store: 20,0 KB written a commit with SQLite's 4 KB pages, 17,1 KB with 2 KB, 11,1 KB
 *  with 1 KB (and the WAL bound below), 12,6 KB with 512 B (docs/performance.md). */
const PAGE_BYTES = 1024;
/** The WAL's pages at which a commit checkpoints it into the database: 4 MB, as SQLite's default of
 *  1 000 pages was with 4 KB pages; a page changed again before the checkpoint is copied once. */
const WAL_CHECKPOINT_PAGES = 4096;
/** What a WAL file is cut back to when a checkpoint resets it, bytes: twice what the checkpoint
 *  lets it reach (4 096 frames of a 1 KB page and its 24-byte header), so a WAL of ordinary commits
 *  is never cut, and one grown past it (a big batch, a checkpoint held back by a long read: a
 *  backup's snapshot, a query's pages) gives its disk back at the next reset instead of keeping its
 *  largest size for good, as SQLite does without a limit. */
const WAL_LIMIT_BYTES = 8 * 1024 * 1024;
/** SQLite's page cache of the writing connection, in KiB (its default is 2 MB). */
const CACHE_KIB = 16 * 1024;
/** The least time between two commits, ms: writes called meanwhile wait for the next one (#write). */
const COMMIT_SPACING_MS = 2;
/** How much of the database a read connection maps (SQLite's own bound is 2 GB). */
const READ_MAP_BYTES = 2 ** 31 - 65536;
/** Rows an iterator reads at a time: few first (a query often wants one page), more as it goes on,
 *  up to 128. Between two batches the engine's thread takes its event loop's turn (RangeReader.turn),
 *  and what a batch's rows cost there (parsed, filtered, sized) is one stretch other callers wait
 *  out: at 1 000 rows a page of a 1 000-sensor register held the thread 160 ms at p99 under ten such
 *  reads; at 128, 35 ms (docs/performance.md, «The bulkheads at the maxima»). */
const FIRST_BATCH = 16;
const MAX_BATCH = 128;

/** A key or value as SQLite binds it: always a BLOB, so every key sorts with every other. */
const blob = (data: string | Bytes): Bytes => (typeof data === "string" ? Buffer.from(data, "utf8") : data);

/** A BLOB SQLite returned (a Uint8Array) in the encoding abstract-level asked for. */
function decoded(bytes: Bytes, encoding: string | undefined): Bytes | string {
  if (encoding === "view") return bytes;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return encoding === "utf8" ? buffer.toString("utf8") : buffer;
}

function openConnection(file: string, writer: boolean): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA busy_timeout = 5000");
  if (writer) {
    // Before the WAL is set: a page size is taken only by a database with nothing in it yet.
    db.exec(`PRAGMA page_size = ${PAGE_BYTES}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    db.exec(`PRAGMA journal_size_limit = ${WAL_LIMIT_BYTES}`);
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec(`PRAGMA cache_size = -${CACHE_KIB}`);
    db.exec("CREATE TABLE IF NOT EXISTS kv (k BLOB PRIMARY KEY NOT NULL, v BLOB NOT NULL) WITHOUT ROWID");
  } else {
    db.exec("PRAGMA query_only = ON");
    // A read connection's page cache is emptied whenever the writer has committed since its last
    // read: mapped, the database's pages are read from the kernel's cache without a copy each.
    db.exec(`PRAGMA mmap_size = ${READ_MAP_BYTES}`);
  }
  return db;
}

/** SQLite's result codes of a damaged file (the primary code, the low byte of an extended one). */
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** The writing connection to an existing database, once `PRAGMA quick_check` found it whole (every
 *  page, its B-trees and their order, less the indexes' contents): a file cut short, pages
 *  overwritten or a header zeroed otherwise open without a word and fail later, on a page a read
 *  happens to reach. Refused with LEVEL_CORRUPTION, naming the file and what the check said; the
 *  check reads the whole file (about 1 s a GB from the page cache). */
function checkedConnection(file: string): DatabaseSync {
  let db: DatabaseSync | undefined;
  let found: string | undefined;
  try {
    db = openConnection(file, true);
    const rows = db.prepare("PRAGMA quick_check(5)").all();
    const problems = rows
      .flatMap((row) => String(Object.values(row)[0]).split("\n"))
      .filter((line) => line !== "" && !line.startsWith("*** in database"));
    if (problems.length !== 1 || problems[0] !== "ok") found = problems.slice(0, 5).join("; ");
  } catch (error) {
    const failure = error as { errcode?: number; errstr?: string; message: string };
    const code = (failure?.errcode ?? 0) & 0xff;
    if (code !== SQLITE_CORRUPT && code !== SQLITE_NOTADB) {
      db?.close();
      throw error;
    }
    found = failure.errstr ?? failure.message;
  }
  if (found === undefined && db) return db;
  try {
    db?.close();
  } catch {}
  throw Object.assign(new ModuleError(`${file} failed PRAGMA quick_check: ${found}`, { code: "LEVEL_CORRUPTION" }), { file, found });
}

/** A connection's statements, prepared once: a range read's by its shape (its bounds, direction). */
class Statements {
  readonly db: DatabaseSync;
  readonly shapes = new Map<string, StatementSync>();
  readonly get: StatementSync;
  readonly has: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.get = db.prepare("SELECT v FROM kv WHERE k = ?");
    this.has = db.prepare("SELECT 1 AS found FROM kv WHERE k = ?");
  }

  /** The rows of the range `lower`/`upper` ({ op, key } or undefined), in order, at most `limit`. */
  range(lower: Bound | undefined, upper: Bound | undefined, reverse: boolean, limit: number, withValues = true): Row[] {
    const shape = `${lower?.op ?? ""}|${upper?.op ?? ""}|${reverse ? "d" : "a"}|${withValues ? "v" : "k"}`;
    let statement = this.shapes.get(shape);
    if (!statement) {
      const where = [lower && `k ${lower.op} ?`, upper && `k ${upper.op} ?`].filter(Boolean);
      statement = this.db.prepare(
        `SELECT k${withValues ? ", v" : ""} FROM kv${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY k ${reverse ? "DESC" : "ASC"} LIMIT ?`,
      );
      this.shapes.set(shape, statement);
    }
    const parameters: (Bytes | number)[] = [];
    if (lower) parameters.push(lower.key);
    if (upper) parameters.push(upper.key);
    parameters.push(limit);
    return statement.all(...parameters) as unknown as Row[];
  }
}

/** A read connection holding one read transaction: the database as it was when `begin` ran. */
class ReadView {
  readonly connection: Connection;
  readonly statements: Statements;
  users: number;

  constructor(connection: Connection) {
    this.connection = connection;
    this.statements = connection.statements;
    connection.db.exec("BEGIN");
    // WAL fixes a read transaction's view at its first read, made here and now.
    this.statements.has.get(Buffer.alloc(0));
    this.users = 1;
  }
}

/** The range options of an iterator as { op, key } bounds. */
function bounds(options: RangeOptions): { lower: Bound | undefined; upper: Bound | undefined } {
  const lower: Bound | undefined =
    options.gte !== undefined
      ? { op: ">=", key: blob(options.gte) }
      : options.gt !== undefined
        ? { op: ">", key: blob(options.gt) }
        : undefined;
  const upper: Bound | undefined =
    options.lte !== undefined
      ? { op: "<=", key: blob(options.lte) }
      : options.lt !== undefined
        ? { op: "<", key: blob(options.lt) }
        : undefined;
  return { lower, upper };
}

/** Reads one range in batches through a view; what the three iterator kinds share. */
class RangeReader {
  readonly store: ViewSource;
  readonly reverse: boolean;
  readonly keyEncoding: string | undefined;
  readonly valueEncoding: string | undefined;
  readonly withKeys: boolean;
  readonly withValues: boolean;
  /** The range the iterator was made with, and the part of it left to read. */
  readonly made: { lower: Bound | undefined; upper: Bound | undefined };
  range: { lower: Bound | undefined; upper: Bound | undefined };
  readonly limit: number;
  batchSize: number;
  yielded: number;
  rows: Row[];
  at: number;
  readonly snapshot: SqliteSnapshot | undefined;
  view: ReadView | undefined;
  ended = false;
  /** The whole range, when its first batch held it. */
  whole: Row[] | undefined;

  constructor(store: ViewSource, options: RangeOptions, withKeys: boolean, withValues: boolean) {
    this.store = store;
    this.reverse = options.reverse === true;
    this.keyEncoding = options.keyEncoding;
    this.valueEncoding = options.valueEncoding;
    this.withKeys = withKeys;
    this.withValues = withValues;
    this.made = bounds(options);
    this.range = this.made;
    // abstract-level counts what is handed out against the limit; this only reads no more than it.
    this.limit = options.limit === -1 ? Number.POSITIVE_INFINITY : options.limit;
    this.batchSize = FIRST_BATCH;
    this.yielded = 0;
    this.rows = [];
    this.at = 0;
    this.snapshot = options.snapshot;
    if (options.snapshot) {
      this.view = store.viewFor(options.snapshot);
      this.ended = this.view === undefined;
    } else {
      // The first rows are read now, on the writing connection, whose page cache stays warm (a read
      // connection's is emptied whenever the writer has committed since its last read): most of
      // dynalite's ranges (a query's few items) end within them. A longer range goes on through a
      // view begun in this same turn, so over the same database (no write commits in between).
      this.readBatch(store.writerStatements());
      if (this.ended) this.whole = this.rows;
      else this.view = store.openView();
    }
  }

  /** The next batch of rows, read now, after the last key read. */
  fill() {
    // A range not ended has its view (made with it, or by a seek).
    this.readBatch(this.view!.statements);
    // The range is read: nothing more is read through the view, so its read transaction ends now
    // (an iterator left open, as dynalite leaves its streams, would otherwise hold SQLite's WAL).
    if (this.ended) this.release();
  }

  /** Reads the next batch through `statements`, after the last key read. */
  readBatch(statements: Statements) {
    const size = Math.min(this.batchSize, this.limit);
    this.batchSize = Math.min(this.batchSize * 4, MAX_BATCH);
    let { lower, upper } = this.range;
    const last = this.rows.length > 0 ? this.rows[this.rows.length - 1].k : undefined;
    if (last !== undefined) {
      if (this.reverse) upper = { op: "<", key: last };
      else lower = { op: ">", key: last };
    }
    this.rows = size > 0 ? statements.range(lower, upper, this.reverse, size, this.withValues) : [];
    this.at = 0;
    this.ended = this.rows.length < size;
  }

  /** Resolves at once while rows read are left; before a batch is read, after the event loop's
   *  turn: a stream reading an iterator one row at a time (dynalite's) would otherwise read its
   *  whole range in one chain of microtasks, and the engine's thread answered nothing else, nor
   *  ran a timer, meanwhile (LevelDB's reads each went through libuv's thread pool). */
  turn(): Promise<void> | undefined {
    if (this.at < this.rows.length || this.ended) return undefined;
    return new Promise((resolve) => setImmediate(resolve));
  }

  /** The next row, or undefined at the end. */
  next(): Row | undefined {
    if (this.at >= this.rows.length) {
      if (this.ended) return undefined;
      this.fill();
      if (this.rows.length === 0) return undefined;
    }
    return this.rows[this.at++];
  }

  entry(row: Row) {
    const key = this.withKeys ? decoded(row.k, this.keyEncoding) : undefined;
    const value = this.withValues && row.v ? decoded(row.v, this.valueEncoding) : undefined;
    if (this.withKeys && this.withValues) return [key, value];
    return this.withKeys ? key : value;
  }

  nextv(size: number) {
    const entries: ReturnType<RangeReader["entry"]>[] = [];
    const wanted = Math.min(size, this.limit - this.yielded);
    while (entries.length < wanted) {
      const row = this.next();
      if (row === undefined) break;
      entries.push(this.entry(row));
    }
    this.yielded += entries.length;
    return entries;
  }

  /** A seek starts the range again within the same view, from `target` on in the iterator's
   *  direction (within the range it was made with). */
  seek(target: string | Bytes) {
    const key = blob(target);
    const { lower, upper } = this.made;
    this.range = this.reverse
      ? { lower, upper: narrower(upper, { op: "<=", key }, -1) }
      : { lower: narrower(lower, { op: ">=", key }, 1), upper };
    this.at = 0;
    this.batchSize = FIRST_BATCH;
    if (this.whole) {
      // The whole range was read when the iterator was made: the seek's part of it.
      this.rows = this.whole.filter((row) => within(row.k, this.range.lower) && within(row.k, this.range.upper));
      this.ended = true;
      return;
    }
    this.rows = [];
    // An iterator read to its end gave its view back: a seek reads the store as it is now.
    this.view ??= this.store.viewFor(this.snapshot);
    this.ended = this.view === undefined;
  }

  /** Gives the view back: once the range is read, or the iterator closed. */
  release() {
    if (this.view) this.store.releaseView(this.view);
    this.view = undefined;
  }

  close() {
    this.release();
    this.ended = true;
  }
}

/** Whether `key` is within `bound` ({ op, key } or undefined: no bound). */
function within(key: Bytes, bound: Bound | undefined): boolean {
  if (!bound) return true;
  const order = Buffer.compare(key, bound.key);
  if (bound.op === ">") return order > 0;
  if (bound.op === ">=") return order >= 0;
  if (bound.op === "<") return order < 0;
  return order <= 0;
}

/** Of two bounds on the same side, the one that leaves less (`side` 1: lower bounds, -1: upper). */
function narrower(bound: Bound | undefined, other: Bound, side: 1 | -1): Bound {
  if (!bound) return other;
  const order = Buffer.compare(Buffer.from(other.key), Buffer.from(bound.key)) * side;
  if (order > 0) return other;
  if (order < 0) return bound;
  return bound.op.length === 1 ? bound : other;
}

/** What the three iterator kinds of abstract-level share, as this store makes them. */
// biome-ignore lint/suspicious/noExplicitAny: TypeScript's rule for a mixin's base (each kind declares options of its own)
type IteratorBase = new (...args: any[]) => { close(): Promise<void> };

function iteratorClass<Base extends IteratorBase>(Base: Base, withKeys: boolean, withValues: boolean) {
  return class extends Base {
    reader: RangeReader;

    // biome-ignore lint/suspicious/noExplicitAny: TypeScript's rule for a mixin's constructor
    constructor(...args: any[]) {
      super(args[0], args[1]);
      this.reader = new RangeReader(args[0], args[1], withKeys, withValues);
    }

    async _next() {
      await this.reader.turn();
      return this.reader.nextv(1)[0];
    }

    async _nextv(size: number) {
      await this.reader.turn();
      return this.reader.nextv(size);
    }

    async _all() {
      return this.reader.nextv(Number.POSITIVE_INFINITY);
    }

    _seek(target: string | Bytes) {
      this.reader.seek(target);
    }

    async _close() {
      this.reader.close();
    }

    /** What a stream over an async iterator calls when it is destroyed (dynalite's value streams,
     *  db/index.js): closes the iterator, which abstract-level's iterators leave to their caller. */
    async return() {
      await this.close();
      return { done: true, value: undefined };
    }
  };
}

const EntryIterator = iteratorClass(AbstractIterator as IteratorBase, true, true);
const KeyIterator = iteratorClass(AbstractKeyIterator as IteratorBase, true, false);
const ValueIterator = iteratorClass(AbstractValueIterator as IteratorBase, false, true);

/** abstract-level's snapshot, whose constructor takes the snapshot's options (its types say none). */
const SnapshotBase = AbstractSnapshot as unknown as new (options: object) => InstanceType<typeof AbstractSnapshot>;

class SqliteSnapshot extends SnapshotBase {
  readonly store: ViewSource;
  readonly view: ReadView;

  constructor(store: ViewSource, options: object) {
    super(options);
    this.store = store;
    this.view = store.openView();
  }

  async _close() {
    this.store.releaseView(this.view);
  }
}

/** What the store supports, as abstract-level reads it (its types know no `getSync`). */
const MANIFEST = {
  encodings: { buffer: true, view: true, utf8: true },
  implicitSnapshots: true,
  explicitSnapshots: true,
  getSync: true,
  has: true,
  seek: true,
  permanence: true,
  createIfMissing: true,
  errorIfExists: true,
  signals: { iterators: false },
};

export class SqliteLevel<K = string, V = string> extends AbstractLevel<Bytes | string, K, V> {
  #location: string;
  #writer: Writer | undefined;
  #lock: DatabaseSync | undefined;
  /** Read connections not in use, for the next iterator or snapshot. */
  #idle: Connection[] = [];
  #connections = new Set<Connection>();
  /** Writes called in this turn of the event loop, not committed yet (#write). */
  #queued: QueuedWrite[] = [];
  #lastCommit = Number.NEGATIVE_INFINITY;

  constructor(location: string, options?: Level.AbstractDatabaseOptions<K, V>) {
    super(MANIFEST, options);
    if (typeof location !== "string" || location === "") {
      throw new TypeError("The first argument 'location' must be a non-empty string");
    }
    this.#location = location;
  }

  get location(): string {
    return this.#location;
  }

  async _open(options: Level.AbstractOpenOptions) {
    const file = join(this.#location, DATA_FILE);
    const exists = existsSync(file);
    if (!exists && options.createIfMissing === false) {
      throw new ModuleError(`${this.#location} does not exist (createIfMissing is false)`, { code: "LEVEL_DATABASE_NOT_OPEN" });
    }
    if (exists && options.errorIfExists) {
      throw new ModuleError(`${this.#location} exists (errorIfExists is true)`, { code: "LEVEL_DATABASE_NOT_OPEN" });
    }
    mkdirSync(this.#location, { recursive: true });
    const lock = new DatabaseSync(join(this.#location, LOCK_FILE));
    try {
      lock.exec("PRAGMA locking_mode = EXCLUSIVE");
      lock.exec("BEGIN EXCLUSIVE");
    } catch (error) {
      lock.close();
      throw new ModuleError(`${this.#location} is held by another process or thread (${(error as Error).message})`, {
        code: "LEVEL_LOCKED",
        cause: error as Error,
      });
    }
    try {
      const db = exists ? checkedConnection(file) : openConnection(file, true);
      this.#writer = {
        db,
        statements: new Statements(db),
        put: db.prepare("INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v"),
        del: db.prepare("DELETE FROM kv WHERE k = ?"),
      };
    } catch (error) {
      lock.exec("ROLLBACK");
      lock.close();
      throw error;
    }
    this.#lock = lock;
  }

  async _close() {
    // Writes called before the close are committed first, as they would have been at the turn's end.
    if (this.#writer) this.#commitQueued();
    for (const connection of this.#connections) connection.db.close();
    this.#connections.clear();
    this.#idle = [];
    this.#writer?.db.close();
    this.#writer = undefined;
    this.#lock?.exec("ROLLBACK");
    this.#lock?.close();
    this.#lock = undefined;
  }

  /** A read connection in a read transaction begun now. */
  openView(): ReadView {
    let connection = this.#idle.pop();
    if (!connection) {
      const db = openConnection(join(this.#location, DATA_FILE), false);
      connection = { db, statements: new Statements(db) };
      this.#connections.add(connection);
    }
    return new ReadView(connection);
  }

  /** The view a read with `snapshot` (or without: one of its own) goes through. */
  viewFor(snapshot: SqliteSnapshot | undefined): ReadView | undefined {
    if (!snapshot) return this.openView();
    // A closed snapshot's reads are refused by abstract-level: nothing to read through.
    if (snapshot.view.users === 0) return undefined;
    snapshot.view.users += 1;
    return snapshot.view;
  }

  releaseView(view: ReadView) {
    view.users -= 1;
    if (view.users > 0 || !this.#connections.has(view.connection)) return;
    view.connection.db.exec("COMMIT");
    this.#idle.push(view.connection);
  }

  /** The writing connection's statements: reads there see every committed write. */
  writerStatements(): Statements {
    return this.#writerConnection().statements;
  }

  /** The writing connection; abstract-level calls nothing here before the store is open. */
  #writerConnection(): Writer {
    if (!this.#writer) throw new ModuleError("Database is not open", { code: "LEVEL_DATABASE_NOT_OPEN" });
    return this.#writer;
  }

  #statementsFor(options: ReadOptions): Statements {
    return options.snapshot ? options.snapshot.view.statements : this.#writerConnection().statements;
  }

  _getSync(key: string | Bytes, options: ReadOptions) {
    const row = this.#statementsFor(options).get.get(blob(key)) as { v: Bytes } | undefined;
    return row === undefined ? undefined : decoded(row.v, options.valueEncoding);
  }

  async _get(key: string | Bytes, options: ReadOptions) {
    return this._getSync(key, options);
  }

  async _getMany(keys: (string | Bytes)[], options: ReadOptions) {
    return keys.map((key) => this._getSync(key, options));
  }

  async _has(key: string | Bytes, options: ReadOptions) {
    return this.#statementsFor(options).has.get(blob(key)) !== undefined;
  }

  async _hasMany(keys: (string | Bytes)[], options: ReadOptions) {
    const statements = this.#statementsFor(options);
    return keys.map((key) => statements.has.get(blob(key)) !== undefined);
  }

  _put(key: string | Bytes, value: string | Bytes) {
    return this.#write([{ type: "put", key, value }]);
  }

  _del(key: string | Bytes) {
    return this.#write([{ type: "del", key }]);
  }

  _batch(operations: { type: "put" | "del"; key: string | Bytes; value?: string | Bytes }[]) {
    return this.#write(operations);
  }

  /** Queues a write (a put, a del, a batch) for the commit at the end of this turn of the event
   *  loop; resolves once it is committed. Every write called in one turn shares one transaction:
   *  each commit appends every page it changed to the WAL, so a key written alone cost a few pages
   *  (its leaf, its overflow, the free list's), and a turn's writes (a BatchWriteItem's 25 puts,
   *  the requests of several threads) share theirs. */
  #write(operations: { type: "put" | "del"; key: string | Bytes; value?: string | Bytes }[]): Promise<void> {
    let answer: Pick<QueuedWrite, "resolve" | "reject"> | undefined;
    const committed = new Promise<void>((resolve, reject) => {
      answer = { resolve, reject };
    });
    const write: QueuedWrite = {
      operations: operations.map(({ type, key, value }) => ({
        type,
        key: blob(key),
        value: type === "put" && value !== undefined ? blob(value) : undefined,
      })),
      ...answer!,
    };
    if (this.#queued.length === 0) {
      // At the end of this turn, or, right after another commit, once COMMIT_SPACING_MS have gone
      // by since it: writes that come on each other's heels (the consumer's lanes, the request
      // thread's) then share a commit too, and a lone write waits for nothing.
      const wait = this.#lastCommit + COMMIT_SPACING_MS - performance.now();
      if (wait > 0) setTimeout(() => this.#commitQueued(), wait);
      else setImmediate(() => this.#commitQueued());
    }
    this.#queued.push(write);
    return committed;
  }

  /** Commits the queued writes in one transaction and answers their callers; if it fails, each
   *  write again in a transaction of its own, so that one write's error is its own alone. */
  #commitQueued() {
    const writes = this.#queued;
    this.#queued = [];
    if (writes.length === 0) return;
    this.#lastCommit = performance.now();
    try {
      this.#transaction(writes);
    } catch {
      for (const write of writes) {
        try {
          this.#transaction([write]);
        } catch (error) {
          write.failed = error;
        }
      }
    }
    for (const write of writes) {
      if (write.failed) write.reject(write.failed);
      else write.resolve();
    }
  }

  /** One transaction: every operation of `writes` or none. */
  #transaction(writes: QueuedWrite[]) {
    const { db, put, del } = this.#writerConnection();
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const { operations } of writes) {
        for (const operation of operations) {
          if (operation.type === "put") put.run(operation.key, operation.value ?? null);
          else del.run(operation.key);
        }
      }
      db.exec("COMMIT");
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  }

  async _clear(options: RangeOptions) {
    // The keys in range as they are now (or in the snapshot), then deleted in one transaction.
    const reader = new RangeReader(this, { ...options, valueEncoding: "view" }, true, false);
    const keys: { type: "del"; key: Bytes }[] = [];
    for (let row = reader.next(); row !== undefined && keys.length < reader.limit; row = reader.next())
      keys.push({ type: "del", key: row.k });
    reader.close();
    if (keys.length > 0) await this.#write(keys);
  }

  _iterator(options: RangeOptions) {
    return new EntryIterator(this, options);
  }

  _keys(options: RangeOptions) {
    return new KeyIterator(this, options);
  }

  _values(options: RangeOptions) {
    return new ValueIterator(this, options);
  }

  _snapshot(options: object) {
    return new SqliteSnapshot(this, options);
  }
}

/** Whether `location` holds a store of this kind. */
export const holdsSqliteStore = (location: string): boolean => existsSync(join(location, DATA_FILE));
