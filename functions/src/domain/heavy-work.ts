// Bounded heavy work (docs/security.md, «Heavy work bounded»): what one export, report or upload may cost,
// checked before the work starts, and how many such operations one user and one company may have
// in flight. One request must not take the server (or, in AWS, the worker function) down, and one
// user's burst must not keep another company waiting.
import type { Actor, Deps } from "./context";
import { keptState } from "../ports/runtime";
import type { AttemptReservation } from "../ports";
import { TooLarge, TooManyRequests } from "./errors";
import { newId } from "./ids";
import { LIMITS } from "../contract/schemas/limits";

/** Active forecasts (regres_methane) in one project: each holds up to MAX_FORECAST_ROWS rows. */
export const MAX_FORECASTS_PER_PROJECT = LIMITS.heavy.forecastsPerProject;
/** Active calculations in one project export (any format; a year of 20 000 can be approved). */
export const MAX_EXPORT_CALCULATIONS = LIMITS.heavy.exportCalculations;
/** Forecast rows in a detailed xlsx export: five forecasts of 100 000 rows. The rows go to one sheet,
 *  and Excel opens at most 1 048 576 rows a sheet. */
export const MAX_DETAILED_XLSX_ROWS = LIMITS.heavy.detailedXlsxRows;
/** Forecast rows in a detailed xls export: BIFF8 cannot be streamed (SheetJS builds the whole book
 *  in memory, ~1 KB a row), so the legacy format takes one forecast's worth. */
export const MAX_DETAILED_XLS_ROWS = LIMITS.heavy.detailedXlsRows;
/** Calculations in a report passport of a year (the PDF lays out every counted line). */
export const MAX_PASSPORT_LINES = LIMITS.heavy.passportLines;

/** In AWS the API's call has 29 s: from these sizes on an export or a report passport is rendered
 *  by the spreadsheet worker function as a job (status, progress, download address) instead of
 *  inside the call. A detailed export of one full forecast took 20 s on the local host; a PDF
 *  passport of 5 200 lines took 24 s, and the PDF is the slow format. */
export const JOB_FORECAST_ROWS = LIMITS.heavy.jobForecastRows;
export const JOB_CALCULATIONS = LIMITS.heavy.jobCalculations;

/** A climate period's verifier's pack (export/climate-pack.ts) is made as a job, where the host runs
 *  jobs, from this many meter-hours on (the period's hours × the meters of the project's plan): a
 *  year of 13 meters' minutes (114 000 meter-hours, 6,9 million readings) took 86 s to write and zip
 *  at load 24 on two cores, past the API's 29 s; 20 000 meter-hours is about 15 s there. */
export const JOB_CLIMATE_PACK_METER_HOURS = LIMITS.heavy.jobClimatePackMeterHours;

/** A report passport is rendered as a job, where the host runs jobs, from these sizes on (the
 *  company's calculations, an upper bound of a year's lines read from the list counts): below them
 *  it is made inside the call within about 3 s (docs/performance.md, «Report passport»). */
export const JOB_PASSPORT_LINES = LIMITS.heavy.jobPassportLines;

/** Whether the year's report passport is rendered as a job: the company's active calculations
 *  (every year's, from the list counts: one read, nothing laid out) against JOB_PASSPORT_LINES. */
export async function reportNeedsJob(
  deps: Pick<Deps, "repos">,
  actor: Pick<Actor, "company">,
  format: keyof typeof JOB_PASSPORT_LINES,
): Promise<boolean> {
  const counts = await deps.repos.statistics.listCounts(actor.company);
  return counts.reduce((sum, c) => sum + c.active, 0) >= JOB_PASSPORT_LINES[format];
}

/** Whether the export is near its bound (a job where the host runs jobs), from the list counts
 *  and the forecasts' summaries: the same reads as the bounds' check, nothing rendered. */
export async function exportNeedsJob(
  deps: Pick<Deps, "repos">,
  actor: Pick<Actor, "company">,
  projectId: string,
  request: { format: string; detail: boolean },
): Promise<boolean> {
  const counts = await deps.repos.statistics.listCounts(actor.company, projectId);
  if (counts.reduce((sum, c) => sum + c.active, 0) >= JOB_CALCULATIONS) return true;
  if (request.format === "txt" || !request.detail) return false;
  const forecasts = await deps.repos.calculations.listAllByProject(actor.company, projectId, "regres_methane", "active");
  return forecasts.reduce((sum, c) => sum + (typeof c.results.rows === "number" ? c.results.rows : 0), 0) >= JOB_FORECAST_ROWS;
}

/** A job's state and file are kept this many days, then expire (the exports bucket's lifecycle
 *  rule in AWS, the local host's sweep; adapters/blob/areas.ts, EXPORTS_AREA), and so does the
 *  record that lets an identical request reuse the job (domain/export-jobs.ts). */
export const JOB_FILE_DAYS = 7;

/** Creates and edits count as heavy with any file (a preview too, whatever its size: a file of
 *  130 KB is thousands of rows to check), and typed forecast rows or stored ones predicted again
 *  over 1 000. A forecast file over 256 KB (a forecast's 100 000 rows are 3.6 MB) is read and
 *  predicted off the request thread where the host can. */
export const HEAVY_UPLOAD_BYTES = LIMITS.heavy.uploadBytes;
export const HEAVY_FORECAST_ROWS = LIMITS.heavy.forecastRows;

/** An upload read off the request thread (a preview, a large forecast file) is stopped after this
 *  long, counted from when its thread starts it: the thread is ended and replaced. */
export const UPLOAD_BUDGET_SECONDS = 20;
export const uploadBudgetSpent = (seconds = UPLOAD_BUDGET_SECONDS) =>
  new TooLarge(
    `Файл обрабатывается дольше ${ru(seconds)} с, обработка остановлена: разделите его на несколько файлов поменьше и загрузите их по одному`,
  );

/** Heavy operations (exports, report passports, uploads and large forecasts) in flight. */
export const HEAVY_PER_USER = LIMITS.heavy.perUser;
export const HEAVY_PER_COMPANY = LIMITS.heavy.perCompany;
/** Whole-year answers (domain/inventory/whole-year.ts) one company has computed at once in the local
 *  host's spreadsheet threads; its others wait their turn: the pool has a thread per core
 *  and two more, so one company's burst of distinct reads leaves the other threads to the others. */
export const HEAVY_READS_AT_ONCE = 1;
/** Abatement evaluations (an assessment's stateless evaluation, its create and its change) one company
 *  has in the local host's scoring threads at once; its others wait their turn (the security review's R4: one user's
 *  ten evaluations of 50 streams held another company's get_me at a p50 of 762 ms on the request thread). */
export const ABATEMENT_AT_ONCE = 1;
/** A spreadsheet thread beyond the first that has had no work this long is ended: a burst's threads
 *  (each with its own heap, 60-150 MB) are given back once it is over. */
export const IDLE_THREAD_SECONDS = 20;
/** A reservation left by a crashed process stops counting after this (the attempt window). */
const HEAVY_LEASE_SECONDS = 10 * 60;
/** A refusal's wait while this process has given back no slot yet, so knows no hold's length. */
export const HEAVY_RETRY_AFTER_SECONDS = 30;
/** How many of the last holds given back in this process a refusal's wait is read from. */
const HOLDS_KEPT = 20;

/** 500000 as «500 000», for messages. */
export const ru = (n: number) => n.toLocaleString("ru-RU").replace(/\s/g, " ");

/** A slot taken: calling it gives the slot back (once); `reservations` are what a job carries to
 *  give it back where it ends (adapters/spreadsheets/jobs.ts, releaseHeavySlots). */
export type HeavySlot = (() => Promise<void>) & { reservations: AttemptReservation[] };

/** Takes a slot of the user's and of the company's budget, or refuses with 429; the answer gives
 *  the slots back (call it once, when the work is over, streamed bodies included). The counters
 *  are the sign-in budgets' (one conditional write each), so the bound holds across API instances. */
export async function reserveHeavyWork(deps: Pick<Deps, "repos">, actor: Pick<Actor, "id" | "company">): Promise<HeavySlot> {
  const budgets = [
    { key: `heavy-user#${actor.id}`, limit: HEAVY_PER_USER },
    { key: `heavy-company#${actor.company}`, limit: HEAVY_PER_COMPANY },
  ];
  // The user's budget first, the company's only for a request that got a slot of it: taken at
  // once, a burst of one user's requests could win the two budgets in different orders, and
  // every one of them would be refused (each holding the slot another lacks).
  const reserved: AttemptReservation[] = [];
  let spent: (typeof budgets)[number] | undefined;
  for (const budget of budgets) {
    const taken = await deps.repos.attempts.reserve(budget.key, HEAVY_LEASE_SECONDS, budget.limit);
    if (!taken) {
      spent = budget;
      break;
    }
    reserved.push(taken);
  }
  if (spent) {
    await Promise.all(reserved.map((r) => deps.repos.attempts.release(r)));
    // Held by no request of this process (another instance's, a job's, or left by a stop): until the
    // budget's window lets one go, as the counter reads it.
    throw heavyRefusal(
      spent === budgets[0] ? "user" : "company",
      await deps.repos.attempts.retryAfterSeconds(spent.key, HEAVY_LEASE_SECONDS, spent.limit),
    );
  }
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await releaseHeavySlots(deps, reserved);
  };
  return Object.assign(release, { reservations: reserved });
}

/** The 429 of a heavy-work budget spent, with the wait until a slot is expected back (Retry-After and
 *  the message say the same). */
const heavyRefusal = (whose: "user" | "company", seconds: number) =>
  new TooManyRequests(
    `Слишком много тяжелых операций одновременно (выгрузки, отчеты, загрузки файлов, оценки снижения выбросов): ${
      whose === "user" ? `у пользователя не более ${HEAVY_PER_USER}` : `в организации не более ${HEAVY_PER_COMPANY}`
    }. Повторите через ${waitText(seconds)}`,
    seconds,
  );

/** A wait as a refusal says it: «8 с», «12 мин». */
export const waitText = (seconds: number) => (seconds < 60 ? `${seconds} с` : `${Math.ceil(seconds / 60)} мин`);

/** Only a heavy-work budget's reservation is given back: a job's request names what it holds. */
export const isHeavySlot = (reservation: AttemptReservation) => /^heavy-(user|company)#/.test(reservation.key);

/** Gives back the slots a job held, where it ends: its thread or the job function. */
export async function releaseHeavySlots(deps: Pick<Deps, "repos">, reservations: readonly AttemptReservation[]): Promise<void> {
  await Promise.all(reservations.filter(isHeavySlot).map((r) => deps.repos.attempts.release(r)));
}

/** How often a job's slots are carried into the budgets' current window (carryHeavySlots): well
 *  inside the 10-minute window, so a slot never lapses while its job waits or runs. */
export const HEAVY_CARRY_SECONDS = 60;

/** Keeps a queued job's slots counting however long it waits: each is taken again in the budget's
 *  current window (beyond the limit: it is the same slot, not one more) and the old one given back,
 *  in place, so whoever gives the slots back at the job's end gives these. Called more often than
 *  the window turns (HEAVY_CARRY_SECONDS: the local host's job queue while the job waits, the job
 *  itself while it runs), a slot never lapses before the job ends. */
export async function carryHeavySlots(deps: Pick<Deps, "repos">, slots: AttemptReservation[]): Promise<void> {
  await Promise.all(
    slots.map(async (slot, i) => {
      if (!isHeavySlot(slot)) return;
      const carried = await deps.repos.attempts.reserve(slot.key, HEAVY_LEASE_SECONDS, Number.MAX_SAFE_INTEGER);
      if (!carried) return;
      slots[i] = carried;
      await deps.repos.attempts.release(slot);
    }),
  );
}

const count = (held: Map<string, number>, key: string, by: number) => {
  const next = (held.get(key) ?? 0) + by;
  if (next > 0) held.set(key, next);
  else held.delete(key);
};

/** The heavy-work slots held in this process, per user and per company (when each was taken, ms), and
 *  how long the last HOLDS_KEPT given back were held (ms). */
const heavySlotsHere = keptState("heavy slots here", () => ({
  user: new Map<string, number[]>(),
  company: new Map<string, number[]>(),
  holds: [] as number[],
}));

const hold = (held: Map<string, number[]>, key: string, at: number) => held.set(key, [...(held.get(key) ?? []), at]);
const unhold = (held: Map<string, number[]>, key: string, at: number) => {
  const rest = [...(held.get(key) ?? [])];
  rest.splice(rest.indexOf(at), 1);
  if (rest.length > 0) held.set(key, rest);
  else held.delete(key);
};

/** Seconds until one of the slots taken at `starts` (held here) is expected back:
 *  the oldest's start plus the longest of the last holds given back here, at least 1 s, at most the
 *  lease's end; HEAVY_RETRY_AFTER_SECONDS while no hold was given back. */
export function expectedWaitSeconds(starts: readonly number[], holds: readonly number[], now: number): number {
  if (holds.length === 0) return HEAVY_RETRY_AFTER_SECONDS;
  const oldest = Math.min(...starts);
  const end = Math.min(oldest + Math.max(...holds), oldest + HEAVY_LEASE_SECONDS * 1000);
  return Math.max(1, Math.ceil((end - now) / 1000));
}

/** A heavy-work slot of the user and the company, refused without a write while this process holds
 *  their budgets (heavySlotsHere: never more than the budgets count, so a request past
 *  them is refused without a write; a burst's refused requests each wrote to the budgets
 *  and took the engine's turns from other companies); calling the answer gives it back (once), and
 *  `uncount` stops counting it here while it stays taken (handed on to a job or a streamed file). */
export async function takeHeavySlot(
  deps: Pick<Deps, "repos" | "runtime"> & Partial<Pick<Deps, "slotLedger">>,
  actor: Pick<Actor, "id" | "company">,
): Promise<HeavySlot & { uncount: () => void }> {
  const heldHere = deps.runtime.kept(heavySlotsHere);
  for (const [whose, held, key, limit] of [
    ["user", heldHere.user, actor.id, HEAVY_PER_USER],
    ["company", heldHere.company, actor.company, HEAVY_PER_COMPANY],
  ] as const) {
    const starts = held.get(key) ?? [];
    if (starts.length >= limit) throw heavyRefusal(whose, expectedWaitSeconds(starts, heldHere.holds, Date.now()));
  }
  const release = await reserveHeavyWork(deps, actor);
  const takenAt = Date.now();
  hold(heldHere.user, actor.id, takenAt);
  hold(heldHere.company, actor.company, takenAt);
  // Written down until given back or handed on: a stop meanwhile leaves them to the
  // next start, which gives them back.
  const token = newId();
  deps.slotLedger?.taken(token, release.reservations);
  let counted = true;
  const uncount = () => {
    if (!counted) return;
    counted = false;
    deps.slotLedger?.given(token);
    unhold(heldHere.user, actor.id, takenAt);
    unhold(heldHere.company, actor.company, takenAt);
  };
  const giveBack = async () => {
    // A hold given back at its work's end (not handed on to a job) is one the next refusal reads.
    if (counted) heldHere.holds = [...heldHere.holds, Date.now() - takenAt].slice(-HOLDS_KEPT);
    uncount();
    await release();
  };
  return Object.assign(giveBack, { reservations: release.reservations, uncount });
}

/** The route's slot the actor holds, handed on to the caller (RouteSlot), if it holds one. */
export const handOnSlot = (actor: Pick<Actor, "heavySlot">): HeavySlot | undefined =>
  typeof actor.heavySlot === "object" ? actor.heavySlot.handOn() : undefined;

/** `work` inside a heavy-work slot (a non-streamed answer). */
export async function heavyWork<T>(
  deps: Pick<Deps, "repos" | "runtime">,
  actor: Pick<Actor, "id" | "company" | "heavySlot">,
  work: () => Promise<T>,
): Promise<T> {
  // A large upload's or an abatement request's slot was taken before its body was read
  // (http/calculations.ts, http/abatement.ts).
  if (actor.heavySlot) return work();
  const release = await takeHeavySlot(deps, actor);
  try {
    return await work();
  } finally {
    await release();
  }
}

/** Report files (a climate period's report, an abatement assessment's) one company has rendered at
 *  once in this process; its others wait their turn (12 of one company's report
 *  PDFs in flight took every spreadsheet thread, and another company's 0,4 s report took 15,6 s). */
export const FILES_AT_ONCE = 1;

/** Report files rendered at once in this process, each company in its turn (heavyFile; the
 *  monitoring wing's gassing book takes the same turns). */
export const fileTurns = keptState("file turns", () => companyTurns(FILES_AT_ONCE));

/** A report file rendered inside the call: in a heavy-work slot of the user and the company (past
 *  the budgets 429 at once), and in the company's turn (fileTurns, FILES_AT_ONCE), as
 *  exports are. */
export async function heavyFile<T>(
  deps: Pick<Deps, "repos" | "runtime">,
  actor: Pick<Actor, "id" | "company" | "heavySlot">,
  render: () => Promise<T>,
): Promise<T> {
  return heavyWork(deps, actor, () => deps.runtime.kept(fileTurns).run(actor.company, render));
}

/** Each company's work run at most some number at a time, the rest in the order they came. */
export interface CompanyTurns {
  run<T>(company: string, work: () => Promise<T>): Promise<T>;
  /** The company's work running now. */
  running(company: string): number;
}

/** Runs each company's work at most `limit` at a time, the rest in the order they came: the local
 *  host's whole-year answers in its threads (HEAVY_READS_AT_ONCE), so that one company's burst
 *  leaves the other threads to the others. */
export function companyTurns(limit: number): CompanyTurns {
  const running = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  return {
    async run<T>(company: string, work: () => Promise<T>): Promise<T> {
      if ((running.get(company) ?? 0) >= limit) {
        await new Promise<void>((turn) => {
          const queue = waiting.get(company);
          if (queue) queue.push(turn);
          else waiting.set(company, [turn]);
        });
      } else count(running, company, 1);
      try {
        return await work();
      } finally {
        // The turn goes to the company's next work, or is given up.
        const queue = waiting.get(company);
        const next = queue?.shift();
        if (queue?.length === 0) waiting.delete(company);
        if (next) next();
        else count(running, company, -1);
      }
    },
    /** The company's work running now. */
    running: (company: string) => running.get(company) ?? 0,
  };
}
