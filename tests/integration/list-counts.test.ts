// The `count` of a calculation list (a list's cost must not grow with the project): a
// counter per project and type, kept by the table's stream handler like the statistics, read in
// one call; a page that is not full counts the list itself. Repaired by the reconciliation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCount } from "@server/adapters/dynamodb/items";
import { reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";

let h: Harness;
let user: SignedInUser;
let projectId: string;

beforeAll(async () => {
  const fixture = await openProjectFixture("Шахта «Счетная»");
  ({ h, user } = fixture);
  projectId = fixture.project.id;
});
afterAll(() => h.close());

const list = async (query: string) => {
  const res = await h.request(`/api/v1/open_mining_co2/?project=${projectId}&${query}`, { token: user.token });
  expect(res.status).toBe(200);
  return (await res.json()) as { results: Array<{ id: string; name: string }>; count: number };
};
const active = (offset: number) => list(`is_active=true&is_deleted=false&limit=10&offset=${offset}`);
const archived = () => list("is_active=true&is_deleted=true&limit=10&offset=0");

describe("calculation list counts", () => {
  it("follows creates, archiving and restoring", async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 13; i++) {
      const res = await h.request("/api/v1/open_mining_co2/", {
        method: "POST",
        token: user.token,
        json: { name: `Карьер ${i}`, project: projectId, volume: i, ef: 3.149 },
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    await h.settled();
    // A first page another follows: the count is the counter's.
    expect((await active(0)).count).toBe(13);
    // The last page counts itself.
    expect(await active(10)).toMatchObject({ count: 13 });
    for (const id of ids.slice(0, 4)) {
      const res = await h.request(`/api/v1/open_mining_co2/${id}/`, { method: "PATCH", token: user.token, json: { is_deleted: true } });
      expect(res.status).toBe(200);
    }
    await h.settled();
    expect((await active(0)).count).toBe(9);
    expect((await archived()).count).toBe(4);
    const restored = await h.request(`/api/v1/open_mining_co2/${ids[0]}/`, {
      method: "PATCH",
      token: user.token,
      json: { is_deleted: false },
    });
    expect(restored.status).toBe(200);
    // An edit that keeps the state moves no count.
    const renamed = await h.request(`/api/v1/open_mining_co2/${ids[5]}/`, { method: "PATCH", token: user.token, json: { name: "Другой" } });
    expect(renamed.status).toBe(200);
    await h.settled();
    expect((await active(0)).count).toBe(10);
    expect((await archived()).count).toBe(3);
  });

  it("is repaired by the reconciliation when it drifted", async () => {
    // A counter that lost its way (as one of items written before the counters existed would).
    const type = "open_mining_co2";
    const before = (await h.deps.repos.statistics.listCounts(user.companyId)).find((l) => l.project === projectId && l.type === type)!;
    expect(before).toMatchObject({ active: 10, archived: 3 });
    const wrong = { project: projectId, type, active: 7, archived: -3 };
    expect(await h.deps.repos.statistics.repairListCount(user.companyId, wrong, before.rev, "2026-01-01T00:00:00.000Z")).toBe(true);
    // A page another one follows trusts the counter; one that ends the list counts itself.
    const firstFive = () => list("is_active=true&is_deleted=false&limit=5&offset=0");
    expect((await firstFive()).count).toBe(17);
    expect((await active(0)).count).toBe(10);
    expect((await archived()).count).toBe(3);
    const report = await reconcileCompanyStatistics(h.deps, user.companyId);
    expect(report.lists).toEqual([
      {
        stored: { project: projectId, type, active: 17, archived: 0 },
        counted: { project: projectId, type, active: 10, archived: 3 },
        difference: { project: projectId, type, active: -7, archived: 3 },
      },
    ]);
    expect(report).toMatchObject({ drift: [], repaired: 1, unsettled: false });
    expect((await firstFive()).count).toBe(10);
    expect((await reconcileCompanyStatistics(h.deps, user.companyId)).lists).toEqual([]);
  });
});

describe("listCount", () => {
  it("counts a list that ends on the page, trusts the counter when another page follows, never says less than the pages prove", () => {
    // A page is read with one item more than asked: 3 of 10 received, the list ends there.
    expect(listCount({ offset: 0, limit: 10 }, 3, 99)).toBe(3);
    expect(listCount({ offset: 10, limit: 10 }, 2, 5)).toBe(12);
    expect(listCount({ offset: 0, limit: 10 }, 10, 25)).toBe(10);
    expect(listCount({ offset: 0, limit: 10 }, 0, 4)).toBe(0);
    // 11 received: another page follows, the counter says how many.
    expect(listCount({ offset: 0, limit: 10 }, 11, 25)).toBe(25);
    // A counter still behind the writes: the pages prove more, and the next page is offered.
    expect(listCount({ offset: 10, limit: 10 }, 11, 12)).toBe(21);
    // Past the end: the counter, and never more than the offset.
    expect(listCount({ offset: 30, limit: 10 }, 0, 25)).toBe(25);
    expect(listCount({ offset: 20, limit: 10 }, 0, 25)).toBe(20);
  });
});
