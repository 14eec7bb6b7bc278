// DynamoDB round trips per API operation: each operation may make at most the
// calls counted here, in at most the sequential rounds, so a change that adds one fails. The calls
// are measured by tests/support/api-call-counts.ts (with tests/support/counted-api.ts), which
// `npm run bench -- api` prints too and, with `--write-docs`, writes into docs/performance.md: the
// last test fails when that table says other than what was measured here, or when the load's
// figures (`npm run load -- --write-docs`) state other calls per create than its create makes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCoefficient, getDictionaryItem } from "@server/domain/reference/dictionaries";
import { countedApi, type CountedApi } from "../support/counted-api";
import { OPERATIONS, documented, measureOperations, roundsOf, type Measured } from "../support/api-call-counts";
import { documentedCreateCalls, loadCreateCalls } from "../support/load-create";

let api: CountedApi;
let project: string;
let measured: Measured;
const commands = (operation: keyof Measured["calls"]) => measured.calls[operation].map((c) => `${c.command}@${c.round}`);

beforeAll(async () => {
  api = await countedApi();
  measured = await measureOperations(api);
  project = measured.project;
});
afterAll(() => api?.close());

describe("DynamoDB calls per API operation", () => {
  it("create-calculation", () => {
    // BatchGet the signed-in user (is still active: its checks answer first, http/auth.ts), the
    // project and the dictionaries' change counter (the GWP set in force, emission factors and
    // activity uncertainties then come from the process's cache) (adapters/dynamodb/
    // coalesced-gets.ts); side by side, Update the year's review (the freeze guard, D20, as one
    // conditional write that counts the write begun, D32), the inventory's write counter
    // (read-your-writes of the kept sums, adapters/dynamodb/calculation-repository.ts) and the
    // project's lines (the room the write takes under their bound, domain/inventory/magnitudes.ts);
    // Put the calculation, which carries the year it was counted on: the table's stream counts it
    // ended (domain/inventory/writes.ts). Before the cache: 8, a Query per dictionary read; before
    // the reads were sent together: 7; before approval was atomic with writes: 6; then 7 in 7
    // rounds, 5 in 4 (the user read on its own first), 4 in 3 (the kept sums read beside the
    // project, which lag the writes: parallel creates passed the bound), now 5 in 3.
    expect(commands("create")).toEqual(["BatchGet@1", "Update@2", "Update@2", "Update@2", "Put@3"]);
  });

  it("edit-calculation", () => {
    // BatchGet the user and the calculation; BatchGet its project and the dictionaries' counter;
    // side by side Update the year's review (the guard: the write begun), the write counter and
    // the project's lines (the room the edit adds); Put the calculation (the stream ends the
    // write). Before: 9, the project read thrice; before approval was atomic with writes: 7; then
    // 8; then 6 in 5, the user read on its own first; then 5 in 4 with the kept sums read.
    expect(commands("edit")).toEqual(["BatchGet@1", "BatchGet@2", "Update@3", "Update@3", "Update@3", "Put@4"]);
  });

  it("archive and restore a calculation", () => {
    // BatchGet the user and the calculation; its project; side by side Update the year's review
    // (the write begun) and the write counter, and on a restore the project's lines (the room it
    // takes again); Put the calculation (the stream ends the write); after an archive, Update the
    // project's lines (the room given back once it is archived). Before: 6 in 5, then 5 in 4.
    expect(measured.calls.restore.length).toBeLessThanOrEqual(6);
    expect(roundsOf(measured.calls.restore)).toBeLessThanOrEqual(4);
    expect(measured.calls.archive.length).toBeLessThanOrEqual(6);
    expect(roundsOf(measured.calls.archive)).toBeLessThanOrEqual(5);
  });

  it("list calculations", () => {
    // Get the user; then, side by side, Get the project (is the caller's), Query the page, Get the
    // list's count (kept by the stream handler: before, a COUNT query read every calculation of
    // the project and type); the lock of an approved year (D20): Get the project and its year's
    // review. The two reads of the project go as one.
    expect(measured.calls.list.length).toBeLessThanOrEqual(5);
    expect(roundsOf(measured.calls.list)).toBeLessThanOrEqual(3);
    expect(measured.calls.list.filter((c) => c.command === "Query")).toHaveLength(1);
  });

  it("get one calculation", () => {
    // Get the user, Get the calculation.
    expect(measured.calls.get.length).toBeLessThanOrEqual(2);
  });

  it("list projects", () => {
    // Get the user, Query the page, Query the count.
    expect(measured.calls.projects.length).toBeLessThanOrEqual(3);
  });

  it("get_me", () => {
    // Get the user (authentication, whose read the answer reuses), Get its company. Before: 3,
    // the user read twice.
    expect(measured.calls.get_me.length).toBeLessThanOrEqual(2);
  });

  it("inventory of a year", () => {
    // Get the user, Query the facilities, Query the company's projects, Get the inventory's write
    // counters: this API has no stream to apply the kept sums, so they are never usable here and
    // the figures are folded from the company's inventory calculations (Query). Get the
    // dictionaries' change counter (the GWP sets, cached), Query every year's review (this year's,
    // and which years stand approved and show their approved figures, D32; before: Get the
    // year's review), Query the company's emission points (D25). The two
    // calculations of the fixture count one source twice (D19): Query the project's calculations
    // of the two types that can make its code to name them. The counters and the dictionaries'
    // counter go as one BatchGet. Beside the folded calculations, Query the company's calculations
    // for those stored of the wrong shape, which the folded ones leave out (with the kept sums they
    // are marked there instead). With the kept sums (npm run bench -- inventory): 7 at any size,
    // none per calculation. Before the kept sums' checks: 6; before the emission points: 8; before
    // the damaged calculations' check: 9.
    expect(measured.calls.inventory.length).toBeLessThanOrEqual(10);
    expect(measured.calls.inventory.filter((c) => c.command === "Query")).toHaveLength(8);
  });

  it("are the ones docs/performance.md's generated table states", () => {
    const expected = Object.fromEntries(
      OPERATIONS.map(([operation]) => [
        operation,
        { calls: measured.calls[operation].length, rounds: roundsOf(measured.calls[operation]) },
      ]),
    );
    // On a difference: `npm run bench -- api --write-docs` writes the table from a run.
    expect(documented()).toEqual(expected);
  });

  it("per create are the ones docs/performance.md's load figures state", async () => {
    const documentedCalls = documentedCreateCalls();
    expect(documentedCalls, "the load figures are written (npm run load -- --write-docs)").toBeDefined();
    // On a difference: `npm run load -- --write-docs` writes the figures from a run.
    expect((await loadCreateCalls()).length).toBe(documentedCalls);
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
