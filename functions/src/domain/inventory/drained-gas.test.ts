// Methodology D35–D37, D42 on the in-memory repositories: the gas a flare burnt comes off the
// drainage station that fed it, never off a ventilation shaft; more sent to burn than drained is an
// error naming both figures; a net drainage figure beside a flare warns with the figure a gross entry
// would give; a shaft measured for half a year leaves a gap.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../contract/schemas/facility";
import { parseWith } from "../../http/validate";
import { createPoint } from "../company/emission-points";
import type { Actor } from "../context";
import { Invalid } from "../errors";
import { getInventory, listInventoryCalculations } from "./year";

let d: MemoryDomain;
let actor: Actor;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО Дегазация");
});

const GAS = { p_co2: 1.8393, p_ch4: 0.668 };
const point = (facility: string, name: string, kind: string) =>
  d.write(() => createPoint(d.deps, actor, facility, parseWith(pointCreateSchema, { name, kind })));

async function mine(name: string) {
  const facility = await d.facility(actor, { name, kind: "underground_mine" });
  const project = await d.project(actor, { name: `${name} 2024`, start_date: "2024-01-01", end_date: "2024-12-31", facility: facility.id });
  const points = {
    shaft: await point(facility.id, "ВС-1", "ventilation_shaft"),
    drainage: await point(facility.id, "ВДУ-1", "drainage_station"),
    flare: await point(facility.id, "Факел", "flare"),
  };
  return { facility, project, points };
}

/** t CH4 = thousand m³ × % / 100 × 0,668. */
const ch4 = (volume: number, w: number) => (volume * w * 0.668) / 100;

describe("the gas burnt comes off the drainage that fed it (D35, D36)", () => {
  it("takes the flare's methane off the drainage station only; the shaft's «чистые» is its gross", async () => {
    const { facility, project, points } = await mine("Шахта «Ствол»");
    const shaft = await d.calc(actor, "underground", {
      name: "ВС-1",
      project: project.id,
      basis: "gross",
      volume: 400_000,
      ef_ch4: 0.5,
      ef_co2: 0,
      ...GAS,
      point: points.shaft.id,
    });
    const drainage = await d.calc(actor, "underground", {
      name: "ВДУ-1",
      project: project.id,
      basis: "gross",
      volume: 30_000,
      ef_ch4: 60,
      ef_co2: 0,
      ...GAS,
      point: points.drainage.id,
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
      point: points.flare.id,
    });
    const rows = (await listInventoryCalculations(d.deps, actor, { year: 2024, facility: facility.id, limit: 100, offset: 0 })).results;
    const off = (id: string) => rows.find((r) => r.id === id)!.netting?.find((n) => n.gas === "CH4")?.t ?? 0;
    expect(off(shaft.id)).toBe(0);
    expect(off(drainage.id)).toBeCloseTo(ch4(10_000, 60), 6);
    const inv = await getInventory(d.deps, actor, 2024, facility.id);
    const stream = (id: string) => inv.balance[0].streams!.find((s) => s.point === id)!;
    expect(stream(points.shaft.id).to_air_t).toBeCloseTo(ch4(400_000, 0.5), 6);
    expect(stream(points.drainage.id).to_air_t).toBeCloseTo(ch4(30_000, 60) - ch4(10_000, 60), 6);
    expect(inv.checks.map((c) => c.code)).not.toContain("destroyed_exceeds_drained");
  });

  it("is an error naming both figures when the flare burnt more than the station drained, and nets only what it drained", async () => {
    const { facility, project, points } = await mine("Шахта «Перебор»");
    await d.calc(actor, "underground", {
      name: "ВС-1",
      project: project.id,
      basis: "gross",
      volume: 400_000,
      ef_ch4: 0.5,
      ef_co2: 0,
      ...GAS,
      point: points.shaft.id,
    });
    await d.calc(actor, "underground", {
      name: "ВДУ-1",
      project: project.id,
      basis: "gross",
      volume: 5_000,
      ef_ch4: 60,
      ef_co2: 0,
      ...GAS,
      point: points.drainage.id,
    });
    await d.calc(actor, "torch_composition", {
      name: "Факел",
      project: project.id,
      volume: 10_000,
      w_ch4: 60,
      w_co2: 0,
      cf: 0,
      ...GAS,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
      point: points.flare.id,
    });
    const inv = await getInventory(d.deps, actor, 2024, facility.id);
    const error = inv.checks.find((c) => c.code === "destroyed_exceeds_drained")!;
    expect(error.level).toBe("error");
    // 10 000 × 60 % × 0,668 = 4 008 t sent, 5 000 × 60 % × 0,668 = 2 004 t drained.
    expect(error.message).toContain("«ВДУ-1»: на факелы, в котельные и ГПУ направлено 4\u00a0008 т CH4, а каптировано этой установкой");
    expect(error.message).toContain("2\u00a0004 т");
    const mining = inv.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!;
    // The shaft's gas still counts in full.
    expect(mining.t).toBeCloseTo(ch4(400_000, 0.5), 6);
  });

  it("warns of a net drainage figure beside a flare, naming the figure a gross entry would give (D37)", async () => {
    const { facility, project, points } = await mine("Шахта «Чистый»");
    await d.calc(actor, "underground", {
      name: "ВДУ-1",
      project: project.id,
      basis: "net",
      volume: 30_000,
      ef_ch4: 60,
      ef_co2: 0,
      ...GAS,
      point: points.drainage.id,
    });
    await d.calc(actor, "torch_composition", {
      name: "Факел",
      project: project.id,
      volume: 10_000,
      w_ch4: 60,
      w_co2: 0,
      cf: 0,
      ...GAS,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
      point: points.flare.id,
    });
    const inv = await getInventory(d.deps, actor, 2024, facility.id);
    const warning = inv.checks.find((c) => c.code === "possible_double_count")!;
    expect(warning.level).toBe("warning");
    // 12 024 t net + 4 008 t burnt = 16 032 t.
    expect(warning.message).toContain("чистый выброс (только выброшенное без сжигания) — 12\u00a0024 т CH4");
    expect(warning.message).toContain("Валовый ввод (всё каптированное, включая сожженное) дал бы 16\u00a0032 т");
  });

  it("names the drainage stations a flare burns: stations of its facility only (400 naming the field)", async () => {
    const { project, points } = await mine("Шахта «Две установки»");
    const flare = {
      name: "Факел",
      project: project.id,
      volume: 10,
      w_ch4: 60,
      w_co2: 0,
      cf: 0,
      ...GAS,
      dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
    };
    const named = await d.calc(actor, "torch_composition", { ...flare, drainage_points: [points.drainage.id] });
    expect(named.drainage_points).toEqual([points.drainage.id]);
    await expect(d.calc(actor, "torch_composition", { ...flare, drainage_points: [points.shaft.id] })).rejects.toThrow(
      /^drainage_points: «ВС-1» — не дегазационная установка/,
    );
    await expect(d.calc(actor, "torch_composition", { ...flare, drainage_points: ["nope"] })).rejects.toBeInstanceOf(Invalid);
    const shaft = d.calc(actor, "underground", {
      name: "ВС",
      project: project.id,
      volume: 1,
      ef_ch4: 1,
      ef_co2: 0,
      ...GAS,
      drainage_points: [points.drainage.id],
    });
    await expect(shaft).rejects.toThrow(/^drainage_points: /);
    const cleared = await d.patch(actor, named, { drainage_points: null, version: named.version });
    expect(cleared.drainage_points).toBeUndefined();
  });
});

describe("coverage from the measurement periods (D42)", () => {
  it("a shaft measured January–June leaves the rest of the year a gap, and covers January–June", async () => {
    const { facility, project, points } = await mine("Шахта «Полгода»");
    const months = [1, 2, 3, 4, 5, 6].map((m) => {
      const last = new Date(Date.UTC(2024, m, 0)).getUTCDate();
      const mm = String(m).padStart(2, "0");
      return { from: `2024-${mm}-01`, to: `2024-${mm}-${last}`, flow_m3_min: 1000, hours: 100, w_ch4: 0.5, w_co2: 0.1 };
    });
    const shaft = await d.calc(actor, "underground", {
      name: "ВС-1 январь–июнь",
      project: project.id,
      basis: "gross",
      periods: months,
      dictionary_items: { get_underground: 1 },
      point: points.shaft.id,
    });
    const inv = await getInventory(d.deps, actor, 2024, facility.id);
    const gap = inv.checks.find((c) => c.code === "source_period_gap" && c.message.includes("«ВС-1»"))!;
    expect(gap.message).toContain("01.07.2024–31.12.2024");
    const rows = (await listInventoryCalculations(d.deps, actor, { year: 2024, facility: facility.id, limit: 100, offset: 0 })).results;
    expect(rows.find((r) => r.id === shaft.id)!.period).toEqual({ from: "2024-01-01", to: "2024-06-30" });
  });
});

describe("a standing duplicate counts once (D43)", () => {
  it("counts the measured shaft, lists the estimate of the whole mine as «Не учтен: дубликат — нужно решение», and sending stays refused", async () => {
    const { assertSendable } = await import("./send");
    const { facility, project, points } = await mine("Шахта «Дубликат»");
    const estimate = await d.calc(actor, "underground_emission_ch4", {
      name: "Оценка по добыче",
      project: project.id,
      volume: 1_000_000,
      ef: 18,
      koef_transform: 0.67,
    });
    const shaft = await d.calc(actor, "underground", {
      name: "ВС-1",
      project: project.id,
      basis: "gross",
      volume: 400_000,
      ef_ch4: 0.5,
      ef_co2: 0,
      ...GAS,
      point: points.shaft.id,
    });
    const inv = await getInventory(d.deps, actor, 2024, facility.id);
    // The measured shaft counts, the estimate (stored first) does not: 1 336 t CH4, not 1 336 + 12 060.
    const mining = inv.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!;
    expect(mining.t).toBeCloseTo(shaft.res_ch4!, 6);
    expect(inv.total_t_co2e).toBeCloseTo(shaft.res_ch4! * 25, 6);
    const duplicate = inv.checks.find((c) => c.code === "primary_duplicate")!;
    expect(duplicate.level).toBe("error");
    expect(duplicate.message).toContain(
      "Пока дубликат не устранен, в итог входит «ВС-1», не учтен: «Оценка по добыче» (+301\u00a0500 т CO2-экв., если учесть).",
    );
    expect(inv.checks.find((c) => c.code === "alternatives_excluded")!.message).toBe("Не учтен: 1 дубликат (нужно решение)");
    const rows = (await listInventoryCalculations(d.deps, actor, { year: 2024, facility: facility.id, limit: 100, offset: 0 })).results;
    expect(rows.find((r) => r.id === estimate.id)).toMatchObject({ counted: false, not_counted: "Не учтен: дубликат — нужно решение" });
    expect(rows.find((r) => r.id === shaft.id)).toMatchObject({ counted: true });
    await expect(assertSendable(d.deps, actor, 2024, { action: "send_to_review", version: inv.review.version })).rejects.toThrow(
      /источник учтен дважды/,
    );
  });

  it("of two measurements of one point, counts the one stored first", async () => {
    const { facility, project, points } = await mine("Шахта «Два замера»");
    const body = { project: project.id, basis: "gross", ef_ch4: 0.5, ef_co2: 0, ...GAS, point: points.shaft.id };
    const first = await d.calc(actor, "underground", { ...body, name: "Замер 1", volume: 400_000 });
    await d.calc(actor, "underground", { ...body, name: "Замер 2", volume: 500_000 });
    const inv = await getInventory(d.deps, actor, 2024, facility.id);
    expect(inv.categories.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!.t).toBeCloseTo(first.res_ch4!, 6);
  });
});
