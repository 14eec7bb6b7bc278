// an earlier round on the in-memory repositories (methodology D16, D19, D22, D23): a
// calculation's own period within its project's dates; a source counted twice is an error check
// naming both calculations, quarters that tile the year add up and a part of the year left uncovered
// is a warning naming the dates; the IPCC codes of flaring and of fuel; the IPCC flare types created
// as alternatives; an own value without its own uncertainty takes the dictionary band and is flagged.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import { SECTION_7_VECTORS } from "@core/methodology-vectors";
import type { CalculationType } from "@core/registry";
import type { CalculationView } from "../../contract";
import { calculationView } from "../calculations/calculations";
import { getCalculation } from "../calculation-lookup";
import type { Actor } from "../context";
import { Invalid } from "../errors";
import { getInventory, listInventoryCalculations, type InventoryCalculationsQuery } from "./year";
import { fieldName } from "../../contract/field-names";

let d: MemoryDomain;
let actor: Actor;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  actor = await d.actor("ООО Периоды");
});

const facility = (name: string, kind = "underground_mine") => d.facility(actor, { name, kind });

const project = (name: string, year: number, facilityId: string | null, start = `${year}-01-01`, end = `${year}-12-31`) =>
  d.project(actor, { name, start_date: start, end_date: end, facility: facilityId });

const post = (type: string, projectId: string, name: string, body: Record<string, unknown>) =>
  d.calc(actor, type as CalculationType, { name, project: projectId, ...body }) as Promise<CalculationView>;

const calc = post;

const inventory = (year: number, facilityId?: string) => getInventory(d.deps, actor, year, facilityId);

/** Every calculation of the year's inventory (of a line, facility, counted or not, behind a check), page by page. */
async function inventoryCalculations(year: number, filter: Omit<InventoryCalculationsQuery, "year" | "limit" | "offset"> = {}) {
  const collected = [];
  for (;;) {
    const page = await listInventoryCalculations(d.deps, actor, { year, ...filter, limit: 100, offset: collected.length });
    collected.push(...page.results);
    if (page.results.length === 0 || collected.length >= page.count) return collected;
  }
}

/** The year's calculations (of a facility) as the inventory shows them. */
const calculationsOf = (year: number, facility?: string) => inventoryCalculations(year, { facility });

const TIER1 = { volume: 1_000_000, ef: 18, koef_transform: 0.67 };

/** A refusal: bad input whose detail matches. */
async function refused(attempt: Promise<unknown>, detail: RegExp) {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Invalid);
  expect((error as Invalid).detail).toMatch(detail);
}

describe("a calculation's period (D19)", () => {
  it("is stored, returned and edited within the project's dates, and refused outside them with a 400 naming the field", async () => {
    const p = await project("Период 2025", 2025, null);
    const q2 = await calc("underground_emission_ch4", p.id, "2 квартал", { ...TIER1, period: { from: "2025-04-01", to: "2025-06-30" } });
    expect(q2.period).toEqual({ from: "2025-04-01", to: "2025-06-30" });
    const read = calculationView(await getCalculation(d.deps, actor, "underground_emission_ch4", q2.id));
    expect(read.period).toEqual({ from: "2025-04-01", to: "2025-06-30" });

    await refused(
      post("underground_emission_ch4", p.id, "Раньше проекта", {
        ...TIER1,
        period: { from: "2024-12-01", to: "2025-03-31" },
      }),
      new RegExp(`^${fieldName("period.from")}: .*01\\.01\\.2025–31\\.12\\.2025`),
    );
    await refused(
      post("underground_emission_ch4", p.id, "Позже проекта", {
        ...TIER1,
        period: { from: "2025-10-01", to: "2026-01-31" },
      }),
      new RegExp(`^${fieldName("period.to")}: `),
    );
    await refused(
      post("underground_emission_ch4", p.id, "Наоборот", {
        ...TIER1,
        period: { from: "2025-03-31", to: "2025-01-01" },
      }),
      new RegExp(`^${fieldName("period.to")}: `),
    );
    await refused(
      post("underground_emission_ch4", p.id, "Не дата", { ...TIER1, period: { from: "01.01.2025", to: "2025-03-31" } }),
      new RegExp(`^${fieldName("period.from")}: `),
    );

    await refused(
      d.patch(actor, q2, { period: { from: "2025-07-01", to: "2026-03-31" }, version: q2.version }),
      new RegExp(`^${fieldName("period.to")}: `),
    );
    const q3 = await d.patch(actor, q2, { period: { from: "2025-07-01", to: "2025-09-30" }, version: q2.version });
    expect(q3.period).toEqual({ from: "2025-07-01", to: "2025-09-30" });
    // null: the project's dates again.
    const whole = await d.patch(actor, q2, { period: null, version: q3.version });
    expect(whole.period).toBeUndefined();
    expect((await calculationsOf(2025)).find((c) => c.id === q2.id)!.period).toEqual({ from: "2025-01-01", to: "2025-12-31" });
  });
});

describe("each source once (D19)", () => {
  it("makes a second primary calculation of the same type, facility and year an error naming both", async () => {
    const mine = await facility("Шахта «Дублей»");
    const p = await project("Дубли 2025", 2025, mine.id);
    const first = await calc("underground_emission_ch4", p.id, "Добыча, основной", TIER1);
    const second = await calc("underground_emission_ch4", p.id, "Добыча, повторно", TIER1);
    const inv = await inventory(2025, mine.id);
    const duplicates = inv.checks.filter((c) => c.code === "primary_duplicate");
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0].level).toBe("error");
    expect(duplicates[0].message).toContain("источник учтен дважды");
    expect(duplicates[0].message).toContain("«Добыча, основной»");
    expect(duplicates[0].message).toContain("«Добыча, повторно»");
    expect(duplicates[0].message).toContain("Шахта «Дублей»");
    expect(duplicates[0].message).not.toContain(first.id);
    expect(duplicates[0].calculations.sort()).toEqual([first.id, second.id].sort());
    // The calculations a check names are there to open: name, type and project.
    expect(
      inv.check_calculations.filter((c) => duplicates[0].calculations.includes(c.id)).sort((x, y) => x.name.localeCompare(y.name)),
    ).toEqual([
      { id: first.id, name: "Добыча, основной", type: "underground_emission_ch4", project: { id: p.id, name: "Дубли 2025" } },
      { id: second.id, name: "Добыча, повторно", type: "underground_emission_ch4", project: { id: p.id, name: "Дубли 2025" } },
    ]);

    // The second made an alternative: counted once, no error.
    await d.patch(actor, second, { inventory_role: "alternative", version: second.version });
    const fixed = await inventory(2025, mine.id);
    expect(fixed.checks.filter((c) => c.level === "error")).toEqual([]);
  });

  it("adds up two quarters of half a year with no duplicate, and warns of the gap by its dates", async () => {
    const mine = await facility("Шахта «Квартальная»");
    const p = await project("Кварталы 2025", 2025, mine.id);
    const q1 = await calc("underground_emission_ch4", p.id, "1 квартал", { ...TIER1, period: { from: "2025-01-01", to: "2025-03-31" } });
    const q2 = await calc("underground_emission_ch4", p.id, "2 квартал", { ...TIER1, period: { from: "2025-04-01", to: "2025-06-30" } });
    const inv = await inventory(2025, mine.id);
    expect(inv.checks.some((c) => c.code === "primary_duplicate")).toBe(false);
    const row = inv.categories.find((r) => r.ipcc_code === "1.B.1.a.i.1" && r.gas === "CH4")!;
    expect(row.count).toBe(2);
    const ofLine = await inventoryCalculations(2025, { facility: mine.id, line: "3|1.B.1.a.i.1|CH4", counted: true });
    expect(ofLine.map((c) => c.id).sort()).toEqual([q1.id, q2.id].sort());
    // The gap is the source's (facility, code, gas), said by its dates; it names no calculation.
    const gaps = inv.checks.filter((c) => c.code === "source_period_gap");
    expect(gaps).toEqual([{ level: "warning", code: "source_period_gap", message: expect.any(String), calculations: [] }]);
    expect(gaps[0].message).toMatch(
      /^Шахта «Квартальная», 1\.B\.1\.a\.i\.1 .*, CH4: расчеты не покрывают часть 2025 года — 01\.07\.2025–31\.12\.2025;/,
    );

    // The other half, by two more quarters: the year is covered.
    await calc("underground_emission_ch4", p.id, "3 квартал", { ...TIER1, period: { from: "2025-07-01", to: "2025-09-30" } });
    await calc("underground_emission_ch4", p.id, "4 квартал", { ...TIER1, period: { from: "2025-10-01", to: "2025-12-31" } });
    const full = await inventory(2025, mine.id);
    expect(full.checks.filter((c) => c.code === "source_period_gap" || c.code === "primary_duplicate")).toEqual([]);

    // A quarter overlapping the first: an error, whatever the type.
    const measured = await calc("underground", p.id, "Замер за март", {
      volume: 10_000,
      p_co2: 1.8393,
      p_ch4: 0.668,
      ef_co2: 1,
      ef_ch4: 60,
      period: { from: "2025-03-01", to: "2025-03-31" },
    });
    const twice = (await inventory(2025, mine.id)).checks.filter((c) => c.code === "primary_duplicate");
    expect(twice).toHaveLength(1);
    expect(twice[0]).toMatchObject({ level: "error" });
    expect(twice[0].calculations.sort()).toEqual([q1.id, measured.id].sort());
    expect(twice[0].message).toContain("01.03.2025–31.03.2025");
  });

  it("tells fuel combustion sources apart by type and fuel: a boiler house and the machinery of one mine are two sources", async () => {
    const mine = await facility("Разрез «Котельная и техника»");
    const p = await project("Топливо 2025", 2025, mine.id);
    const diesel = await calc("open_mining_co2", p.id, "Дизель техники", { volume: 100, dictionary_items: { get_open_mining_co2: 1 } });
    await calc("disposal_co2_stat_sources", p.id, "Котельная на угле", {
      volume: 1000,
      of: 1,
      dictionary_items: { get_disposal_co2_stat_sources: 3 },
    });
    await calc("disposal_co2_stat_sources", p.id, "Котельная на газе", {
      volume: 1000,
      of: 1,
      dictionary_items: { get_disposal_co2_stat_sources: 1 },
    });
    expect((await inventory(2025, mine.id)).checks.filter((c) => c.code === "primary_duplicate")).toEqual([]);
    // The same machinery entered twice is still one source counted twice.
    const again = await calc("open_mining_co2", p.id, "Дизель техники, повторно", {
      volume: 100,
      dictionary_items: { get_open_mining_co2: 1 },
    });
    const twice = (await inventory(2025, mine.id)).checks.filter((c) => c.code === "primary_duplicate");
    expect(twice).toHaveLength(1);
    expect(twice[0].calculations.sort()).toEqual([diesel.id, again.id].sort());
  });

  it("tells the flare from a boiler on the drained methane (1.B.1.a.i.4), and the flare's two methods remain one source", async () => {
    const mine = await facility("Шахта «Факел и котельная»");
    const p = await project("Утилизация 2025", 2025, mine.id);
    const flare = await calc("torch_composition", p.id, "Факел по составу", {
      volume: 3000,
      w_ch4: 38,
      w_co2: 1.2,
      dictionary_items: { get_torch_cf: 1, get_coeff_co2_density: 1 },
    });
    await calc("disposal_co2_stat_sources", p.id, "Котельная на шахтном метане", {
      volume: 850,
      of: 1,
      dictionary_items: { get_disposal_co2_stat_sources: 8 },
    });
    expect((await inventory(2025, mine.id)).checks.filter((c) => c.code === "primary_duplicate")).toEqual([]);
    // The same flare by the IPCC method, made primary too: one flare counted twice.
    const ipcc = await calc("disposal_co2_torch", p.id, "Факел МГЭИК", {
      volume: 1140,
      ef: 2.75,
      koef_transform: 0.67,
      inventory_role: "primary",
    });
    const twice = (await inventory(2025, mine.id)).checks.filter((c) => c.code === "primary_duplicate");
    expect(twice).toHaveLength(1);
    expect(twice[0].calculations.sort()).toEqual([flare.id, ipcc.id].sort());
  });

  it("takes a project without a facility as its own facility", async () => {
    const a = await project("Без площадки А", 2022, null);
    const b = await project("Без площадки Б", 2022, null);
    await calc("underground_emission_ch4", a.id, "Проект А", TIER1);
    await calc("underground_emission_ch4", b.id, "Проект Б", TIER1);
    const inv = await inventory(2022);
    expect(inv.checks.some((c) => c.code === "primary_duplicate")).toBe(false);
  });
});

describe("codes and methods (D16, D22)", () => {
  it("codes flaring and the utilisation of drained gas 1.B.1.a.i.4, fuel 1.A.1.c.ii, and makes the IPCC flare types alternatives", async () => {
    const mine = await facility("Шахта «Факельная»");
    const p = await project("Факелы 2023", 2023, mine.id);
    const composition = SECTION_7_VECTORS.torch_composition[0];
    const RESULTS = ["ef_co2", "ef_ch4", "res_co2", "res_ch4", "res_ch4_to_co2", "sum_co2"];
    const byComposition = await calc(
      "torch_composition",
      p.id,
      "Факел по составу",
      Object.fromEntries(Object.entries(composition).filter(([k]) => !RESULTS.includes(k))),
    );
    expect(byComposition.inventory_role).toBe("primary");
    const ipccCh4 = await calc("torch_ch4", p.id, "Факел МГЭИК", { volume: 1000, koef_transform: 0.67 });
    expect(ipccCh4.inventory_role).toBe("alternative");
    const ipccCo2 = await calc("disposal_co2_torch", p.id, "Факел МГЭИК CO2", { volume: 1000, ef: 2.75, koef_transform: 0.67 });
    expect(ipccCo2.inventory_role).toBe("alternative");
    const chosen = await calc("torch_ch4", p.id, "Факел МГЭИК основной", { volume: 10, koef_transform: 0.67, inventory_role: "primary" });
    expect(chosen.inventory_role).toBe("primary");
    const boiler = await calc("disposal_co2_stat_sources", p.id, "Котельная на метане", {
      volume: 1000,
      of: 1,
      dictionary_items: { get_disposal_co2_stat_sources: 8 },
    });
    const coal = await calc("disposal_co2_stat_sources", p.id, "Котельная на угле", {
      volume: 1000,
      of: 1,
      dictionary_items: { get_disposal_co2_stat_sources: 3 },
    });
    const inv = await inventory(2023, mine.id);
    const rows = await calculationsOf(2023, mine.id);
    const code = (id: string) => rows.find((c) => c.id === id)!;
    for (const id of [byComposition.id, ipccCh4.id, ipccCo2.id, chosen.id, boiler.id]) expect(code(id).ipcc_code).toBe("1.B.1.a.i.4");
    expect(code(coal.id).ipcc_code).toBe("1.A.1.c.ii");
    expect(code(ipccCh4.id).counted).toBe(false);
    expect(code(ipccCh4.id).notes).toContain("метод МГЭИК, не Приказ № 371");
    expect(code(byComposition.id).notes).toEqual([]);
    expect(inv.categories.some((r) => r.ipcc_code === "1.B.1.a.i.3")).toBe(false);

    const pit = await facility("Разрез «Топливный»", "open_pit");
    const pp = await project("Разрез 2023", 2023, pit.id);
    const fuel = await calc("open_mining_co2", pp.id, "Дизель техники", { volume: 100, dictionary_items: { get_open_mining_co2: 1 } });
    const combined = await calc("open_mining_ch4", pp.id, "Добыча и после", {
      volume: 1_000_000,
      koef_transform: 0.67,
      dictionary_items: { get_open_mining_ch4: 5 },
    });
    const pitRows = await calculationsOf(2023, pit.id);
    const pitRow = (id: string) => pitRows.find((c) => c.id === id)!;
    expect(pitRow(fuel.id).ipcc_code).toBe("1.A.1.c.ii");
    expect(pitRow(combined.id)).toMatchObject({ ipcc_code: "1.B.1.a.ii.1", notes: ["включая выбросы после добычи"] });
  });

  it("says the measured release uses Table 3.1's defaults when its contents are the table's", async () => {
    const p = await project("Замеры 2021", 2021, null);
    const defaults = await calc("underground", p.id, "Состав по таблице", {
      volume: 10_000,
      p_co2: 1.8393,
      p_ch4: 0.668,
      dictionary_items: { get_underground_content: 1 },
    });
    const own = await calc("underground", p.id, "Свой состав", { volume: 10_000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 });
    const rows = await calculationsOf(2021);
    expect(rows.find((c) => c.id === defaults.id)!.method).toContain("по умолчанию (табл. 3.1)");
    expect(rows.find((c) => c.id === own.id)!.method).toBe("Периодические измерения");
  });
});

describe("own values carry their uncertainty (D23)", () => {
  it("flags a custom value without its own uncertainty and applies its dictionary field's band", async () => {
    const p = await project("Свои значения 2020", 2020, null);
    const bare = await calc("underground_emission_ch4", p.id, "Свое без неопределенности", {
      volume: 1000,
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
      justifications: { ef: "Замеры 2020 г." },
    });
    expect(bare.flags).toEqual(["custom_without_uncertainty:ef"]);
    expect(bare.coefficients.ef.uncertainty).toMatchObject({ origin: "dictionary" });
    expect(bare.coefficients.ef.uncertainty!.upper_pct).toBeGreaterThan(0);

    const own = await calc("underground_emission_ch4", p.id, "Свое с неопределенностью", {
      volume: 1000,
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
      justifications: { ef: "Замеры 2020 г." },
      uncertainty: { ef: { lower_pct: 8, upper_pct: 9, distribution: "normal" } },
    });
    expect(own.flags).toEqual([]);
    expect(own.coefficients.ef.uncertainty).toMatchObject({ lower_pct: 8, upper_pct: 9, origin: "user" });

    const inv = await inventory(2020);
    expect((await calculationsOf(2020)).find((c) => c.id === bare.id)!.flags).toContain("custom_without_uncertainty:ef");
    const check = inv.checks.find((c) => c.code === "custom_without_uncertainty")!;
    expect(check).toMatchObject({ level: "info", calculations: [bare.id], count: 1 });
    expect(inv.check_calculations).toContainEqual({
      id: bare.id,
      name: bare.name,
      type: "underground_emission_ch4",
      project: { id: p.id, name: "Свои значения 2020" },
    });
    expect(check.message).toBe(
      "Без площадки: 1 расчет с собственным коэффициентом без неопределенности — «Свое без неопределенности»; " +
        "применена неопределенность поля справочника",
    );
    expect((await inventoryCalculations(2020, { check: check.list })).map((c) => c.id)).toEqual([bare.id]);
  });
});
