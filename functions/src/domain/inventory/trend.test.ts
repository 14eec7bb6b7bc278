// The trend's methane line (GET v1/inventory/trend/): a mine's drained and destroyed CH4 are the
// year's balance's, and the share destroyed is of the drained gas. On the in-memory repositories.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../contract/schemas/facility";
import { parseWith } from "../../http/validate";
import { createPoint } from "../company/emission-points";
import type { Actor } from "../context";
import { getTrend } from "./trend";
import { getInventory } from "./year";

let d: MemoryDomain;
let actor: Actor;

const GAS = { p_co2: 1.8393, p_ch4: 0.668 };
/** t CH4 = thousand m³ × % / 100 × 0,668. */
const ch4 = (volume: number, w: number) => (volume * w * 0.668) / 100;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО Дегазация и годы");
  const facility = await d.facility(actor, { name: "Шахта «Газовая»", kind: "underground_mine" });
  const point = (name: string, kind: string) =>
    d.write(() => createPoint(d.deps, actor, facility.id, parseWith(pointCreateSchema, { name, kind })));
  const drainage = await point("ВДУ-1", "drainage_station");
  const flare = await point("Факел", "flare");
  const project = await d.project(actor, { name: "2024", start_date: "2024-01-01", end_date: "2024-12-31", facility: facility.id });
  await d.calc(actor, "underground", {
    name: "ВДУ-1",
    project: project.id,
    basis: "gross",
    volume: 30_000,
    ef_ch4: 60,
    ef_co2: 0,
    ...GAS,
    point: drainage.id,
  });
  await d.calc(actor, "torch_composition", {
    name: "Факел",
    project: project.id,
    volume: 10_000,
    w_ch4: 60,
    w_co2: 0,
    cf: 0.0006,
    ...GAS,
    dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    point: flare.id,
  });
});

describe("the trend's methane drained and destroyed", () => {
  it("gives the year's balance figures and the share of the drained gas destroyed", async () => {
    const { years } = await getTrend(d.deps, actor, 2024, 2024);
    const balance = (await getInventory(d.deps, actor, 2024)).balance[0];
    expect(balance.drained_t).toBeCloseTo(ch4(30_000, 60), 6);
    expect(years[0].methane).toEqual({
      drained_t: balance.drained_t,
      destroyed_t: balance.destroyed_t,
      destroyed_share_pct: expect.closeTo((balance.destroyed_t / balance.drained_t!) * 100, 9),
    });
    // The flare burnt 10 000 of the 30 000 thousand m³ drained, less its slip.
    expect(years[0].methane!.destroyed_share_pct).toBeGreaterThan(33);
    expect(years[0].methane!.destroyed_share_pct).toBeLessThan(33.4);
  });
});
