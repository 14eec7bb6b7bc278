// the local host's job queue lives in its process, so a job it had queued or was
// running when the process was killed (SIGKILL, the machine's power) once read «running 10 %» for
// 16,5 minutes, and a period job's hold on its project refused every new period for 35. Each job the
// queue takes is on record until it ends (`exports/{company}/jobs/{job}.inflight.json`: its request and
// how often it was resumed), and the next start finds what is left: a job is run again once (a period
// computed again, a pack made again, with the heavy-work slots it held, its hold and slots given back
// when it ends), and a job interrupted a second time is failed with a Russian message saying so, its
// hold and slots given back at once. In AWS the job
// function's asynchronous invoke is retried by Lambda and a job past its run limit reads failed.
import type { WorkerRequest } from "../adapters/spreadsheets/protocol";
import type { BlobStore } from "../ports";
import type { ExportJobState, JobTicket } from "../export/formats";
import { reconciliationEnd } from "../domain/monitoring/ingest/reconciliation";

export type HostJobRequest = Extract<WorkerRequest, { op: "job" }>["request"];

/** What the record of a job in the queue holds. */
export interface InFlight {
  request: HostJobRequest;
  /** The heavy-work slots it was given (domain/export-jobs.ts): a job run again holds them and gives
   *  them back when it ends, one failed gives them back at once. A job whose slots were carried into a
   *  later window before the kill leaves the budgets off by one for that window at most. */
  slots: JobTicket["slots"];
  /** How many times a start has run it again. */
  resumed: number;
}

/** A job a start found unfinished, and what became of it. */
export interface InterruptedJob {
  company: string;
  job: string;
  op: HostJobRequest["op"];
  /** ended: its result says it ended before the kill (a reconciliation's record), so it is not run again. */
  outcome: "resumed" | "failed" | "ended";
}

const KEY = /^exports\/([^/]+)\/jobs\/([^/]+)\.inflight\.json$/;
export const inFlightKey = (company: string, job: string) => `exports/${company}/jobs/${job}.inflight.json`;
const stateKey = (company: string, job: string) => `exports/${company}/jobs/${job}.json`;
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

export async function recordInFlight(blobs: BlobStore, job: string, record: InFlight): Promise<void> {
  await blobs.put(inFlightKey(record.request.actor.company, job), json(record), "application/json");
}

export async function clearInFlight(blobs: BlobStore, company: string, job: string): Promise<void> {
  await blobs.delete(inFlightKey(company, job)).catch(() => undefined);
}

/** What each kind of job says once it is failed for a second interruption. */
const WHAT: Record<HostJobRequest["op"], string> = {
  climate_period:
    "Расчет отчетного периода прерван: сервер дважды останавливался во время расчета. Проект снова принимает периоды: повторите расчет",
  climate_pack: "Подготовка пакета верификатора прервана: сервер дважды останавливался во время нее. Запросите пакет снова",
  inventory_report: "Подготовка отчета прервана: сервер дважды останавливался во время нее. Запросите отчет снова",
  export: "Подготовка выгрузки прервана: сервер дважды останавливался во время нее. Повторите выгрузку",
  train: "Обучение модели прервано: сервер дважды останавливался во время него. Повторите обучение",
  telemetry_reconciliation: "Сверка показаний прервана: сервер дважды останавливался во время нее. Повторите сверку",
};

/** The state a job resumed reads until its thread takes it again. */
export const RESUMED_DETAIL = "Сервер был остановлен во время задания: после перезапуска задание выполняется заново";

/** How a job ended, from its own result where it writes one apart from its state: a reconciliation's
 *  record is written done before the job's state is, so a kill between them left it to run again. */
async function endedByItsResult(blobs: BlobStore, request: HostJobRequest): Promise<Pick<ExportJobState, "state" | "detail"> | undefined> {
  if (request.op !== "telemetry_reconciliation") return undefined;
  return reconciliationEnd(blobs, request.actor.company, request.reconciliation);
}

/** Every job on record as unfinished: those whose state says they ended lose their record; the others
 *  are resumed (`resume`, once) or failed, their holds given back (`releaseHolds`). */
export async function takeUpInterrupted(
  blobs: BlobStore,
  resume: (job: string, record: InFlight) => Promise<void>,
  releaseHolds: (record: InFlight) => Promise<void>,
): Promise<InterruptedJob[]> {
  if (!blobs.keysWrittenBefore) return [];
  const found: InterruptedJob[] = [];
  const keys: string[] = [];
  for await (const page of blobs.keysWrittenBefore("exports", new Date(Date.now() + 60_000))) keys.push(...page.filter((k) => KEY.test(k)));
  for (const key of keys) {
    const [, company, job] = KEY.exec(key)!;
    const stored = await blobs.get(key);
    if (!stored) continue;
    const record = JSON.parse(new TextDecoder().decode(stored.body)) as InFlight;
    const stateBlob = await blobs.get(stateKey(company, job));
    const state = stateBlob && (JSON.parse(new TextDecoder().decode(stateBlob.body)) as ExportJobState);
    if (state && (state.state === "done" || state.state === "failed")) {
      await clearInFlight(blobs, company, job);
      continue;
    }
    const op = record.request.op;
    const ended = await endedByItsResult(blobs, record.request);
    if (ended) {
      await blobs.put(stateKey(company, job), json({ job, progress: 100, ...ended } satisfies ExportJobState), "application/json");
      await releaseHolds(record);
      await clearInFlight(blobs, company, job);
      found.push({ company, job, op, outcome: "ended" });
      continue;
    }
    if (record.resumed >= 1) {
      const failed: ExportJobState = { job, state: "failed", progress: 100, detail: WHAT[op] };
      await blobs.put(stateKey(company, job), json(failed), "application/json");
      await releaseHolds(record);
      await clearInFlight(blobs, company, job);
      found.push({ company, job, op, outcome: "failed" });
      continue;
    }
    const queued: ExportJobState = { job, state: "queued", progress: 0, detail: RESUMED_DETAIL };
    await blobs.put(stateKey(company, job), json(queued), "application/json");
    await resume(job, record);
    found.push({ company, job, op, outcome: "resumed" });
  }
  return found;
}
