// Methodology 9.1 at a real company's size (the deep tier; inventory-checks-size.test.ts runs the
// same at a few hundred): 10 000 calculations with an own factor without its uncertainty are one
// check per facility with the count, an answer under 100 KB, read with as many DynamoDB calls as
// a year of a few calculations per facility; 2 000 calculations of one source without a period
// answer 200 in under 3 s with the duplicates in one check. The year of 10 000 own factors prints
// its PDF passport in a worker thread whose heap is capped as the local host caps its job threads
// (1 024 MB, under the job function's 1 536 MB in AWS): with a check per calculation it had failed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_TABLE } from "@server/local/storage";
import { spreadsheetThreads } from "@server/local/spreadsheet-threads";
import { createHarness, type Harness } from "../support/harness";
import { YEAR, behind, company, facilityWithCalculation, grow, growEach, measuredInventory, type Company } from "../support/checks-at-size";

const SEEDING = { timeout: 600_000 };
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

describe("the year's checks at 10 000 calculations (9.1)", () => {
  let own: Company | undefined;

  it(
    "makes 10 000 own factors without their uncertainty one check per facility, under 100 KB, at the calls of a small year",
    SEEDING,
    async () => {
      const c = await company(h, "ООО Десять тысяч");
      own = c;
      // A facility's source has 365 days: 28 facilities, the last with what is left.
      const sizes = Array.from({ length: 28 }, (_, f) => Math.min(365, 10_000 - f * 365));
      const templates: string[] = [];
      for (const [f] of sizes.entries()) {
        templates.push((await facilityWithCalculation(c, `Шахта № ${String(f + 1).padStart(2, "0")}`, true)).calculation);
      }
      await growEach(
        c,
        templates.map((calculation) => ({ calculation, from: 1, to: 6 })),
        true,
      );
      const small = await measuredInventory(c, { warm: true });
      await growEach(
        c,
        templates.map((calculation, f) => ({ calculation, from: 6, to: sizes[f] })),
        true,
      );

      const large = await measuredInventory(c, { warm: true });
      expect(large.status).toBe(200);
      const flagged = large.body.checks.filter((check) => check.code === "custom_without_uncertainty");
      expect(flagged).toHaveLength(28);
      expect(flagged.map((check) => check.count)).toEqual(sizes);
      expect(flagged[0].message).toMatch(/^Шахта № 01: 365 расчетов с собственным коэффициентом без неопределенности — /);
      expect(flagged.every((check) => check.calculations.length === 5)).toBe(true);
      expect(large.bytes).toBeLessThan(100_000);
      expect(large.calls, `${large.commands} against ${small.commands}`).toBe(small.calls);
      expect(await behind(c, flagged[27].list!)).toHaveLength(sizes[27]);
    },
  );

  it("prints that year's PDF passport in a job thread whose heap is capped at 1 024 MB", SEEDING, async () => {
    expect(own, "the year of 10 000 own factors above").toBeDefined();
    const c = own!;
    const me = (await (await h.request("/api/v1/users/get_me/", { token: c.token })).json()) as { id: string; email: string };
    const threads = spreadsheetThreads({
      endpoint: h.endpoint!,
      tableName: LOCAL_TABLE,
      blobsDir: mkdtempSync(join(tmpdir(), "blobs-")),
      size: 1,
      heapMb: 1_024,
    });
    try {
      const actor = { id: me.id, company: c.companyId, email: me.email, role: "staff" as const };
      const result = await threads.inventoryReport(actor, { year: YEAR, format: "pdf" });
      expect(result.kind).toBe("body");
      if (result.kind !== "body") return;
      const chunks: Uint8Array[] = [];
      for await (const chunk of result.body as ReadableStream<Uint8Array>) chunks.push(chunk);
      const pdf = Buffer.concat(chunks);
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdf.byteLength).toBeGreaterThan(1_000_000);
    } finally {
      await threads.close();
    }
  });

  it(
    "answers 2 000 calculations of one source without a period in 2 storage calls more than 6, the duplicates in one check",
    SEEDING,
    async () => {
      const c = await company(h, "ООО Две тысячи");
      const { calculation } = await facilityWithCalculation(c, "Шахта «Повторная»", false);
      await grow(c, calculation, 1, 6, false);
      const small = await measuredInventory(c, { warm: true });
      await grow(c, calculation, 6, 2_000, false);
      const inventory = await measuredInventory(c, { warm: true });
      console.log(`inventory of 6 and of 2 000 duplicates: ${small.ms.toFixed(0)} and ${inventory.ms.toFixed(0)} ms (shared machine)`);
      expect(inventory.status).toBe(200);
      // The checks read the year's sums and the duplicates' list, not each calculation: at 2 000 two
      // pages more of the list than at 6 (12 calls against 10), where a read per calculation is 2 000.
      expect(inventory.calls, `${inventory.commands} against ${small.commands}`).toBeLessThanOrEqual(small.calls + 2);
      const duplicates = inventory.body.checks.filter((check) => check.code === "primary_duplicate");
      expect(duplicates).toHaveLength(1);
      expect(duplicates[0]).toMatchObject({ level: "error", count: 2_000 });
      expect(duplicates[0].message).toMatch(/источник учтен дважды — 2\s000 расчетов с пересекающимися периодами: .* и еще 1\s995;/);
      expect(inventory.bytes).toBeLessThan(100_000);
    },
  );
});
