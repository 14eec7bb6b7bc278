// The periodic work of the monitoring wing, one list both hosts read: the local
// server runs each line on its runtime's timers (ports/clock.ts Timers; local/server.ts), the minute
// function runs the lines due at each of its runs (lambda/monitoring-minute.ts), which an EventBridge
// rule starts every MINUTE_FUNCTION_EVERY_MS (infra/lib/stack.ts, derived from this list).
import type { Deps } from "../domain/context";
import { reannounceQueued } from "../domain/monitoring/minutes/consumer";
import { compactSettledDays, type CompactionRun } from "../domain/monitoring/minutes/minutes";
import { sweepStaleChannels } from "../domain/monitoring/derive/events";
import type { WebhookSender } from "../domain/monitoring/derive/webhooks";
import { HOUR_MS, MINUTE_MS } from "@core/dates";

/** Where a line runs: the local server, the minute function in AWS. */
export type ScheduleHost = "local" | "aws";

/** A job only one host does, handed to the schedule by that host (its modules stay out of the other
 *  host's bundle), timed by the job itself: when it runs next, from the time now (UTC ms) and whether
 *  its last run failed; and the run, answering a count for the log. */
export interface TimedJob {
  next(now: number, failed: boolean): Promise<number>;
  run(): Promise<number | undefined>;
}

/** What the lines run on: the domain's deps, the host's webhook sender and, where the store has no
 *  TTL of its own (the local engine), what removes the minute items past their expiry; the local
 *  server's upkeep of its folder (the uploads' sweep; the backups where BACKUP_DIR is set) and, where
 *  it runs the demo mine's readings, their feed. */
export type ScheduleDeps = Pick<Deps, "repos" | "clock" | "runtime"> &
  Partial<Pick<Deps, "config" | "readingsQueue" | "webhooksDue" | "readingsConsumer">> & {
    webhooks: Pick<WebhookSender, "drain">;
    expireMinutes?: (run: CompactionRun) => Promise<unknown>;
    sweepUploads?: () => Promise<number>;
    backups?: TimedJob;
    feedDemo?: () => Promise<number | undefined>;
  };

interface Line {
  name: string;
  hosts: readonly ScheduleHost[];
  /** The work; a count of what it did, for the host's log line. `run.stopped` is set when the host stops. */
  run(deps: ScheduleDeps, run: CompactionRun): Promise<number | undefined>;
}

/** A line run every period. */
export interface PeriodicWork extends Line {
  /** How often it runs (ms); in AWS at most once a run of the minute function. */
  every: number;
  /** Run by the minute function when its run falls this far into the period (ms); the local server
   *  runs it every period from its start instead. */
  offset?: number;
  /** Run by the local server at its start too, not first after a period; "awaited": the server's
   *  start waits for that first run. */
  atStart?: true | "awaited";
}

/** A line whose next run is computed after each (the local server's alone: the minute function
 *  runs on its minutes): when (UTC ms), from the time now and whether its last run failed; undefined,
 *  the line does not run on this host. */
export interface TimedWork extends Line {
  next(deps: ScheduleDeps, now: number, failed: boolean): Promise<number | undefined>;
  hosts: readonly ["local"];
}

export type ScheduledWork = PeriodicWork | TimedWork;

const periodic = (work: ScheduledWork): work is PeriodicWork => "every" in work;

/** In the order the minute function runs them: the sweep's deliveries go out with the webhooks' round. */
export const SCHEDULE: readonly ScheduledWork[] = [
  // D65: a channel whose readings stopped (stale after 2 minutes) is found without a batch to run the detector.
  // Locally in the consumer's thread while it runs (it kept the request thread 40 % busy).
  {
    name: "stale_sweep",
    every: MINUTE_MS,
    hosts: ["local", "aws"],
    run: (d) => d.readingsConsumer?.sweepStale?.() ?? sweepStaleChannels(d),
  },
  // Deliveries due (a retry's back-off, from 10 s; or made before a stop): sent; the minute function
  // waits for them, the local server's sender is told and goes on (local/server.ts).
  {
    name: "webhooks",
    every: 5_000,
    atStart: true,
    hosts: ["local", "aws"],
    run: (d) => d.webhooks.drain().then(() => undefined),
  },
  // Batches still queued whose announcement on the readings' queue was lost (stored and marked, then
  // the SQS send failed), sent again; the local host drains the marks itself.
  { name: "reannounce", every: MINUTE_MS, hosts: ["aws"], run: (d) => reannounceQueued(d) },
  // the settled days' minute items compacted into their sensors' days, then those past their
  // expiry removed where the store has no TTL (dynalite: local/expired-minutes.ts).
  {
    name: "compaction",
    every: HOUR_MS,
    offset: 5 * MINUTE_MS,
    atStart: true,
    hosts: ["local", "aws"],
    run: async (d, run) => {
      const compacted = await compactSettledDays(d, run);
      if (!run.stopped) await d.expireMinutes?.(run);
      return compacted;
    },
  },
  // The local host's twin of the buckets' lifecycle rules and the nightly orphan sweep of AWS:
  // direct uploads never completed, files no calculation refers to, expired export jobs' files
  // (local/upload-sweep.ts). The server starts with its first run done.
  {
    name: "upload_sweep",
    every: HOUR_MS,
    atStart: "awaited",
    hosts: ["local"],
    run: async (d) => d.sweepUploads?.(),
  },
  // The demo mine's readings (local/demo-feed.ts): each quarter-minute the feed looks whether a
  // minute came due, the first time at the start (the minutes the server was down).
  { name: "demo_feed", every: 15_000, atStart: true, hosts: ["local"], run: async (d) => d.feedDemo?.() },
  // The local server's backups (local/backup-schedule.ts): BACKUP_EVERY after the newest on disk,
  // a failed one tried again after a while.
  {
    name: "backup",
    hosts: ["local"],
    next: async (d, now, failed) => d.backups?.next(now, failed),
    run: async (d) => d.backups?.run(),
  },
];

/** How often EventBridge starts the minute function: its most frequent line's period, in whole
 *  minutes (EventBridge's least), at least one. */
const awsLines = () => SCHEDULE.filter(periodic).filter((work) => work.hosts.includes("aws"));

export const MINUTE_FUNCTION_EVERY_MS = Math.max(MINUTE_MS, Math.ceil(Math.min(...awsLines().map((w) => w.every)) / MINUTE_MS) * MINUTE_MS);

/** Whether the minute function's run at `now` (UTC ms) runs `work`: each run for a line as frequent as
 *  the function, else the run that falls within the function's period after the line's offset. */
export function dueAt(work: PeriodicWork, now: number): boolean {
  return (((now - (work.offset ?? 0)) % work.every) + work.every) % work.every < MINUTE_FUNCTION_EVERY_MS;
}

/** The minute function's run at its clock's time: each AWS line due, in order, each awaited (a failure
 *  fails the run: the next run does the same from what is stored). Answers each line's count by name. */
export async function runDue(deps: ScheduleDeps, run: CompactionRun): Promise<Record<string, number | undefined>> {
  const now = deps.clock.now().getTime();
  const done: Record<string, number | undefined> = {};
  for (const work of awsLines()) if (dueAt(work, now)) done[work.name] = await work.run(deps, run);
  return done;
}

/** The local server's lines on its runtime's timers: a periodic line at its start where it says so,
 *  then every period, a line still running skipped (a failure is logged and the line runs again next
 *  period); a timed line when its `next` says, then asked again after each run. `started` answers
 *  once the lines the start waits for have run. `stop` stops the timers and tells the work running
 *  to stop, and answers once it has. */
export function startSchedule(
  deps: ScheduleDeps,
  log: (work: string, error: unknown) => void,
): { started: Promise<void>; stop(): Promise<void> } {
  const run: CompactionRun = { stopped: false };
  const now = () => deps.clock.now().getTime();
  /** Each line's run under way, answering whether it failed. */
  const running = new Map<string, Promise<boolean>>();
  const start = (work: ScheduledWork): Promise<boolean> | undefined => {
    if (run.stopped || running.has(work.name)) return undefined;
    const made = work
      .run(deps, run)
      .then(
        () => false,
        (error: unknown) => {
          log(work.name, error);
          return true;
        },
      )
      .finally(() => running.delete(work.name));
    running.set(work.name, made);
    return made;
  };
  const local = SCHEDULE.filter((work) => work.hosts.includes("local"));
  const stops = local.filter(periodic).map((work) => deps.runtime.timers.every(work.every, () => void start(work)));
  for (const work of local.filter((line): line is TimedWork => !periodic(line))) {
    let stopTimer = () => {};
    stops.push(() => stopTimer());
    const arm = async (failed: boolean) => {
      const at = await work.next(deps, now(), failed).catch((error: unknown) => void log(work.name, error));
      if (at === undefined || run.stopped) return;
      stopTimer = deps.runtime.timers.after(at - now(), () => void start(work)?.then(arm));
    };
    void arm(false);
  }
  const awaited = local.filter(periodic).flatMap((work) => {
    const first = work.atStart ? start(work) : undefined;
    return work.atStart === "awaited" && first ? [first] : [];
  });
  return {
    started: Promise.all(awaited).then(() => undefined),
    async stop() {
      run.stopped = true;
      for (const stopTimer of stops) stopTimer();
      await Promise.all(running.values());
    },
  };
}
