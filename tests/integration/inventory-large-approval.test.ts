// D20 / an earlier round: the calculations a version counts live in its snapshot (object storage),
// not in the year's review item, so a year of 20 000 calculations can be approved (the review item
// once had to hold them all and refused above ~5 000). Seeded straight through the repository.
// 20 000 in the deep tier (tests/support/depth.ts), more than an item's 400 KB could hold even as bare
// ids (36 characters each); 2 000 in the others, the same approval whose review item, were it to hold
// even their bare ids (72 000 characters), fails the 4 000-character bound below.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { newId } from "@server/domain/ids";
import type { StoredCalculation } from "@server/ports";
import { createDocumentClient } from "@server/adapters/dynamodb/client";
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import * as keys from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE } from "@server/local/storage";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { SIZES, sized } from "../support/depth";

const CALCULATIONS = sized(SIZES.approvalCalculations);
let h: Harness;
let staff: string;
let reviewer: string;
let companyId: string;
let project: { id: string };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, res.status === status ? "" : await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Большой год»");
  ({ token: staff, companyId } = a);
  await createUser(h.deps, { companyId, email: "reviewer@large.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@large.example", "reviewer-password")).json()) as { access: string }).access;
  project = await json(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: "Год 2024", start_date: "2024-01-01", end_date: "2024-12-31" },
    }),
    201,
  );
  const model = (await json<{ id: string }>(
    await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Факел 1", project: project.id, volume: 700, koef_transform: 0.67 },
    }),
    201,
  )) as unknown as { id: string };
  const stored = (await h.deps.repos.calculations.get(companyId, "torch_ch4", model.id)) as StoredCalculation;
  // The rest as copies of the first, in batches of 25 by a client of their own, straight to the
  // engine without HTTP (no stream records: the statistics handler would otherwise take minutes
  // over them), keyed as the repository keys a calculation.
  const doc = createDocumentClient({ tableName: LOCAL_TABLE, endpoint: h.endpoint, requestHandler: h.requestHandler?.() });
  const item = (c: StoredCalculation) => ({
    ...keys.calculation(c.company, c.type, c.id),
    ...keys.calculationInIndex(c.company, c.project, c.type, "active", c.created_at, c.id),
    ...c,
  });
  const writes: Promise<unknown>[] = [];
  for (let start = 1; start < CALCULATIONS; start += 25) {
    const batch = Array.from({ length: Math.min(25, CALCULATIONS - start) }, (_, i) => ({
      PutRequest: { Item: item({ ...stored, id: newId(), name: `Факел ${start + i + 1}` }) },
    }));
    writes.push(doc.send(new BatchWriteCommand({ RequestItems: { [LOCAL_TABLE]: batch } })));
    if (writes.length >= 16) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  doc.destroy();
}, 300_000);
afterAll(() => h.close());

describe(`a year of ${CALCULATIONS} calculations`, () => {
  it("is approved: the version lists them all, the review item only refers to it", { timeout: 300_000 }, async () => {
    const act = (token: string, body: Record<string, unknown>) =>
      h.request("/api/v1/inventory/2024/review/", { method: "POST", token, json: body });
    const sent = await json<{ version: number }>(await act(staff, { action: "send_to_review", version: 0 }), 200);
    const approved = await json<{ status: string; snapshot: { version: number; sha256: string } }>(
      await act(reviewer, { action: "approve", version: sent.version }),
      200,
    );
    expect(approved).toMatchObject({ status: "approved", snapshot: { version: 1 } });

    const [version] = await h.deps.repos.inventoryVersions.list(companyId, 2024);
    expect(version).toMatchObject({ version: 1, calculations: CALCULATIONS, sha256: approved.snapshot.sha256 });
    const review = await h.deps.repos.inventoryReviews.get(companyId, 2024);
    expect(JSON.stringify(review).length).toBeLessThan(4_000);

    const snapshot = await h.request("/api/v1/inventory/2024/versions/1/", { token: staff });
    expect(snapshot.status).toBe(200);
    const body = (await snapshot.json()) as { inventory: { calculations: unknown[] } };
    expect(body.inventory.calculations).toHaveLength(CALCULATIONS);

    // And the year is frozen like any other.
    const late = await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Поздний факел", project: project.id, volume: 10, koef_transform: 0.67 },
    });
    expect(late.status).toBe(409);
  });
});
