// A line of the inventory that changed by more than ±50 % against the year before asks for a comment
// (a warning on the later year), and a comment on the year naming the line clears it. On the
// in-memory repositories.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { Actor } from "../context";
import { addComment } from "./comments";
import { getInventory } from "./year";

let d: MemoryDomain;
let actor: Actor;

async function mined(year: number, volume: number) {
  const pit = await d.facility(actor, { name: `Разрез ${year}`, kind: "open_pit" });
  const project = await d.project(actor, {
    name: `Добыча ${year}`,
    start_date: `${year}-01-01`,
    end_date: `${year}-12-31`,
    facility: pit.id,
  });
  await d.calc(actor, "open_mining_co2", { name: `Добыча ${year}`, project: project.id, volume, ef: 3.149 });
}

const jumps = async (year: number) => (await getInventory(d.deps, actor, year)).checks.filter((c) => c.code === "year_jump");

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО «Скачок»");
  await mined(2023, 10_000);
  await mined(2024, 14_000);
  await mined(2025, 24_080);
});

describe("a year-over-year jump of a line", () => {
  it("is no warning within ±50 %", async () => {
    expect(await jumps(2024)).toEqual([]);
  });

  it("warns on the later year with the change in per cent, and a comment naming the line clears it", async () => {
    const [warning] = await jumps(2025);
    expect(warning.level).toBe("warning");
    expect(warning.message).toMatch(/^1\.A\.1\.c\.ii «.+», CO2: изменение на \+72 % к 2024 году: поясните/);
    // A comment about something else leaves it.
    await addComment(d.deps, actor, 2025, { text: "Проверено" });
    expect(await jumps(2025)).toHaveLength(1);
    await addComment(d.deps, actor, 2025, { text: "1.A.1.c.ii: добыча выросла после ввода второго участка" });
    expect(await jumps(2025)).toEqual([]);
  });
});
