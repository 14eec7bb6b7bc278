// The V8 heap limits of the local server's isolates: its request thread's and its worker threads'
// (the engine's, the table stream's, the readings' consumer's, the spreadsheet and scoring threads).
// V8 sizes an isolate's young generation from the process's heap limit: on this host up to 128 MB
// each (two semi-spaces of 64 MB), filled by the code a thread loads and by each burst of work, and
// given back only once V8's memory reducer sees the isolate idle. With semi-spaces of SEMI_SPACE_MB
// the server starts at about 90 MB less and peaks lower, and a mine's 90 days of readings were
// applied as fast, another company's get_me as quick (docs/performance.md, «A mine's year of
// readings»).
import type { ResourceLimits } from "node:worker_threads";

/** A semi-space of the young generation, MB (of which V8 keeps two). */
export const SEMI_SPACE_MB = 16;

/** The request thread's limit can only be given on Node's command line: package.json's `serve`, the
 *  systemd unit (infra/onprem) and the tests' and benches' servers (tests/support/server-process.ts)
 *  pass these (tests/integration/npm-start.test.ts holds them to it). */
export const SERVER_NODE_FLAGS = [`--max-semi-space-size=${SEMI_SPACE_MB}`];

/** A worker thread's `resourceLimits`: its young generation as the request thread's (two semi-spaces
 *  and the young large objects' space, V8's three), and `oldGenerationMb` as its old generation's
 *  bound, if any. */
export function threadResourceLimits(oldGenerationMb?: number): ResourceLimits {
  return {
    maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB,
    ...(oldGenerationMb ? { maxOldGenerationSizeMb: oldGenerationMb } : {}),
  };
}

/** A worker thread's Node flags: none of the request thread's but the CPU profiler's, so that a server
 *  started with `--cpu-prof` (the create bench's CREATE_PROFILE) writes a profile of each thread too. */
export const threadExecArgv = (): string[] => process.execArgv.filter((flag) => flag.startsWith("--cpu-prof"));
