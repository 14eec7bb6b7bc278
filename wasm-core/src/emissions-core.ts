// Typed facade over wasm-core/build/emissions.wasm (formulas: docs/methodology.md, Calculation types).
// It validates every input against the registry before any result is returned (a FieldError names
// the field): single values here, batch columns in the core's own pass over them. Columns either
// live in the core's memory already (openBatch: the caller fills typed views of it, nothing is
// copied) or are copied into its fixed buffers chunk by chunk (calculateBatch).
// Shared by the Node entry (emissions.ts) and the browser entry (emissions-browser.ts), so it
// must not import anything from Node.
import {
  DEFAULT_GWP_CH4,
  FILL_METHODS,
  RECYCLE_TECHNOLOGIES,
  REGISTRY,
  EMISSION_TYPES,
  isEmissionType,
  isFormulaType,
  type CalculationDefinition,
  type CalculationType,
  type EmissionType,
  type FillMethod,
  type FormulaType,
  type InputName,
  type NumberField,
  type RecycleCode,
  type ResultName,
  type SettingName,
} from "./registry";
import { fetchWasmBytes } from "./wasm-fetch";
import { fromCanonical } from "./entry-units";
import { FieldError } from "./field-error";
// The exports of emissions.wasm as the build declares them (wasm-core/build.mjs writes the declarations
// beside the module): a type only, nothing of the generated loader is loaded.
import type { instantiate } from "../build/emissions";

// ---- errors --------------------------------------------------------------------------------------

export const MESSAGES = {
  required: "Поле обязательно для заполнения",
  nonNegative: "Значение должно быть неотрицательным числом",
  positive: "Значение должно быть положительным числом",
  atMost: (max: number, unit = "") => `Значение должно быть не больше ${groupedNumber(max)}${unit ? ` ${unit}` : ""}`,
  /** A value over its field's bound, the field named by its label and the bound given in `unit`,
   *  the one the value was typed in. */
  fieldAtMost: (label: string, max: number, unit: string) => `«${label}»: ${MESSAGES.atMost(max, unit)}`,
  fixed: (value: number) => `Значение фиксировано и равно ${formatNumber(value)}`,
  columnLength: (expected: number) => `Число значений в столбце должно быть ${expected}`,
  duplicateYear: (year: number) => `Год ${year} повторяется`,
  tooManyRows: (max: number) => `Слишком много строк: допускается не более ${max}`,
  partialColumn: "Столбец должен быть заполнен для всех лет или отсутствовать",
  unknownType: (type: string) => `Неизвестный тип расчёта: ${type}`,
  /** `labels`: the fields' Russian labels (the registry's), never their internal names. */
  sumAtMost: (label: string, labels: readonly string[], max: number, unit: string, sum: number) =>
    `${label} (${labels.map((l) => `«${l}»`).join(" + ")}) должна быть не больше ${formatNumber(max)} ${unit}, получено ${formatNumber(sum)}`,
  /** A result over its bound for one calculation. */
  resultOverBound: (label: string, value: number, max: number, unit: string) =>
    `«${label}» — ${groupedNumber(Math.round(value))} ${unit}, больше предела ${groupedNumber(max)} ${unit} для одного расчета: проверьте исходные данные и их единицы`,
  typical: (min: number, max: number, unit: string) =>
    `Значение вне типичного диапазона МГЭИК ${formatNumber(min)}–${formatNumber(max)} ${unit}`,
} as const;

export { FieldError };

export interface FieldWarning {
  readonly field: string;
  readonly message: string;
}

function formatNumber(value: number): string {
  return String(value).replace(".", ",");
}

/** «100 000 000», «0,67»: thousands apart, as a bound is read. */
export function groupedNumber(value: number): string {
  const [whole, fraction] = formatNumber(value).split(",");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  return fraction === undefined ? grouped : `${grouped},${fraction}`;
}

// ---- public types --------------------------------------------------------------------------------

/** Per-calculation coefficients that are not dialog inputs; missing ones take the registry default. */
export type Coefficients<T extends CalculationType = CalculationType> = Readonly<Partial<Record<SettingName<T>, number>>>;

export type FormulaInputs<T extends FormulaType> = Readonly<Partial<Record<InputName<T>, unknown>>>;

/** What a formula type computes: numbers named as in the registry; 4.10 gives the technology and its code. */
export type FormulaResults<T extends FormulaType> = T extends "recycle_technology" ? RecycleTechnology : { [K in ResultName<T>]: number };

/** One column per input: an array of values, or one number for every row. */
export type BatchColumns<T extends EmissionType> = Readonly<Partial<Record<InputName<T>, ArrayLike<number> | number>>>;

export type BatchResults<T extends EmissionType> = { [K in ResultName<T>]: Float64Array };

/** The number inputs of an emission type, the columns of a batch. */
export type NumberInputName<T extends EmissionType> = Extract<(typeof REGISTRY)[T]["inputs"][number], { type: "number" }>["name"];

/**
 * A batch whose columns live in the core's memory: the caller writes the inputs into `inputs`
 * (Float64Array views, one per number input, `rows` long) and `run` checks them against the
 * registry bounds in the kernel's own pass and computes the results into `results`, views too.
 * Nothing is copied. Fixed fields come filled with their value, optional ones with 0 and the
 * others with NaN, so a column left unfilled fails the check. The views stay valid until the
 * core's next `openBatch`; a run after that throws.
 */
export interface InPlaceBatch<T extends EmissionType> {
  readonly type: T;
  readonly rows: number;
  readonly inputs: { readonly [K in NumberInputName<T>]: Float64Array };
  readonly results: BatchResults<T>;
  /** Checks and computes every row; a FieldError names the first bad field and row as calculateBatch does. */
  run(coefficients?: Coefficients<T>): BatchResults<T>;
}

export interface FlowThresholds {
  q_boiler: number;
  q_gas_engine: number;
  q_vam_energy: number;
  q_pipeline: number;
  q_power_plant: number;
}

export interface RecycleTechnology {
  code: RecycleCode;
  technology: string;
}

export interface SensitivityRow {
  year: number;
  /** Coal production, t. */
  volume: number;
  /** Specific methane emission, m³ CH4 per t of coal. */
  methane: number;
  /** Diesel for coal transport, t (D6); give it for every row or for none. */
  transport_fuel?: number | null;
}

export interface SensitivityParams {
  rho: number;
  gwp_ch4: number;
  k_tr: number;
  delta: number;
  ef_transport_fuel: number;
}

export interface SensitivityResultRow {
  year: number;
  volume: number;
  methane: number;
  res_co2: number;
  res_co2_transport: number;
  res_co2_all: number;
  sn_volume: number | null;
  sn_methan: number | null;
  /** Alternative B of 4.11: year-over-year arc elasticities; null in the first year or with no change. */
  el_volume: number | null;
  el_methan: number | null;
}

export interface FilledValue {
  year: number;
  value: number | null;
  /** null for an observed value; otherwise how the value was filled (D7). */
  method: FillMethod | null;
}

// ---- the raw core --------------------------------------------------------------------------------

/** The core's exports, typed by the declarations the build writes for emissions.wasm. */
type CoreExports = Awaited<ReturnType<typeof instantiate>>;

/** One emission type's kernel: `rows` rows from the input columns at `input` into the result columns
 *  at `output`, `stride` rows apart; `checked` compares every input with the bounds table in the same
 *  pass. Returns the rows computed, -1 for more rows than the stride, -2 for a value out of bounds. */
type Kernel = (input: number, output: number, stride: number, rows: number, gwp_ch4: number, checked: boolean) => number;

/** The kernel of each emission type of the registry, one typed property per type: the compiler
 *  refuses a registry type whose `kernel_<type>` emissions.wasm does not export (or exports with
 *  other parameters), so a type's kernel is checked when the code is type-checked, not when the core
 *  loads. */
type Kernels = { readonly [T in EmissionType]: CoreExports[`kernel_${T}`] & Kernel };

function kernelsOf(exports: CoreExports): Kernels {
  const kernels: Partial<Record<EmissionType, Kernel>> = {};
  for (const type of EMISSION_TYPES) {
    const kernel: Kernel = exports[`kernel_${type}`];
    kernels[type] = kernel;
  }
  return kernels as Kernels;
}

const imports = {
  env: {
    abort(_message: number, _file: number, line: number, column: number): never {
      throw new Error(`emissions core aborted at ${line}:${column}`);
    },
  },
};

function exportedConstant(exports: WebAssembly.Exports, name: string): number {
  const global = exports[name];
  if (!(global instanceof WebAssembly.Global)) throw new Error(`emissions.wasm does not export ${name}`);
  return global.value as number;
}

/** The number inputs of a type, in core column order (= registry order). */
function numberInputs(type: CalculationType): readonly NumberField[] {
  return (REGISTRY[type].inputs as readonly { type: string }[]).filter((f): f is NumberField => f.type === "number");
}

/** The results the core computes, in its output column order; a table result (underground's
 *  measurement periods, D14) is assembled outside the core from its rows. */
function coreResults(type: EmissionType): readonly { readonly name: string }[] {
  return (REGISTRY[type].results as readonly { name: string; type: string }[]).filter((f) => f.type === "number");
}

// ---- the facade ----------------------------------------------------------------------------------

export class EmissionsCore {
  /** Raw exports, for tests and benchmarks that call a formula directly. */
  readonly exports: CoreExports & WebAssembly.Exports;
  /** Rows the core evaluates per call; the facade splits longer batches into chunks of this size. */
  readonly batchRows: number;
  private readonly kernels: Kernels;
  private readonly fillMethods = new Map<number, FillMethod | null>();
  private input: Float64Array;
  private output: Float64Array;
  /** Counts openBatch calls: a batch runs only while its block is the core's current one. */
  private openedBatches = 0;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as CoreExports & WebAssembly.Exports;
    this.batchRows = this.exports.batch_rows();
    this.kernels = kernelsOf(this.exports);
    for (const type of EMISSION_TYPES) {
      if (numberInputs(type).length > this.exports.input_columns() || coreResults(type).length > this.exports.output_columns()) {
        throw new Error(`emissions.wasm has too few columns for ${type}`);
      }
    }
    this.fillMethods.set(exportedConstant(this.exports, "FillMethod.observed"), null);
    for (const method of Object.keys(FILL_METHODS) as FillMethod[]) {
      this.fillMethods.set(exportedConstant(this.exports, `FillMethod.${method}`), method);
    }
    this.input = new Float64Array(0);
    this.output = new Float64Array(0);
    this.views();
  }

  static fromModule(module: WebAssembly.Module): EmissionsCore {
    return new EmissionsCore(new WebAssembly.Instance(module, imports));
  }

  /** Synchronous: fine in Node and workers; browsers should use `fromUrl` (no size limit). */
  static fromBytes(bytes: ArrayBufferView | ArrayBuffer): EmissionsCore {
    return EmissionsCore.fromModule(new WebAssembly.Module(bytes as BufferSource));
  }

  static async fromUrl(url: string | URL): Promise<EmissionsCore> {
    const { instance } = await WebAssembly.instantiate(await fetchWasmBytes(url), imports);
    return new EmissionsCore(instance);
  }

  // Views over the core's column buffers. The stub runtime allocates them once at start and
  // nothing grows memory afterwards, but a grown memory would detach old views, so re-check.
  private views(): void {
    const buffer = this.exports.memory.buffer;
    if (this.input.buffer === buffer && this.input.length > 0) return;
    const rows = this.batchRows;
    this.input = new Float64Array(buffer, this.exports.input_ptr(), rows * this.exports.input_columns());
    this.output = new Float64Array(buffer, this.exports.output_ptr(), rows * this.exports.output_columns());
  }

  /** One calculation of a formula type: validated inputs → results named as in the registry. A value
   *  over its bound is named in the unit `entered` says it was typed in (D13), else in its field's. */
  calculate<T extends FormulaType>(
    type: T,
    inputs: FormulaInputs<T>,
    coefficients?: Coefficients<T>,
    entered?: Readonly<Record<string, { readonly unit: string }>>,
  ): FormulaResults<T> {
    if (!isFormulaType(type)) throw new FieldError("type", MESSAGES.unknownType(String(type)));
    const given = inputs as Readonly<Record<string, unknown>>;
    if (type === "recycle_technology") {
      return this.recycleTechnology(given.metan, given.a_metan, coefficients as Partial<FlowThresholds>) as FormulaResults<T>;
    }
    const emissionType = type as EmissionType;
    const fields = numberInputs(emissionType);
    const values = fields.map((field) => inputValue(field, given[field.name], undefined, entered?.[field.name]?.unit));
    checkSums(emissionType, (name) => values[fields.findIndex((f) => f.name === name)]);
    const gwp = this.settings(emissionType, coefficients).gwp_ch4 ?? DEFAULT_GWP_CH4;

    this.views();
    const rows = this.batchRows;
    values.forEach((value, column) => {
      this.input[column * rows] = value;
    });
    // Validated above: the unchecked kernel.
    if (this.kernels[emissionType](this.exports.input_ptr(), this.exports.output_ptr(), rows, 1, gwp, false) !== 1) {
      throw new Error(`emissions core rejected a calculation of ${type}`);
    }
    const results: Record<string, number> = {};
    coreResults(emissionType).forEach((field, column) => {
      results[field.name] = this.output[column * rows];
    });
    return results as FormulaResults<T>;
  }

  /**
   * One formula calculation as a create or an edit stores it, in one call into the core: every input
   * and setting checked against its field once (its bound by `boundError`, in the unit `entered` says
   * it was typed in), the registry's sums, the formula, and each result against its bound. `values`
   * are the resolved values by the registry's names, inputs and settings together.
   */
  evaluate<T extends FormulaType>(
    type: T,
    values: Readonly<Record<string, unknown>>,
    entered?: Readonly<Record<string, { readonly unit: string }>>,
  ): FormulaResults<T> {
    if (!isFormulaType(type)) throw new FieldError("type", MESSAGES.unknownType(String(type)));
    const def: CalculationDefinition = REGISTRY[type];
    const inputs = Object.fromEntries(def.inputs.map((f) => [f.name, values[f.name]]));
    const settings = Object.fromEntries(def.settings.map((f) => [f.name, values[f.name]]));
    const results = this.calculate(type, inputs as FormulaInputs<T>, settings as Coefficients<T>, entered);
    const over = resultBoundError(def, results as Readonly<Record<string, unknown>>);
    if (over) throw over;
    return results;
  }

  /**
   * Many rows of one emission type in one call: input columns → result columns (Float64Array).
   * Every value is validated before any result is returned; a FieldError carries the field and
   * the row index. Float64Array columns are copied into the core's buffer chunk by chunk and
   * checked there in the kernel's pass; other arrays are checked here value by value. Columns
   * that can be written where the core reads them are faster through `openBatch` (no copy).
   * `out` may hold result arrays of the batch's length to fill instead of allocating new ones
   * (their contents are unspecified when the call throws).
   */
  calculateBatch<T extends EmissionType>(
    type: T,
    columns: BatchColumns<T>,
    coefficients?: Coefficients<T>,
    out?: Partial<BatchResults<T>>,
  ): BatchResults<T> {
    if (!isEmissionType(type)) throw new FieldError("type", MESSAGES.unknownType(String(type)));
    const given = columns as Readonly<Record<string, ArrayLike<number> | number | undefined>>;
    const fields = numberInputs(type);
    const gwp = this.settings(type, coefficients).gwp_ch4 ?? DEFAULT_GWP_CH4;
    const length = batchLength(fields, given);

    // Scalars and plain arrays are checked here; Float64Array columns by the core, in its pass.
    // Any error sends the call to the field-by-field validation, which names the same field and
    // row as it always has (the first bad value of the first bad field, in registry order).
    let sources: (ArrayLike<number> | number)[];
    let mask = 0;
    try {
      sources = fields.map((field, column): ArrayLike<number> | number => {
        const source = given[field.name];
        if (source === undefined || typeof source === "number") return inputValue(field, source);
        if (source instanceof Float64Array) {
          mask |= 1 << column;
          return source;
        }
        for (let row = 0; row < source.length; row++) inputValue(field, source[row], row);
        return source;
      });
    } catch (error) {
      if (error instanceof FieldError) validateColumns(fields, given);
      throw error;
    }

    const results = coreResults(type).map((field) => {
      const given = (out as Readonly<Record<string, Float64Array | undefined>> | undefined)?.[field.name];
      if (given === undefined) return new Float64Array(length);
      if (!(given instanceof Float64Array) || given.length !== length) {
        throw new Error(`calculateBatch: out.${field.name} must be a Float64Array of ${length} values`);
      }
      return given;
    });
    const rows = this.batchRows;
    this.views();
    this.writeBounds(fields, mask);
    for (let start = 0; start < length; start += rows) {
      const count = Math.min(rows, length - start);
      sources.forEach((source, column) => {
        const offset = column * rows;
        if (typeof source === "number") this.input.fill(source, offset, offset + count);
        else if (source instanceof Float64Array) this.input.set(source.subarray(start, start + count), offset);
        else for (let i = 0; i < count; i++) this.input[offset + i] = source[start + i];
      });
      this.runChecked(type, this.exports.input_ptr(), this.exports.output_ptr(), rows, count, gwp, () => validateColumns(fields, given));
      results.forEach((result, column) => {
        result.set(this.output.subarray(column * rows, column * rows + count), start);
      });
    }
    checkBatchSums(type, fields, sources, length);

    const named: Record<string, Float64Array> = {};
    coreResults(type).forEach((field, column) => {
      named[field.name] = results[column];
    });
    return named as BatchResults<T>;
  }

  /**
   * A batch of `rows` rows whose columns the caller fills in the core's memory (InPlaceBatch): no
   * copy in or out, and one pass over the inputs that checks and computes. One open batch per core:
   * opening another gives this one's memory to it.
   */
  openBatch<T extends EmissionType>(type: T, rows: number): InPlaceBatch<T> {
    if (!isEmissionType(type)) throw new FieldError("type", MESSAGES.unknownType(String(type)));
    const max = this.exports.max_reserved_rows();
    if (rows > max) throw new FieldError("file_data", MESSAGES.tooManyRows(max));
    if (!Number.isInteger(rows) || rows < 0) throw new Error(`openBatch: ${rows} is not a number of rows`);
    const fields = numberInputs(type);
    const resultFields = coreResults(type);
    const stride = (Math.max(rows, 1) + 1) & ~1;
    const base = this.exports.reserve_columns(fields.length + resultFields.length, Math.max(rows, 1));
    if (base === 0) throw new Error(`emissions core could not reserve ${rows} rows`);
    const opened = ++this.openedBatches;
    const buffer = this.exports.memory.buffer;
    const column = (index: number) => new Float64Array(buffer, base + index * stride * 8, rows);
    const inputs: Record<string, Float64Array> = {};
    fields.forEach((field, index) => {
      inputs[field.name] = column(index).fill(field.fixed ?? (field.optional ? 0 : Number.NaN));
    });
    const results: Record<string, Float64Array> = {};
    resultFields.forEach((field, index) => {
      results[field.name] = column(fields.length + index);
    });
    const output = base + fields.length * stride * 8;
    const sources = fields.map((field) => inputs[field.name]);
    return {
      type,
      rows,
      inputs: inputs as InPlaceBatch<T>["inputs"],
      results: results as BatchResults<T>,
      run: (coefficients?: Coefficients<T>) => {
        if (opened !== this.openedBatches) throw new Error("openBatch: a later batch has taken this batch's memory");
        const gwp = this.settings(type, coefficients).gwp_ch4 ?? DEFAULT_GWP_CH4;
        this.writeBounds(fields, -1);
        this.runChecked(type, base, output, stride, rows, gwp, () => validateColumns(fields, inputs));
        checkBatchSums(type, fields, sources, rows);
        return results as BatchResults<T>;
      },
    };
  }

  /** The registry bounds of a type's inputs in the core's bounds table: the columns whose bit is
   *  set in `mask` are checked by the core, the others (checked here) let any number through. */
  private writeBounds(fields: readonly NumberField[], mask: number): void {
    const bounds = new Float64Array(this.exports.memory.buffer, this.exports.bounds_ptr(), 2 * this.exports.input_columns());
    fields.forEach((field, column) => {
      const checked = (mask >> column) & 1;
      bounds[2 * column] = checked ? (field.fixed ?? field.min) : Number.NEGATIVE_INFINITY;
      bounds[2 * column + 1] = checked ? (field.fixed ?? field.max ?? Number.MAX_VALUE) : Number.POSITIVE_INFINITY;
    });
  }

  /** The core's checked batch; when a value is out of bounds, `validate` throws the FieldError naming it. */
  private runChecked(
    type: EmissionType,
    input: number,
    output: number,
    stride: number,
    rows: number,
    gwp: number,
    validate: () => void,
  ): void {
    const done = this.kernels[type](input, output, stride, rows, gwp, true);
    if (done === -2) {
      validate();
      throw new Error("emissions core rejected a value the facade accepts");
    }
    if (done !== rows) throw new Error(`emissions core rejected a batch of ${type}`);
  }

  /** Registry settings of a type with defaults applied, each validated like an input. */
  private settings(type: CalculationType, coefficients: Readonly<Record<string, unknown>> | undefined): Record<string, number> {
    const values: Record<string, number> = {};
    for (const field of REGISTRY[type].settings as readonly NumberField[]) {
      values[field.name] = inputValue(field, coefficients?.[field.name] ?? field.default);
    }
    return values;
  }

  /** Values outside the IPCC ranges (docs/methodology.md, Calculation types) are allowed but worth a warning. */
  warnings<T extends FormulaType>(type: T, inputs: FormulaInputs<T>): FieldWarning[] {
    const given = inputs as Readonly<Record<string, unknown>>;
    const warnings: FieldWarning[] = [];
    for (const field of numberInputs(type)) {
      const value = given[field.name];
      if (field.typical && typeof value === "number" && (value < field.typical.min || value > field.typical.max)) {
        warnings.push({ field: field.name, message: MESSAGES.typical(field.typical.min, field.typical.max, field.unit) });
      }
    }
    return warnings;
  }

  /** 4.9: fuel litres → t via density p, kg/L (Order 371 formula 18.2). */
  fuelLitresToTonnes(quantity: unknown, p: unknown): number {
    return this.exports.fuel_litres_to_t(nonNegative("quantity", quantity), nonNegative("p", p));
  }

  /** The gas converter: m³ → t via density, kg/m³ (docs/user-guide.md, «Converters»). */
  gasM3ToTonnes(quantity: unknown, density: unknown): number {
    return this.exports.gas_m3_to_t(nonNegative("quantity", quantity), nonNegative("density", density));
  }

  /** 4.10: utilisation technology for CH4 concentration metan (%) and pure-methane flow a_metan (m³/min). */
  recycleTechnology(metan: unknown, a_metan: unknown, thresholds?: Partial<FlowThresholds>): RecycleTechnology {
    const fields = numberInputs("recycle_technology");
    const c = inputValue(fields[0], metan);
    const q = inputValue(fields[1], a_metan);
    const t = this.settings("recycle_technology", thresholds as Readonly<Record<string, unknown>>) as unknown as FlowThresholds;
    const index = this.exports.recycle_technology(c, q, t.q_boiler, t.q_gas_engine, t.q_vam_energy, t.q_pipeline, t.q_power_plant);
    const row = RECYCLE_TECHNOLOGIES[index];
    if (!row) throw new Error(`emissions core returned technology ${index}`);
    return { code: row.code, technology: row.technology };
  }

  /**
   * 4.11 for one series: results per year, sorted by year. sn_* are the main definitions
   * (one-at-a-time, step delta), el_* the year-over-year arc elasticities (D6, alternative B).
   */
  sensitivity(rows: readonly SensitivityRow[], params?: Partial<SensitivityParams>): SensitivityResultRow[] {
    const p = this.settings("sensitivity", params as Readonly<Record<string, unknown>>) as unknown as SensitivityParams;
    if (!(p.delta > 0)) throw new FieldError("delta", MESSAGES.positive);
    if (rows.length > this.batchRows) throw new FieldError("file_data", MESSAGES.tooManyRows(this.batchRows));
    const withFuel = rows.filter((r) => r.transport_fuel !== undefined && r.transport_fuel !== null).length;
    if (withFuel !== 0 && withFuel !== rows.length) throw new FieldError("transport_fuel", MESSAGES.partialColumn);
    const useFuel = rows.length > 0 && withFuel === rows.length;

    rows.forEach((r, row) => {
      finiteNumber("year", r.year, row);
      nonNegative("volume", r.volume, row);
      nonNegative("methane", r.methane, row);
      if (useFuel) nonNegative("transport_fuel", r.transport_fuel, row);
    });
    const sorted = sortByYear(rows, (r) => r.year);

    this.views();
    const n = this.batchRows;
    sorted.forEach((r, i) => {
      this.input[i] = r.volume;
      this.input[n + i] = r.methane;
      this.input[2 * n + i] = useFuel ? (r.transport_fuel as number) : 0;
    });
    if (this.exports.sensitivity(sorted.length, p.rho, p.gwp_ch4, p.k_tr, p.delta, p.ef_transport_fuel, useFuel) !== sorted.length) {
      throw new Error("emissions core rejected the sensitivity series");
    }
    const out = this.output;
    return sorted.map((r, i) => ({
      year: r.year,
      volume: r.volume,
      methane: r.methane,
      res_co2: out[i],
      res_co2_transport: out[n + i],
      res_co2_all: out[2 * n + i],
      sn_volume: nullIfNaN(out[3 * n + i]),
      sn_methan: nullIfNaN(out[4 * n + i]),
      el_volume: nullIfNaN(out[5 * n + i]),
      el_methan: nullIfNaN(out[6 * n + i]),
    }));
  }

  /**
   * 4.12 for one element: blanks (null) filled by interpolation, trend or the single observation;
   * negative fills clipped to 0. Returns one entry per input year, in the input order.
   */
  fillBlanks(years: readonly number[], values: readonly (number | null | undefined)[]): FilledValue[] {
    if (values.length !== years.length) throw new FieldError("value", MESSAGES.columnLength(years.length));
    if (years.length > this.batchRows) throw new FieldError("file_data", MESSAGES.tooManyRows(this.batchRows));
    years.forEach((year, row) => finiteNumber("year", year, row));
    values.forEach((value, row) => {
      if (value !== null && value !== undefined) nonNegative("value", value, row);
    });
    const order = sortByYear(
      years.map((year, row) => ({ year, row })),
      (r) => r.year,
    );

    this.views();
    const n = this.batchRows;
    order.forEach(({ year, row }, i) => {
      this.input[i] = year;
      this.input[n + i] = values[row] ?? NaN;
    });
    this.exports.filling_blanks(order.length);
    const filled = new Array<FilledValue>(years.length);
    order.forEach(({ year, row }, i) => {
      filled[row] = { year, value: nullIfNaN(this.output[i]), method: this.fillMethods.get(this.output[n + i]) ?? null };
    });
    return filled;
  }
}

// ---- validation helpers --------------------------------------------------------------------------

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

function finiteNumber(field: string, value: unknown, row?: number): number {
  if (isMissing(value)) throw new FieldError(field, MESSAGES.required, row);
  if (typeof value !== "number" || !Number.isFinite(value)) throw new FieldError(field, MESSAGES.nonNegative, row);
  return value;
}

function nonNegative(field: string, value: unknown, row?: number): number {
  const number = finiteNumber(field, value, row);
  if (number < 0) throw new FieldError(field, MESSAGES.nonNegative, row);
  return number;
}

/** Checks one value against its registry field; a fixed field may be omitted, an optional one is 0 then.
 *  Over its bound, the bound is named in `unit`, the unit the value was typed in. */
function inputValue(field: NumberField, value: unknown, row?: number, unit?: string): number {
  if (field.optional && isMissing(value)) return 0;
  if (field.fixed !== undefined) {
    if (isMissing(value)) return field.fixed;
    if (value !== field.fixed) throw new FieldError(field.name, MESSAGES.fixed(field.fixed), row);
    return field.fixed;
  }
  const number = finiteNumber(field.name, value, row);
  if (number < field.min) throw new FieldError(field.name, MESSAGES.nonNegative, row);
  const over = boundError(field, number, unit, row);
  if (over) throw over;
  return number;
}

/**
 * The one check of a value against its field's upper bound (the registry's PHYSICAL_BOUNDS,
 * docs/security.md), wherever the value comes from (a create, an edit, a measurement period's sum, a
 * batch): over it, a FieldError naming the field by its label with the bound in `unit`, the unit the
 * value was typed in (D13), code `too_big` and the bound and unit as its params; undefined within it.
 */
export function boundError(field: NumberField, value: number, unit = field.unit, row?: number): FieldError | undefined {
  if (field.max === undefined || !(value > field.max)) return undefined;
  const max = unit === field.unit ? field.max : fromCanonical(field, unit, field.max);
  return new FieldError(field.name, MESSAGES.fieldAtMost(field.label, max, unit), row, "too_big", { maximum: max, unit });
}

/** Every number input and setting of a type within its bound, the unit each was typed in named by
 *  `entered` (D13): the first over its bound throws. Fields the values lack, or hold no number for,
 *  are the formula's to refuse. */
export function checkBounds(
  def: CalculationDefinition,
  values: Readonly<Record<string, unknown>>,
  entered?: Readonly<Record<string, { readonly unit: string }>>,
): void {
  for (const field of [...def.inputs, ...def.settings] as readonly { type: string }[]) {
    if (field.type !== "number") continue;
    const number = field as NumberField;
    const value = values[number.name];
    if (typeof value !== "number") continue;
    const over = boundError(number, value, entered?.[number.name]?.unit);
    if (over) throw over;
  }
}

/** The first result of a calculation over its bound (a number, or a column of a table's rows), as
 *  the FieldError naming it (its path: `res_co2`, `periods[0].res_ch4`); undefined when none is. */
export function resultBoundError(def: CalculationDefinition, results: Readonly<Record<string, unknown>>): FieldError | undefined {
  const over = (field: { label: string; unit: string; max?: number }, value: unknown, path: string) =>
    field.max !== undefined && typeof value === "number" && Math.abs(value) > field.max
      ? new FieldError(path, MESSAGES.resultOverBound(field.label, value, field.max, field.unit), undefined, "too_big", {
          maximum: field.max,
          unit: field.unit,
        })
      : undefined;
  for (const field of def.results) {
    const value = results[field.name];
    if (field.type === "number") {
      const problem = over(field, value, field.name);
      if (problem) return problem;
    } else if (field.type === "table" && Array.isArray(value)) {
      for (const [index, row] of value.entries()) {
        for (const column of field.columns ?? []) {
          const problem = over(column, (row as Record<string, unknown> | null)?.[column.name], `${field.name}[${index}].${column.name}`);
          if (problem) return problem;
        }
      }
    }
  }
  return undefined;
}

/** Rows of a batch: the first array column sets it; only scalars means one row. */
function batchLength(fields: readonly NumberField[], given: Readonly<Record<string, ArrayLike<number> | number | undefined>>): number {
  let length = -1;
  for (const field of fields) {
    const column = given[field.name];
    if (column !== undefined && typeof column !== "number") {
      if (length < 0) length = column.length;
      else if (column.length !== length) throw new FieldError(field.name, MESSAGES.columnLength(length));
    }
  }
  return length < 0 ? 1 : length;
}

/** Every value of a batch against its field, field by field in registry order: throws the
 *  FieldError of the first bad value. */
function validateColumns(fields: readonly NumberField[], given: Readonly<Record<string, ArrayLike<number> | number | undefined>>): void {
  for (const field of fields) {
    const column = given[field.name];
    if (column === undefined || typeof column === "number") inputValue(field, column);
    else for (let row = 0; row < column.length; row++) inputValue(field, column[row], row);
  }
}

/** The registry's cross-field sums of a batch, row by row, after every field passed. */
function checkBatchSums(
  type: EmissionType,
  fields: readonly NumberField[],
  sources: readonly (ArrayLike<number> | number)[],
  length: number,
): void {
  if (!(REGISTRY[type] as CalculationDefinition).sums) return;
  const index = new Map(fields.map((field, column) => [field.name, column]));
  for (let row = 0; row < length; row++) {
    checkSums(
      type,
      (name) => {
        const source = sources[index.get(name) as number];
        return typeof source === "number" ? source : source[row];
      },
      row,
    );
  }
}

/** Cross-field limits of the registry (torch_composition: the contents sum to at most 100 % vol).
 *  The error names the first field and lists all of them, so the message says which to correct. */
function checkSums(type: CalculationType, value: (name: string) => number, row?: number): void {
  const def: CalculationDefinition = REGISTRY[type];
  for (const limit of def.sums ?? []) {
    const sum = limit.fields.reduce((total, name) => total + value(name), 0);
    // A sum like 60 + 30 + 10 may land a rounding step above 100; that is still 100.
    if (sum > limit.max * (1 + 1e-12)) {
      const unit = def.inputs.find((f) => f.name === limit.fields[0])?.unit ?? "";
      const labels = limit.fields.map((name) => def.inputs.find((f) => f.name === name)?.label ?? name);
      throw new FieldError(limit.fields[0], MESSAGES.sumAtMost(limit.label, labels, limit.max, unit, sum), row);
    }
  }
}

function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/** Stable sort by year; a repeated year is an input error (the series is one value per year). */
function sortByYear<R>(rows: readonly R[], year: (row: R) => number): R[] {
  const sorted = [...rows].sort((a, b) => year(a) - year(b));
  for (let i = 1; i < sorted.length; i++) {
    if (year(sorted[i]) === year(sorted[i - 1])) {
      throw new FieldError("year", MESSAGES.duplicateYear(year(sorted[i])), rows.indexOf(sorted[i]));
    }
  }
  return sorted;
}
