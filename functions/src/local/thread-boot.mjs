// Entry of a worker thread of the local host written in TypeScript (spreadsheet-threads.ts):
// registers tsx, as `npm start` does for the server, then loads the thread's TypeScript.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
