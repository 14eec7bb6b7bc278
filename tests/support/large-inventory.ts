// A large company's year for the report passport's job path (docs/performance.md, «Report passport»):
// one calculation made through the API is copied `count` times straight through the repository
// (new ids and names, the same inputs and results; a template with a period of its own, a day each
// after it), so a test gets a year of hundreds of lines in seconds rather than through as many API
// calls. The table's stream counts them as it would the API's.
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient } from "@server/adapters/dynamodb/client";
import * as keys from "@server/adapters/dynamodb/keys";
import type { Deps } from "@server/domain/context";
import { newId } from "@server/domain/ids";
import { reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import { LOCAL_TABLE } from "@server/local/storage";
import type { StoredCalculation } from "@server/ports";
import type { Harness } from "./harness";

/** D43: copies covering the same days of one source are duplicates, counted once; a template with a
 *  period of its own gives each copy the n-th day after it, so every copy is a line of the year. */
const dayAfter = (period: StoredCalculation["period"], n: number): Pick<StoredCalculation, "period"> => {
  if (!period) return {};
  const day = new Date(`${period.to}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + n);
  const iso = day.toISOString().slice(0, 10);
  return { period: { from: iso, to: iso } };
};

export async function copyCalculation(deps: Pick<Deps, "repos">, company: string, type: string, id: string, count: number): Promise<void> {
  const template = await deps.repos.calculations.get(company, type, id);
  if (!template) throw new Error(`no calculation ${type} ${id} of ${company}`);
  const WRITERS = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      for (let i = next++; i < count; i = next++) {
        await deps.repos.calculations.create({
          ...template,
          id: newId(),
          name: `${template.name} № ${i + 2}`,
          ...dayAfter(template.period, i + 1),
        });
      }
    }),
  );
}

/** Writes `calculations` (active, of one company) as the repository stores them, 25 to a BatchWrite
 *  by 8 writers: thousands in seconds. A bulk load, through a client of its own that the local stream
 *  does not watch (the API's client refuses a batch write of an item the stream hands over), so the
 *  reconciliation (the nightly job's) then brings the kept sums to the table, as after a bulk load in AWS. */
export async function writeCalculations(harness: Harness, calculations: readonly StoredCalculation[]): Promise<void> {
  if (calculations.length === 0) return;
  if (!harness.endpoint) throw new Error("a bulk load needs the harness's table engine");
  const doc = createDocumentClient({
    tableName: LOCAL_TABLE,
    endpoint: harness.endpoint,
    ...(harness.requestHandler ? { requestHandler: harness.requestHandler() } : {}),
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < calculations.length) {
        const batch = calculations.slice(next, next + 25);
        next += 25;
        const items = batch.map((c) => ({
          PutRequest: {
            Item: {
              ...keys.calculation(c.company, c.type, c.id),
              ...keys.calculationInIndex(c.company, c.project, c.type, "active", c.created_at, c.id),
              ...c,
            },
          },
        }));
        const out = await doc.send(new BatchWriteCommand({ RequestItems: { [LOCAL_TABLE]: items } }));
        if (Object.keys(out.UnprocessedItems ?? {}).length > 0) throw new Error("a batch was not written whole");
      }
    }),
  );
  await harness.settled();
  const report = await reconcileCompanyStatistics(harness.deps, calculations[0].company);
  if (report.unsettled) throw new Error("the reconciliation found changes still coming in");
}
