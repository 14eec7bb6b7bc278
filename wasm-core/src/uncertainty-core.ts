// Typed facade over wasm-core/build/uncertainty.wasm (docs/methodology.md, Uncertainty: IPCC 2006 Vol. 1
// Ch. 3 Approach 1 and 2, Ch. 4 key categories). It validates the inputs (a FieldError names the
// field and row), writes them into the core's input buffer and reads the results back. Shared by
// the Node entry (uncertainty.ts) and the browser entry (uncertainty-browser.ts): no Node imports.
import { FieldError } from "./emissions-core";
import { fetchWasmBytes } from "./wasm-fetch";

export const DISTRIBUTIONS = ["normal", "lognormal", "triangular", "uniform"] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];
/** Where the uncertainty a calculation used comes from: the value's dictionary entry, the
 *  activity-uncertainty entry of an activity input, or the user (the calculation dialog). */
export const UNCERTAINTY_ORIGINS = ["dictionary", "activity", "user"] as const;
export type UncertaintyOrigin = (typeof UNCERTAINTY_ORIGINS)[number];

/** An input's uncertainty: the 95 % interval as −lower_pct / +upper_pct of its value. */
export interface Uncertainty {
  lower_pct: number;
  upper_pct: number;
  distribution: Distribution;
  source?: string;
}

/** A category of the Approach 1 table: base-year (C) and year-t (D) emissions in t CO2-eq, activity
 *  data (E) and emission factor (F) uncertainties in %. */
export interface CategoryInput {
  id: string;
  base: number;
  current: number;
  ad_u: number;
  ef_u: number;
}

export interface Approach1Row {
  id: string;
  G: number;
  H: number;
  I: number;
  J: number;
  K: number;
  L: number;
  M: number;
}

export interface Approach1Table {
  rows: Approach1Row[];
  /** sqrt(ΣH): the year-t total's uncertainty, %. */
  level_pct: number;
  /** (ΣD − ΣC)/ΣC · 100. */
  trend_pct: number;
  /** sqrt(ΣM), percentage points. */
  trend_uncertainty_pp: number;
}

export interface RankedCategory {
  id: string;
  /** The assessment's measure (L_x, T_x, L_x·U_x or T_x·U_x before normalising). */
  measure: number;
  share: number;
  cumulative: number;
  key: boolean;
}

/** IPCC thresholds: 95 % cumulative for Approach 1, 90 % for Approach 2. */
export const APPROACH1_THRESHOLD = 0.95;
export const APPROACH2_THRESHOLD = 0.9;

/** One factor of the Monte Carlo model: a multiplier with mean 1. */
export interface FactorInput {
  distribution: Distribution;
  lower_pct: number;
  upper_pct: number;
}

/** A source: `base` (t CO2-eq) times its activity and emission factors (indices into the factor
 *  list; a coefficient shared by sources is one factor, drawn once per trial). */
export interface SourceInput {
  base: number;
  activity?: number;
  factor?: number;
  /** Further factors of the product (a calculation's other uncertain coefficients). */
  factors?: readonly number[];
}

export interface MonteCarloResult {
  trials: number;
  seed: number;
  mean: number;
  p2_5: number;
  p97_5: number;
  /** Half the 2.5–97.5 interval over the mean, %. */
  half_width_pct: number;
  shortest: { lower: number; upper: number };
}

/** A trial cap that keeps the core's buffers (three of 8 bytes per trial) within 100 MB. */
export const MAX_TRIALS = 4_000_000;

interface Exports {
  memory: WebAssembly.Memory;
  reserveInput(n: number): number;
  reserveOutput(n: number): number;
  propagateProduct(n: number): number;
  propagateSum(n: number): number;
  propagateGroupedSum(n: number, groups: number): number;
  approach1Table(n: number): void;
  keyCategoriesLevel(n: number, threshold: number, withUncertainty: boolean): void;
  keyCategoriesTrend(n: number, threshold: number, withUncertainty: boolean): void;
  trendGpg2000(n: number): void;
  monteCarlo(factorCount: number, sourceCount: number, trials: number, seedHigh: number, seedLow: number): void;
  monteCarloProducts(factorCount: number, sourceCount: number, width: number, trials: number, seedHigh: number, seedLow: number): void;
}

const imports = {
  env: {
    abort(_message: number, _file: number, line: number, column: number): never {
      throw new Error(`uncertainty core aborted at ${line}:${column}`);
    },
  },
};

function finite(field: string, value: unknown, row?: number, { nonNegative = false } = {}): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new FieldError(field, "Значение должно быть числом", row);
  if (nonNegative && value < 0) throw new FieldError(field, "Значение должно быть неотрицательным числом", row);
  return value;
}

export class UncertaintyCore {
  private readonly core: Exports;

  private constructor(instance: WebAssembly.Instance) {
    this.core = instance.exports as unknown as Exports;
  }

  static fromBytes(bytes: ArrayBufferView | ArrayBuffer): UncertaintyCore {
    return new UncertaintyCore(new WebAssembly.Instance(new WebAssembly.Module(bytes as BufferSource), imports));
  }

  static async fromUrl(url: string | URL): Promise<UncertaintyCore> {
    const { instance } = await WebAssembly.instantiate(await fetchWasmBytes(url), imports);
    return new UncertaintyCore(instance);
  }

  /** Writes the columns one after the other into the core's input buffer. */
  private write(columns: ArrayLike<number>[]): void {
    const total = columns.reduce((n, c) => n + c.length, 0);
    const at = this.core.reserveInput(total);
    const view = new Float64Array(this.core.memory.buffer, at, total);
    let offset = 0;
    for (const column of columns) {
      view.set(column, offset);
      offset += column.length;
    }
  }

  private read(count: number): Float64Array {
    const at = this.core.reserveOutput(count);
    return new Float64Array(this.core.memory.buffer, at, count).slice();
  }

  /** Equation 3.1: the uncertainty (%) of a product of quantities with uncertainties `u` (%). */
  product(u: readonly number[]): number {
    this.write([u.map((x, i) => finite("u", x, i, { nonNegative: true }))]);
    return this.core.propagateProduct(u.length);
  }

  /** Equation 3.2: the uncertainty (%) of a sum of quantities `x` with uncertainties `u` (%). */
  sum(x: readonly number[], u: readonly number[]): number {
    if (x.length !== u.length) throw new FieldError("u", `Число значений должно быть ${x.length}`);
    this.write([x.map((v, i) => finite("x", v, i)), u.map((v, i) => finite("u", v, i, { nonNegative: true }))]);
    return this.core.propagateSum(x.length);
  }

  /** D91: Equation 3.2 over the terms grouped by their shared source of error (`groups[i]`, any
   *  key): within a group the absolute uncertainties add linearly, the groups in quadrature. */
  groupedSum(x: readonly number[], u: readonly number[], groups: readonly string[]): number {
    if (x.length !== u.length || x.length !== groups.length) throw new FieldError("u", `Число значений должно быть ${x.length}`);
    const index = new Map<string, number>();
    const g = groups.map((key) => index.get(key) ?? index.set(key, index.size).get(key)!);
    this.write([x.map((v, i) => finite("x", v, i)), u.map((v, i) => finite("u", v, i, { nonNegative: true })), g]);
    return this.core.propagateGroupedSum(x.length, index.size);
  }

  private checkedCategories(categories: readonly CategoryInput[]): void {
    if (categories.length === 0) throw new FieldError("categories", "Нет ни одной категории");
    categories.forEach((c, i) => {
      finite("base", c.base, i);
      finite("current", c.current, i);
      finite("ad_u", c.ad_u, i, { nonNegative: true });
      finite("ef_u", c.ef_u, i, { nonNegative: true });
    });
  }

  /** IPCC 2006 Vol. 1 Table 3.2 (columns G–M), level and trend. */
  approach1(categories: readonly CategoryInput[]): Approach1Table {
    this.checkedCategories(categories);
    const n = categories.length;
    if (categories.reduce((s, c) => s + c.base, 0) === 0) throw new FieldError("base", "Сумма выбросов базового года равна нулю");
    this.write([
      categories.map((c) => c.base),
      categories.map((c) => c.current),
      categories.map((c) => c.ad_u),
      categories.map((c) => c.ef_u),
    ]);
    this.core.reserveOutput(7 * n + 3);
    this.core.approach1Table(n);
    const out = this.read(7 * n + 3);
    const column = (k: number, i: number) => out[k * n + i];
    return {
      rows: categories.map((c, i) => ({
        id: c.id,
        G: column(0, i),
        H: column(1, i),
        I: column(2, i),
        J: column(3, i),
        K: column(4, i),
        L: column(5, i),
        M: column(6, i),
      })),
      level_pct: out[7 * n],
      trend_pct: out[7 * n + 1],
      trend_uncertainty_pp: out[7 * n + 2],
    };
  }

  private ranked(ids: readonly string[]): RankedCategory[] {
    const n = ids.length;
    const out = this.read(5 * n);
    return ids
      .map((id, i) => ({
        id,
        measure: out[i],
        share: out[n + i],
        rank: out[2 * n + i],
        cumulative: out[3 * n + i],
        key: out[4 * n + i] === 1,
      }))
      .sort((a, b) => a.rank - b.rank)
      .map(({ rank: _rank, ...category }) => category);
  }

  /** Level assessment: Approach 1 (Eq. 4.1) or, with `uncertainty` (% per category), Approach 2 (Eq. 4.4). */
  keyCategoriesLevel(categories: readonly Pick<CategoryInput, "id" | "current">[], uncertainty?: readonly number[]): RankedCategory[] {
    const n = categories.length;
    categories.forEach((c, i) => finite("current", c.current, i));
    this.write([
      categories.map((c) => c.current),
      ...(uncertainty ? [uncertainty.map((u, i) => finite("u", u, i, { nonNegative: true }))] : []),
    ]);
    this.core.reserveOutput(5 * n);
    this.core.keyCategoriesLevel(n, uncertainty ? APPROACH2_THRESHOLD : APPROACH1_THRESHOLD, Boolean(uncertainty));
    return this.ranked(categories.map((c) => c.id));
  }

  /** Trend assessment: Approach 1 (Eq. 4.2, 2006 form) or, with `uncertainty`, Approach 2 (Eq. 4.5). */
  keyCategoriesTrend(
    categories: readonly Pick<CategoryInput, "id" | "base" | "current">[],
    uncertainty?: readonly number[],
  ): RankedCategory[] {
    const n = categories.length;
    categories.forEach((c, i) => {
      finite("base", c.base, i);
      finite("current", c.current, i);
    });
    if (categories.reduce((s, c) => s + c.base, 0) === 0) throw new FieldError("base", "Сумма выбросов базового года равна нулю");
    this.write([
      categories.map((c) => c.base),
      categories.map((c) => c.current),
      ...(uncertainty ? [uncertainty.map((u, i) => finite("u", u, i, { nonNegative: true }))] : []),
    ]);
    this.core.reserveOutput(5 * n);
    this.core.keyCategoriesTrend(n, uncertainty ? APPROACH2_THRESHOLD : APPROACH1_THRESHOLD, Boolean(uncertainty));
    return this.ranked(categories.map((c) => c.id));
  }

  /** T_x in the GPG-2000 form, in input order (it ranks like the 2006 form). */
  trendGpg2000(categories: readonly Pick<CategoryInput, "base" | "current">[]): number[] {
    const n = categories.length;
    this.write([categories.map((c) => c.base), categories.map((c) => c.current)]);
    this.core.reserveOutput(n);
    this.core.trendGpg2000(n);
    return Array.from(this.read(n));
  }

  /** Approach 2: `trials` draws of every factor (seeded), the sources' total per trial. */
  monteCarlo(
    factors: readonly FactorInput[],
    sources: readonly SourceInput[],
    options: { trials: number; seed: number },
  ): MonteCarloResult {
    const { trials, seed } = options;
    if (!Number.isInteger(trials) || trials < 2 || trials > MAX_TRIALS) {
      throw new FieldError("trials", `Число испытаний должно быть целым от 2 до ${MAX_TRIALS}`);
    }
    if (!Number.isSafeInteger(seed) || seed < 0) throw new FieldError("seed", "Зерно должно быть неотрицательным целым числом");
    if (sources.length === 0) throw new FieldError("sources", "Нет ни одного источника");
    const factorColumn: number[] = [];
    factors.forEach((f, k) => {
      const code = DISTRIBUTIONS.indexOf(f.distribution);
      if (code < 0) throw new FieldError("distribution", "Неизвестное распределение", k);
      const lower = finite("lower_pct", f.lower_pct, k, { nonNegative: true });
      const upper = finite("upper_pct", f.upper_pct, k, { nonNegative: true });
      if (f.distribution !== "lognormal" && lower > 100) throw new FieldError("lower_pct", "Нижняя граница не может превышать 100 %", k);
      factorColumn.push(code, lower, upper);
    });
    const index = (value: number | undefined, field: string, row: number) => {
      if (value === undefined) return -1;
      if (!Number.isInteger(value) || value < 0 || value >= factors.length) throw new FieldError(field, "Нет такого фактора", row);
      return value;
    };
    const width = Math.max(2, ...sources.map((s) => 2 + (s.factors?.length ?? 0)));
    const sourceColumn = sources.flatMap((s, i) => {
      const indices = [
        index(s.activity, "activity", i),
        index(s.factor, "factor", i),
        ...(s.factors ?? []).map((k) => index(k, "factors", i)),
      ];
      while (indices.length < width) indices.push(-1);
      return [finite("base", s.base, i), ...indices];
    });
    this.write([factorColumn, sourceColumn]);
    this.core.reserveOutput(5);
    this.core.monteCarloProducts(factors.length, sources.length, width, trials, Math.floor(seed / 2 ** 32), seed >>> 0);
    const [mean, p2_5, p97_5, lower, upper] = this.read(5);
    return { trials, seed, mean, p2_5, p97_5, half_width_pct: ((p97_5 - p2_5) / 2 / Math.abs(mean)) * 100, shortest: { lower, upper } };
  }
}

/** The Monte Carlo model of an Approach 1 table's year t: each category is current × (activity
 *  factor) × (emission factor), both normal with U = ad_u and ef_u (as the CLI and V4 use it). */
export function normalModelOf(categories: readonly CategoryInput[]): { factors: FactorInput[]; sources: SourceInput[] } {
  const factors: FactorInput[] = [];
  const sources = categories.map((c) => {
    factors.push(
      { distribution: "normal", lower_pct: c.ad_u, upper_pct: c.ad_u },
      { distribution: "normal", lower_pct: c.ef_u, upper_pct: c.ef_u },
    );
    return { base: c.current, activity: factors.length - 2, factor: factors.length - 1 };
  });
  return { factors, sources };
}
