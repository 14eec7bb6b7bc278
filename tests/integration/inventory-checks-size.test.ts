// Methodology 9.1 at a few hundred calculations (the deep tier runs the same at 10 000:
// inventory-checks.deep.test.ts): own factors without their uncertainty are one check per facility
// with the count and a handful named, read with as many DynamoDB calls as a facility of one; one
// source entered many times without a period is one duplicate check with the count, never every
// pair; the list behind each check is paged by v1/inventory/calculations?check=.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { behind, company, facilityWithCalculation, grow, measuredInventory, type Company } from "../support/checks-at-size";
import { fieldName } from "@server/contract/field-names";

const PER_FACILITY = 150;
// Seeding a few hundred calculations through the table's stream takes its time on a busy machine.
const SEEDING = { timeout: 180_000 };
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

describe("the year's checks at a company's size (9.1)", () => {
  let c: Company;
  beforeAll(async () => {
    c = await company(h, "ООО Свои коэффициенты");
  });

  it("makes own factors without their uncertainty one check per facility with the count, at the calls of one", SEEDING, async () => {
    const north = await facilityWithCalculation(c, "Шахта «Северная»", true);
    const south = await facilityWithCalculation(c, "Шахта «Южная»", true);
    // A few more than a check names, then a real size: each a day of its own, so nothing overlaps.
    await grow(c, north.calculation, 1, 6, true);
    await grow(c, south.calculation, 1, 6, true);
    const small = await measuredInventory(c, { warm: true });
    expect(small.body.checks.filter((check) => check.code === "custom_without_uncertainty")).toHaveLength(2);

    await grow(c, north.calculation, 6, PER_FACILITY, true);
    await grow(c, south.calculation, 6, PER_FACILITY, true);
    const large = await measuredInventory(c, { warm: true });
    expect(large.status).toBe(200);
    const flagged = large.body.checks.filter((check) => check.code === "custom_without_uncertainty");
    expect(flagged.map((check) => check.message.split(":")[0])).toEqual(["Шахта «Северная»", "Шахта «Южная»"]);
    for (const check of flagged) {
      expect(check).toMatchObject({ level: "info", count: PER_FACILITY });
      expect(check.message).toMatch(/: 150 расчетов с собственным коэффициентом без неопределенности — «.+» и еще 145; применена/);
      expect(check.calculations).toHaveLength(5);
      expect(large.body.check_calculations.filter((named) => check.calculations.includes(named.id))).toHaveLength(5);
    }
    // The list behind a check: every calculation of its facility, a page at a time.
    const listed = await behind(c, flagged[0].list!);
    expect(listed).toHaveLength(PER_FACILITY);
    expect(new Set(listed.map((row) => row.facility))).toEqual(new Set([north.facility]));
    expect(listed.every((row) => row.flags.includes("custom_without_uncertainty:ef"))).toBe(true);
    // As many DynamoDB calls as with one calculation per facility, and a small answer.
    expect(large.calls, `${large.commands} against ${small.commands}`).toBe(small.calls);
    expect(large.bytes).toBeLessThan(20_000);
  });

  it("refuses a list key no check gives with a 400", async () => {
    const res = await h.request("/api/v1/inventory/calculations?year=2025&check=custom_without_uncertainty", { token: c.token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("check")}: `));
  });
});

describe("one source entered many times without a period (9.1)", () => {
  it("is one duplicate check with the count, found without pairing every calculation", SEEDING, async () => {
    const c = await company(h, "ООО Дубли");
    const { calculation } = await facilityWithCalculation(c, "Шахта «Повторная»", false);
    await grow(c, calculation, 1, 300, false);
    const inventory = await measuredInventory(c);
    expect(inventory.status).toBe(200);
    const duplicates = inventory.body.checks.filter((check) => check.code === "primary_duplicate");
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0]).toMatchObject({ level: "error", count: 300 });
    expect(duplicates[0].calculations).toHaveLength(5);
    expect(duplicates[0].message).toMatch(
      /^Шахта «Повторная», 1\.B\.1\.a\.i\.1 .*, CH4: источник учтен дважды — 300 расчетов с пересекающимися периодами: «.+» \(01\.01\.2025–31\.12\.2025\), .* и еще 295; если один расчет повторяет другой/,
    );
    expect(inventory.bytes).toBeLessThan(20_000);
    expect(await behind(c, duplicates[0].list!)).toHaveLength(300);
  });
});
