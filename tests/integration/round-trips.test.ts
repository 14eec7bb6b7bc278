// DynamoDB round trips per API operation (issue 20, item 2): each operation may make at most the
// calls counted here, so a change that adds one fails. The counts are measured with
// tests/support/counted-api.ts, which `npm run bench -- api` prints too.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCoefficient, getDictionaryItem } from "@server/domain/dictionaries";
import { countedApi, type CountedApi } from "../support/counted-api";

let api: CountedApi;
let project: string;
let calculation: string;
/** What each operation of docs/performance.md's `api` row measured here. */
const measured: Record<string, number> = {};

beforeAll(async () => {
  api = await countedApi();
  const created = await api.callsOf("/api/v1/projects/create_project/", {
    method: "POST",
    json: { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31" },
  });
  project = (created.body as { id: string }).id;
  // The first calculation fills the process's dictionary cache; the counted ones find it warm.
  const first = await api.callsOf("/api/v1/underground_emission_ch4/", {
    method: "POST",
    json: { name: "Первый", project, volume: 1000, ef: 18 },
  });
  calculation = (first.body as { id: string }).id;
});
afterAll(() => api?.close());

describe("DynamoDB calls per API operation", () => {
  it("create-calculation", async () => {
    const { calls } = await api.callsOf("/api/v1/underground_emission_ch4/", {
      method: "POST",
      json: { name: "Расчет", project, volume: 1000, ef: 18 },
    });
    // BatchGet the signed-in user (is still active: its checks answer first, http/auth.ts), the
    // project, the dictionaries' change counter (the GWP set in force, emission factors and
    // activity uncertainties then come from the process's cache) and the project's kept sums (the
    // write may not carry them past their bound, domain/magnitudes.ts) (adapters/dynamodb/
    // coalesced-gets.ts); side by side, Update the year's review (the freeze guard, D20, as one
    // conditional write that counts the write begun, D32) and the inventory's write counter
    // (read-your-writes of the kept sums, adapters/dynamodb/calculation-repository.ts); Put the
    // calculation, which carries the year it was counted on: the table's stream counts it ended
    // (domain/inventory/writes.ts). Before the cache: 8, a Query per dictionary read; before the
    // reads were sent together: 7; before approval was atomic with writes: 6; then 7 in 7 rounds,
    // 5 in 4 (the user read on its own first), now 4.
    expect(calls.map((c) => c.command)).toEqual(["BatchGet", "Update", "Update", "Put"]);
    measured.create = calls.length;
  });

  it("edit-calculation", async () => {
    const { calls } = await api.callsOf(`/api/v1/underground_emission_ch4/${calculation}/`, { method: "PATCH", json: { volume: 2000 } });
    // BatchGet the user and the calculation; BatchGet its project, the dictionaries' counter and
    // the project's kept sums; side by side Update the year's review (the guard: the write begun)
    // and the write counter; Put the calculation (the stream ends the write). Before: 9, the
    // project read thrice; before approval was atomic with writes: 7; then 8; then 6, the user
    // read on its own first.
    expect(calls.length).toBeLessThanOrEqual(5);
    measured.edit = calls.length;
  });

  it("archive and restore a calculation", async () => {
    // BatchGet the user and the calculation; its project (with its kept sums on a restore, which
    // adds to them: their bound); side by side Update the year's review (the write begun) and
    // the write counter; Put the calculation (the stream ends the write).
    for (const [is_deleted, most] of [
      [true, 5],
      [false, 5],
    ] as const) {
      const { calls } = await api.callsOf(`/api/v1/underground_emission_ch4/${calculation}/`, { method: "PATCH", json: { is_deleted } });
      expect(calls.length).toBeLessThanOrEqual(most);
    }
  });

  it("list calculations", async () => {
    const { calls } = await api.callsOf(`/api/v1/underground_emission_ch4/?project=${project}&limit=10&offset=0`);
    // Get the user; then, side by side, Get the project (is the caller's), Query the page, Get the
    // list's count (kept by the stream handler: before, a COUNT query read every calculation of
    // the project and type); the lock of an approved year (D20): Get the project and its year's
    // review. The two reads of the project go as one.
    expect(calls.length).toBeLessThanOrEqual(5);
    measured.list = calls.length;
    expect(calls.filter((c) => c.command === "Query")).toHaveLength(1);
  });

  it("get one calculation", async () => {
    const { calls } = await api.callsOf(`/api/v1/underground_emission_ch4/${calculation}/`);
    // Get the user, Get the calculation.
    expect(calls.length).toBeLessThanOrEqual(2);
    measured.get = calls.length;
  });

  it("list projects", async () => {
    // Get the user, Query the page, Query the count.
    measured.projects = (await api.callsOf("/api/v1/projects/?limit=10&offset=0")).calls.length;
    expect(measured.projects).toBeLessThanOrEqual(3);
  });

  it("get_me", async () => {
    // Get the user (authentication, whose read the answer reuses), Get its company. Before: 3,
    // the user read twice.
    measured.get_me = (await api.callsOf("/api/v1/users/get_me/")).calls.length;
    expect(measured.get_me).toBeLessThanOrEqual(2);
  });

  it("inventory of a year", async () => {
    const { calls } = await api.callsOf("/api/v1/inventory/?year=2024");
    // Get the user, Query the facilities, Query the company's projects, Get the inventory's write
    // counters: this API has no stream to apply the kept sums, so they are never usable here and
    // the figures are folded from the company's inventory calculations (Query). Get the
    // dictionaries' change counter (the GWP sets, cached), Query every year's review (this year's,
    // and which years stand approved and show their approved figures, D32; before: Get the
    // year's review), Query the company's emission points (D25). The two
    // calculations of the fixture count one source twice (D19): Query the project's calculations
    // of the two types that can make its code to name them. The counters and the dictionaries'
    // counter go as one BatchGet. With the kept sums (npm run bench -- inventory): 7 at any size,
    // none per calculation. Before the kept sums' checks: 6; before the emission points: 8.
    expect(calls.length).toBeLessThanOrEqual(9);
    measured.inventory = calls.length;
    expect(calls.filter((c) => c.command === "Query")).toHaveLength(7);
  });

  it("are the ones docs/performance.md states", () => {
    // Its `api` row: create · list calculations · get one · list projects · get_me · inventory.
    const row = readFileSync("docs/performance.md", "utf8")
      .split("\n")
      .find((line) => line.startsWith("| `api` |"));
    const documented = row
      ?.split("|")[3]
      .match(/^\s*(\d+) · (\d+) · (\d+) · (\d+) · (\d+) · (\d+)/)
      ?.slice(1)
      .map(Number);
    const order = ["create", "list", "get", "projects", "get_me", "inventory"];
    expect(documented).toEqual(order.map((name) => measured[name]));
  });
});

describe("dictionaries kept in the process", () => {
  it("see another process's change at the next request, and refuse the value it replaced", async () => {
    const other = api.otherProcess();
    const dictionary = "get_underground_emission_ch4";
    const before = await getDictionaryItem(other, dictionary, 1);
    await changeCoefficient(
      other,
      dictionary,
      1,
      { field: "ef", value: before.values.ef.value + 1, effective_from: "2026-01-01", reason: "Проверка кэша", version: before.version },
      "admin@example.com",
    );
    const stale = await api.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      json: { name: "Старое значение", project, volume: 1000, ef: before.values.ef.value, dictionary_items: { [dictionary]: 1 } },
    });
    expect(stale.status).toBe(409);
    const fresh = await api.callsOf("/api/v1/underground_emission_ch4/", {
      method: "POST",
      json: { name: "Новое значение", project, volume: 1000, dictionary_items: { [dictionary]: 1 } },
    });
    const used = (fresh.body as { coefficients: { ef: { value: number; item_version: number } } }).coefficients.ef;
    expect(used).toMatchObject({ value: before.values.ef.value + 1, item_version: before.version + 1 });
  });
});
