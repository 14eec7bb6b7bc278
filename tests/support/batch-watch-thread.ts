// A watcher in a worker thread of the test (telemetry-consumer-thread.test.ts): it reads a batch of
// readings over the server's dynalite endpoint (served by the engine's thread, not the request thread)
// until the batch is done, and wakes the test's thread, which holds its event loop meanwhile
// (Atomics.wait). flag[0]: 1 once the batch was seen queued and then done, 2 when it was done at the
// first look (nothing shown), 3 when the read failed.
import { parentPort, workerData } from "node:worker_threads";
import { createDocumentClient } from "../../functions/src/adapters/dynamodb/client";
import { dynamoRepositories } from "../../functions/src/adapters/dynamodb/repositories";

const { endpoint, tableName } = workerData as { endpoint: string; tableName: string };
const repos = dynamoRepositories(createDocumentClient({ tableName, endpoint }), tableName);

async function watch(company: string, batch: string, flag: Int32Array): Promise<void> {
  let seenQueued = false;
  try {
    for (;;) {
      const stored = await repos.telemetry.getBatch(company, batch);
      if (stored?.state === "done") break;
      seenQueued = true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    Atomics.store(flag, 0, seenQueued ? 1 : 2);
  } catch {
    Atomics.store(flag, 0, 3);
  }
  Atomics.notify(flag, 0);
}

parentPort!.on("message", (message: { company: string; batch: string; flag: SharedArrayBuffer }) => {
  void watch(message.company, message.batch, new Int32Array(message.flag));
});
parentPort!.postMessage("ready");
