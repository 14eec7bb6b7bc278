// What every call of the local host's dynalite pays before it reaches its item, made cheaper where
// the engine runs in this process (dynalite.ts, dynalite-thread.mjs). Plain JavaScript: the
// engine's thread loads it without a TypeScript loader.
//
// - The table's description: dynalite reads it from its store and parses its JSON at every call.
//   The item calls (get, put, update, delete, their batches, query, scan) take it from memory
//   instead, read once after the last change of any table description; the calls that change or
//   describe a table read it as before. Kept only while no write of a description is on its way,
//   and frozen, so that no call can change the copy the others read.
// - An expression (condition, update, projection): dynalite parses it with parsers that PEG.js
//   generated without memoising, which try a parenthesised or function operand again from the
//   start at every alternative: 0.8 ms for the freeze guard's condition, 3 ms for 25 pending marks
//   merged into one condition. The same parsers, memoised per rule and position as PEG.js's own
//   `cache` option makes them (a rule met again at a position answers what it answered there),
//   parse conditions in 4–6× less (those two in 0.15 and 0.7 ms; update expressions, with little
//   to try again, take what they took); they answer the same trees and the same errors
//   (dynalite-engine.test.ts compares them with dynalite's own).
// - A read of one key: dynalite's goes through abstract-level's promise and dynalite's callback
//   wrappers. The store reads a key synchronously in microseconds (sqlite-level.mjs), so on the
//   engine's own thread the read is made there and then (getSync), and its answer handed back on the
//   next tick, as the engine's callbacks expect. Writes, scans and a read the engine cannot make at
//   once (not open yet, a value it cannot decode) go the asynchronous way, which answers as before.
//
// And what DynamoDB does that dynalite does not: an item and its index entries change together.
// dynalite writes a put's, update's or delete's index entries first and the item after them, each
// a write of its own, so a process killed between them left an index entry without its item
// (a calculation listed and exported, but not readable, not counted and not archivable). Here the
// index entries are held back and written in one batch with the item's own write: the store applies
// a batch in one transaction, whole or not at all.
//
// And one thing DynamoDB's API has no word for: an UpdateItem handed over with `withItemImages`
// (dynalite-answer.mjs, for the local table stream, table-stream.ts) also gives back the item
// before and after it, as the engine read and wrote it under the item's lock: the images of the
// stream record, without a read of the item before the update. The request and its answer are
// otherwise the ones the caller sent and DynamoDB would give.
import { timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
// First: the store dynalite opens its folder with (SQLite), put in place before dynalite loads.
import "./dynalite-store.mjs";
import { SqliteLevel } from "./sqlite-level.mjs";
import dynalite from "dynalite";

const require = createRequire(import.meta.url);
const engine = require("dynalite/db/index.js");
const validations = require("dynalite/validations/index.js");
const UPDATE_TYPES = require("dynalite/validations/updateItem.js").types;

/** The rule functions of a parser PEG.js 0.10 generated: a body that ends in its only `return s0`. */
const RULE = /( {2}function peg\$parse[A-Za-z_][A-Za-z0-9_]*\(\) \{\n {4}var s0[^;\n]*;\n)([\s\S]*?)\n {4}return s0;\n {2}\}/g;

/** The source of the parser in `file` with every rule memoised per position (and per whether its
 *  failures are being recorded, so that a syntax error names what it names unmemoised); undefined
 *  when the file is not laid out as this expects. */
export function memoisedParserSource(file) {
  const source = readFileSync(file, "utf8");
  const rules = source.match(RULE)?.length ?? 0;
  const declared = source.match(/^ {2}function peg\$parse[A-Za-z_]/gm)?.length ?? -1;
  const start = "  var peg$FAILED = {},";
  if (rules === 0 || rules !== declared || !source.includes(start)) return undefined;
  let rule = 0;
  return source.replace(start, "  var peg$memo = new Map(),\n      peg$FAILED = {},").replace(RULE, (_, head, body) => {
    const key = `(peg$currPos * ${rules} + ${rule++}) * 2 + (peg$silentFails > 0 ? 1 : 0)`;
    return (
      `${head}    var peg$key = ${key}, peg$known = peg$memo.get(peg$key);\n` +
      "    if (peg$known !== undefined) {\n      peg$currPos = peg$known.next;\n      return peg$known.result;\n    }\n" +
      `${body}\n    peg$memo.set(peg$key, { next: peg$currPos, result: s0 });\n    return s0;\n  }`
    );
  });
}

/** A fresh copy of dynalite's parser `id`, memoised or as dynalite has it; undefined when it cannot
 *  be memoised (then dynalite's own stays). */
export function loadParser(id, memoised = true) {
  const file = require.resolve(id);
  const source = memoised ? memoisedParserSource(file) : readFileSync(file, "utf8");
  if (!source) return undefined;
  const module = { exports: {} };
  new Function("module", "exports", "require", source)(module, module.exports, createRequire(file));
  return module.exports;
}

function memoiseParsers() {
  for (const name of ["conditionParser", "updateParser", "projectionParser"]) {
    const id = `dynalite/db/${name}.js`;
    const parser = loadParser(id);
    // validations/index.js holds the module's exports and calls its `parse` at each request.
    if (parser) require(id).parse = parser.parse;
  }
}

/** Deep-freezes a parsed table description (plain JSON: objects and arrays). */
function frozen(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

function cacheTables(store) {
  const tables = new Map();
  // Writes of a description on their way, and how many have begun or ended: a description read
  // while one was on its way, or across one, may be the one before it, and is not kept.
  let writing = 0;
  let changes = 0;
  const tableDb = store.tableDb;
  for (const method of ["put", "del", "batch"]) {
    const write = tableDb[method];
    tableDb[method] = function (...args) {
      const last = args.length - 1;
      const callback = typeof args[last] === "function" ? args[last] : undefined;
      writing += 1;
      changes += 1;
      tables.clear();
      const done = function (...result) {
        writing -= 1;
        changes += 1;
        tables.clear();
        return callback?.apply(this, result);
      };
      if (callback) args[last] = done;
      else args.push(done);
      return write.apply(this, args);
    };
  }
  const getTable = store.getTable;
  // (name, cb): an item call, which wants an ACTIVE or UPDATING table; (name, checkStatus, cb): a
  // call on the table itself, answered from the store as before.
  store.getTable = function (name, checkStatus, cb) {
    if (typeof checkStatus !== "function" || cb !== undefined) return getTable.call(this, name, checkStatus, cb);
    const callback = checkStatus;
    const known = tables.get(name);
    if (known) {
      process.nextTick(callback, null, known);
      return;
    }
    const since = writing === 0 ? changes : -1;
    getTable.call(this, name, (error, table) => {
      if (!error && table && since === changes) tables.set(name, frozen(table));
      callback(error, table);
    });
  };
}

function readAtOnce(store) {
  const level = store.db;
  if (!level.supports?.getSync) return;
  const get = level.get;
  level.get = function (key, callback) {
    if (typeof callback !== "function" || level.status !== "open") return get.call(this, key, callback);
    let value;
    try {
      value = level.getSync(key);
    } catch {
      return get.call(this, key, callback);
    }
    process.nextTick(callback, null, value);
  };
}

/** The store's key prefixes dynalite gives an item and an index entry (db/index.js, getSubDb). */
const itemPrefix = (tableName) => `item-${tableName}~`;
const indexPrefix = (indexType, tableName, indexName) => `index-${indexType.toLowerCase()}~${tableName}~${indexName}~`;

/** Defers every item write's index entries to that item's own write (dynalite's actions call
 *  updateIndexes, then the item db's put or del, under the item's lock), as one batch. */
function writeIndexesWithItems() {
  // Per store: the index operations of an item whose write is on its way, by the item's store key.
  const deferred = new WeakMap();
  const updateIndexes = engine.updateIndexes;
  engine.updateIndexes = function (store, table, existingItem, item, cb) {
    const pending = deferred.get(store);
    if (!pending || (!existingItem && !item)) return updateIndexes.apply(this, arguments);
    const operations = [];
    for (const indexType of ["Local", "Global"]) {
      const indexes = table[`${indexType}SecondaryIndexes`] ?? [];
      const { puts, deletes } = engine.getIndexActions(indexes, existingItem, item, table);
      for (const { index, key } of deletes) operations.push({ type: "del", key: indexPrefix(indexType, table.TableName, index) + key });
      for (const { index, key, item: entry } of puts) {
        operations.push({ type: "put", key: indexPrefix(indexType, table.TableName, index) + key, value: entry });
      }
    }
    pending.set(itemPrefix(table.TableName) + engine.createKey(item ?? existingItem, table), operations);
    process.nextTick(cb);
  };
  return (store) => {
    deferred.set(store, new Map());
    const getItemDb = store.getItemDb;
    store.getItemDb = function (name) {
      const itemDb = getItemDb.call(this, name);
      if (itemDb.writesIndexes) return itemDb;
      const pending = deferred.get(store);
      const withIndexes = (write, toOperation) =>
        function (key, ...args) {
          const operations = pending.get(itemPrefix(name) + key);
          if (!operations) return write.call(this, key, ...args);
          pending.delete(itemPrefix(name) + key);
          const callback = args[args.length - 1];
          store.db.batch([...operations, toOperation(itemPrefix(name) + key, ...args)], callback);
        };
      itemDb.put = withIndexes(itemDb.put, (key, value) => ({ type: "put", key, value }));
      itemDb.del = withIndexes(itemDb.del, (key) => ({ type: "del", key }));
      itemDb.writesIndexes = true;
      return itemDb;
    };
  };
}

/** Closes a query's streams once the query has answered (installed on engine.queryTable, and per
 *  store on the streams its db makes). dynalite stops taking a query's values at its Limit or 1 MB,
 *  but leaves the stream open and flowing: it read the rest of the range for nothing, and the
 *  store's iterator beneath it held its read transaction (and with it SQLite's WAL) meanwhile. */
function closeQueryStreams() {
  const queryTable = engine.queryTable;
  // The streams made by the query being started: queryTable makes them synchronously.
  let opening;
  engine.queryTable = function (...args) {
    const cb = args.pop();
    const streams = [];
    opening = streams;
    try {
      return queryTable.call(this, ...args, function (...answer) {
        for (const stream of streams) stream.destroy();
        return cb.apply(this, answer);
      });
    } finally {
      opening = undefined;
    }
  };
  return (store) => {
    for (const method of ["createValueStream", "createKeyStream"]) {
      const create = store.db[method];
      store.db[method] = function (...args) {
        const stream = create.apply(this, args);
        opening?.push(stream);
        return stream;
      };
    }
  };
}

/** Runs `end` (which hands a request's end to the engine) so that, when the request is an
 *  UpdateItem that succeeds, `holder` gets the item before it (`before`, absent when there was
 *  none) and after it (`after`): the ones the engine read and wrote under the item's lock. */
export function withItemImages(holder, end) {
  engine.withItemImages(holder, end);
}

/** Installs withItemImages on the engine's module, which every copy of this module shares. */
function answerItemImages() {
  // The holder of the request whose end is being handed over: dynalite checks a request's types at
  // its end, synchronously, so the checked request it makes then is that one's.
  let asking;
  const holders = new WeakMap();
  engine.withItemImages = (holder, end) => {
    asking = holder;
    try {
      end();
    } finally {
      asking = undefined;
    }
  };
  const checkTypes = validations.checkTypes;
  validations.checkTypes = function (data, types) {
    const holder = asking;
    asking = undefined;
    const checked = checkTypes.call(this, data, types);
    if (holder && types === UPDATE_TYPES) holders.set(checked, holder);
    return checked;
  };
  // updateItem (dynalite/actions/updateItem.js) calls it with the checked request, the item it
  // read and the one it is about to write, once the condition and the update have held.
  const addConsumedCapacity = engine.addConsumedCapacity;
  engine.addConsumedCapacity = function (data, isRead, oldItem, newItem) {
    const holder = holders.get(data);
    if (holder) {
      if (oldItem) holder.before = oldItem;
      holder.after = newItem;
    }
    return addConsumedCapacity.apply(this, arguments);
  };
}

/** The path on the engine's loopback port that answers a snapshot of the whole store (backup.ts). */
export const SNAPSHOT_PATH = "/fugitive/snapshot";
/** Records per line batch of a snapshot. */
const SNAPSHOT_BATCH = 1000;

/** Writes every key and value of the store as they were when the request came, one JSON line
 *  `[key, value]` (both as stored, UTF-8) each, then `{"end": count}`: the store's iterator reads
 *  through a read transaction begun when it is made, so writes made meanwhile are not in it, and
 *  every write acknowledged before is. A cut answer lacks its last line. */
async function answerSnapshot(store, response) {
  const iterator = store.db.iterator({ keyEncoding: "utf8", valueEncoding: "utf8" });
  response.writeHead(200, { "Content-Type": "application/x-ndjson" });
  let count = 0;
  try {
    for (;;) {
      const entries = await iterator.nextv(SNAPSHOT_BATCH);
      if (entries.length === 0) break;
      count += entries.length;
      const lines = entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
      if (!response.write(lines)) await new Promise((resolve) => response.once("drain", resolve));
      if (response.destroyed) return;
    }
    response.end(`${JSON.stringify({ end: count })}\n`);
  } catch (error) {
    response.destroy(error);
  } finally {
    await iterator.close();
  }
}

/** dynalite's HTTP server for `options`, the store it answers from (the one a request of this
 *  process is handed to, dynalite-answer.mjs), and `opened`, which settles once the store is open:
 *  rejected with the store's own error (LEVEL_LOCKED: the folder is another process's;
 *  LEVEL_CORRUPTION: its database failed its check, sqlite-level.mjs). dynalite opens its store on
 *  its own and keeps the failure to itself (every call then fails with «Database is closed»), so the
 *  open is asked for here, before it starts, and waited for before the port is taken. Its loopback
 *  port also answers GET SNAPSHOT_PATH. */
export function createEngine(options) {
  const { secret, ...engineOptions } = options;
  const server = dynalite(engineOptions);
  const store = engine.stores.get(engineOptions);
  // abstract-level wraps an open's failure as «Database failed to open»; its cause is the store's.
  const opened = store.db.open().catch((error) => {
    throw error?.code === "LEVEL_DATABASE_NOT_OPEN" && error.cause ? error.cause : error;
  });
  const [answer] = server.listeners("request");
  server.removeAllListeners("request");
  server.on("request", (request, response) => {
    // Issue 86 R18: with a secret, the loopback port answers only a caller who names it: any local
    // process could reach the port, and dynalite checks no signature.
    if (secret !== undefined && !carriesSecret(request, secret)) return refuseUnnamed(request, response);
    if (request.method === "GET" && request.url === SNAPSHOT_PATH) answerSnapshot(store, response);
    else answer(request, response);
  });
  return { server, store, opened };
}

/** The header a caller of the snapshot (or any plain HTTP call) names the engine's secret in; an SDK
 *  client names it as its access key id (the SigV4 Authorization's Credential=…/). */
export const ENGINE_SECRET_HEADER = "x-engine-secret";

function sameText(a, b) {
  const x = Buffer.from(String(a));
  const y = Buffer.from(String(b));
  return x.length === y.length && timingSafeEqual(x, y);
}

function carriesSecret(request, secret) {
  const named = request.headers[ENGINE_SECRET_HEADER];
  if (typeof named === "string" && sameText(named, secret)) return true;
  const credential = /Credential=([^/,\s]+)\//.exec(String(request.headers.authorization ?? ""))?.[1];
  return credential !== undefined && sameText(credential, secret);
}

/** DynamoDB's own answer to a key it does not know, after the request's body is read. */
function refuseUnnamed(request, response) {
  request.resume();
  request.once("end", () => {
    response.writeHead(400, { "Content-Type": "application/x-amz-json-1.0" });
    response.end(
      JSON.stringify({
        __type: "com.amazonaws.dynamodb.v20120810#UnrecognizedClientException",
        message: "The security token included in the request is invalid.",
      }),
    );
  });
}

if (!engine.create.cheaperCalls) {
  // Each store by the options it was created with (dynalite hands its own to db.create): on the
  // engine's module, which every copy of this module shares.
  engine.stores = new WeakMap();
  answerItemImages();
  memoiseParsers();
  const deferIndexes = writeIndexesWithItems();
  const closeStreams = closeQueryStreams();
  const create = engine.create;
  engine.create = function (options) {
    const store = create(options);
    // A data folder is SQLite's or nothing's: were dynalite handed LevelDB after all (dynalite-store.mjs
    // loaded too late), it would write LevelDB's files without a word.
    if (options?.path && !(store.db instanceof SqliteLevel))
      throw new Error(`the engine opened ${options.path} with ${store.db?.constructor?.name}, not the SQLite store`);
    cacheTables(store);
    readAtOnce(store);
    deferIndexes(store);
    closeStreams(store);
    engine.stores.set(options, store);
    return store;
  };
  engine.create.cheaperCalls = true;
}
