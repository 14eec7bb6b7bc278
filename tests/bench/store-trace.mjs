// What the local engine's store writes, by the kind of item, for the holding bench (HOLDING_TRACE=DIR,
// holding.bench.ts): preloaded into the bench's server processes (`--import`), kept out of the product.
// In the server's main thread it adds itself to the dynalite thread's preloads (the thread is started
// with execArgv of its own, which a process's preloads do not reach); in that thread it wraps node:sqlite's
// statements and transactions: each commit's bytes are the thread's own write_bytes across it
// (/proc/thread-self/io: the commit appends its pages to the WAL there and then), shared among the
// commit's writes, and a commit that ran SQLite's automatic checkpoint (over 512 KB) and the close's
// checkpoint are counted apart. Written as JSON to DIR/<pid>.json every 2 s and at the store's close
// (DIR on a tmpfs such as /dev/shm, so that the trace itself writes nothing to the disk it measures).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";

const require = createRequire(import.meta.url);
const DIR = process.env.HOLDING_TRACE;
/** A commit that wrote more than this ran the WAL's automatic checkpoint. */
const CHECKPOINT_BYTES = 512 * 1024;

if (DIR && isMainThread) {
  const threads = require("node:worker_threads");
  const Worker = threads.Worker;
  threads.Worker = class extends Worker {
    constructor(file, options = {}) {
      const traced = String(file).endsWith("dynalite-thread.ts");
      super(file, traced ? { ...options, execArgv: [...(options.execArgv ?? []), "--import", import.meta.url] } : options);
    }
  };
  syncBuiltinESMExports();
} else if (DIR) {
  const { DatabaseSync, StatementSync } = require("node:sqlite");
  const written = () => Number(/write_bytes: (\d+)/.exec(readFileSync("/proc/thread-self/io", "utf8"))[1]);
  const kinds = new Map();
  const totals = { commits: 0, commitBytes: 0, checkpoints: 0, checkpointBytes: 0, closeBytes: 0, puts: 0, dels: 0 };
  let open;
  let at;

  /** An item's kind from dynalite's key: `<db>~<hash>/<hex PK>/<hex SK>/…`, ids left out. */
  const kindOf = (key) => {
    const text = Buffer.from(key).toString("latin1");
    const tilde = text.indexOf("~");
    const db = text.slice(0, tilde);
    const parts = text.slice(tilde + 1).split("/");
    const decode = (hex) => (/^[0-9a-f]*$/.test(hex ?? "") ? Buffer.from(hex, "hex").toString("utf8") : "?");
    const shape = (value) =>
      value
        .split("#")
        .map((segment) => (/^[A-Z_]{1,12}$/.test(segment) ? segment : "*"))
        .join("#");
    if (!db.startsWith("item-") && !db.startsWith("index-")) return db;
    return `${db.split("-")[0]} ${shape(decode(parts[1]))} | ${shape(decode(parts[2])).split("#").slice(0, 2).join("#")}`;
  };
  const dump = () => writeFileSync(join(DIR, `${process.pid}.json`), JSON.stringify({ totals, kinds: Object.fromEntries(kinds) }));
  setInterval(dump, 2000).unref();

  const run = StatementSync.prototype.run;
  StatementSync.prototype.run = function (...parameters) {
    const sql = this.sourceSQL;
    if (open && (sql.startsWith("INSERT INTO kv") || sql.startsWith("DELETE FROM kv"))) {
      const [key, value] = parameters;
      open.push({ kind: kindOf(key), put: sql.startsWith("INSERT"), key: key.length, value: value?.length ?? 0 });
    }
    return run.apply(this, parameters);
  };
  const exec = DatabaseSync.prototype.exec;
  DatabaseSync.prototype.exec = function (sql) {
    if (sql === "BEGIN IMMEDIATE") {
      open = [];
      at = written();
    }
    const answer = exec.apply(this, arguments);
    if (sql === "COMMIT" && open) {
      const bytes = written() - at;
      totals.commits++;
      const checkpoint = bytes > CHECKPOINT_BYTES;
      if (checkpoint) {
        totals.checkpoints++;
        totals.checkpointBytes += bytes;
      } else totals.commitBytes += bytes;
      for (const op of open) {
        const k = kinds.get(op.kind) ?? { puts: 0, dels: 0, keyBytes: 0, valueBytes: 0, commits: 0, bytes: 0 };
        if (op.put) k.puts++;
        else k.dels++;
        k.keyBytes += op.key;
        k.valueBytes += op.value;
        k.commits += 1 / open.length;
        if (!checkpoint) k.bytes += bytes / open.length;
        kinds.set(op.kind, k);
        if (op.put) totals.puts++;
        else totals.dels++;
      }
      open = undefined;
    }
    return answer;
  };
  const close = DatabaseSync.prototype.close;
  DatabaseSync.prototype.close = function () {
    const before = written();
    const answer = close.apply(this, arguments);
    totals.closeBytes += written() - before;
    dump();
    return answer;
  };
}
