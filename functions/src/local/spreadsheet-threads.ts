// The SpreadsheetWorker port of the local host: exports, templates and report passports rendered in
// a small pool of worker threads (and uploads read there: every preview, large forecast files read
// and predicted, each within a time budget) (spreadsheet-thread.ts), as the spreadsheet worker function renders
// them in AWS. A large company's report passport is a job there, as the job function runs it in AWS
// (adapters/spreadsheets/jobs.ts): the thread writes its state and file to the blob folder, this
// process reads them (GET v1/export_jobs/{id}/ and its file/). exceljs, SheetJS and pdfkit are CPU work of seconds for a large project; on the
// server's own thread every other user's request would wait behind them. A thread that runs out of
// memory (its heap is capped) fails its own jobs and is replaced; the server stays up. A company's
// model is trained there as a job too, as the job function trains it in AWS.
import { availableParallelism } from "node:os";
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { jobFile, jobStatus, recordJobFailure } from "../adapters/spreadsheets/jobs";
import type { WorkerRequest } from "../adapters/spreadsheets/protocol";
import { fromWire, type WireError } from "../domain/errors";
import {
  companyTurns,
  HEAVY_CARRY_SECONDS,
  HEAVY_READS_AT_ONCE,
  IDLE_THREAD_SECONDS,
  UPLOAD_BUDGET_SECONDS,
  uploadBudgetSpent,
} from "../domain/heavy-work";
import type { ExportResult, JobTicket } from "../export/formats";
import { systemClock, type Actor, type ForecastFileResult, type UploadFiles } from "../domain/context";
import type { UploadPreviewView } from "../contract/schemas/upload-preview";
import type { CalculationType } from "@core/registry";
import type { PeriodBounds } from "@core/measured-release";
import type { UploadedFile } from "../files/tabular";
import type { ClimateRead, GostCmsCheck, GostCmsVerifier, MinutesRead, SpreadsheetWorker, WholeYearRead } from "../ports";
import type { ForecastRun } from "../domain/forecast/forecast";
import { columnBuffers } from "../domain/forecast/file";
import type { Clock, ForecastColumns, VersionSignature, VersionSigner } from "../ports";
import { threadExecArgv, threadResourceLimits } from "./heap-limits";
import { clearInFlight, type HostJobRequest, type InterruptedJob, recordInFlight, takeUpInterrupted } from "./interrupted-jobs";

export interface ThreadData {
  endpoint: string;
  tableName: string;
  blobsDir: string;
  /** The way in to the engine's thread, when it runs in this process (dynalite-port.ts). */
  port?: MessagePort;
  /** the security review's R9: where the thread asks the server to sign a verification pack's manifest
   *  (signingPort below); the private key stays in the server's thread. */
  signing?: MessagePort;
}

/** A signature asked of the server by a thread, and its answer. */
type SignRequest = { id: number; sha256: string };
type SignAnswer = { id: number; signature?: VersionSignature; error?: string };

/** The server's end of a thread's signing port: each digest signed with `signer`. */
function signingPort(signer: VersionSigner): MessagePort {
  const { port1, port2 } = new MessageChannel();
  port1.on("message", ({ id, sha256 }: SignRequest) => {
    signer.sign(sha256).then(
      (signature) => port1.postMessage({ id, signature } satisfies SignAnswer),
      (error: unknown) => port1.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies SignAnswer),
    );
  });
  port1.unref();
  return port2;
}

/** The thread's signer: asks the server over `port` (its keys are the server's to list). */
export function threadSigner(port: MessagePort): VersionSigner {
  let next = 1;
  const waiting = new Map<number, (answer: SignAnswer) => void>();
  port.on("message", (answer: SignAnswer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
    if (waiting.size === 0) port.unref();
  });
  port.unref();
  return {
    sign: (sha256) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, (answer) => (answer.signature ? resolve(answer.signature) : reject(new Error(answer.error ?? "not signed"))));
        port.ref();
        port.postMessage({ id, sha256 } satisfies SignRequest);
      }),
    keys: () => Promise.reject(new Error("a spreadsheet thread lists no signing keys")),
  };
}

export type ToThread =
  /** `now`: the server's clock when it sent the request, in ms (the thread's clock runs on from it). */
  | { id: number; type: "job"; request: WorkerRequest; now: number }
  | { id: number; type: "pull" | "cancel" }
  /** A whole-year answer (domain/inventory/whole-year.ts) of `actor`'s company, at the server's `now`. */
  | { id: number; type: "whole_year"; actor: Pick<Actor, "id" | "company" | "email" | "role">; read: WholeYearRead; now: number }
  /** A read over a facility's stored minutes (domain/monitoring/live/minute-reads.ts) or a climate
   *  project's meters' (domain/climate/day-minutes.ts), likewise. */
  | {
      id: number;
      type: "minutes_read";
      actor: Pick<Actor, "id" | "company" | "email" | "role">;
      read: MinutesRead | ClimateRead;
      now: number;
    }
  | { id: number; type: "forecast"; file: UploadedFile; run: ForecastRun }
  | { id: number; type: "forecast_columns"; columns: ForecastColumns; run: ForecastRun }
  /** A КЭП checked by the machine's openssl (adapters/signing/gost-cms.ts), `at` in ms. */
  | { id: number; type: "gost_verify"; input: { signature: Uint8Array; content: Uint8Array; roots: readonly string[]; at: number } }
  | {
      id: number;
      type: "preview";
      upload: CalculationType;
      file: UploadedFile;
      values: Record<string, unknown>;
      bounds: PeriodBounds;
      /** Answer a forecast history's columns read in one pass with the preview. */
      keepColumns: boolean;
    };

export type ThreadMessage =
  | { id: number; type: "head"; fileName: string; contentType: string }
  | { id: number; type: "redirect"; url: string; fileName: string }
  | { id: number; type: "chunk"; bytes: Uint8Array }
  | { id: number; type: "end" }
  | { id: number; type: "started" }
  | { id: number; type: "whole_year"; value: unknown }
  | { id: number; type: "minutes_read"; bytes: Uint8Array }
  | { id: number; type: "gost_verify"; check: GostCmsCheck }
  | ({ id: number; type: "forecast" } & ForecastFileResult)
  | { id: number; type: "preview"; preview: UploadPreviewView; columns?: ForecastColumns }
  | { id: number; type: "error"; error: WireError }
  | { id: number; type: "failed"; message: string };

export interface ThreadPoolOptions extends ThreadData {
  /** A new way in to the engine's thread (storage's `connect`): each thread's client reaches the
   *  engine through it instead of HTTP on loopback. */
  connect?(): MessagePort;
  /** Threads at most (default: the job places and two more). */
  size?: number;
  /** Jobs running at once (default: jobPlaces()). */
  jobsAtOnce?: number;
  /** A thread started with the pool (default true); false: with the first job, for a server that
   *  may never render or read a file (the tests' servers). */
  threadAtStart?: boolean;
  /** How long a thread beyond the first may have no work before it is ended, ms (IDLE_THREAD_SECONDS). */
  idleMs?: number;
  /** Heap cap of one thread, MB. */
  heapMb?: number;
  /** How long an upload's work may run in its thread, ms (UPLOAD_BUDGET_SECONDS). */
  uploadBudgetMs?: number;
  /** The server's clock, which the threads' work reads too (a test's server holds its own day). */
  clock?: Clock;
  /** Gives back the heavy-work slots of a job whose thread died under it (the job could not). */
  releaseSlots?: (slots: JobTicket["slots"]) => Promise<void>;
  /** Keeps a waiting job's slots counting (domain/heavy-work.ts, carryHeavySlots), in place. */
  carrySlots?: (slots: JobTicket["slots"]) => Promise<void>;
  /** Signs a verification pack's manifest for the threads (the security review's R9). */
  signer?: VersionSigner;
  /** Gives back what a job failed at start still holds (a period job's hold on its project). */
  releaseHolds?: (request: HostJobRequest) => Promise<void>;
}

export interface SpreadsheetThreads extends SpreadsheetWorker, UploadFiles {
  /** a КЭП's check, its openssl processes started from a thread (starting one from
   *  the request thread held it 57–69 ms at load 10 in the loop budget). */
  gostCms: GostCmsVerifier;
  /** Takes up the jobs the last process left unfinished (interrupted-jobs.ts), once at start. */
  resumeInterrupted(): Promise<InterruptedJob[]>;
  /** minutesRead's and climateRead's answers as the thread encoded them: the front hands these on to
   *  an app thread (app-thread.ts) without making a string of them. */
  minutesReadBytes(actor: Pick<Actor, "id" | "company" | "email" | "role">, read: MinutesRead): Promise<Uint8Array>;
  climateReadBytes(actor: Pick<Actor, "id" | "company" | "email" | "role">, read: ClimateRead): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Plain Node cannot load the thread's TypeScript: the entry registers tsx first (as `npm start`
 *  does for the server) and then imports it. */
const BOOT = new URL("./thread-boot.ts", import.meta.url);
const ENTRY = new URL("./spreadsheet-thread.ts", import.meta.url).href;

class Job {
  private inbox: ThreadMessage[] = [];
  private waiting?: (message: ThreadMessage) => void;

  constructor(
    readonly id: number,
    readonly thread: Thread,
    /** A job of the queue (startJob): minutes of CPU, none waiting on it. */
    readonly background = false,
  ) {}

  deliver(message: ThreadMessage): void {
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting(message);
    } else this.inbox.push(message);
  }

  next(): Promise<ThreadMessage> {
    const queued = this.inbox.shift();
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (this.waiting = resolve));
  }

  send(type: "pull" | "cancel"): void {
    this.thread.worker.postMessage({ id: this.id, type } satisfies ToThread);
  }
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
  /** When it was last given work or answered, ms (performance.now()). */
  used: number;
  /** Whether it has been given work since it started (its heap has grown). */
  worked: boolean;
}

function refusal(message: ThreadMessage): Error {
  if (message.type === "error") return fromWire(message.error);
  return new Error(message.type === "failed" ? `spreadsheet thread: ${message.message}` : `spreadsheet thread: unexpected ${message.type}`);
}

/** The thread of `threads` with the least work, a queued job (a reconciliation's or a training's minutes
 *  of CPU) outweighing any number of short ones: what a user waits on is put beside other short work,
 *  not behind a job's long stretches of CPU in the same thread (with A's two reconciliations
 *  in the threads, B's journal PDF of 110 ms alone took 3,9 s). */
export function leastBusy<T extends { jobs: ReadonlyMap<number, { background: boolean }> }>(threads: readonly T[]): T {
  const weight = (thread: T) => {
    let weight = 0;
    for (const job of thread.jobs.values()) weight += job.background ? 1_000 : 1;
    return weight;
  };
  return threads.reduce((a, b) => (weight(b) < weight(a) ? b : a));
}

/** Jobs at once on this machine: one per core, at least two (docs/performance.md). */
export const jobPlaces = () => Math.max(2, availableParallelism());

export function spreadsheetThreads(options: ThreadPoolOptions): SpreadsheetThreads {
  // The job places and two threads more, kept for the files and reads users wait on: with the job places
  // taken, one company's read (a gassings register of 92 days: seconds of CPU) and another's file each
  // have a thread.
  const size = options.size ?? (options.jobsAtOnce ?? jobPlaces()) + 2;
  const data: ThreadData = { endpoint: options.endpoint, tableName: options.tableName, blobsDir: options.blobsDir };
  const threads: Thread[] = [];
  let nextId = 1;
  const now = () => (options.clock ?? systemClock).now().getTime();

  function spawn(): Thread {
    // A thread of its own reaches the engine's thread through a port rather than its HTTP endpoint.
    const port = options.connect?.();
    const signing = options.signer ? signingPort(options.signer) : undefined;
    const worker = new Worker(BOOT, {
      workerData: { ...data, entry: ENTRY, background: true, ...(port ? { port } : {}), ...(signing ? { signing } : {}) },
      transferList: [...(port ? [port] : []), ...(signing ? [signing] : [])],
      execArgv: threadExecArgv(),
      resourceLimits: threadResourceLimits(options.heapMb ?? 1024),
    });
    const thread: Thread = { worker, jobs: new Map(), used: performance.now(), worked: false };
    worker.on("message", (message: ThreadMessage) => {
      thread.used = performance.now();
      const job = thread.jobs.get(message.id);
      if (!job) return;
      if (message.type !== "head" && message.type !== "chunk" && message.type !== "started") thread.jobs.delete(message.id);
      job.deliver(message);
    });
    worker.on("error", (error) => retire(thread, error.message));
    worker.on("exit", (code) => threads.includes(thread) && retire(thread, `exited with code ${code}`));
    worker.unref();
    threads.push(thread);
    return thread;
  }

  /** A thread that died or is being ended: out of the pool at once (the next job starts a new
   *  one), its jobs failed. */
  function retire(thread: Thread, reason: string): void {
    if (threads.includes(thread)) threads.splice(threads.indexOf(thread), 1);
    for (const job of thread.jobs.values()) job.deliver({ id: job.id, type: "failed", message: reason });
    thread.jobs.clear();
  }

  /** The least busy thread, a new one while the pool is not full. */
  function pick(): Thread {
    const idle = threads.find((t) => t.jobs.size === 0);
    if (idle) return idle;
    if (threads.length < size) return spawn();
    return leastBusy(threads);
  }

  function post(message: (id: number) => ToThread, transfer: ArrayBuffer[] = [], background = false): Job {
    const thread = pick();
    const job = new Job(nextId++, thread, background);
    thread.jobs.set(job.id, job);
    thread.used = performance.now();
    thread.worked = true;
    // A thread loads its code for seconds: the next job should find one ready.
    if (threads.length < size && threads.every((t) => t.jobs.size > 0)) spawn();
    thread.worker.postMessage(message(job.id), transfer);
    return job;
  }

  // One thread started with the pool, and another as soon as none is idle (post): loading a
  // thread's code takes seconds, which a preview would otherwise wait for.
  if (options.threadAtStart ?? true) spawn();

  // A thread that has worked and then had no work for a while is ended: each holds a heap of its
  // own, grown by its work, which the process kept after a burst (RSS +13 % once idle).
  // A pool started with a thread keeps a fresh one ready when it ends its last.
  const idleMs = options.idleMs ?? IDLE_THREAD_SECONDS * 1000;
  const sweeping = setInterval(
    () => {
      const spent = threads.filter((t) => t.worked && t.jobs.size === 0 && performance.now() - t.used >= idleMs);
      for (const thread of spent) {
        retire(thread, "ended: idle");
        void thread.worker.terminate();
      }
      if (spent.length > 0 && threads.length === 0 && (options.threadAtStart ?? true)) spawn();
    },
    Math.max(50, Math.min(idleMs / 4, 5_000)),
  );
  sweeping.unref();

  const blobs = { blobs: fsBlobStore(options.blobsDir) };
  const uploadBudgetMs = options.uploadBudgetMs ?? UPLOAD_BUDGET_SECONDS * 1000;

  /** An upload's work in a thread, its answer within the budget from when the thread starts it. A
   *  thread still busy with it then is ended, its other jobs failing as with a thread out of
   *  memory; the next job starts a new one. */
  async function uploadWork(message: (id: number) => ToThread, transfer?: ArrayBuffer[]): Promise<ThreadMessage> {
    const job = post(message, transfer);
    const first = await job.next();
    if (first.type !== "started") return first;
    let timer: NodeJS.Timeout | undefined;
    const spent = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), uploadBudgetMs);
    });
    const answer = await Promise.race([job.next(), spent]);
    clearTimeout(timer);
    if (answer) return answer;
    job.thread.jobs.delete(job.id);
    retire(job.thread, "ended: an upload ran past its time budget");
    void job.thread.worker.terminate();
    throw uploadBudgetSpent(uploadBudgetMs / 1000);
  }

  // Jobs wait in a queue per company and run up to `jobsAtOnce` at a time, companies taking turns
  // (round robin), each running at most its share of the places (`jobsAtOnce` over the companies
  // with jobs, at least one). A training (minutes) takes at most all places but one: the last is
  // kept for the passports and exports (seconds), so another company's small job waits only for
  // the small jobs ahead of it, never behind a row of trainings. A job's place in the budgets was
  // taken by the API (domain/export-jobs.ts), so no company has more than its budget here.
  const jobsAtOnce = options.jobsAtOnce ?? jobPlaces();
  const longAtOnce = Math.max(1, jobsAtOnce - 1);
  interface Waiting {
    long: boolean;
    slots: JobTicket["slots"];
    /** The last carry of its slots, which its start waits for (the thread gets the slots as carried). */
    carried: Promise<void>;
    run: () => void;
  }
  /** Company → its jobs not started yet, in order; the Map's order is the companies' turn. */
  const waiting = new Map<string, Waiting[]>();
  /** Company → its jobs running. */
  const runningOf = new Map<string, number>();
  let running = 0;
  let longRunning = 0;

  // A job keeps its slots while it waits, however long: carried into the budgets' current window
  // every minute (the window is 10 minutes), so the user's and the company's bound hold; once it
  // runs, the job carries them itself (adapters/spreadsheets/jobs.ts, runJob).
  const carrying = setInterval(() => {
    for (const queue of waiting.values()) {
      for (const job of queue) job.carried = job.carried.then(() => options.carrySlots?.(job.slots)).catch(() => {});
    }
  }, HEAVY_CARRY_SECONDS * 1000);
  carrying.unref();

  function startWaiting(): void {
    for (let started = true; started && running < jobsAtOnce; ) {
      started = false;
      const companies = new Set([...waiting.keys(), ...runningOf.keys()]);
      const share = Math.max(1, Math.floor(jobsAtOnce / companies.size));
      for (const [company, queue] of waiting) {
        if ((runningOf.get(company) ?? 0) >= share) continue;
        const next = queue.findIndex((job) => !job.long || longRunning < longAtOnce);
        if (next < 0) continue;
        const [job] = queue.splice(next, 1);
        // Served, the company goes to the back of the turn.
        waiting.delete(company);
        if (queue.length > 0) waiting.set(company, queue);
        runningOf.set(company, (runningOf.get(company) ?? 0) + 1);
        running += 1;
        if (job.long) longRunning += 1;
        job.run();
        started = true;
        break;
      }
    }
  }

  /** A job runs in a thread on its own time; this call answers at once. A thread that dies under
   *  it (out of memory) cannot record the failure nor give its slots back: this process does. */
  async function startJob(request: HostJobRequest, ticket: JobTicket, resumed = 0): Promise<ExportResult> {
    const { id, slots } = ticket;
    const company = request.actor.company;
    // On record until it ends, so that a start after this process was killed finds it.
    await recordInFlight(blobs.blobs, id, { request, slots, resumed });
    const long = request.op === "train";
    const entry: Waiting = { long, slots, carried: Promise.resolve(), run: () => void entry.carried.then(run) };
    const run = () => {
      const job = post((n) => ({ id: n, type: "job", request: { op: "job", job: id, request, slots }, now: now() }), [], true);
      void job.next().then(async (message) => {
        void clearInFlight(blobs.blobs, company, id);
        running -= 1;
        if (long) longRunning -= 1;
        const left = (runningOf.get(company) ?? 1) - 1;
        if (left > 0) runningOf.set(company, left);
        else runningOf.delete(company);
        startWaiting();
        if (message.type === "end") return;
        console.error(JSON.stringify({ export_job: id, error: message.type === "failed" ? message.message : message.type }));
        await recordJobFailure(blobs, company, id).catch(() => {});
        await options.releaseSlots?.(slots).catch(() => {});
      });
    };
    const queue = waiting.get(company);
    if (queue) queue.push(entry);
    else waiting.set(company, [entry]);
    startWaiting();
    return { kind: "job", job: { job: id, state: "queued", progress: 0 } };
  }

  async function start(request: WorkerRequest): Promise<ExportResult> {
    const job = post((id) => ({ id, type: "job", request, now: now() }));
    const thread = job.thread;
    const first = await job.next();
    if (first.type === "redirect") return { kind: "redirect", url: first.url, fileName: first.fileName };
    if (first.type !== "head") throw refusal(first);
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          job.send("pull");
          const message = await job.next();
          if (message.type === "chunk") controller.enqueue(new Uint8Array(message.bytes));
          else if (message.type === "end") controller.close();
          else controller.error(refusal(message));
        },
        cancel() {
          thread.jobs.delete(job.id);
          job.send("cancel");
        },
      },
      { highWaterMark: 1 },
    );
    return { kind: "body", fileName: first.fileName, contentType: first.contentType, body };
  }

  const actorOf = (actor: Pick<Actor, "id" | "company" | "email" | "role">) => ({
    id: actor.id,
    company: actor.company,
    email: actor.email,
    role: actor.role,
  });

  // Whole-year answers and reads over stored minutes: each company has at most HEAVY_READS_AT_ONCE of
  // them in the threads, its others waiting in order (the callers asking for the same whole-year answer
  // already share one, and every caller holds a heavy-work slot: domain/heavy-reads.ts, http/heavy-bodies.ts).
  const readTurns = companyTurns(HEAVY_READS_AT_ONCE);
  const threadRead = <T extends ThreadMessage["type"]>(company: string, type: T, message: (id: number) => ToThread) =>
    readTurns.run(company, async () => {
      const answer = await post(message).next();
      if (answer.type !== type) throw refusal(answer);
      return answer as Extract<ThreadMessage, { type: T }>;
    });
  const wholeYear = async (actor: Pick<Actor, "id" | "company" | "email" | "role">, read: WholeYearRead) =>
    (await threadRead(actor.company, "whole_year", (id) => ({ id, type: "whole_year", actor: actorOf(actor), read, now: now() }))).value;
  /** A read's answer as the thread encoded it (what the server's front hands on to an app thread). */
  const minutesReadBytes = async (actor: Pick<Actor, "id" | "company" | "email" | "role">, read: MinutesRead | ClimateRead) =>
    (await threadRead(actor.company, "minutes_read", (id) => ({ id, type: "minutes_read", actor: actorOf(actor), read, now: now() })))
      .bytes;
  const minutesRead = async (actor: Pick<Actor, "id" | "company" | "email" | "role">, read: MinutesRead | ClimateRead) =>
    new TextDecoder().decode(await minutesReadBytes(actor, read));

  return {
    jobsOf: ["inventory_report", "train", "climate_pack", "climate_period", "telemetry_reconciliation"],
    // A model trained on a company's history (domain/forecast/training.ts): a job, as in AWS.
    trainModel: async (request, ticket) => startJob(request, ticket),
    // A long climate period computed and stored (domain/climate/periods.ts): a job, as in AWS.
    climatePeriod: async (request, ticket) => startJob(request, ticket),
    // A dispatch export reconciled with the stored readings: a job, as in AWS.
    reconcile: async (request, ticket) => {
      if (!ticket) throw new Error("spreadsheet threads: a reconciliation is a job");
      return startJob(request, ticket);
    },
    exportProject: (actor, projectId, format, request) =>
      start({
        op: "export",
        actor: { id: actor.id, company: actor.company, email: actor.email, role: actor.role },
        projectId,
        format,
        ...request,
      }),
    async template(type, year) {
      const result = await start({ op: "template", type, ...(year === undefined ? {} : { year }) });
      if (result.kind !== "body") throw new Error("spreadsheet thread: a template is a body");
      return bytesOf(result.body);
    },
    async abatementFile(assessment, format, issued) {
      const result = await start({ op: "abatement", assessment, format, issued });
      if (result.kind !== "body") throw new Error("spreadsheet thread: an assessment is a body");
      return bytesOf(result.body);
    },
    async climateReportFile(report, format, issued) {
      const result = await start({ op: "climate_report", report, format, issued });
      if (result.kind !== "body") throw new Error("spreadsheet thread: a climate report is a body");
      return bytesOf(result.body);
    },
    async monitoringFile(file) {
      const result = await start({ op: "monitoring_file", file });
      if (result.kind !== "body") throw new Error("spreadsheet thread: a monitoring file is a body");
      return bytesOf(result.body);
    },
    async comparisonWorkbook(comparison) {
      const result = await start({ op: "comparison", comparison });
      if (result.kind !== "body") throw new Error("spreadsheet thread: a comparison is a body");
      return bytesOf(result.body);
    },
    async trendWorkbook(trend, view) {
      const result = await start({ op: "trend", trend, view });
      if (result.kind !== "body") throw new Error("spreadsheet thread: a trend is a body");
      return bytesOf(result.body);
    },
    shiftReport: (actor, query) => start({ op: "shift_report", actor: actorOf(actor), query }),
    gassingBook: (actor, query) => start({ op: "gassing_book", actor: actorOf(actor), query }),
    climatePackManifest: (actor, request) => start({ op: "climate_pack_manifest", actor: actorOf(actor), ...request }),
    async climatePack(actor, { job, ...request }) {
      const work = { op: "climate_pack" as const, actor: actorOf(actor), ...request };
      return job ? startJob(work, job) : start(work);
    },
    async inventoryReport(actor, { year, facility, format, version, job }) {
      const request = { op: "inventory_report" as const, actor: actorOf(actor), year, facility, format, version };
      return job ? startJob(request, job) : start(request);
    },
    jobStatus: (actor, job) => jobStatus(blobs, { actor: actorOf(actor), job }),
    resumeInterrupted: () =>
      takeUpInterrupted(
        blobs.blobs,
        async (job, record) => void (await startJob(record.request, { id: job, slots: record.slots }, record.resumed + 1)),
        async (record) => {
          await options.releaseSlots?.(record.slots);
          await options.releaseHolds?.(record.request);
        },
      ),
    jobFile: (actor, job) => jobFile(blobs, actor.company, job),
    wholeYear,
    minutesRead,
    climateRead: minutesRead,
    minutesReadBytes,
    climateReadBytes: minutesReadBytes,
    gostCms: {
      async verify(input) {
        const answer = await post((id) => ({ id, type: "gost_verify", input: { ...input, at: input.at.getTime() } })).next();
        if (answer.type !== "gost_verify") throw refusal(answer);
        return answer.check;
      },
    },
    // The upload's bytes are copied to the thread (the caller keeps them to store the file); the
    // rows' JSON comes back transferred.
    async forecastFromFile(file, run) {
      const answer = await uploadWork((id) => ({ id, type: "forecast", file: { name: file.name, bytes: file.bytes }, run }));
      if (answer.type !== "forecast") throw refusal(answer);
      return { summary: answer.summary, json: answer.json };
    },
    // The columns are handed over, not copied: their one use is the save's.
    async forecastFromColumns(columns, run) {
      const answer = await uploadWork((id) => ({ id, type: "forecast_columns", columns, run }), columnBuffers(columns));
      if (answer.type !== "forecast") throw refusal(answer);
      return { summary: answer.summary, json: answer.json };
    },
    async previewUpload(upload, file, values, bounds, kept) {
      const answer = await uploadWork((id) => ({
        id,
        type: "preview",
        upload,
        file: { name: file.name, bytes: file.bytes },
        values,
        bounds,
        keepColumns: kept !== undefined,
      }));
      if (answer.type !== "preview") throw refusal(answer);
      if (answer.columns) kept?.(answer.columns);
      return answer.preview;
    },
    async close() {
      clearInterval(carrying);
      clearInterval(sweeping);
      waiting.clear();
      running = Number.POSITIVE_INFINITY;
      await Promise.all(threads.splice(0).map((t) => t.worker.terminate()));
    },
  };
}

/** A whole body's bytes, from a thread's chunks or at once. */
async function bytesOf(body: Uint8Array | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return Buffer.concat(chunks);
}
