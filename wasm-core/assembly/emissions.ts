// Emission core: the formulas of docs/methodology.md, Calculation types (methodology version 2026.1 and later).
// Sources: IPCC 2006 Vol. 2 Ch. 4.1 (Tier 1 coal mining, flaring), Order No. 371 of 27.05.2022
// formulas 1.1 + 1.2, 2.2, 2.4, 3.1, 18.1, 18.2 (transcription), decision table 4.10, methods 4.11 and 4.12.
// Units (methodology D8): volume in t of coal (mining types), t of fuel (open-pit CO2), thousand m³ of gas
// (4.5–4.8); emission factors in m³/t, t/t or % vol; densities in kg/m³ (= t per thousand m³);
// every mass result in t, CO2-equivalents in t CO2e. f64 throughout.
//
// Pure: no host imports but abort. Inputs are validated before the kernels run: single values by
// the TypeScript facade (wasm-core/src/emissions-core.ts), batch columns by `check` below against
// the registry bounds the facade writes, so the formula kernels do not re-check.

// ---------------------------------------------------------------------------------------------
// Scalar formulas, one per calculation type. The batch kernels below call the same functions,
// so a single row and a batch row are computed by identical arithmetic.

// 4.1–4.3: CH4 from coal production (IPCC Tier 1/2): m³/t × t × kg/m³ = kg, / 1000 = t.
// @ts-ignore: decorator
@inline function ch4_from_coal(volume: f64, ef: f64, koef_transform: f64): f64 {
  return volume * ef * koef_transform / 1000.0;
}

/** 4.1 underground mining: res_ch4, t CH4. */
export function underground_emission_ch4(volume: f64, ef: f64, koef_transform: f64): f64 {
  return ch4_from_coal(volume, ef, koef_transform);
}

/** 4.2 post-mining (handling) of underground coal: res_ch4, t CH4. */
export function handling_underground_ch4(volume: f64, ef: f64, koef_transform: f64): f64 {
  return ch4_from_coal(volume, ef, koef_transform);
}

/** 4.3 surface (open-pit) mining or post-mining: res_ch4, t CH4. */
export function open_mining_ch4(volume: f64, ef: f64, koef_transform: f64): f64 {
  return ch4_from_coal(volume, ef, koef_transform);
}

/** D1: res_ch4_to_co2 = res_ch4 × GWP_CH4, t CO2e (methane is emitted, not burnt: Q11). */
// @ts-ignore: decorator
@inline export function ch4_to_co2(res_ch4: f64, gwp_ch4: f64): f64 {
  return res_ch4 * gwp_ch4;
}

/** 4.4 fuel burnt by open-pit machinery (Order 371 formula 18.1): t fuel × t CO2/t = t CO2. */
// @ts-ignore: decorator
@inline export function open_mining_co2(volume: f64, ef: f64): f64 {
  return volume * ef;
}

// 4.5 (Order 371 formula 3.1): thousand m³ × % vol / 100 × kg/m³ = t of the gas.
// @ts-ignore: decorator
@inline function gas_in_mixture(volume: f64, content: f64, density: f64): f64 {
  return volume * content * density / 100.0;
}

/** 4.5 res_ch4, t CH4, of a measured degasification or ventilation release. */
// @ts-ignore: decorator
@inline export function underground_ch4(volume: f64, p_ch4: f64, ef_ch4: f64): f64 {
  return gas_in_mixture(volume, ef_ch4, p_ch4);
}

/** 4.5 res_co2, t CO2, of a measured degasification or ventilation release. */
// @ts-ignore: decorator
@inline export function underground_co2(volume: f64, p_co2: f64, ef_co2: f64): f64 {
  return gas_in_mixture(volume, ef_co2, p_co2);
}

/** 4.5 sum_co2 = res_co2 + res_ch4 × GWP_CH4, t CO2e. */
export function underground(volume: f64, p_co2: f64, p_ch4: f64, ef_co2: f64, ef_ch4: f64, gwp_ch4: f64): f64 {
  return underground_co2(volume, p_co2, ef_co2) + ch4_to_co2(underground_ch4(volume, p_ch4, ef_ch4), gwp_ch4);
}

// D3: flares follow the IPCC form with combustion efficiency 0.98 (docs/methodology.md, D3).
const FLARE_EFFICIENCY: f64 = 0.98;

/** 4.6 CO2 from flaring pure CH4: 0.98 × thousand m³ × kg/m³ × 2.75 = t CO2. */
// @ts-ignore: decorator
@inline export function disposal_co2_torch(volume: f64, ef: f64, koef_transform: f64): f64 {
  return FLARE_EFFICIENCY * volume * koef_transform * ef;
}

/** 4.7 unburnt CH4 of a flare: (1 − 0.98) × thousand m³ × kg/m³ = t CH4. */
// @ts-ignore: decorator
@inline export function torch_ch4(volume: f64, koef_transform: f64): f64 {
  return (1.0 - FLARE_EFFICIENCY) * volume * koef_transform;
}

// 7.1 (Order 371 formulas 2.2 and 2.4): flaring a gas mixture of known composition. W in % vol,
// CF the coefficient of unburnt gas (Order 371 Table 2.2), ρ in kg/m³ (= t per thousand m³).
// Every carbon atom of a burnt hydrocarbon becomes one CO2 molecule: CH4 1, C2H6 2, C3H8 3,
// C4H10 4, C5H12 5 carbon atoms.

/** 7.1 formula 2.2: EF_CO2 = (W_CO2 + Σ W_i × n_C,i × (1 − CF)) × ρ_CO2 × 10⁻², t CO2 per thousand m³. */
// @ts-ignore: decorator
@inline export function torch_composition_ef_co2(
  w_ch4: f64, w_co2: f64, w_c2h6: f64, w_c3h8: f64, w_c4h10: f64, w_c5h12: f64, cf: f64, p_co2: f64,
): f64 {
  const carbon = w_ch4 + 2.0 * w_c2h6 + 3.0 * w_c3h8 + 4.0 * w_c4h10 + 5.0 * w_c5h12;
  return (w_co2 + carbon * (1.0 - cf)) * p_co2 / 100.0;
}

/** 7.1 formula 2.4: EF_CH4 = W_CH4 × CF × ρ_CH4 × 10⁻², t CH4 per thousand m³. */
// @ts-ignore: decorator
@inline export function torch_composition_ef_ch4(w_ch4: f64, cf: f64, p_ch4: f64): f64 {
  return w_ch4 * cf * p_ch4 / 100.0;
}

/** 7.1 sum_co2 = V × EF_CO2 + V × EF_CH4 × GWP_CH4, t CO2e, of flaring V thousand m³ of the mixture. */
export function torch_composition(
  volume: f64, w_ch4: f64, w_co2: f64, w_c2h6: f64, w_c3h8: f64, w_c4h10: f64, w_c5h12: f64,
  cf: f64, p_co2: f64, p_ch4: f64, gwp_ch4: f64,
): f64 {
  return volume * torch_composition_ef_co2(w_ch4, w_co2, w_c2h6, w_c3h8, w_c4h10, w_c5h12, cf, p_co2)
    + ch4_to_co2(volume * torch_composition_ef_ch4(w_ch4, cf, p_ch4), gwp_ch4);
}

/** 4.8 stationary combustion (Order 371 formulas 1.1 + 1.2): natural units × k × ef × of = t CO2.
 *  D28: drained gas of known composition (W_CH4 > 0, % vol; the mine-gas entry, whose k × ef is
 *  ρ_CO2, t CO2 per thousand m³): each burnt CH4 molecule gives one of CO2 and the mixture's CO2
 *  passes through, V × k × ef × (W_CH4 × of + W_CO2) × 10⁻². */
// (`of` is a keyword to the AssemblyScript parser, hence `oxidation`.)
// @ts-ignore: decorator
@inline export function disposal_co2_stat_sources(volume: f64, ef: f64, oxidation: f64, k: f64, w_ch4: f64, w_co2: f64): f64 {
  if (w_ch4 > 0.0) return volume * k * ef * (w_ch4 * oxidation + w_co2) / 100.0;
  return volume * k * ef * oxidation;
}

/** 4.9 fuel litres → t (Order 371 formula 18.2): L × kg/L / 1000. */
export function fuel_litres_to_t(quantity: f64, p: f64): f64 {
  return quantity * p / 1000.0;
}

/** 4.9 gas m³ → t: m³ × kg/m³ / 1000. */
export function gas_m3_to_t(quantity: f64, density: f64): f64 {
  return quantity * density / 1000.0;
}

// ---------------------------------------------------------------------------------------------
// 4.10 recycle_technology: decision table, top to bottom, first match wins, intervals closed on
// the left. Concentration limits are physics and safety rules (fixed here); the flow limits are
// engineering assumptions kept in a dictionary (D5), so they arrive as arguments (m³/min of CH4).
// The returned index is the "#" column of the table; the facade maps it to the code and text.

export function recycle_technology(
  metan: f64, a_metan: f64,
  q_boiler: f64, q_gas_engine: f64, q_vam_energy: f64, q_pipeline: f64, q_power_plant: f64,
): i32 {
  if (!(metan >= 0.0 && metan <= 100.0 && a_metan >= 0.0 && a_metan < Infinity)) return -1;
  if (a_metan == 0.0) return 0;                               // NO_FLOW
  if (metan < 0.2) return 1;                                  // NONE_TOO_LEAN
  if (metan >= 0.6 && metan < 1.0 && a_metan >= q_vam_energy) return 2; // VAM_ENERGY
  if (metan < 1.0) return 3;                                  // VAM_DESTRUCTION
  if (metan < 5.0) return 4;                                  // DILUTE_AND_OXIDISE
  if (metan < 25.0) return 5;                                 // UNSAFE_NO_USE
  if (metan < 30.0) return 6;                                 // FLARE_BOILER_LIMITED
  if (metan >= 95.0 && a_metan >= q_pipeline) return 7;       // PIPELINE_CNG_LNG
  if (a_metan >= q_power_plant) return 8;                     // POWER_PLANT
  if (a_metan >= q_gas_engine) return 9;                      // GAS_ENGINE_CHP
  if (a_metan >= q_boiler) return 10;                         // BOILER
  return 11;                                                  // FLARE
}

// ---------------------------------------------------------------------------------------------
// Column buffers shared with the facade. Allocated once at start (runtime stub: nothing is ever
// freed, so nothing else may allocate afterwards but the in-place block of reserve_columns below).
// Column c, row i lives at [c × BATCH_ROWS + i]; the facade copies chunks of at most BATCH_ROWS.

const BATCH_ROWS: i32 = 16384;
const INPUT_COLUMNS: i32 = 10;
const OUTPUT_COLUMNS: i32 = 7;
const input = new StaticArray<f64>(BATCH_ROWS * INPUT_COLUMNS);
const output = new StaticArray<f64>(BATCH_ROWS * OUTPUT_COLUMNS);

export function batch_rows(): i32 { return BATCH_ROWS; }
export function input_columns(): i32 { return INPUT_COLUMNS; }
export function output_columns(): i32 { return OUTPUT_COLUMNS; }
export function input_ptr(): usize { return changetype<usize>(input); }
export function output_ptr(): usize { return changetype<usize>(output); }

// Inclusive bounds of each input column, [lo, hi] at [2c, 2c + 1], written by the facade from the
// registry (lo = hi for a fixed field; hi = f64.MAX_VALUE when unbounded, so ±Infinity and NaN fail;
// -Infinity and +Infinity for a column the facade checked itself, which lets any number through).
const bounds = new StaticArray<f64>(INPUT_COLUMNS * 2);

export function bounds_ptr(): usize { return changetype<usize>(bounds); }

// Columns of an in-place batch: the caller writes its inputs straight into this block of memory
// (the facade hands out typed views of it) and reads its results from it, so nothing is copied.
// One block at a time; reserving another gives the previous one back first (the stub runtime takes
// back the last block it handed out, and nothing else allocates after start).
const MAX_RESERVED_ROWS: i32 = 1 << 21;
let reserved: usize = 0;

export function max_reserved_rows(): i32 { return MAX_RESERVED_ROWS; }

/** A 16-byte aligned block of `columns` columns of `rows` rows (rounded up to even) of f64, or 0
 *  when the size is out of range. Memory may grow: views made before the call must be made again. */
export function reserve_columns(columns: i32, rows: i32): usize {
  if (reserved != 0) heap.free(reserved);
  reserved = 0;
  if (columns <= 0 || columns > INPUT_COLUMNS + OUTPUT_COLUMNS || rows <= 0 || rows > MAX_RESERVED_ROWS) return 0;
  reserved = heap.alloc(<usize>columns * <usize>((rows + 1) & ~1) * 8 + 16);
  return (reserved + 15) & ~15;
}

// Column c, row i of a batch whose columns are `column` bytes apart.
// @ts-ignore: decorator
@inline function at(base: usize, column: usize, c: i32, i: i32): usize {
  return base + <usize>c * column + (<usize>i << 3);
}

// @ts-ignore: decorator
@inline function get(base: usize, column: usize, c: i32, i: i32): f64 {
  return load<f64>(at(base, column, c, i));
}

// @ts-ignore: decorator
@inline function put(base: usize, column: usize, c: i32, i: i32, value: f64): void {
  store<f64>(at(base, column, c, i), value);
}

// Two rows of a column as one f64x2 (WASM SIMD). A lane does exactly the scalar formula's
// operations in the same order, so SIMD rows are bit-identical to the scalar ones.
// @ts-ignore: decorator
@inline function get2(base: usize, column: usize, c: i32, i: i32): v128 {
  return v128.load(at(base, column, c, i));
}

// @ts-ignore: decorator
@inline function put2(base: usize, column: usize, c: i32, i: i32, value: v128): void {
  v128.store(at(base, column, c, i), value);
}

// The bounds check fused into a kernel's pass: each value a kernel loads is compared with its
// column's bounds as it is used, so a checked batch reads its inputs once. v >= lo and v <= hi is
// false for NaN. The bounds as two-lane constants, made before a kernel's loop:
// @ts-ignore: decorator
@inline function lo2(c: i32): v128 { return f64x2.splat(unchecked(bounds[2 * c])); }
// @ts-ignore: decorator
@inline function hi2(c: i32): v128 { return f64x2.splat(unchecked(bounds[2 * c + 1])); }
// @ts-ignore: decorator
@inline function inside2(v: v128, lo: v128, hi: v128): v128 {
  return v128.and(f64x2.ge(v, lo), f64x2.le(v, hi));
}
// @ts-ignore: decorator
@inline function inside(v: f64, c: i32): bool {
  return v >= unchecked(bounds[2 * c]) && v <= unchecked(bounds[2 * c + 1]);
}

// Each kernel below takes its inputs from `inp` and writes its results at `out`, columns `col`
// bytes apart, and returns false when `checked` and a value is outside its bounds (its results are
// then not to be read). `checked` is a constant at each call site, so the check costs nothing in
// the unchecked entry.

// The three production-based CH4 types (4.1–4.3) share one kernel.
// @ts-ignore: decorator
@inline function batch_ch4_from_coal(inp: usize, out: usize, col: usize, rows: i32, gwp_ch4: f64, checked: bool): bool {
  const pairs = rows & ~1;
  const thousand = f64x2.splat(1000.0);
  const gwp = f64x2.splat(gwp_ch4);
  const lo0 = lo2(0), hi0 = hi2(0), lo1 = lo2(1), hi1 = hi2(1), lo2_ = lo2(2), hi2_ = hi2(2);
  let ok = i64x2.splat(-1);
  for (let i = 0; i < pairs; i += 2) {
    const volume = get2(inp, col, 0, i);
    const ef = get2(inp, col, 1, i);
    const koef = get2(inp, col, 2, i);
    if (checked) ok = v128.and(ok, v128.and(inside2(volume, lo0, hi0), v128.and(inside2(ef, lo1, hi1), inside2(koef, lo2_, hi2_))));
    const res_ch4 = f64x2.div(f64x2.mul(f64x2.mul(volume, ef), koef), thousand);
    put2(out, col, 0, i, res_ch4);
    put2(out, col, 1, i, f64x2.mul(res_ch4, gwp));
  }
  let fine = !checked || i64x2.all_true(ok);
  for (let i = pairs; i < rows; i++) {
    const volume = get(inp, col, 0, i);
    const ef = get(inp, col, 1, i);
    const koef = get(inp, col, 2, i);
    if (checked) fine = fine && inside(volume, 0) && inside(ef, 1) && inside(koef, 2);
    const res_ch4 = ch4_from_coal(volume, ef, koef);
    put(out, col, 0, i, res_ch4);
    put(out, col, 1, i, ch4_to_co2(res_ch4, gwp_ch4));
  }
  return fine;
}

// Two rows at a time (WASM SIMD): the lanes do the scalar formulas' operations in the same order,
// so every result is bit-identical to `underground_co2` / `underground_ch4`; the odd row is scalar.
// @ts-ignore: decorator
@inline function batch_underground(inp: usize, out: usize, col: usize, rows: i32, gwp_ch4: f64, checked: bool): bool {
  const pairs = rows & ~1;
  const hundred = f64x2.splat(100.0);
  const gwp = f64x2.splat(gwp_ch4);
  const lo0 = lo2(0), hi0 = hi2(0), lo1 = lo2(1), hi1 = hi2(1), lo2_ = lo2(2), hi2_ = hi2(2);
  const lo3 = lo2(3), hi3 = hi2(3), lo4 = lo2(4), hi4 = hi2(4);
  let ok = i64x2.splat(-1);
  for (let i = 0; i < pairs; i += 2) {
    const volume = get2(inp, col, 0, i);
    const p_co2 = get2(inp, col, 1, i);
    const p_ch4 = get2(inp, col, 2, i);
    const ef_co2 = get2(inp, col, 3, i);
    const ef_ch4 = get2(inp, col, 4, i);
    if (checked) {
      const a = v128.and(inside2(volume, lo0, hi0), inside2(p_co2, lo1, hi1));
      const b = v128.and(inside2(p_ch4, lo2_, hi2_), inside2(ef_co2, lo3, hi3));
      ok = v128.and(ok, v128.and(v128.and(a, b), inside2(ef_ch4, lo4, hi4)));
    }
    const res_co2 = f64x2.div(f64x2.mul(f64x2.mul(volume, ef_co2), p_co2), hundred);
    const res_ch4 = f64x2.div(f64x2.mul(f64x2.mul(volume, ef_ch4), p_ch4), hundred);
    const res_ch4_to_co2 = f64x2.mul(res_ch4, gwp);
    put2(out, col, 0, i, res_co2);
    put2(out, col, 1, i, res_ch4);
    put2(out, col, 2, i, res_ch4_to_co2);
    put2(out, col, 3, i, f64x2.add(res_co2, res_ch4_to_co2));
  }
  let fine = !checked || i64x2.all_true(ok);
  for (let i = pairs; i < rows; i++) {
    const volume = get(inp, col, 0, i);
    const p_co2 = get(inp, col, 1, i);
    const p_ch4 = get(inp, col, 2, i);
    const ef_co2 = get(inp, col, 3, i);
    const ef_ch4 = get(inp, col, 4, i);
    if (checked) {
      fine = fine && inside(volume, 0) && inside(p_co2, 1) && inside(p_ch4, 2) && inside(ef_co2, 3) && inside(ef_ch4, 4);
    }
    const res_co2 = underground_co2(volume, p_co2, ef_co2);
    const res_ch4 = underground_ch4(volume, p_ch4, ef_ch4);
    const res_ch4_to_co2 = ch4_to_co2(res_ch4, gwp_ch4);
    put(out, col, 0, i, res_co2);
    put(out, col, 1, i, res_ch4);
    put(out, col, 2, i, res_ch4_to_co2);
    put(out, col, 3, i, res_co2 + res_ch4_to_co2);
  }
  return fine;
}

// @ts-ignore: decorator
@inline function batch_open_mining_co2(inp: usize, out: usize, col: usize, rows: i32, checked: bool): bool {
  const pairs = rows & ~1;
  const lo0 = lo2(0), hi0 = hi2(0), lo1 = lo2(1), hi1 = hi2(1);
  let ok = i64x2.splat(-1);
  for (let i = 0; i < pairs; i += 2) {
    const volume = get2(inp, col, 0, i);
    const ef = get2(inp, col, 1, i);
    if (checked) ok = v128.and(ok, v128.and(inside2(volume, lo0, hi0), inside2(ef, lo1, hi1)));
    put2(out, col, 0, i, f64x2.mul(volume, ef));
  }
  let fine = !checked || i64x2.all_true(ok);
  for (let i = pairs; i < rows; i++) {
    const volume = get(inp, col, 0, i);
    const ef = get(inp, col, 1, i);
    if (checked) fine = fine && inside(volume, 0) && inside(ef, 1);
    put(out, col, 0, i, open_mining_co2(volume, ef));
  }
  return fine;
}

// @ts-ignore: decorator
@inline function batch_disposal_co2_torch(inp: usize, out: usize, col: usize, rows: i32, checked: bool): bool {
  const pairs = rows & ~1;
  const efficiency = f64x2.splat(FLARE_EFFICIENCY);
  const lo0 = lo2(0), hi0 = hi2(0), lo1 = lo2(1), hi1 = hi2(1), lo2_ = lo2(2), hi2_ = hi2(2);
  let ok = i64x2.splat(-1);
  for (let i = 0; i < pairs; i += 2) {
    const volume = get2(inp, col, 0, i);
    const ef = get2(inp, col, 1, i);
    const koef = get2(inp, col, 2, i);
    if (checked) ok = v128.and(ok, v128.and(inside2(volume, lo0, hi0), v128.and(inside2(ef, lo1, hi1), inside2(koef, lo2_, hi2_))));
    // FLARE_EFFICIENCY × volume × koef_transform × ef
    put2(out, col, 0, i, f64x2.mul(f64x2.mul(f64x2.mul(efficiency, volume), koef), ef));
  }
  let fine = !checked || i64x2.all_true(ok);
  for (let i = pairs; i < rows; i++) {
    const volume = get(inp, col, 0, i);
    const ef = get(inp, col, 1, i);
    const koef = get(inp, col, 2, i);
    if (checked) fine = fine && inside(volume, 0) && inside(ef, 1) && inside(koef, 2);
    put(out, col, 0, i, disposal_co2_torch(volume, ef, koef));
  }
  return fine;
}

// @ts-ignore: decorator
@inline function batch_disposal_co2_stat_sources(inp: usize, out: usize, col: usize, rows: i32, checked: bool): bool {
  let fine = true;
  for (let i = 0; i < rows; i++) {
    const volume = get(inp, col, 0, i);
    const ef = get(inp, col, 1, i);
    const oxidation = get(inp, col, 2, i);
    const k = get(inp, col, 3, i);
    const w_ch4 = get(inp, col, 4, i);
    const w_co2 = get(inp, col, 5, i);
    if (checked) {
      fine = fine && inside(volume, 0) && inside(ef, 1) && inside(oxidation, 2) && inside(k, 3) && inside(w_ch4, 4) && inside(w_co2, 5);
    }
    put(out, col, 0, i, disposal_co2_stat_sources(volume, ef, oxidation, k, w_ch4, w_co2));
  }
  return fine;
}

// @ts-ignore: decorator
@inline function batch_torch_ch4(inp: usize, out: usize, col: usize, rows: i32, gwp_ch4: f64, checked: bool): bool {
  const pairs = rows & ~1;
  const unburnt = f64x2.splat(1.0 - FLARE_EFFICIENCY);
  const gwp = f64x2.splat(gwp_ch4);
  const lo0 = lo2(0), hi0 = hi2(0), lo1 = lo2(1), hi1 = hi2(1);
  let ok = i64x2.splat(-1);
  for (let i = 0; i < pairs; i += 2) {
    const volume = get2(inp, col, 0, i);
    const koef = get2(inp, col, 1, i);
    if (checked) ok = v128.and(ok, v128.and(inside2(volume, lo0, hi0), inside2(koef, lo1, hi1)));
    // (1 − FLARE_EFFICIENCY) × volume × koef_transform
    const res_ch4 = f64x2.mul(f64x2.mul(unburnt, volume), koef);
    put2(out, col, 0, i, res_ch4);
    put2(out, col, 1, i, f64x2.mul(res_ch4, gwp));
  }
  let fine = !checked || i64x2.all_true(ok);
  for (let i = pairs; i < rows; i++) {
    const volume = get(inp, col, 0, i);
    const koef = get(inp, col, 1, i);
    if (checked) fine = fine && inside(volume, 0) && inside(koef, 1);
    const res_ch4 = torch_ch4(volume, koef);
    put(out, col, 0, i, res_ch4);
    put(out, col, 1, i, ch4_to_co2(res_ch4, gwp_ch4));
  }
  return fine;
}

// @ts-ignore: decorator
@inline function batch_torch_composition(inp: usize, out: usize, col: usize, rows: i32, gwp_ch4: f64, checked: bool): bool {
  let fine = true;
  for (let i = 0; i < rows; i++) {
    if (checked) {
      for (let c = 0; c < 10; c++) fine = fine && inside(get(inp, col, c, i), c);
    }
    const volume = get(inp, col, 0, i);
    const w_ch4 = get(inp, col, 1, i);
    const cf = get(inp, col, 7, i);
    const ef_co2 = torch_composition_ef_co2(
      w_ch4, get(inp, col, 2, i), get(inp, col, 3, i), get(inp, col, 4, i), get(inp, col, 5, i), get(inp, col, 6, i), cf, get(inp, col, 8, i),
    );
    const ef_ch4 = torch_composition_ef_ch4(w_ch4, cf, get(inp, col, 9, i));
    const res_co2 = volume * ef_co2;
    const res_ch4 = volume * ef_ch4;
    const res_ch4_to_co2 = ch4_to_co2(res_ch4, gwp_ch4);
    put(out, col, 0, i, ef_co2);
    put(out, col, 1, i, ef_ch4);
    put(out, col, 2, i, res_co2);
    put(out, col, 3, i, res_ch4);
    put(out, col, 4, i, res_ch4_to_co2);
    put(out, col, 5, i, res_co2 + res_ch4_to_co2);
  }
  return fine;
}

// ---------------------------------------------------------------------------------------------
// The kernel of each emission type of the registry, exported as `kernel_<type>`: the facade holds
// them in one map typed by the registry's type names (emissions-core.ts, `Kernels`), which the
// TypeScript compiler checks against the declarations this build writes (build/emissions.d.ts), so
// a registry type without its kernel here does not compile. A kernel evaluates `rows` rows from the
// input columns at `inp` into the result columns at `out`, each column `stride` rows long (the fixed
// buffers: input_ptr, output_ptr, batch_rows; or a block from reserve_columns), column order = the
// registry's order of inputs and results. Unchecked (`checked` false) the inputs must have been
// validated; checked, every input is compared with `bounds` in the same pass. Returns the rows
// computed, -1 for more rows than the stride, -2 when checked and a value is out of bounds (the
// facade then names the field and row, and no result may be read).

// @ts-ignore: decorator
@inline function fits(stride: i32, rows: i32): bool {
  return rows >= 0 && stride >= rows;
}

// @ts-ignore: decorator
@inline function bytes(stride: i32): usize {
  return <usize>stride << 3;
}

// @ts-ignore: decorator
@inline function outcome(fine: bool, rows: i32): i32 {
  return fine ? rows : -2;
}

export function kernel_handling_underground_ch4(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(checked ? batch_ch4_from_coal(inp, out, col, rows, gwp_ch4, true) : batch_ch4_from_coal(inp, out, col, rows, gwp_ch4, false), rows);
}

export function kernel_open_mining_ch4(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(checked ? batch_ch4_from_coal(inp, out, col, rows, gwp_ch4, true) : batch_ch4_from_coal(inp, out, col, rows, gwp_ch4, false), rows);
}

export function kernel_underground_emission_ch4(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(checked ? batch_ch4_from_coal(inp, out, col, rows, gwp_ch4, true) : batch_ch4_from_coal(inp, out, col, rows, gwp_ch4, false), rows);
}

export function kernel_open_mining_co2(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(checked ? batch_open_mining_co2(inp, out, col, rows, true) : batch_open_mining_co2(inp, out, col, rows, false), rows);
}

export function kernel_underground(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(checked ? batch_underground(inp, out, col, rows, gwp_ch4, true) : batch_underground(inp, out, col, rows, gwp_ch4, false), rows);
}

export function kernel_disposal_co2_torch(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(checked ? batch_disposal_co2_torch(inp, out, col, rows, true) : batch_disposal_co2_torch(inp, out, col, rows, false), rows);
}

export function kernel_disposal_co2_stat_sources(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(
    checked ? batch_disposal_co2_stat_sources(inp, out, col, rows, true) : batch_disposal_co2_stat_sources(inp, out, col, rows, false),
    rows,
  );
}

export function kernel_torch_ch4(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(checked ? batch_torch_ch4(inp, out, col, rows, gwp_ch4, true) : batch_torch_ch4(inp, out, col, rows, gwp_ch4, false), rows);
}

export function kernel_torch_composition(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  return outcome(
    checked ? batch_torch_composition(inp, out, col, rows, gwp_ch4, true) : batch_torch_composition(inp, out, col, rows, gwp_ch4, false),
    rows,
  );
}

// 11.2 (the structure of CDM ACM0008): a ventilation-air methane oxidiser. The CH4 sent, t, is formula
// 3.1's V × W_CH4 × ρ_CH4 × 10⁻² of the air's volume (thousand m³) and content (% vol); the unit burns
// the share η of it to CO2 (× 44/16, PE_MD) and lets the rest through unburnt (PE_UM).
const CO2_PER_CH4: f64 = 44.0 / 16.0;

/** ventilation_air_methane: volume, ef_ch4, p_ch4, eta → res_co2, res_ch4, res_ch4_to_co2, sum_co2. */
export function kernel_ventilation_air_methane(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  if (!fits(stride, rows)) return -1;
  const col = bytes(stride);
  let fine = true;
  for (let i = 0; i < rows; i++) {
    const volume = get(inp, col, 0, i);
    const ef_ch4 = get(inp, col, 1, i);
    const p_ch4 = get(inp, col, 2, i);
    const eta = get(inp, col, 3, i);
    if (checked) fine = fine && inside(volume, 0) && inside(ef_ch4, 1) && inside(p_ch4, 2) && inside(eta, 3);
    const sent = gas_in_mixture(volume, ef_ch4, p_ch4);
    const res_co2 = eta * sent * CO2_PER_CH4;
    const res_ch4 = (1.0 - eta) * sent;
    const res_ch4_to_co2 = ch4_to_co2(res_ch4, gwp_ch4);
    put(out, col, 0, i, res_co2);
    put(out, col, 1, i, res_ch4);
    put(out, col, 2, i, res_ch4_to_co2);
    put(out, col, 3, i, res_co2 + res_ch4_to_co2);
  }
  return outcome(fine, rows);
}

// Row i of column c of the fixed buffers, for 4.11 and 4.12.
// @ts-ignore: decorator
@inline function col_in(column: i32, row: i32): f64 {
  return unchecked(input[column * BATCH_ROWS + row]);
}

// @ts-ignore: decorator
@inline function col_out(column: i32, row: i32, value: f64): void {
  unchecked(output[column * BATCH_ROWS + row] = value);
}

// ---------------------------------------------------------------------------------------------
// 4.11 sensitivity (D6). Input columns: 0 volume (t of coal), 1 methane (m³ CH4/t),
// 2 transport_fuel (t of diesel; read only when use_transport_fuel != 0), rows sorted by year.
// Output columns: 0 res_co2, 1 res_co2_transport, 2 res_co2_all (t CO2e), 3 sn_volume,
// 4 sn_methan (one-at-a-time normalised sensitivity, step delta), 5 el_volume, 6 el_methan
// (alternative B, year-over-year midpoint arc elasticity). NaN stands for null.

// @ts-ignore: decorator
@inline function fugitive_co2e(volume: f64, methane: f64, rho: f64, gwp_ch4: f64): f64 {
  return volume * methane * rho / 1000.0 * gwp_ch4;
}

// @ts-ignore: decorator
@inline function transport_co2(volume: f64, transport_fuel: f64, use_transport_fuel: bool, k_tr: f64, ef_transport_fuel: f64): f64 {
  return use_transport_fuel ? transport_fuel * ef_transport_fuel : volume * k_tr;
}

// @ts-ignore: decorator
@inline function arc_change(now: f64, before: f64): f64 {
  return (now - before) / ((now + before) / 2.0);
}

export function sensitivity(
  rows: i32, rho: f64, gwp_ch4: f64, k_tr: f64, delta: f64, ef_transport_fuel: f64, use_transport_fuel: bool,
): i32 {
  if (rows < 0 || rows > BATCH_ROWS) return -1;
  for (let i = 0; i < rows; i++) {
    const volume = col_in(0, i);
    const methane = col_in(1, i);
    const fuel = col_in(2, i);
    const res_co2 = fugitive_co2e(volume, methane, rho, gwp_ch4);
    const res_co2_transport = transport_co2(volume, fuel, use_transport_fuel, k_tr, ef_transport_fuel);
    const all = res_co2 + res_co2_transport;
    col_out(0, i, res_co2);
    col_out(1, i, res_co2_transport);
    col_out(2, i, all);

    // One-at-a-time perturbation of each driver by delta, literally as 4.11 defines it (the model
    // is linear today, but the definition must survive a non-linear transport term).
    let sn_volume = NaN;
    let sn_methan = NaN;
    if (all != 0.0) {
      const v_up = volume * (1.0 + delta);
      const all_v = fugitive_co2e(v_up, methane, rho, gwp_ch4)
        + transport_co2(v_up, fuel, use_transport_fuel, k_tr, ef_transport_fuel);
      const all_m = fugitive_co2e(volume, methane * (1.0 + delta), rho, gwp_ch4) + res_co2_transport;
      sn_volume = (all_v - all) / (delta * all);
      sn_methan = (all_m - all) / (delta * all);
    }
    col_out(3, i, sn_volume);
    col_out(4, i, sn_methan);

    // Alternative B: null in the first year, when the driver does not change, or on a 0/0 midpoint.
    let el_volume = NaN;
    let el_methan = NaN;
    if (i > 0) {
      const all_before = unchecked(output[2 * BATCH_ROWS + i - 1]);
      const emission_change = arc_change(all, all_before);
      const volume_before = col_in(0, i - 1);
      const methane_before = col_in(1, i - 1);
      if (volume != volume_before) el_volume = emission_change / arc_change(volume, volume_before);
      if (methane != methane_before) el_methan = emission_change / arc_change(methane, methane_before);
      if (!isFinite(el_volume)) el_volume = NaN;
      if (!isFinite(el_methan)) el_methan = NaN;
    }
    col_out(5, i, el_volume);
    col_out(6, i, el_methan);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// 4.12 filling_blanks (D7). Input columns: 0 year (strictly increasing), 1 value (NaN = blank).
// Output columns: 0 value (NaN when nothing could be filled), 1 FillMethod code.
// Only observed values are anchors; interior gaps are interpolated linearly on the year axis,
// leading and trailing gaps take the OLS line through all observed points (IPCC 2006 Vol. 1
// Ch. 5 splicing: interpolation, trend extrapolation); negative fills are clipped to 0.

export enum FillMethod {
  observed = 0,
  interp = 1,
  trend = 2,
  constant = 3,
  clipped = 4,
  empty = 5,
}

export function filling_blanks(rows: i32): i32 {
  if (rows < 0 || rows > BATCH_ROWS) return -1;

  // Observed count, first/last observed row, and the OLS line (centred on the means for accuracy).
  let observed = 0;
  let first = -1;
  let last = -1;
  let sum_x = 0.0;
  let sum_y = 0.0;
  for (let i = 0; i < rows; i++) {
    const y = col_in(1, i);
    if (isNaN(y)) continue;
    observed++;
    if (first < 0) first = i;
    last = i;
    sum_x += col_in(0, i);
    sum_y += y;
  }
  const mean_x = observed > 0 ? sum_x / <f64>observed : 0.0;
  const mean_y = observed > 0 ? sum_y / <f64>observed : 0.0;
  let sxx = 0.0;
  let sxy = 0.0;
  for (let i = 0; i < rows; i++) {
    const y = col_in(1, i);
    if (isNaN(y)) continue;
    const dx = col_in(0, i) - mean_x;
    sxx += dx * dx;
    sxy += dx * (y - mean_y);
  }
  const slope = sxx > 0.0 ? sxy / sxx : 0.0;

  let previous = -1; // last observed row at or before i
  for (let i = 0; i < rows; i++) {
    const x = col_in(0, i);
    const y = col_in(1, i);
    if (!isNaN(y)) {
      previous = i;
      col_out(0, i, y);
      col_out(1, i, <f64>FillMethod.observed);
      continue;
    }
    let value = NaN;
    let method = FillMethod.empty;
    if (observed == 1) {
      value = col_in(1, first);
      method = FillMethod.constant;
    } else if (observed > 1 && i > first && i < last) {
      let next = i + 1;
      while (isNaN(col_in(1, next))) next++;
      const x0 = col_in(0, previous);
      const y0 = col_in(1, previous);
      value = y0 + (col_in(1, next) - y0) * (x - x0) / (col_in(0, next) - x0);
      method = FillMethod.interp;
    } else if (observed > 1) {
      value = mean_y + slope * (x - mean_x);
      method = FillMethod.trend;
    }
    if (value < 0.0) {
      value = 0.0;
      method = FillMethod.clipped;
    }
    col_out(0, i, value);
    col_out(1, i, <f64>method);
  }
  return observed;
}

// ---------------------------------------------------------------------------------------------
// Section 11.3 finance of an abatement option (D53): real, pre-tax, constant yearly flows at year
// ends, capex at year 0: CF_0 = −capex, CF_t = flow for t = 1…years. NaN stands for `null`.

/** NPV = −capex + Σ_{t=1..years} flow / (1 + rate)^t. */
export function abatement_npv(capex: f64, flow: f64, rate: f64, years: i32): f64 {
  let npv = -capex;
  let factor = 1.0;
  const step = 1.0 / (1.0 + rate);
  for (let t = 1; t <= years; t++) {
    factor *= step;
    npv += flow * factor;
  }
  return npv;
}

/** IRR: the rate in (−0.99, 10] with NPV = 0, by bisection to 1e-12; NaN without a sign change. */
export function abatement_irr(capex: f64, flow: f64, years: i32): f64 {
  let lo = -0.99;
  let hi = 10.0;
  let npvLo = abatement_npv(capex, flow, lo, years);
  const npvHi = abatement_npv(capex, flow, hi, years);
  if (npvHi == 0.0) return hi;
  if (!(npvLo * npvHi < 0.0)) return NaN;
  while (hi - lo > 1e-12) {
    const mid = 0.5 * (lo + hi);
    const npvMid = abatement_npv(capex, flow, mid, years);
    if (npvMid == 0.0) return mid;
    if ((npvMid < 0.0) == (npvLo < 0.0)) {
      lo = mid;
      npvLo = npvMid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

/** Payback: the first year the cumulative CF discounted at `rate` (0: simple) reaches 0, linear
 *  inside that year; NaN when not within `years`. A shortfall below 1e-9 of the capex counts as
 *  reached (an annuity rounded to its printed digits pays back exactly at its rate). */
export function abatement_payback(capex: f64, flow: f64, rate: f64, years: i32): f64 {
  if (capex <= 0.0) return 0.0;
  let cumulative = -capex;
  let factor = 1.0;
  const step = 1.0 / (1.0 + rate);
  const slack = capex * 1e-9;
  for (let t = 1; t <= years; t++) {
    factor *= step;
    const inflow = flow * factor;
    const next = cumulative + inflow;
    if (next >= -slack) {
      if (inflow <= 0.0) return <f64>t;
      const part = -cumulative / inflow;
      return <f64>(t - 1) + (part < 1.0 ? part : 1.0);
    }
    cumulative = next;
  }
  return NaN;
}

/** Capital recovery factor r(1+r)^n / ((1+r)^n − 1), 1/n at r = 0. */
export function abatement_crf(rate: f64, years: i32): f64 {
  if (rate == 0.0) return 1.0 / <f64>years;
  const growth = Math.pow(1.0 + rate, <f64>years);
  return rate * growth / (growth - 1.0);
}
