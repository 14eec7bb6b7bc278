// What a test worker keeps for all its files (the browser tier shares its workers' modules, see
// vitest.config.ts) is given back when the worker stops, after its last file: vitest runs the
// callbacks its worker state collects for that moment.

interface WorkerState {
  onCleanup?(callback: () => unknown): void;
}

/** Runs `callback` when the current test worker stops. */
export function onWorkerEnd(callback: () => Promise<void>): void {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  if (!state?.onCleanup) {
    // A bench (tests/bench) is a script of its own, not a vitest worker: it closes what it opens.
    if (!process.env.VITEST) return;
    throw new Error("not in a vitest worker: nothing would close what it keeps");
  }
  state.onCleanup(callback);
}
