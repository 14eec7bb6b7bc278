// the intermittent readings-crash. Once in five runs under load a batch answered 202
// before a SIGKILL was still «queued» after the restarted server's drains were over. Its application had
// begun when the process was killed (or failed once under load), so its item kept the back-off its
// attempt set (consumer.ts RETRIES: retry_at 1, 2, 4 … s after the attempt began); the start's drain
// passed it over until then, answered «drained», and the server's idle went on without it, the batch
// applied only by the thread's own timer later. A drain now waits out the back-offs of the batches it
// passed over (readings-thread.ts drainUntilSettled). Here a batch is left as a killed attempt leaves
// it, its back-off 3 s ahead, and the next server's idle waits until it is applied.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createCompany } from "@server/domain/company/users";
import { createFacility } from "@server/domain/company/facilities";
import { createSensor } from "@server/domain/monitoring/ingest/register";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { INTERRUPTED } from "@server/domain/monitoring/minutes/consumer";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { startLocalServer } from "@server/local/server";
import type { Actor } from "@server/domain/context";

const dataDir = mkdtempSync(join(tmpdir(), "readings-interrupted-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("applies, before the restarted server is idle, a batch whose attempt the stop cut short", async () => {
  const first = await startLocalServer({ dataDir, port: 0 });
  const company = await createCompany(first.deps, { name: "Шахта «Прерванная»" });
  const actor = { id: "u-interrupted", company: company.id, email: "staff@interrupted.example", role: "staff" } as Actor;
  const facility = await createFacility(first.deps, actor, { name: "Шахта «Прерванная»", kind: "underground_mine" });
  await createSensor(first.deps, actor, facility.id, { code: "М-1", kind: "methane" } as never);
  const t = new Date(Date.now() - 10 * 60_000).toISOString();
  const stored = await storeBatch(first.deps, company.id, facility.id, { json: { readings: [{ sensor: "М-1", t, value: 0.42 }] } });
  // As attemptBegins leaves it when the process dies applying it: one attempt, its back-off ahead.
  await first.deps.repos.monitoring.updateBatch({
    ...stored,
    attempts: 1,
    retry_at: new Date(Date.now() + 3_000).toISOString(),
    failure: INTERRUPTED,
  });
  await first.close();

  const second = await startLocalServer({ dataDir, port: 0 });
  try {
    await monitoringIdle(second.deps);
    expect(await second.deps.repos.monitoring.getBatch(company.id, stored.batch)).toMatchObject({ state: "done", accepted: 1 });
  } finally {
    await second.close();
  }
}, 120_000);
