// `npm run bench -- store-layout`: the local store's reads on data folders a holding
// bench left (`HOLDING_KEEP=1 npm run bench -- holding`, one folder per layout of the store's table),
// named by STORE_LAYOUT_FOLDERS (comma-separated). Each folder's items.db is described (its table's
// layout, pages, overflow pages by SQLite's dbstat) and read, the folders in turn, round after round
// (STORE_LAYOUT_ROUNDS, 3), so that a shared machine's load falls on each alike:
//   1. the store alone (packages/dynalite/db/sqlite-level.mts, as dynalite reads it): 20 000 gets of
//      keys drawn from the folder's own, and 500 ranges of 100 entries from keys drawn alike;
//   2. the server (`npm start`'s, a process of its own started on the folder for the round, so no
//      answer is kept from an earlier round): for each mine of the demo company its operator journal of
//      the filled day, its sensors' completeness over the year and its emission points' months of the
//      year (`telemetry/offers`, what a year's report of measured emissions reads), one after another.
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DATA_FILE, SqliteLevel } from "dynalite/db/sqlite-level.mts";
import { STORE_DIR } from "@server/local/storage";
import { callApi } from "../support/api-call";
import { machineLine } from "../support/machine";
import { DEMO, accessToken } from "../support/server";
import { startServerProcess } from "../support/server-process";

const ROUNDS = Number(process.env.STORE_LAYOUT_ROUNDS ?? 3);
const GETS = 20_000;
const RANGES = 500;
const RANGE_ENTRIES = 100;
const DAY = 86_400_000;

/** A folder's items.db as SQLite holds it: its table's layout, its pages and how many overflow. */
function described(folder: string) {
  const db = new DatabaseSync(join(folder, STORE_DIR, DATA_FILE), { readOnly: true });
  try {
    const sql = String((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'kv'").get() as { sql: string }).sql);
    const pageSize = Number((db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size);
    const pages = db.prepare("SELECT pagetype, count(*) AS n FROM dbstat GROUP BY pagetype").all() as { pagetype: string; n: number }[];
    const count = (type: string) => Number(pages.find((p) => p.pagetype === type)?.n ?? 0);
    const total = pages.reduce((n, p) => n + Number(p.n), 0);
    const keys = Number((db.prepare("SELECT count(*) AS n FROM kv").get() as { n: number }).n);
    return {
      layout: /WITHOUT ROWID/i.test(sql) ? "WITHOUT ROWID" : "rowid + unique key",
      pageSize,
      total,
      overflow: count("overflow"),
      keys,
    };
  } finally {
    db.close();
  }
}

/** `n` keys of the folder's table drawn at random (the same draw each round). */
function drawnKeys(folder: string, n: number): Buffer[] {
  const db = new DatabaseSync(join(folder, STORE_DIR, DATA_FILE), { readOnly: true });
  try {
    const all = db
      .prepare("SELECT k FROM kv")
      .all()
      .map((row) => Buffer.from(row.k as Uint8Array));
    let seed = 119;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    return Array.from({ length: n }, () => all[Math.floor(next() * all.length)]);
  } finally {
    db.close();
  }
}

async function storeReads(folder: string, gets: Buffer[], starts: Buffer[]) {
  const db = new SqliteLevel<Buffer, Buffer>(join(folder, STORE_DIR), { keyEncoding: "buffer", valueEncoding: "buffer" });
  await db.open();
  try {
    let bytes = 0;
    const t0 = performance.now();
    for (const key of gets) bytes += (await db.get(key))?.length ?? 0;
    const getMs = performance.now() - t0;
    const t1 = performance.now();
    let entries = 0;
    for (const start of starts) entries += (await db.iterator({ gte: start, limit: RANGE_ENTRIES }).all()).length;
    const rangeMs = performance.now() - t1;
    return { getMs, rangeMs, bytes, entries };
  } finally {
    await db.close();
  }
}

async function serverReads(folder: string) {
  const server = await startServerProcess(folder);
  try {
    const token = await accessToken(server.url, DEMO);
    const call = async (path: string) => {
      const t0 = performance.now();
      const res = await callApi(server.url, token, "GET", path);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return performance.now() - t0;
    };
    const listed = (await callApi(server.url, token, "GET", "/v1/facilities/")).body as unknown;
    const facilities = (Array.isArray(listed) ? listed : ((listed as { results: unknown[] }).results ?? [])) as { id: string }[];
    // The filled day: the holding bench's, yesterday (UTC).
    const day = new Date(Math.floor(Date.now() / DAY) * DAY - DAY).toISOString().slice(0, 10);
    const year = day.slice(0, 4);
    const ms = { journal: 0, completeness: 0, offers: 0 };
    for (const { id } of facilities) {
      ms.journal += await call(`/v1/telemetry/journal/?facility=${id}&date=${day}`);
      ms.completeness += await call(`/v1/facilities/${id}/sensors/completeness/?year=${year}`);
      ms.offers += await call(`/v1/telemetry/offers/?facility=${id}&year=${year}`);
    }
    return { ...ms, facilities: facilities.length };
  } finally {
    const exited = new Promise((r) => server.child.once("exit", r));
    server.child.kill("SIGTERM");
    await exited;
  }
}

const fmt = (n: number) => n.toLocaleString("ru-RU", { maximumFractionDigits: 1 });

export async function run(): Promise<void> {
  const folders = (process.env.STORE_LAYOUT_FOLDERS ?? "").split(",").filter(Boolean);
  if (folders.length === 0) throw new Error("STORE_LAYOUT_FOLDERS: the data folders to read (HOLDING_KEEP=1 of the holding bench)");
  console.log(machineLine());
  for (const folder of folders) {
    if (!readdirSync(folder).includes(STORE_DIR)) throw new Error(`${folder}: no ${STORE_DIR}/`);
    const d = described(folder);
    console.log(
      `${folder}: ${d.layout}, ${d.pageSize} B pages, ${fmt(d.total)} pages (${fmt((d.total * d.pageSize) / 1e6)} MB), ` +
        `of them overflow ${fmt(d.overflow)} (${fmt((100 * d.overflow) / d.total)} %), ${fmt(d.keys)} keys`,
    );
  }
  const draws = folders.map((folder) => ({ gets: drawnKeys(folder, GETS), starts: drawnKeys(folder, RANGES) }));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, folder] of folders.entries()) {
      const load = loadavg()[0];
      const store = await storeReads(folder, draws[i].gets, draws[i].starts);
      const server = await serverReads(folder);
      console.log(
        `round ${round}, ${folder} (load ${load.toFixed(1)}): store ${GETS.toLocaleString("en")} gets ${fmt(store.getMs)} ms ` +
          `(${fmt(store.bytes / 1e6)} MB), ${RANGES} ranges of ${RANGE_ENTRIES} ${fmt(store.rangeMs)} ms (${store.entries} entries); ` +
          `server, ${server.facilities} mines: journal ${fmt(server.journal)} ms, completeness ${fmt(server.completeness)} ms, ` +
          `the year's offers ${fmt(server.offers)} ms`,
      );
    }
  }
}
