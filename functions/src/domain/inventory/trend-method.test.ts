// A method change between years is marked on the trend: a mine whose methane was measured in 2023
// and estimated by the IPCC factor in 2024 shows the change on the 2024 line; a year whose methods
// stay is not marked. On the in-memory repositories.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { Actor } from "../context";
import { getTrend } from "./trend";

let d: MemoryDomain;
let actor: Actor;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО «Смена метода»");
  const mine = await d.facility(actor, { name: "Шахта «Метод»", kind: "underground_mine" });
  const project = (year: number) =>
    d.project(actor, { name: `Шахта ${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31`, facility: mine.id });
  const measured = await project(2023);
  await d.calc(actor, "underground", {
    name: "Вентиляция 2023",
    project: measured.id,
    volume: 30_000,
    ef_ch4: 0.5,
    ef_co2: 0.1,
    p_co2: 1.8393,
    p_ch4: 0.668,
  });
  for (const year of [2024, 2025]) {
    const estimated = await project(year);
    await d.calc(actor, "underground_emission_ch4", {
      name: `Добыча ${year}`,
      project: estimated.id,
      volume: 500_000,
      dictionary_items: { get_underground_emission_ch4: 1 },
    });
  }
}, 60_000);

describe("a method change between years on the trend", () => {
  it("marks measured → estimated on the later year's line, and nothing where the methods stay", async () => {
    const { years } = await getTrend(d.deps, actor, 2023, 2025);
    expect(years.map((y) => y.year)).toEqual([2023, 2024, 2025]);
    expect(years[0].method_changes).toBeUndefined();
    expect(years[1].method_changes).toEqual([
      {
        category: 3,
        ipcc_code: "1.B.1.a.i.1",
        gas: "CH4",
        before: ["Периодические измерения"],
        after: ["Расчетный метод по коэффициентам"],
      },
    ]);
    expect(years[2].method_changes).toBeUndefined();
  });
});
