// The engine's heavy reads taken in turn by lane. The engine is one thread for every company: a read of
// a whole register (a Query of 1 000 items, parsed, filtered and written out again) runs there in
// stretches of tens of ms between its turns of the event loop, and ten of one company's in flight
// had every call of another company's, however small, wait behind all of their stretches at each of
// its rounds (a gateway's push makes six). Each lane (its company's, as the app threads tell it:
// app-threads.ts) has at most HEAVY_READS_A_LANE of its Queries, Scans and BatchGetItems in the engine
// at once; the next wait their turn in its queue, in order. A small call (GetItem, PutItem, UpdateItem,
// DeleteItem) never waits, nor does another lane's read, nor a call made outside a request's lane (the
// front's own: the consumer's, the live tiles' watches of every company, and every route where the
// routes run on the front thread, APP_THREADS=0), which the engine answers as they come, as before.

/** The operations whose answers grow with the data (a page of up to 1 MB, a batch of 100 items). */
const HEAVY = new Set(["Query", "Scan", "BatchGetItem"]);

/** A lane's heavy reads in the engine at once: one, so that another lane's call waits for at most one
 *  stretch of it (two let a gateway's push wait 259–282 ms at p95 under ten register or events-list
 *  reads in flight, one 172–239 ms; the flooding company's answers were as many either way). */
export const HEAVY_READS_A_LANE = 1;

/** The operation of a request's `X-Amz-Target` header (`DynamoDB_20120810.Query`). */
export const operationOf = (target: string | undefined) => String(target ?? "").split(".")[1] ?? "";

export function engineTurns(perLane = HEAVY_READS_A_LANE) {
  const lanes = new Map<string, { running: number; waiting: Array<() => void> }>();
  return {
    /** Calls `start` now, or once the lane's earlier heavy reads leave room; `start` is handed the
     *  `done` its answer calls (once). A call of no lane starts now. */
    take(lane: string | undefined, operation: string, start: (done: () => void) => void): void {
      if (lane === undefined || !HEAVY.has(operation)) {
        start(() => {});
        return;
      }
      const held = lanes.get(lane) ?? { running: 0, waiting: [] };
      lanes.set(lane, held);
      const run = () => {
        held.running++;
        let ended = false;
        start(() => {
          if (ended) return;
          ended = true;
          held.running--;
          const next = held.waiting.shift();
          if (next) next();
          else if (held.running === 0) lanes.delete(lane);
        });
      };
      if (held.running < perLane) run();
      else held.waiting.push(run);
    },
    /** The lanes with heavy reads in the engine or waiting (the tests'). */
    state: () => new Map([...lanes].map(([lane, turns]) => [lane, { running: turns.running, waiting: turns.waiting.length }])),
  };
}
