// The uncertainty core against the worked examples of docs/methodology.md, Uncertainty (relative
// tolerance 1e-9 for Approach 1; sampling error for Monte Carlo) and its own rules.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FieldError } from "./emissions-core";
import { parseCsv } from "./csv";
import { categoriesFromCsv, inventoryCommand } from "./inventory-cli";
import { normalModelOf, uncertaintyCore, type CategoryInput } from "./uncertainty-node";

const core = uncertaintyCore();
const close = (actual: number, expected: number, tolerance = 1e-9) =>
  expect(Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300), `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);

const V5: CategoryInput[] = [
  { id: "C1", base: 100_000, current: 120_000, ad_u: 5, ef_u: 10 },
  { id: "C2", base: 50_000, current: 40_000, ad_u: 2, ef_u: 50 },
];

describe("Approach 1", () => {
  it("V1: Equation 3.1 for production × emission factor", () => {
    const u = core.product([2, 40]);
    close(u, 40.049968789001575);
    // 2 000 000 t × 18 m³/t × 0.67 kg/m³ / 1000 × GWP 25 = 603 000 t CO2-eq.
    close((603_000 * u) / 100, 241_501.31179767952);
  });

  it("V2: Equation 3.2 for a sum of three sources", () => {
    close(core.sum([603_000, 62_000, 70_000], [40.049968789001575, 60, 5.830951894845301]), 33.249480425112836);
  });

  it("D91: Equation 3.2 over groups of a shared source, each group's U·x added linearly", () => {
    // The worked example's factor part: twelve terms of 1 507,5 t at 44 % of one entry → 44 %.
    const x = Array.from({ length: 12 }, () => 1_507.5);
    expect(
      core.groupedSum(
        x,
        x.map(() => 44),
        x.map(() => "entry"),
      ),
    ).toBeCloseTo(44, 12);
    // Each term a group of its own is Eq. 3.2.
    const own = x.map((_, i) => `own-${i}`);
    expect(
      core.groupedSum(
        x,
        x.map(() => 44),
        own,
      ),
    ).toBeCloseTo(
      core.sum(
        x,
        x.map(() => 44),
      ),
      12,
    );
    // Two groups: √((44·2 + 20·1)² + (10·3)²) / 6.
    expect(core.groupedSum([2, 1, 3], [44, 20, 10], ["a", "a", "b"])).toBeCloseTo(Math.hypot(44 * 2 + 20, 30) / 6, 12);
    expect(() => core.groupedSum([1], [1, 2], ["a"])).toThrow(FieldError);
  });

  it("V5: the Table 3.2 columns G–M, level and trend of two categories", () => {
    const table = core.approach1(V5);
    // Pinned from the equations of docs/methodology.md, Uncertainty, evaluated by hand:
    // ΣC = 150 000, ΣD = 160 000; C1: G = √125, H = (G·120 000)²/160 000², I = |(161 200 − 151 000)/151 000 − 1/15|·100, …
    const expected = [
      {
        id: "C1",
        G: Math.sqrt(125),
        H: (125 * 120_000 ** 2) / 160_000 ** 2,
        I: Math.abs(((161_200 - 151_000) / 151_000) * 100 - 20 / 3),
        J: 0.8,
      },
      {
        id: "C2",
        G: Math.sqrt(2504),
        H: (2504 * 40_000 ** 2) / 160_000 ** 2,
        I: Math.abs(((160_400 - 150_500) / 150_500) * 100 - 20 / 3),
        J: 40_000 / 150_000,
      },
    ];
    table.rows.forEach((row, i) => {
      const e = expected[i];
      const f = V5[i].ef_u;
      const adU = V5[i].ad_u;
      expect(row.id).toBe(e.id);
      close(row.G, e.G);
      close(row.H, e.H);
      close(row.I, e.I);
      close(row.J, e.J);
      close(row.K, e.I * f);
      close(row.L, e.J * adU * Math.SQRT2);
      close(row.M, (e.I * f) ** 2 + (e.J * adU * Math.SQRT2) ** 2);
    });
    close(table.rows[0].H, 70.3125);
    close(table.rows[1].H, 156.5);
    close(table.level_pct, Math.sqrt(70.3125 + 156.5));
    close(table.level_pct, 15.060295481829034);
    close(table.trend_pct, 6.666666666666667);
    close(table.trend_uncertainty_pp, 7.278092915474442);
  });

  it("refuses what is not a number, and a base year without emissions", () => {
    expect(() => core.approach1([{ ...V5[0], ad_u: Number.NaN }])).toThrow(FieldError);
    expect(() => core.approach1([{ ...V5[0], ef_u: -1 }])).toThrow(/неотрицательным/);
    expect(() => core.approach1([{ ...V5[0], base: 0 }])).toThrow(/базового года/);
    expect(() => core.approach1([])).toThrow(FieldError);
  });
});

describe("key category analysis", () => {
  const inventory = [
    { id: "a", base: 500, current: 600 },
    { id: "b", base: 300, current: 250 },
    { id: "c", base: 150, current: 100 },
    { id: "d", base: 50, current: 50 },
  ];

  it("level: sorted shares, key while the cumulative share before the category is below 95 %", () => {
    const ranked = core.keyCategoriesLevel(inventory);
    expect(ranked.map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
    ranked.forEach((r, i) => close(r.share, [600, 250, 100, 50][i] / 1000));
    expect(ranked.map((r) => r.cumulative)).toEqual([0.6, 0.85, 0.95, 1].map((x, i) => (i === 2 ? ranked[2].cumulative : x)));
    close(ranked[2].cumulative, 0.95);
    // c's cumulative share reaches 95 % exactly: c is key (0.85 before it), d is not (0.95 before it).
    expect(ranked.map((r) => r.key)).toEqual([true, true, true, false]);
  });

  it("trend: the 2006 form, which ranks like the GPG-2000 form: T(2006) = T(GPG)·(ΣE_t/ΣE_0)²", () => {
    const t2006 = core.keyCategoriesTrend(inventory);
    const gpg = core.trendGpg2000(inventory);
    const ratio = (1000 / 1000) ** 2;
    for (const r of t2006) close(r.measure, gpg[inventory.findIndex((c) => c.id === r.id)] * ratio);
    // A growing inventory, where the factor is not 1.
    const grown = inventory.map((c, i) => ({ ...c, current: c.current * (1 + i / 10) }));
    const sumNow = grown.reduce((s, c) => s + c.current, 0);
    const factor = (sumNow / 1000) ** 2;
    const byId = new Map(core.keyCategoriesTrend(grown).map((r) => [r.id, r.measure]));
    core.trendGpg2000(grown).forEach((t, i) => close(byId.get(grown[i].id)!, t * factor));
    expect([...byId.entries()].sort((x, y) => y[1] - x[1]).map(([id]) => id)).toEqual(
      grown
        .map((c, i) => ({ id: c.id, t: core.trendGpg2000(grown)[i] }))
        .sort((x, y) => y.t - x.t)
        .map((x) => x.id),
    );
  });

  it("trend of a category new since the base year takes the limit |E_t|/|ΣE_0|", () => {
    const ranked = core.keyCategoriesTrend([...inventory, { id: "new", base: 0, current: 80 }]);
    close(ranked.find((r) => r.id === "new")!.measure, 80 / 1000);
    expect(ranked.every((r) => Number.isFinite(r.measure))).toBe(true);
  });

  it("Approach 2 weighs by uncertainty and keys up to 90 %", () => {
    const ranked = core.keyCategoriesLevel(inventory, [10, 100, 10, 10]);
    expect(ranked[0].id).toBe("b");
    close(ranked[0].share, 25_000 / (6000 + 25_000 + 1000 + 500));
    const before = ranked.map((_, i) => ranked.slice(0, i).reduce((s, r) => s + r.share, 0));
    expect(ranked.map((r) => r.key)).toEqual(before.map((b) => b < 0.9));
  });
});

describe("Monte Carlo", () => {
  it("V4: on a linear inventory with normal inputs the 95 % half-width agrees with Approach 1 within 0.3 pp", () => {
    const { factors, sources } = normalModelOf(V5);
    const result = core.monteCarlo(factors, sources, { trials: 1_000_000, seed: 20_261_122 });
    const level = core.approach1(V5).level_pct;
    expect(Math.abs(result.half_width_pct - level)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(result.mean - 160_000) / 160_000).toBeLessThan(0.002);
    expect(result.shortest.upper - result.shortest.lower).toBeLessThanOrEqual(result.p97_5 - result.p2_5);
  });

  it("gives the same numbers for the same seed and others for another", () => {
    const { factors, sources } = normalModelOf(V5);
    const a = core.monteCarlo(factors, sources, { trials: 10_000, seed: 7 });
    expect(core.monteCarlo(factors, sources, { trials: 10_000, seed: 7 })).toEqual(a);
    expect(core.monteCarlo(factors, sources, { trials: 10_000, seed: 8 }).mean).not.toBe(a.mean);
  });

  it("keeps the mean of a mean-preserving lognormal factor and gives an asymmetric interval", () => {
    const result = core.monteCarlo([{ distribution: "lognormal", lower_pct: 44, upper_pct: 39 * 2 }], [{ base: 1000, factor: 0 }], {
      trials: 400_000,
      seed: 1,
    });
    expect(Math.abs(result.mean - 1000) / 1000).toBeLessThan(0.005);
    expect(result.p97_5 - result.mean).toBeGreaterThan(1.3 * (result.mean - result.p2_5));
  });

  it("draws a shared coefficient once per trial: two sources on one factor vary together", () => {
    const shared = core.monteCarlo(
      [{ distribution: "normal", lower_pct: 40, upper_pct: 40 }],
      [
        { base: 500, factor: 0 },
        { base: 500, factor: 0 },
      ],
      { trials: 200_000, seed: 5 },
    );
    const apart = core.monteCarlo(
      [
        { distribution: "normal", lower_pct: 40, upper_pct: 40 },
        { distribution: "normal", lower_pct: 40, upper_pct: 40 },
      ],
      [
        { base: 500, factor: 0 },
        { base: 500, factor: 1 },
      ],
      { trials: 200_000, seed: 5 },
    );
    expect(shared.half_width_pct).toBeGreaterThan(38);
    expect(apart.half_width_pct).toBeLessThan(30); // 40/√2 ≈ 28.3
  });

  it("triangular and uniform factors stay within their ranges", () => {
    for (const distribution of ["triangular", "uniform"] as const) {
      const r = core.monteCarlo([{ distribution, lower_pct: 20, upper_pct: 20 }], [{ base: 100, factor: 0 }], { trials: 50_000, seed: 3 });
      expect(r.p2_5).toBeGreaterThanOrEqual(80);
      expect(r.p97_5).toBeLessThanOrEqual(120);
      expect(Math.abs(r.mean - 100)).toBeLessThan(0.3);
    }
  });

  it("refuses a bad model with a field error", () => {
    expect(() => core.monteCarlo([], [{ base: 1, factor: 0 }], { trials: 10, seed: 1 })).toThrow(/фактора/);
    expect(() => core.monteCarlo([], [{ base: 1 }], { trials: 1, seed: 1 })).toThrow(/испытаний/);
    expect(() =>
      core.monteCarlo([{ distribution: "beta" as never, lower_pct: 1, upper_pct: 1 }], [{ base: 1 }], { trials: 10, seed: 1 }),
    ).toThrow(/распределение/);
  });
});

describe("inventory uncertainty command", () => {
  const csv = 'id,category,base,current,ad_u,ef_u\nC1,"Подземная добыча, CH4",100000,120000,5,10\r\nC2,Открытая добыча,50000,40000,2,50\n';

  it("reads quoted CSV fields", () => {
    expect(parseCsv('a,"b,""c"""\n1,2')).toEqual([
      ["a", 'b,"c"'],
      ["1", "2"],
    ]);
    expect(categoriesFromCsv(csv).map((c) => c.id)).toEqual(["C1", "C2"]);
    expect(() => categoriesFromCsv("id,base\n1,2")).toThrow(/header/);
    expect(() => categoriesFromCsv(csv.replace("120000", "12x"))).toThrow(/line 2, current/);
  });

  // The command in this process, as the entry runs it, its output captured; the command as users
  // run it, a process of its own, is tests/integration/netted-everywhere.test.ts's (each process
  // spent a second and more loading tsx and the core).
  const run = (args: string[]) => {
    let stdout = "";
    let stderr = "";
    const status = inventoryCommand(args, { out: (text) => (stdout += text), err: (text) => (stderr += text) });
    return { status, stdout, stderr };
  };

  it("prints the table, key categories and a seeded Monte Carlo run as JSON", () => {
    const file = join(mkdtempSync(join(tmpdir(), "inventory-")), "v5.csv");
    writeFileSync(file, csv);
    const command = (extra: string[]) => run(["uncertainty", "--csv", file, ...extra]);
    const out = command(["--monte-carlo", "100000", "--seed", "3"]);
    expect(out.status, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout);
    close(report.level_pct, 15.060295481829034);
    close(report.trend_pct, 6.666666666666667);
    expect(report.rows.map((r: { id: string }) => r.id)).toEqual(["C1", "C2"]);
    expect(Object.keys(report.rows[0])).toEqual(["id", "G", "H", "I", "J", "K", "L", "M"]);
    expect(report.kca_level[0]).toEqual({ id: "C1", L: 0.75, cumulative: 0.75, key: true });
    expect(Object.keys(report.kca_trend[0])).toEqual(["id", "T", "share", "cumulative", "key"]);
    expect(report.kca_level_approach2[0].id).toBe("C2");
    expect(Math.abs(report.monte_carlo.half_width_pct - report.level_pct)).toBeLessThan(1);
    expect(JSON.parse(command(["--monte-carlo", "100000", "--seed", "3"]).stdout).monte_carlo).toEqual(report.monte_carlo);
    expect(command([]).stdout).not.toContain("monte_carlo");
    const usage = run(["uncertainty"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^usage: inventory uncertainty --csv FILE/);
  });
});
