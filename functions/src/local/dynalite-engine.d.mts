// Types of dynalite-engine.mjs.
/** dynalite's store: what a request is answered from (dynalite-answer.mjs). */
export type EngineStore = object;
/** dynalite's HTTP server for `options`, the store it answers from, and `opened`, settled once the
 *  store is open (rejected with the store's error: `code` LEVEL_LOCKED, LEVEL_CORRUPTION…); with
 *  `options.secret` its loopback port answers only a caller naming it (issue 86 R18:
 *  ENGINE_SECRET_HEADER, or an SDK client's access key id). */
export function createEngine(options: Record<string, unknown>): {
  server: import("node:http").Server;
  store: EngineStore;
  opened: Promise<void>;
};
/** The path on the engine's loopback port that answers a snapshot of the whole store, one JSON
 *  line `[key, value]` each, then `{"end": count}`. */
export const SNAPSHOT_PATH: string;
/** The header a plain HTTP caller names the engine's secret in. */
export const ENGINE_SECRET_HEADER: string;
