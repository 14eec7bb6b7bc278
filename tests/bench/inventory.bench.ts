// The year's inventory at the size of a real company (docs/performance.md, «Inventory at 10 000
// calculations»): one company, one reporting year, N calculations in it (100, 1 000, 10 000 by
// default; BENCH_INVENTORY_SIZES=100,1000 picks others), printed side by side: GET v1/inventory/
// (p50 of repeated answers through the API), the report passport as xlsx and as PDF (the path that
// produces them today: the spreadsheet port, in process), the peak RSS each added, and the DynamoDB
// calls of one inventory answer. Each size is a fresh in-memory dynalite table with the table's
// stream handled in process, as `npm start` runs it.
//
// The company is shaped as a mine keeps its books: facilities of 1 095 calculations each, every one
// covering one day of the year (daily measured degasification and ventilation release, and the
// fuel of two kinds burnt on site), one project per facility, every 40th calculation an
// alternative. The calculations are written as the repository stores them, 25 to a BatchWrite, not
// through the API one by one; a batch makes no record on the local stream, so the reconciliation
// (the nightly job's, domain/inventory/statistics.ts) then brings the aggregates to the table, as it would
// after a bulk load in AWS. BENCH_INVENTORY_PDF_MAX (default: every size) leaves the PDF out above it.
//
// Then the year's checks at the same sizes (methodology 9.1), two companies each: own emission
// factors without their uncertainty (facilities of 365 daily calculations, every one flagged) and
// one source entered N times without a period (every one overlapping every other): the answer's
// time, size and DynamoDB calls, and how many checks of the case it holds.
import { performance } from "node:perf_hooks";
import { bodyBytes } from "./file-answer";
import { countCalls } from "@server/adapters/dynamodb/call-count";
import type { Actor } from "@server/domain/context";
import { createFacility } from "@server/domain/company/facilities";
import { gwpSetInForce } from "@server/domain/reference/gwp-years";
import { newId } from "@server/domain/ids";
import { createProject } from "@server/domain/calculations/projects";
import type { StoredCalculation } from "@server/ports";
import { INVENTORY_SUMS_LAYOUT } from "@server/domain/inventory/sums";
import { createFreshHarness, type Harness } from "../support/harness";
import { writeCalculations } from "../support/large-inventory";
import { company, facilityWithCalculation, growEach, measuredInventory } from "../support/checks-at-size";
import { PERFORMANCE_DOC, writeGeneratedBlock } from "../support/generated-doc";
import { storedMachineryFuel, storedUnderground } from "./coefficient-uses";

const SIZES = (process.env.BENCH_INVENTORY_SIZES ?? "100,1000,10000").split(",").map(Number);
const YEAR = 2025;
const PER_FACILITY = 3 * 365;
const ANSWERS = Number(process.env.BENCH_INVENTORY_ANSWERS ?? 9);
const PDF_MAX = Number(process.env.BENCH_INVENTORY_PDF_MAX ?? Number.POSITIVE_INFINITY);

const dayOf = (day: number) => new Date(Date.UTC(YEAR, 0, 1 + day)).toISOString().slice(0, 10);

/** Calculation i of a facility: a day's measured release, or a day's fuel of one of two kinds. */
function calculation(i: number, project: string, company: string, email: string, gwpCh4: number): StoredCalculation {
  const slot = i % PER_FACILITY;
  const day = dayOf(Math.floor(slot / 3));
  const volume = 1000 + (i % 997) * 13.7;
  const at = new Date(Date.UTC(YEAR, 0, 1) + i * 60_000).toISOString();
  const base = {
    id: newId(),
    project,
    company,
    is_active: true,
    is_deleted: false,
    version: 1,
    methodology_version: "2026.3",
    period: { from: day, to: day },
    inventory_role: i % 40 === 39 ? ("alternative" as const) : ("primary" as const),
    created_at: at,
    created_by: email,
    updated_at: at,
    updated_by: email,
  };
  if (slot % 3 === 0) {
    return { ...base, type: "underground", name: `Дегазация и вентиляция ${day}`, ...storedUnderground(volume, gwpCh4, { basis: "net" }) };
  }
  const diesel = slot % 3 === 1;
  return {
    ...base,
    type: "open_mining_co2",
    name: `Топливо ${diesel ? "дизельное" : "бензин"} ${day}`,
    ...storedMachineryFuel(volume / 10, diesel),
  };
}

interface Figures {
  n: number;
  seedS: number;
  inventoryMs: number;
  inventoryBytes: number;
  inventoryCalls: number;
  inventoryMb: number;
  xlsx: string;
  pdf: string;
}

const mb = (n: number) => n / 1024 / 1024;

/** Runs `work` with RSS sampled every 10 ms: its time, and the peak RSS it added. */
async function sampled<T>(work: () => Promise<T>): Promise<{ ms: number; addedMb: number; value: T }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const start = performance.now();
  try {
    const value = await work();
    return { ms: performance.now() - start, addedMb: mb(Math.max(peak, process.memoryUsage().rss) - before), value };
  } finally {
    clearInterval(sampler);
  }
}

/** Writes one calculation at a time through the repository, 8 writers side by side, the facilities'
 *  days in turn as a company's staff enter them: each write is a record on the table's stream, whose
 *  handler keeps the sums as it does for the API's writes. */
async function oneByOne(harness: Harness, written: readonly StoredCalculation[]): Promise<void> {
  const byProject = new Map<string, StoredCalculation[]>();
  for (const c of written) (byProject.get(c.project) ?? byProject.set(c.project, []).get(c.project)!).push(c);
  const calculations: StoredCalculation[] = [];
  for (let i = 0; calculations.length < written.length; i++)
    for (const ofProject of byProject.values()) if (i < ofProject.length) calculations.push(ofProject[i]);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < calculations.length; i = next++) await harness.deps.repos.calculations.create(calculations[i]);
    }),
  );
  await harness.settled();
}

async function seed(
  harness: Harness,
  actor: Actor,
  n: number,
  write: (harness: Harness, calculations: readonly StoredCalculation[]) => Promise<void> = writeCalculations,
): Promise<void> {
  const deps = harness.deps;
  const gwpCh4 = (await gwpSetInForce(deps, YEAR))?.values.gwp_ch4?.value ?? 25;
  const jobs: StoredCalculation[] = [];
  for (let f = 0; f * PER_FACILITY < n; f++) {
    const facility = await createFacility(deps, actor, { name: `Шахта № ${f + 1}`, kind: "underground_mine" });
    const project = await createProject(deps, actor, {
      name: `Учет ${YEAR}, шахта № ${f + 1}`,
      start_date: `${YEAR}-01-01`,
      end_date: `${YEAR}-12-31`,
      reporting_year: YEAR,
      facility: facility.id,
    });
    for (let i = f * PER_FACILITY; i < Math.min(n, (f + 1) * PER_FACILITY); i++) {
      jobs.push(calculation(i, project.id, actor.company, actor.email, gwpCh4));
    }
  }
  await write(harness, jobs);
}

/** The passport of the year in one format, by the port that renders it today: its time and peak RSS. */
async function passport(harness: Harness, actor: Actor, format: "xlsx" | "pdf"): Promise<string> {
  try {
    const { ms, addedMb, value } = await sampled(async () => {
      const result = await harness.deps.spreadsheets.inventoryReport(actor, { year: YEAR, format });
      if (result.kind !== "body") return `${result.kind}`;
      return `${mb(await bodyBytes(result)).toFixed(1)} MB`;
    });
    return `${(ms / 1000).toFixed(1)} s, ${value}, +${addedMb.toFixed(0)} MB`;
  } catch (error) {
    return `refused: ${(error as Error).message.slice(0, 60)}`;
  }
}

/** GET v1/inventory/ asked ANSWERS times after one unmeasured answer: the p50, the answer's size,
 *  the DynamoDB calls of one answer and the peak RSS the first added. The access token is taken
 *  fresh from `refresh`: on a busy machine the seeding outlasts the one signed in with. */
async function inventoryAnswers(
  harness: Harness,
  refresh: string,
): Promise<Pick<Figures, "inventoryMs" | "inventoryBytes" | "inventoryCalls" | "inventoryMb">> {
  const refreshed = await harness.request("/api/token/refresh/", { method: "POST", json: { refresh } });
  if (refreshed.status !== 200) throw new Error(`token refresh: ${refreshed.status} ${await refreshed.text()}`);
  const { access: token } = (await refreshed.json()) as { access: string };
  const counter = countCalls(harness.doc!);
  const answer = async () => {
    const res = await harness.request(`/api/v1/inventory/?year=${YEAR}`, { token });
    if (res.status !== 200) throw new Error(`inventory: ${res.status} ${await res.text()}`);
    return (await res.arrayBuffer()).byteLength;
  };
  await answer();
  counter.reset();
  const first = await sampled(answer);
  const inventoryCalls = counter.calls.length;
  const times = [first.ms];
  for (let i = 1; i < ANSWERS; i++) times.push((await sampled(answer)).ms);
  times.sort((a, b) => a - b);
  return { inventoryMs: times[Math.floor(times.length / 2)], inventoryBytes: first.value, inventoryCalls, inventoryMb: first.addedMb };
}

interface KeptFigures {
  n: number;
  seedS: number;
  inventoryMs: number;
  inventoryCalls: number;
  /** Keys of the kept sums, and how many of them hold zero. */
  keys: number;
  zeros: number;
  /** Whether the inventory answered from the kept sums (the write counters settled, today's layout). */
  fromSums: boolean;
}

/** The same year written one calculation at a time, each a record on the table's stream, and asked
 *  before any reconciliation: the kept sums as the stream handler left them, never compacted. */
async function measureKept(n: number): Promise<KeptFigures> {
  const harness = await createFreshHarness();
  try {
    const user = await harness.signedInUser("Угольная компания");
    const actor: Actor = { id: user.userId, company: user.companyId, email: user.email, role: "staff" };
    const seeding = performance.now();
    await seed(harness, actor, n, oneByOne);
    const seedS = (performance.now() - seeding) / 1000;
    const statistics = harness.deps.repos.statistics;
    const { projects } = await statistics.storedInventorySums(actor.company);
    const fromSums = (await statistics.inventorySums(actor.company, INVENTORY_SUMS_LAYOUT)) !== undefined;
    const answers = await inventoryAnswers(harness, user.refresh);
    return {
      n,
      seedS,
      inventoryMs: answers.inventoryMs,
      inventoryCalls: answers.inventoryCalls,
      keys: projects.reduce((sum, p) => sum + Object.keys(p.sums).length + p.zeros, 0),
      zeros: projects.reduce((sum, p) => sum + p.zeros, 0),
      fromSums,
    };
  } finally {
    await harness.close();
  }
}

async function measure(n: number): Promise<Figures> {
  const harness = await createFreshHarness();
  try {
    const user = await harness.signedInUser("Угольная компания");
    const actor: Actor = { id: user.userId, company: user.companyId, email: user.email, role: "staff" };
    const seeding = performance.now();
    await seed(harness, actor, n);
    const seedS = (performance.now() - seeding) / 1000;
    const answers = await inventoryAnswers(harness, user.refresh);
    const xlsx = await passport(harness, actor, "xlsx");
    const pdf = n <= PDF_MAX ? await passport(harness, actor, "pdf") : `not run (over ${PDF_MAX})`;
    return { n, seedS, ...answers, xlsx, pdf };
  } finally {
    await harness.close();
  }
}

interface CheckFigures {
  n: number;
  kind: string;
  ms: number;
  bytes: number;
  calls: number;
  checks: string;
}

const CHECK_CASES = {
  "own factors": { code: "custom_without_uncertainty", own: true },
  "overlapping periods": { code: "primary_duplicate", own: false },
} as const;

/** 9.1: the year's inventory of a company whose N calculations all carry one check's problem. */
async function measureChecks(n: number, kind: keyof typeof CHECK_CASES): Promise<CheckFigures> {
  const { code, own } = CHECK_CASES[kind];
  const harness = await createFreshHarness();
  try {
    const c = await company(harness, "Угольная компания");
    // Own factors: a facility's source has 365 days; one source: every calculation without a period.
    const perFacility = own ? 365 : n;
    const plan = [];
    for (let f = 0; f * perFacility < n; f++) {
      const { calculation } = await facilityWithCalculation(c, `Шахта № ${f + 1}`, own);
      plan.push({ calculation, from: 1, to: Math.min(perFacility, n - f * perFacility) });
    }
    await growEach(c, plan, own);
    const answers = [];
    for (let i = 0; i < ANSWERS; i++) answers.push(await measuredInventory(c));
    const first = answers[0];
    if (first.status !== 200) throw new Error(`inventory: ${first.status}`);
    const times = answers.map((a) => a.ms).sort((a, b) => a - b);
    const ofCase = first.body.checks.filter((check) => check.code === code);
    return {
      n,
      kind,
      ms: times[Math.floor(times.length / 2)],
      bytes: first.bytes,
      calls: first.calls,
      checks: `${ofCase.length} (${ofCase.map((check) => check.count ?? 1).reduce((a, b) => a + b, 0)} calculations)`,
    };
  } finally {
    await harness.close();
  }
}

/** Which parts run (BENCH_INVENTORY_PARTS, default all): the year brought into its sums by the
 *  reconciliation, the year kept by the stream alone, the checks' cases. */
const PARTS = (process.env.BENCH_INVENTORY_PARTS ?? "reconciled,kept,checks").split(",");

const cell = (text: string, width: number) => text.padEnd(width);
const tableLine = (cells: string[], widths: number[]) =>
  cells
    .map((c, i) => cell(c, widths[i]))
    .join(" ")
    .trimEnd();

async function reconciledPart(out: string[]): Promise<void> {
  const rows: Figures[] = [];
  for (const n of SIZES) {
    const figures = await measure(n);
    rows.push(figures);
    console.log(`${n} calculations seeded in ${figures.seedS.toFixed(1)} s`);
  }
  const widths = [13, 14, 10, 15, 15, 28, 28];
  out.push(
    "brought into the sums by the reconciliation (written 25 to a BatchWrite):",
    tableLine(["calculations", "inventory p50", "answer", "DynamoDB calls", "peak RSS added", "xlsx passport", "PDF passport"], widths),
  );
  for (const r of rows) {
    out.push(
      tableLine(
        [
          String(r.n),
          `${r.inventoryMs.toFixed(0)} ms`,
          `${(r.inventoryBytes / 1024).toFixed(0)} KB`,
          String(r.inventoryCalls),
          `+${r.inventoryMb.toFixed(0)} MB`,
          r.xlsx,
          r.pdf,
        ],
        widths,
      ),
    );
  }
  const [smallest, largest] = [rows[0], rows.at(-1)!];
  out.push(`inventory at ${largest.n} / at ${smallest.n}: ${(largest.inventoryMs / smallest.inventoryMs).toFixed(1)}× (target: within 3×)`);
}

async function keptPart(out: string[]): Promise<void> {
  const rows: KeptFigures[] = [];
  for (const n of SIZES) {
    const figures = await measureKept(n);
    rows.push(figures);
    console.log(`${n} calculations written one by one through the stream in ${figures.seedS.toFixed(1)} s`);
  }
  const widths = [13, 14, 15, 22, 12];
  out.push(
    "kept by the table's stream, one record per calculation, before any reconciliation:",
    tableLine(["calculations", "inventory p50", "DynamoDB calls", "kept keys (of them 0)", "answered from"], widths),
  );
  for (const r of rows) {
    out.push(
      tableLine(
        [
          String(r.n),
          `${r.inventoryMs.toFixed(0)} ms`,
          String(r.inventoryCalls),
          `${r.keys} (${r.zeros})`,
          r.fromSums ? "the sums" : "the calculations",
        ],
        widths,
      ),
    );
  }
  const [smallest, largest] = [rows[0], rows.at(-1)!];
  out.push(`inventory at ${largest.n} / at ${smallest.n}: ${(largest.inventoryMs / smallest.inventoryMs).toFixed(1)}× (target: within 3×)`);
}

async function checksPart(out: string[]): Promise<void> {
  const checkRows: CheckFigures[] = [];
  for (const n of SIZES)
    for (const kind of Object.keys(CHECK_CASES) as Array<keyof typeof CHECK_CASES>) checkRows.push(await measureChecks(n, kind));
  const widths = [10, 20, 14, 10, 15, 30];
  out.push(
    "the year's checks, every calculation carrying the case's problem:",
    tableLine(["checks at", "case", "inventory p50", "answer", "DynamoDB calls", "checks of the case"], widths),
  );
  for (const r of checkRows) {
    out.push(
      tableLine([String(r.n), r.kind, `${r.ms.toFixed(0)} ms`, `${(r.bytes / 1024).toFixed(0)} KB`, String(r.calls), r.checks], widths),
    );
  }
}

export async function run(): Promise<void> {
  const out: string[] = [];
  const parts = { reconciled: reconciledPart, kept: keptPart, checks: checksPart };
  for (const [name, part] of Object.entries(parts)) {
    if (!PARTS.includes(name)) continue;
    const lines: string[] = [];
    await part(lines);
    for (const line of lines) console.log(line);
    out.push(...lines, "");
  }
  if (process.argv.includes("--write-docs")) {
    writeGeneratedBlock("inventory", out.slice(0, -1));
    console.log(`  written to ${PERFORMANCE_DOC}`);
  }
}
