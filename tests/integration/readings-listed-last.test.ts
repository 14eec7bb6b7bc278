// A push is stored (its item, then its queue mark), handed to its consumer, and only then listed in its
// facility's list of loads (kickReadings), the last write before its answer 202. Whatever write a
// crash stops it before, the list holds no batch that stays «в очереди» for good: such a line would
// hold a climate period's computation of its hours (readingsSettled) and the invariant's «every listed
// batch done». Each crash point is left as the killed server leaves it, then the server is started
// again on its folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { kickReadings } from "@server/domain/monitoring/minutes/consumer";
import { DEMO, signInAsDemo } from "../support/server";
import { everyBatchApplied, meteredFacility } from "../support/readings-shape";

const dataDir = mkdtempSync(join(tmpdir(), "readings-listed-last-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const pushOf = (minute: number, value: number) => ({
  json: { readings: [{ sensor: "К-1", t: new Date(Date.UTC(2026, 9, 1, 0, minute)).toISOString(), value }] },
});

it("lists a push only once its consumer will finish it: a crash after its item lists nothing, one after its mark is applied and listed done", async () => {
  const first = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  let mine: Awaited<ReturnType<typeof meteredFacility>>;
  let answered: Awaited<ReturnType<typeof storeBatch>>;
  let marked: Awaited<ReturnType<typeof storeBatch>>;
  let unmarked: Awaited<ReturnType<typeof storeBatch>>;
  try {
    mine = await meteredFacility(first.url, (await signInAsDemo(first.url)).access, ["К-1"]);
    answered = await storeBatch(first.deps, mine.company, mine.facility, pushOf(0, 0.4));
    await kickReadings(first.deps, answered);
    await everyBatchApplied(first.deps);
    // Killed after the item, before its mark: stored as a push whose announcement is a queue's own.
    const noQueue = {
      send: () => Promise.reject(new Error("never announced")),
    };
    unmarked = await storeBatch({ ...first.deps, readingsQueue: noQueue }, mine.company, mine.facility, pushOf(1, 0.5));
    // Killed after its mark, before it was handed over and listed.
    marked = await storeBatch(first.deps, mine.company, mine.facility, pushOf(2, 0.6));
  } finally {
    await first.close();
  }

  const again = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  try {
    await everyBatchApplied(again.deps);
    const listed = await again.deps.repos.monitoring.batchesOfFacility(mine.company, mine.facility, 100);
    expect(listed.map((b) => [b.batch, b.state, b.accepted]).sort()).toEqual(
      [
        [answered.batch, "done", 1],
        [marked.batch, "done", 1],
      ].sort(),
    );
    expect(listed.map((b) => b.batch)).not.toContain(unmarked.batch);
    // A listing that comes after the consumer's line leaves it as the consumer wrote it.
    await again.deps.repos.monitoring.listBatch(marked);
    const relisted = await again.deps.repos.monitoring.batchesOfFacility(mine.company, mine.facility, 100);
    expect(relisted.find((b) => b.batch === marked.batch)).toMatchObject({ state: "done", accepted: 1 });
  } finally {
    await again.close();
  }
});
