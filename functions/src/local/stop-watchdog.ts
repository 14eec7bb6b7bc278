// a stop ends the process within STOP_WITHIN_MS whatever the request thread is doing.
// The forced exit was a timer of that thread: with gassings reads folding minutes on it, the timer could
// not run, and a SIGTERM ended the server in 5,3-7,1 s. The watchdog is a thread of its own, started with
// the server and idle until a stop arms it: past the deadline it writes why to stderr itself and kills
// the process (as a SIGKILL leaves it: the next start takes up the readings' queue and the jobs).
import { Worker } from "node:worker_threads";

const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
parentPort.once("message", ({ deadline, message }) => {
  setTimeout(() => {
    writeSync(2, message + "\\n");
    process.kill(workerData.pid, "SIGKILL");
  }, Math.max(0, deadline - Date.now()));
});
`;

export interface StopWatchdog {
  /** Once its thread runs (a stop before then is ended by the request thread's own timer, or by the
   *  watchdog as soon as it runs). */
  ready: Promise<void>;
  /** The process ends `ms` from now at the latest, `message` written to stderr first. */
  arm(ms: number, message: string): void;
}

/** Started early (a thread takes a moment to start, more on a busy machine): a stop only sends it its deadline. */
export function startStopWatchdog(): StopWatchdog {
  // Plain JavaScript: none of the process' loaders (tsx), whose hooks would wait on the busy thread.
  const worker = new Worker(SOURCE, { eval: true, workerData: { pid: process.pid }, execArgv: [] });
  // Never what keeps the process alive.
  worker.unref();
  const ready = new Promise<void>((resolve) => worker.once("online", () => resolve()));
  return { ready, arm: (ms, message) => worker.postMessage({ deadline: Date.now() + ms, message }) };
}
