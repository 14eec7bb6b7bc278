// A watcher in a worker thread of the test (readings-consumer-thread.test.ts): it reads batches of
// readings over the server's dynalite endpoint (served by the engine's thread, not the request thread)
// until every one is done, and wakes the test's thread, which holds its event loop meanwhile
// (Atomics.wait). flag[0]: 1 once they are done and one at least was seen not done before, 2 when all
// were done at the first look (nothing shown), 3 when a read failed.
import { parentPort, workerData } from "node:worker_threads";
import { createDocumentClient } from "../../functions/src/adapters/dynamodb/client";
import { dynamoRepositories } from "../../functions/src/adapters/dynamodb/repositories";

const { endpoint, tableName, engineSecret } = workerData as { endpoint: string; tableName: string; engineSecret?: string };
// The engine's port asks the secret the server wrote beside its endpoint (the security review's R18).
const repos = dynamoRepositories(createDocumentClient({ tableName, endpoint, engineSecret }), tableName);

async function watch(company: string, batches: string[], flag: Int32Array): Promise<void> {
  let seenQueued = false;
  try {
    for (let left = batches; left.length > 0; ) {
      const stored = await Promise.all(left.map((batch) => repos.monitoring.getBatch(company, batch)));
      left = left.filter((_, i) => stored[i]?.state !== "done");
      if (left.length === 0) break;
      seenQueued = true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    Atomics.store(flag, 0, seenQueued ? 1 : 2);
  } catch {
    Atomics.store(flag, 0, 3);
  }
  Atomics.notify(flag, 0);
}

parentPort!.on("message", (message: { company: string; batches: string[]; flag: SharedArrayBuffer }) => {
  void watch(message.company, message.batches, new Int32Array(message.flag));
});
parentPort!.postMessage("ready");
