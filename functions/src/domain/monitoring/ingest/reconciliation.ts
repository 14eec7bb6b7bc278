// «Сверка с выгрузкой АГК»: the stored readings of a facility compared with the mine's
// own dispatch export, the independent source a verifier asks for. The export comes the way
// POST v1/telemetry/files/ takes one (upload-url, the PUT, then POST v1/telemetry/reconciliations/ naming
// it) and is read by the same reader (files.ts readFileBatch: cp1251 or UTF-8, «;», a column per sensor or
// a row per reading, each line against the register as it was at the reading's time), but nothing of it
// is stored. Per sensor, between its first and last instant in the file, each reading is:
//   - missing: in the file (of two lines of one instant, the later one's value, as the consumer keeps it)
//     and not stored;
//   - extra: stored and not in the file;
//   - different: stored at the same instant with another value;
// counted per sensor and day on the company's clock, with the first readings of each that differ.
//
// The comparison runs off the request thread as a job (the host's job runner: a spreadsheet thread
// locally, the job function in AWS; runJob in adapters/spreadsheets/jobs.ts), holding a heavy-work slot
// of the user and the company while it waits and runs, so a company's reconciliations queue behind each
// other and never in front of another company's work. Its record and its results are blobs:
//   telemetry/reconciliations/{company}/{id}.json   the record (state, counts, days: the answer)
//   telemetry/reconciliations/{company}/{id}.xlsx   the differences, a row per reading (the job writes it)
//   telemetry/batches/{company}/{fill}.json         the missing readings as a push's blob, `fill` the id
//                                                   «Догрузить недостающие» stores its batch under
import { createHash } from "node:crypto";
import { zoneOf, zoneOffsetMs } from "@core/company-clock";
import type { z } from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, DomainError, Invalid, NotFound } from "../../errors";
import { idOf, newId } from "../../ids";
import { exportJob } from "../../export-jobs";
import { heavyWork } from "../../heavy-work";
import { LIMITS, SENSOR_CODE_MAX } from "../../../contract/schemas/limits";
import { shownText } from "../../../contract/certificate-text";
import type { reconciliationSchema } from "../../../contract/schemas/monitoring";
import type { ReconciliationJobRequest } from "../../../export/formats";
import type { BatchReading, ReadingsBatch } from "../../../ports";
import { readFileBatch, releaseUploadBudget, uploadedExport, type UnreadSpan } from "./files";
import { batchBlobKey, queuedBatch } from "./readings";
import { joinedReadings } from "./reading-columns";
import { readingsBetween } from "./stored-readings";
import { DAY_MS, HOUR_MS } from "@core/dates";

export type ReconciliationView = z.output<typeof reconciliationSchema>;
type Row = ReconciliationView["days"][number];
type Counts = ReconciliationView["totals"];

/** The record as stored: the answer (but its verdict, read off the counts, and its page of rows), and what the
 *  job and «Догрузить» read. Done, its rows are kept apart in pages of DAYS_PAGE (`day_pages` of them), so a
 *  read parses its head and one or two pages, never a 74 MB export's 9,8 MB of rows; a
 *  record written before keeps its rows in `days`. */
export type Reconciliation = Omit<ReconciliationView, "verdict" | "days_count"> & {
  company: string;
  file_upload: string;
  /** The job comparing it, where the host runs jobs: its failure (a thread that died) is the reconciliation's. */
  job?: string;
  days_count?: number;
  day_pages?: number;
};

/** Rows of sensor and day a page of a done record holds: a read's `limit` at most, so a page asked is in two. */
const DAYS_PAGE = LIMITS.page.max;

export type { ReconciliationJobRequest };

const AREA = "telemetry/reconciliations";
const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const reconciliationKey = (company: string, id: string) => `${AREA}/${company}/${id}.json`;
export const reconciliationXlsxKey = (company: string, id: string) => `${AREA}/${company}/${id}.xlsx`;

/** The batch «Догрузить недостающие» stores: named by the reconciliation, so asked twice it is one batch. */
export function fillBatchId(reconciliation: string): string {
  return idOf("reconciliation-fill", reconciliation);
}

/** The characters a refusal of the file's shows at most (it quotes the file's text). */
const REFUSAL_SHOWN = LIMITS.monitoring.refusalShown;

export const RECONCILIATION_FAILED = "Не удалось сверить выгрузку. Повторите сверку позже";
const NOT_FOUND = "Сверка не найдена";
const zero = (): Counts => ({ in_file: 0, stored: 0, missing: 0, extra: 0, different: 0 });

const statusUrl = (id: string) => `/api/v1/telemetry/reconciliations/${id}/`;

async function read(deps: Pick<Deps, "blobs">, company: string, id: string): Promise<Reconciliation | undefined> {
  if (!ID_RE.test(id)) return undefined;
  const blob = await deps.blobs.get(reconciliationKey(company, id));
  return blob && (JSON.parse(new TextDecoder().decode(blob.body)) as Reconciliation);
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const daysPageKey = (company: string, id: string, page: number) => `${AREA}/${company}/${id}.days-${page}.json`;

/** The record written: a done one's rows in their pages first, then its head (which names how many). */
async function write(deps: Pick<Deps, "blobs">, record: Reconciliation): Promise<void> {
  let head = record;
  if (record.days.length > 0) {
    const pages = Math.ceil(record.days.length / DAYS_PAGE);
    for (let page = 0; page < pages; page++) {
      const rows = record.days.slice(page * DAYS_PAGE, (page + 1) * DAYS_PAGE);
      await deps.blobs.put(daysPageKey(record.company, record.id, page), json(rows), "application/json");
    }
    head = { ...record, days: [], days_count: record.days.length, day_pages: pages };
  }
  await deps.blobs.put(reconciliationKey(record.company, record.id), json(head), "application/json");
}

/** The rows of a page asked (`offset`, `limit` ≤ DAYS_PAGE): from the one or two stored pages they are in. */
async function daysOf(deps: Pick<Deps, "blobs">, record: Reconciliation, offset: number, limit: number): Promise<Reconciliation["days"]> {
  if (!record.day_pages) return record.days.slice(offset, offset + limit);
  const rows: Reconciliation["days"] = [];
  const last = Math.min(record.day_pages - 1, Math.floor((offset + limit - 1) / DAYS_PAGE));
  for (let page = Math.floor(offset / DAYS_PAGE); page <= last; page++) {
    const blob = await deps.blobs.get(daysPageKey(record.company, record.id, page));
    if (!blob) throw new NotFound("Строки сверки не найдены: сверьте выгрузку заново");
    const pageRows = JSON.parse(new TextDecoder().decode(blob.body)) as Reconciliation["days"];
    const from = Math.max(0, offset - page * DAYS_PAGE);
    rows.push(...pageRows.slice(from, from + limit - rows.length));
  }
  return rows;
}

/** How a reconciliation's job ended, read from its record (done or failed with its detail), or undefined
 *  while it has not: a start after a kill asks it before running the job again (two
 *  done reconciliations of 74 MB ran again, ~7 min of a thread each, and a second kill failed them). */
export async function reconciliationEnd(
  blobs: Deps["blobs"],
  company: string,
  id: string,
): Promise<{ state: "done" | "failed"; detail?: string } | undefined> {
  const record = await read({ blobs }, company, id);
  if (record?.state === "done") return { state: "done" };
  if (record?.state === "failed") return { state: "failed", detail: record.detail };
  return undefined;
}

/** POST v1/telemetry/reconciliations/: the export checked as POST v1/telemetry/files/ checks it (another
 *  company's facility 404, an empty file or an unreadable header 400), recorded as queued and handed to
 *  the host's jobs; where the host runs none (the tests' in-process host), compared within the request,
 *  in a heavy-work slot. */
export async function startReconciliation(
  deps: Deps,
  actor: Actor,
  body: { facility: string; file_upload: string; name?: string },
): Promise<{ id: string; status_url: string }> {
  const { facility } = await uploadedExport(deps, actor, body);
  const id = newId();
  const record: Reconciliation = {
    id,
    company: actor.company,
    facility: facility.id,
    file_upload: body.file_upload,
    file_name: (body.name ?? "").trim().slice(0, LIMITS.name.file),
    state: "queued",
    created_at: deps.clock.now().toISOString(),
    from: null,
    to: null,
    totals: zero(),
    days: [],
    refused_count: 0,
    refused: [],
    unknown_sensors: [],
  };
  await write(deps, record);
  const request: ReconciliationJobRequest = {
    op: "telemetry_reconciliation",
    actor: { id: actor.id, company: actor.company, email: actor.email, role: actor.role },
    reconciliation: id,
  };
  const sheets = deps.spreadsheets;
  if (sheets.reconcile && sheets.jobsOf?.includes("telemetry_reconciliation")) {
    const reconcile = sheets.reconcile;
    // Each reconciliation its own job (its id in the request): never another's reused.
    await exportJob(deps, actor, { op: "telemetry_reconciliation", reconciliation: id }, async (ticket) => {
      await write(deps, { ...record, job: ticket.id });
      return reconcile(request, ticket);
    });
  } else {
    await heavyWork(deps, actor, async () => {
      await (sheets.reconcile ? sheets.reconcile(request) : runReconciliation(deps, request));
    });
  }
  return { id, status_url: statusUrl(id) };
}

/** what a done reconciliation says of the file. A file none of whose readings was read
 *  is `unread`, and one with lines or values refused `partly_read`, whatever the rest compared: a
 *  reconciliation of part of a file is never a match. */
export function reconciliationVerdict(record: Omit<Reconciliation, "company" | "file_upload">): ReconciliationView["verdict"] {
  if (record.state !== "done") return null;
  const { in_file, missing, extra, different } = record.totals;
  if (in_file === 0) return "unread";
  if (record.refused_count > 0) return "partly_read";
  return missing + extra + different > 0 ? "differences" : "match";
}

/** GET v1/telemetry/reconciliations/{id}/: the record of the actor's company (another company's 404), its rows
 *  of sensor and day a page at a time. */
export async function getReconciliation(
  deps: Pick<Deps, "blobs" | "spreadsheets">,
  actor: Actor,
  id: string,
  page: { offset?: number; limit?: number } = {},
): Promise<ReconciliationView> {
  const record = await read(deps, actor.company, id);
  if (!record) throw new NotFound(NOT_FOUND);
  const { company: _company, file_upload: _file, job, day_pages: _pages, days_count, ...head } = record;
  const days = await daysOf(deps, record, page.offset ?? 0, page.limit ?? DAYS_PAGE);
  const view = { ...head, days, days_count: days_count ?? record.days.length };
  // A job whose thread or function died never wrote its end: its own state says it failed.
  if ((view.state === "queued" || view.state === "running") && job && deps.spreadsheets.jobStatus) {
    const state = await deps.spreadsheets.jobStatus(actor, job).catch(() => undefined);
    if (state?.state === "failed") return { ...view, state: "failed", verdict: null, detail: state.detail ?? RECONCILIATION_FAILED };
  }
  return { ...view, verdict: reconciliationVerdict(record) };
}

/** The xlsx of a done reconciliation's differences, as its job wrote it. */
export async function reconciliationXlsx(
  deps: Pick<Deps, "blobs">,
  actor: Actor,
  id: string,
): Promise<{ fileName: string; body: Uint8Array }> {
  const record = await read(deps, actor.company, id);
  const file = record?.state === "done" ? await deps.blobs.get(reconciliationXlsxKey(actor.company, id)) : undefined;
  if (!record || !file) throw new NotFound("Файл сверки не найден");
  const name = record.file_name.replace(/\.[^.]*$/, "") || "выгрузка АГК";
  return { fileName: `Сверка ${name}.xlsx`, body: file.body };
}

/** POST v1/telemetry/reconciliations/{id}/fill/ («Догрузить недостающие»): the missing readings, as the job
 *  kept them from the file, stored as one pushed batch (queued for the consumer, its counts in its status).
 *  Asked again, the same batch. */
export async function fillReconciliation(deps: Pick<Deps, "blobs" | "repos" | "clock">, actor: Actor, id: string): Promise<ReadingsBatch> {
  const record = await read(deps, actor.company, id);
  if (!record) throw new NotFound(NOT_FOUND);
  if (record.state !== "done") throw new Invalid("Сверка еще не закончена: догрузить можно после нее");
  const batchId = fillBatchId(id);
  const existing = await deps.repos.monitoring.getBatch(actor.company, batchId);
  if (existing) return existing;
  const { missing } = record.totals;
  if (missing === 0) throw new Invalid("Недостающих показаний нет: догружать нечего");
  if (missing > LIMITS.monitoring.reconciliationFillReadings) {
    throw new Invalid(
      `Недостающих показаний ${missing.toLocaleString("ru-RU")}, больше ${LIMITS.monitoring.reconciliationFillReadings.toLocaleString("ru-RU")}: загрузите саму выгрузку («Загрузить выгрузку АГК»)`,
    );
  }
  const blob = await deps.blobs.get(batchBlobKey(actor.company, batchId));
  if (!blob) throw new NotFound("Недостающие показания сверки не найдены: сверьте выгрузку заново");
  // Only what is still missing (the gateway delivered the 60 missing minutes with its
  // own values after the reconciliation, and the fill replaced them with the file's, «corrected: 60»).
  const fill = await stillMissing(deps, actor.company, record.facility, JSON.parse(new TextDecoder().decode(blob.body)) as BatchReading[]);
  if (fill.length === 0) {
    throw new Invalid(
      "Недостающие показания уже получены после сверки: догружать нечего. Сверьте выгрузку заново, чтобы увидеть расхождения",
    );
  }
  const bytes = new TextEncoder().encode(JSON.stringify(fill));
  await deps.blobs.put(batchBlobKey(actor.company, batchId), bytes, "application/json");
  const batch = queuedBatch(
    { batch: batchId, company: actor.company, facility: record.facility, received_at: deps.clock.now().toISOString() },
    {
      lines: fill.length,
      readings_sha256: createHash("sha256").update(bytes).digest("hex"),
      file_name: `Догрузка по сверке ${record.file_name}`.trim().slice(0, LIMITS.name.file),
    },
  );
  try {
    await deps.repos.monitoring.createBatch(batch);
  } catch (error) {
    if (error instanceof Conflict) return (await deps.repos.monitoring.getBatch(actor.company, batchId)) ?? batch;
    throw error;
  }
  await write(deps, { ...record, fill: { batch: batchId, status_url: `/api/v1/telemetry/batches/${batchId}/` } });
  return batch;
}

/** The fill's readings whose instant has no stored reading now: a reading stored since the
 *  reconciliation (the gateway's own) is kept as it is, never replaced by the file's. */
async function stillMissing(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  facility: string,
  fill: BatchReading[],
): Promise<BatchReading[]> {
  const bySensor = new Map<string, BatchReading[]>();
  for (const reading of fill) {
    const list = bySensor.get(reading[0]);
    if (list) list.push(reading);
    else bySensor.set(reading[0], [reading]);
  }
  const kept: BatchReading[] = [];
  for (const [sensor, readings] of bySensor) {
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const [, t] of readings) {
      first = Math.min(first, t);
      last = Math.max(last, t);
    }
    const stored = await storedReadings(deps, company, { id: sensor, facility }, first, last);
    const present = new Set(stored.times);
    for (const reading of readings) if (!present.has(reading[1])) kept.push(reading);
  }
  return kept;
}

/** The job: the file read, compared with the stored days, what the job keeps beside the record kept
 *  (`keep`: its xlsx of differences), and only then the record written done — a page that reads «done»
 *  finds the file (the loop budget asked for it at once and got 404 «Файл сверки не найден»); or failed,
 *  with why. A refusal of the domain is the record's failure; any other error is too, and is thrown on
 *  so the job's runner logs it. */
export async function runReconciliation(
  deps: Pick<Deps, "repos" | "blobs" | "clock">,
  request: ReconciliationJobRequest,
  differs?: DifferenceSink,
  keep?: (done: Reconciliation) => Promise<void>,
): Promise<Reconciliation> {
  const company = request.actor.company;
  const record = await read(deps, company, request.reconciliation);
  if (!record) throw new NotFound(NOT_FOUND);
  await write(deps, { ...record, state: "running" });
  let done: Reconciliation;
  try {
    done = { ...record, state: "done", ...(await compare(deps, record, differs)) };
    await keep?.(done);
  } catch (error) {
    await write(deps, {
      ...record,
      state: "failed",
      detail: error instanceof DomainError ? shownText(error.detail, REFUSAL_SHOWN) : RECONCILIATION_FAILED,
    });
    if (error instanceof DomainError) return { ...record, state: "failed" };
    throw error;
  } finally {
    // The upload counted against the company's budget of exports waiting to be applied: this one is read.
    await releaseUploadBudget(deps, company, record.file_upload).catch(() => {});
  }
  await write(deps, done);
  return done;
}

/** Told each reading that differs, in the answer's order (sensor code, then time): the xlsx's rows. */
export type DifferenceSink = (sensorCode: string, t: number, file: number | null, stored: number | null) => void;

/** A sensor's readings of the file: its parts' columns, gathered. */
interface Gathered {
  times: Float64Array[];
  values: Float64Array[];
}

/** UTC days one readingsBetween reads at a time (a window of minute and day items). */
const READ_WINDOW_DAYS = 31;

async function compare(deps: Pick<Deps, "repos" | "blobs" | "clock">, record: Reconciliation, sink?: DifferenceSink) {
  const [sensors, owner] = await Promise.all([
    deps.repos.sensors.listOfFacility(record.company, record.facility),
    deps.repos.companies.get(record.company),
  ]);
  const zone = zoneOf(owner);
  const codeOf = new Map(sensors.map((s) => [s.id, s.code]));
  const gathered = new Map<string, Gathered>();
  const unknown = new Set<string>();
  // where the file has lines or values not read, per sensor and for every sensor.
  const unreadOf = new Map<string, UnreadSpan[]>();
  const unreadAll: UnreadSpan[] = [];
  const status = await readFileBatch(
    deps,
    { company: record.company, facility: record.facility, received_at: deps.clock.now().toISOString(), file: record.file_upload },
    async (_part, readings) => {
      for (const r of readings) {
        let column = gathered.get(r.sensor);
        if (!column) gathered.set(r.sensor, (column = { times: [], values: [] }));
        column.times.push(r.times);
        column.values.push(r.values);
      }
    },
    (code) => unknown.add(code),
    (span) => {
      if (!span.sensors) unreadAll.push(span);
      else
        for (const id of span.sensors) {
          const list = unreadOf.get(id);
          if (list) list.push(span);
          else unreadOf.set(id, [span]);
        }
    },
  );
  // The company's date of an instant: its zone's offset read once per UTC hour.
  const offsets = new Map<number, number>();
  const dates = new Map<number, string>();
  const dateOf = (t: number) => {
    const hour = Math.floor(t / HOUR_MS);
    let offset = offsets.get(hour);
    if (offset === undefined) offsets.set(hour, (offset = zoneOffsetMs(hour * HOUR_MS, zone)));
    const day = Math.floor((t + offset) / DAY_MS);
    let date = dates.get(day);
    if (date === undefined) dates.set(day, (date = new Date(day * DAY_MS).toISOString().slice(0, 10)));
    return date;
  };
  const totals = zero();
  const rows: Row[] = [];
  const fill: [string, number, number][] = [];
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  const examples = LIMITS.monitoring.reconciliationExamples;
  const ordered = [...gathered].sort(([a], [b]) => (codeOf.get(a) ?? a).localeCompare(codeOf.get(b) ?? b, "ru") || a.localeCompare(b));
  for (const [sensor, column] of ordered) {
    const file = fileReadings(column);
    // The file's parts of this sensor let go once gathered: a year's file is held once, not twice.
    gathered.delete(sensor);
    column.times.length = 0;
    column.values.length = 0;
    if (file.times.length === 0) continue;
    const first = file.times[0];
    const last = file.times[file.times.length - 1];
    from = Math.min(from, first);
    to = Math.max(to, last);
    const stored = await storedReadings(deps, record.company, { id: sensor, facility: record.facility }, first, last);
    const notRead = unreadSpans([...unreadAll, ...(unreadOf.get(sensor) ?? [])]);
    const byDay = new Map<string, Row>();
    const rowOf = (t: number) => {
      const day = dateOf(t);
      let row = byDay.get(day);
      if (!row) {
        row = { sensor, sensor_code: codeOf.get(sensor) ?? sensor, day, ...zero(), examples: [] };
        byDay.set(day, row);
      }
      return row;
    };
    const differs = (row: Row, t: number, inFile: number | null, inStore: number | null) => {
      sink?.(row.sensor_code, t, inFile, inStore);
      if (row.examples.length < examples) row.examples.push({ t: new Date(t).toISOString(), file: inFile, stored: inStore });
    };
    let i = 0;
    let j = 0;
    const n = file.times.length;
    const m = stored.times.length;
    while (i < n || j < m) {
      const tf = i < n ? file.times[i] : Number.POSITIVE_INFINITY;
      const ts = j < m ? stored.times[j] : Number.POSITIVE_INFINITY;
      if (tf === ts) {
        const row = rowOf(tf);
        row.in_file++;
        row.stored++;
        if (file.values[i] !== stored.values[j]) {
          row.different++;
          differs(row, tf, file.values[i], stored.values[j]);
        }
        i++;
        j++;
      } else if (tf < ts) {
        const row = rowOf(tf);
        row.in_file++;
        row.missing++;
        differs(row, tf, file.values[i], null);
        if (fill.length <= LIMITS.monitoring.reconciliationFillReadings) fill.push([sensor, tf, file.values[i]]);
        i++;
      } else {
        const row = rowOf(ts);
        row.stored++;
        // A line or value of the file at this instant was not read: not compared, never «нет в выгрузке».
        if (notRead(ts)) row.unread = (row.unread ?? 0) + 1;
        else {
          row.extra++;
          differs(row, ts, null, stored.values[j]);
        }
        j++;
      }
    }
    for (const row of [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day))) {
      for (const key of ["in_file", "stored", "missing", "extra", "different"] as const) totals[key] += row[key];
      if (row.unread) totals.unread = (totals.unread ?? 0) + row.unread;
      rows.push(row);
    }
  }
  // The missing readings kept as a push keeps its readings, for «Догрузить недостающие».
  if (totals.missing > 0 && totals.missing <= LIMITS.monitoring.reconciliationFillReadings) {
    await deps.blobs.put(
      batchBlobKey(record.company, fillBatchId(record.id)),
      new TextEncoder().encode(JSON.stringify(fill)),
      "application/json",
    );
  }
  // The file's text shown as text is (its bidi and NUL characters were echoed raw).
  const codes = [...unknown].map((code) => shownText(code, SENSOR_CODE_MAX));
  return {
    from: Number.isFinite(from) ? new Date(from).toISOString() : null,
    to: Number.isFinite(to) ? new Date(to).toISOString() : null,
    totals,
    days: rows,
    refused_count: status.refused_count,
    refused: status.refused.map((r) => ({ ...r, reason: shownText(r.reason, REFUSAL_SHOWN) })),
    unknown_sensors: codes,
    ...(codes.length > 0
      ? {
          detail: `Датчики не найдены в реестре датчиков площадки, их показания не сверены: ${codes
            .slice(0, 10)
            .map((c) => `«${c.slice(0, 40)}»`)
            .join(", ")}${codes.length > 10 ? ` и еще ${codes.length - 10}` : ""}`,
        }
      : {}),
  };
}

/** Whether an instant is within one of `spans`: sorted once, each asked in time order (a cursor moves on). */
function unreadSpans(spans: readonly UnreadSpan[]): (t: number) => boolean {
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  // The latest end among the spans starting at or before the cursor's instant.
  let k = 0;
  let reach = Number.NEGATIVE_INFINITY;
  return (t) => {
    while (k < sorted.length && sorted[k].from <= t) reach = Math.max(reach, sorted[k++].to);
    return t <= reach;
  };
}

/** A sensor's readings of the file in time order, one per instant: of two lines of one instant, the
 *  later line's value (the consumer applies a batch's readings in order, the later a correction). */
function fileReadings(column: Gathered): { times: Float64Array; values: Float64Array } {
  const { times, values } = joinedReadings(column.times.map((part, p) => ({ times: part, values: column.values[p] })));
  const length = times.length;
  const order = new Uint32Array(length);
  for (let k = 0; k < length; k++) order[k] = k;
  order.sort((a, b) => times[a] - times[b] || a - b);
  const outTimes = new Float64Array(length);
  const outValues = new Float64Array(length);
  let out = 0;
  for (let k = 0; k < length; k++) {
    const index = order[k];
    if (out > 0 && outTimes[out - 1] === times[index]) outValues[out - 1] = values[index];
    else {
      outTimes[out] = times[index];
      outValues[out] = values[index];
      out++;
    }
  }
  return { times: outTimes.subarray(0, out), values: outValues.subarray(0, out) };
}

/** The sensor's stored readings from `first` to `last` (ms, both included), in time order: READ_WINDOW_DAYS
 *  days a read. */
async function storedReadings(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  sensor: { id: string; facility: string },
  first: number,
  last: number,
) {
  const parts: { times: Float64Array; values: Float64Array }[] = [];
  for (let from = first; from <= last; from = Math.floor(from / DAY_MS) * DAY_MS + READ_WINDOW_DAYS * DAY_MS)
    parts.push(
      await readingsBetween(
        deps,
        company,
        sensor,
        from,
        Math.min(last + 1, Math.floor(from / DAY_MS) * DAY_MS + READ_WINDOW_DAYS * DAY_MS),
      ),
    );
  return joinedReadings(parts);
}
