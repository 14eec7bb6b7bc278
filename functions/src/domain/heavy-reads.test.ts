// The whole-year answers kept per company's data version (domain/heavy-reads.ts) on the
// in-memory repositories: the same question asked again is answered from what is kept, callers asking
// at once share one computation, a change of the company's data (a facility added) computes it anew,
// another company's question is its own, and a computation that fails is not kept. Over HTTP, with the
// calculations' writes and the bursts: tests/integration/heavy-reads.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../tests/support/memory-domain";
import type { Actor } from "./context";
import { companyDataVersion, heavyRead } from "./heavy-reads";

let d: MemoryDomain;
let staff: Actor;
let other: Actor;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Годовые ответы»");
  other = await d.actor("ООО «Соседи»");
  await d.settled();
});

/** A computation that counts its runs and answers the run's number. */
function counted() {
  let runs = 0;
  return {
    runs: () => runs,
    compute: async () => {
      runs += 1;
      return { run: runs };
    },
  };
}

describe("a whole-year answer kept per the company's data", () => {
  it("is computed once for callers asking at once and again only when the company's data change", async () => {
    const year = counted();
    const what = ["uncertainty", 2026];
    const together = await Promise.all([1, 2, 3].map(() => heavyRead(d.deps, staff, what, year.compute)));
    expect(together).toEqual([{ run: 1 }, { run: 1 }, { run: 1 }]);
    expect(await heavyRead(d.deps, staff, what, year.compute)).toEqual({ run: 1 });
    // Another question, and another company's same question, are their own.
    expect(await heavyRead(d.deps, staff, ["uncertainty", 2025], year.compute)).toEqual({ run: 2 });
    expect(await heavyRead(d.deps, other, what, year.compute)).toEqual({ run: 3 });

    const before = await companyDataVersion(d.deps, staff.company);
    await d.facility(staff, { name: "Шахта «Новая»", kind: "underground_mine" });
    await d.settled();
    expect(await companyDataVersion(d.deps, staff.company)).not.toBe(before);
    expect(await heavyRead(d.deps, staff, what, year.compute)).toEqual({ run: 4 });
    expect(await heavyRead(d.deps, staff, what, year.compute)).toEqual({ run: 4 });
    // The other company's data did not change: its answer is still kept.
    expect(await heavyRead(d.deps, other, what, year.compute)).toEqual({ run: 3 });
    expect(year.runs()).toBe(4);
  });

  it("keeps no failed computation: the next caller computes it again", async () => {
    let calls = 0;
    const flaky = async () => {
      calls += 1;
      if (calls === 1) throw new Error("сбой расчета");
      return { calls };
    };
    await expect(heavyRead(d.deps, staff, ["trend"], flaky)).rejects.toThrow("сбой расчета");
    expect(await heavyRead(d.deps, staff, ["trend"], flaky)).toEqual({ calls: 2 });
  });
});
