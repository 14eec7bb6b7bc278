// The local server's storage (local/storage.ts with threads): dynalite and the table-stream handler
// each in a worker thread of their own, the stream's queue in the API's process. Writes made side by
// side through the API are handled there, an item's records in order; settled() waits for every
// one; what the handler keeps equals a full count of the table. A record the thread's handler fails
// comes back named, for the queue to deliver again.
import { afterAll, beforeAll, expect, it } from "vitest";
import { countInventorySums, reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import { LOCAL_TABLE } from "@server/local/storage";
import { threadStreamHandler } from "@server/local/stream-handler";
import type { StreamRecord } from "@server/events/table-changes";
import { INVENTORY_SUMS_LAYOUT } from "@server/domain/inventory/sums";
import { createHarness, type Harness } from "../support/harness";

const TYPE = "/api/v1/underground_emission_ch4/";
let h: Harness;

beforeAll(async () => {
  h = await createHarness({}, undefined, { threads: true });
});
afterAll(() => h.close());

it("applies writes made side by side to the statistics, the list counts and the kept sums, and settles after the last", async () => {
  const user = await h.signedInUser();
  const project = await h.newProject(user.token);
  const create = async (i: number) => {
    const res = await h.request(TYPE, {
      method: "POST",
      token: user.token,
      json: { name: `Лава ${i}`, project: project.id, volume: 1000 * i, ef: 18 },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const ids = await Promise.all(Array.from({ length: 24 }, (_, i) => create(i + 1)));
  // Each of the first 8 edited twice and then archived: three records of one item, in order.
  await Promise.all(
    ids.slice(0, 8).map(async (id, i) => {
      for (const json of [{ volume: 5 + i }, { volume: 7 + i }, { is_deleted: true }]) {
        const res = await h.request(`${TYPE}${id}/`, { method: "PATCH", token: user.token, json });
        expect(res.status).toBe(200);
      }
    }),
  );
  await h.settled();

  const list = await h.request(`${TYPE}?project=${project.id}&is_active=true&is_deleted=false&limit=1&offset=0`, { token: user.token });
  expect(((await list.json()) as { count: number }).count).toBe(16);
  const statistics = await h.request("/api/v1/users/statistics/", { token: user.token });
  expect(((await statistics.json()) as { calculations: Record<string, number> }).calculations.underground_emission_ch4).toBe(16);
  const report = await reconcileCompanyStatistics(h.deps, user.companyId, { repair: false });
  expect(report).toMatchObject({ drift: [], lists: [], inventory: [], unsettled: false });
  const kept = await h.deps.repos.statistics.inventorySums(user.companyId, INVENTORY_SUMS_LAYOUT);
  expect(Object.fromEntries(kept ?? [])).toEqual(Object.fromEntries(await countInventorySums(h.deps.repos, user.companyId)));
});

it("names the records its handler failed in the thread", async () => {
  const handler = threadStreamHandler(h.endpoint!, LOCAL_TABLE);
  try {
    // A calculation's record whose version is not a number: its audit entry cannot be written.
    const broken: StreamRecord = {
      eventID: "e-broken",
      eventName: "INSERT",
      dynamodb: {
        Keys: { PK: { S: "COMPANY#c-thread" }, SK: { S: "CALC#underground_emission_ch4#x" } },
        NewImage: { PK: { S: "COMPANY#c-thread" }, SK: { S: "CALC#underground_emission_ch4#x" }, version: { N: "not a number" } },
        SequenceNumber: "000000000000000000042",
      },
    };
    expect(await handler.handle([broken])).toEqual(["000000000000000000042"]);
  } finally {
    await handler.close();
  }
});
