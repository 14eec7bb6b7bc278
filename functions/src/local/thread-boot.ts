// Entry of a worker thread of the local host written in TypeScript (spreadsheet-threads.ts):
// registers tsx, as `npm start` does for the server, then loads the thread's TypeScript (the
// product's imports name no extension and its paths aliases, which Node's own type stripping does not
// resolve). This entry itself Node loads as it is, stripping its types: erasable TypeScript only. A thread
// of heavy work (`background`: spreadsheets, whole-year answers, model scoring) runs at a lower
// priority than the request thread (BACKGROUND_NICE, Linux): on a machine with fewer cores than
// runnable threads, a burst of heavy work otherwise took the request thread's turns on the CPU, and
// another company's get_me waited for them.
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

/** How much nicer than the process a background thread is (19 at most). */
const BACKGROUND_NICE = 10;

const { background, entry } = workerData as { background?: boolean; entry: string };

if (background) {
  try {
    // On Linux a thread is a task with an id of its own, whose nice value setpriority sets alone.
    const task = Number(readlinkSync("/proc/thread-self").split("/").pop());
    setPriority(task, Math.min(19, getPriority(task) + BACKGROUND_NICE));
  } catch {
    // Another system (no /proc/thread-self): the thread runs at the process's priority.
  }
}
register();
await import(entry);
