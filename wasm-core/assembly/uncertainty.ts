// Uncertainty core: IPCC 2006 Vol. 1 Ch. 3 (Approach 1: Equations 3.1, 3.2 and Table 3.2;
// Approach 2: Monte Carlo) and Ch. 4 (key category analysis, Equations 4.1, 4.2, 4.4, 4.5), as
// pinned by docs/methodology.md, Uncertainty. Uncertainties are percentages (half the 95 % interval
// over the mean × 100); emissions are t CO2-eq. f64 throughout.
//
// Pure: no host imports but abort. The facade (wasm-core/src/uncertainty-core.ts) validates the
// inputs, writes them into `input` and reads `output`; both buffers grow when a call needs more
// and are reused otherwise, so a Monte Carlo run allocates nothing per sample.

let input = new StaticArray<f64>(0);
let output = new StaticArray<f64>(0);
// Monte Carlo totals and the radix sort's second buffer (as u64 keys).
let samples = new StaticArray<f64>(0);
let keys = new StaticArray<u64>(0);
let scratch = new StaticArray<u64>(0);

/** Makes `input` hold at least n numbers and returns its address for the host to fill. */
export function reserveInput(n: i32): usize {
  if (input.length < n) input = new StaticArray<f64>(n);
  return changetype<usize>(input);
}

/** Makes `output` hold at least n numbers and returns its address for the host to read. */
export function reserveOutput(n: i32): usize {
  if (output.length < n) output = new StaticArray<f64>(n);
  return changetype<usize>(output);
}

// ---------------------------------------------------------------------------------------------
// Approach 1 (error propagation)

/** Equation 3.1, products: sqrt(U_1² + … + U_n²); input[0..n) = U. */
export function propagateProduct(n: i32): f64 {
  let sum: f64 = 0;
  for (let i = 0; i < n; i++) {
    const u = unchecked(input[i]);
    sum += u * u;
  }
  return Math.sqrt(sum);
}

/** Equation 3.2, sums: sqrt(Σ (U_i·x_i)²) / |Σ x_i|; input = x[n], U[n]. */
export function propagateSum(n: i32): f64 {
  let squares: f64 = 0;
  let total: f64 = 0;
  for (let i = 0; i < n; i++) {
    const x = unchecked(input[i]);
    const ux = unchecked(input[n + i]) * x;
    squares += ux * ux;
    total += x;
  }
  return Math.sqrt(squares) / Math.abs(total);
}

/** D91, Equation 3.2 over groups of a shared source of error: terms of one group add their absolute
 *  uncertainties linearly (full correlation), the groups combine in quadrature:
 *  sqrt(Σ_g (Σ_{i∈g} U_i·x_i)²) / |Σ x_i|; input = x[n], U[n], group[n] (0 ≤ group < groups).
 *  Every term a group of its own is Equation 3.2. */
export function propagateGroupedSum(n: i32, groups: i32): f64 {
  if (output.length < groups) output = new StaticArray<f64>(groups);
  for (let g = 0; g < groups; g++) unchecked((output[g] = 0));
  let total: f64 = 0;
  for (let i = 0; i < n; i++) {
    const x = unchecked(input[i]);
    const g = <i32>unchecked(input[2 * n + i]);
    unchecked((output[g] += unchecked(input[n + i]) * x));
    total += x;
  }
  let squares: f64 = 0;
  for (let g = 0; g < groups; g++) {
    const ux = unchecked(output[g]);
    squares += ux * ux;
  }
  return Math.sqrt(squares) / Math.abs(total);
}

/** The sum of the `n` inputs from `from` (a column of the table: the base year's, year t's). */
function inputSum(from: i32, n: i32): f64 {
  let sum: f64 = 0;
  for (let i = 0; i < n; i++) sum += unchecked(input[from + i]);
  return sum;
}

/** Table 3.2 columns G–M for n categories. input = C[n] (base year), D[n] (year t), E[n]
 *  (activity-data U, %), F[n] (emission-factor U, %); output = G, H, I, J, K, L, M (n each),
 *  then level uncertainty (%), trend (%) and trend uncertainty (percentage points). */
export function approach1Table(n: i32): void {
  const sumC = inputSum(0, n);
  const sumD = inputSum(n, n);
  const trend = (sumD - sumC) / sumC * 100.0;
  let sumH: f64 = 0;
  let sumM: f64 = 0;
  for (let i = 0; i < n; i++) {
    const c = unchecked(input[i]);
    const d = unchecked(input[n + i]);
    const e = unchecked(input[2 * n + i]);
    const f = unchecked(input[3 * n + i]);
    const g = Math.sqrt(e * e + f * f);
    const gd = g * d;
    const h = gd * gd / (sumD * sumD);
    // Type A sensitivity: the change in the trend when this category's emissions rise 1 % in both years.
    const shiftedBase = 0.01 * c + sumC;
    const a = Math.abs(((0.01 * d + sumD) - shiftedBase) / shiftedBase * 100.0 - trend);
    // Type B sensitivity: the change in the trend when this category's year-t emissions rise 1 %.
    const b = Math.abs(d / sumC);
    const k = a * f; // emission factor correlated between the years
    const l = b * e * Math.SQRT2; // activity data uncorrelated between the years
    const m = k * k + l * l;
    unchecked((output[i] = g));
    unchecked((output[n + i] = h));
    unchecked((output[2 * n + i] = a));
    unchecked((output[3 * n + i] = b));
    unchecked((output[4 * n + i] = k));
    unchecked((output[5 * n + i] = l));
    unchecked((output[6 * n + i] = m));
    sumH += h;
    sumM += m;
  }
  unchecked((output[7 * n] = Math.sqrt(sumH)));
  unchecked((output[7 * n + 1] = trend));
  unchecked((output[7 * n + 2] = Math.sqrt(sumM)));
}

// ---------------------------------------------------------------------------------------------
// Key category analysis. Each assessment writes, per category (in input order): its measure,
// its share of the sum of measures, its rank (0 = largest), the cumulative share up to and
// including it in ranked order, and 1 when key (the cumulative share before it is below the
// threshold). Output = measure[n], share[n], rank[n], cumulative[n], key[n].

// Category indices in ranked order (largest measure first, ties by input order).
let order = new StaticArray<i32>(0);

function rankMeasures(n: i32, threshold: f64): void {
  if (order.length < n) order = new StaticArray<i32>(n);
  let total: f64 = 0;
  for (let i = 0; i < n; i++) {
    total += unchecked(output[i]);
    unchecked((order[i] = i));
  }
  // Insertion sort: inventories have tens of categories, and it is stable.
  for (let i = 1; i < n; i++) {
    const index = unchecked(order[i]);
    const value = unchecked(output[index]);
    let j = i - 1;
    while (j >= 0 && unchecked(output[unchecked(order[j])]) < value) {
      unchecked((order[j + 1] = order[j]));
      j--;
    }
    unchecked((order[j + 1] = index));
  }
  let cumulative: f64 = 0;
  for (let r = 0; r < n; r++) {
    const index = unchecked(order[r]);
    const share = total > 0 ? unchecked(output[index]) / total : 0;
    const before = cumulative;
    cumulative += share;
    unchecked((output[n + index] = share));
    unchecked((output[2 * n + index] = <f64>r));
    unchecked((output[3 * n + index] = cumulative));
    unchecked((output[4 * n + index] = before < threshold ? 1.0 : 0.0));
  }
}

/** Level assessment, Approach 1 (Eq. 4.1): measure |E_x,t|; input = E_t[n]. Approach 2
 *  (Eq. 4.4) when `withUncertainty`: measure |E_x,t|·U_x; input = E_t[n], U[n]. */
export function keyCategoriesLevel(n: i32, threshold: f64, withUncertainty: bool): void {
  for (let i = 0; i < n; i++) {
    const level = Math.abs(unchecked(input[i]));
    unchecked((output[i] = withUncertainty ? level * unchecked(input[n + i]) : level));
  }
  rankMeasures(n, threshold);
}

/** Trend assessment, Approach 1 (Eq. 4.2, 2006 form): input = E_0[n], E_t[n]. Approach 2
 *  (Eq. 4.5) when `withUncertainty`: T_x·U_x with input U[n] after them. A category absent in
 *  the base year (E_x,0 = 0) takes the limit of the formula, |E_x,t| / |ΣE_0|. */
export function keyCategoriesTrend(n: i32, threshold: f64, withUncertainty: bool): void {
  const sumBase = inputSum(0, n);
  const sumNow = inputSum(n, n);
  let sumBaseAbs: f64 = 0;
  for (let i = 0; i < n; i++) sumBaseAbs += Math.abs(unchecked(input[i]));
  const totalChange = (sumNow - sumBase) / Math.abs(sumBase);
  for (let i = 0; i < n; i++) {
    const base = unchecked(input[i]);
    const now = unchecked(input[n + i]);
    const t = base == 0
      ? Math.abs(now) / Math.abs(sumBase)
      : Math.abs(base) / sumBaseAbs * Math.abs((now - base) / Math.abs(base) - totalChange);
    unchecked((output[i] = withUncertainty ? t * unchecked(input[2 * n + i]) : t));
  }
  rankMeasures(n, threshold);
}

/** The GPG-2000 form of the trend assessment, for comparison with the 2006 form:
 *  (E_x,t/E_t)·|(E_x,t − E_x,0)/E_x,t − (E_t − E_0)/E_t|; input = E_0[n], E_t[n]; output = T[n]. */
export function trendGpg2000(n: i32): void {
  const sumBase = inputSum(0, n);
  const sumNow = inputSum(n, n);
  for (let i = 0; i < n; i++) {
    const base = unchecked(input[i]);
    const now = unchecked(input[n + i]);
    unchecked((output[i] = now / sumNow * Math.abs((now - base) / now - (sumNow - sumBase) / sumNow)));
  }
}

// ---------------------------------------------------------------------------------------------
// Approach 2: Monte Carlo. Every factor is a multiplier with mean 1 drawn from its distribution;
// a source's total is base × its activity factor × its emission factor, and a factor shared by
// several sources (the same coefficient in several calculations or years) is drawn once per
// trial, so they move together.

export const NORMAL: i32 = 0;
export const LOGNORMAL: i32 = 1;
export const TRIANGULAR: i32 = 2;
export const UNIFORM: i32 = 3;

// xoshiro256** (Blackman and Vigna), seeded through splitmix64: the same seed, the same draws.
let s0: u64 = 0;
let s1: u64 = 0;
let s2: u64 = 0;
let s3: u64 = 0;

function splitmix(state: u64): u64 {
  let z = state + 0x9e3779b97f4a7c15;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

function seed(value: u64): void {
  s0 = splitmix(value);
  s1 = splitmix(s0);
  s2 = splitmix(s1);
  s3 = splitmix(s2);
}

// @ts-ignore: decorator
@inline function nextU64(): u64 {
  const result = rotl<u64>(s1 * 5, 7) * 9;
  const t = s1 << 17;
  s2 ^= s0;
  s3 ^= s1;
  s1 ^= s2;
  s0 ^= s3;
  s2 ^= t;
  s3 = rotl<u64>(s3, 45);
  return result;
}

/** Uniform on [0, 1) with 53 random bits. */
// @ts-ignore: decorator
@inline function uniform(): f64 {
  return <f64>(nextU64() >> 11) * 1.1102230246251565e-16;
}

// Standard normal by the ziggurat method (Marsaglia and Tsang 2000, in Doornik's 2005 ZIGNOR form):
// 128 layers; one 64-bit draw gives the uniform (high 53 bits) and the layer (low 7 bits), and
// about 99 % of draws need nothing else: no logarithm, no square root.
const ZIG_LAYERS = 128;
const ZIG_R: f64 = 3.442619855899;
const ZIG_V: f64 = 9.91256303526217e-3;
const zigX = new StaticArray<f64>(ZIG_LAYERS + 1);
const zigRatio = new StaticArray<f64>(ZIG_LAYERS);

function initZiggurat(): void {
  let f = Math.exp(-0.5 * ZIG_R * ZIG_R);
  zigX[0] = ZIG_V / f; // the bottom layer with the tail
  zigX[1] = ZIG_R;
  zigX[ZIG_LAYERS] = 0;
  for (let i = 2; i < ZIG_LAYERS; i++) {
    zigX[i] = Math.sqrt(-2.0 * Math.log(ZIG_V / zigX[i - 1] + f));
    f = Math.exp(-0.5 * zigX[i] * zigX[i]);
  }
  for (let i = 0; i < ZIG_LAYERS; i++) zigRatio[i] = zigX[i + 1] / zigX[i];
}
initZiggurat();

function normalTail(negative: bool): f64 {
  let x: f64, y: f64;
  do {
    x = Math.log(1.0 - uniform()) / ZIG_R;
    y = Math.log(1.0 - uniform());
  } while (-2.0 * y < x * x);
  return negative ? x - ZIG_R : ZIG_R - x;
}

function standardNormal(): f64 {
  while (true) {
    const bits = nextU64();
    const u = 2.0 * (<f64>(bits >> 11) * 1.1102230246251565e-16) - 1.0;
    const i = <i32>(bits & 0x7f);
    if (Math.abs(u) < unchecked(zigRatio[i])) return u * unchecked(zigX[i]);
    if (i == 0) return normalTail(u < 0);
    const x = u * unchecked(zigX[i]);
    const xi = unchecked(zigX[i]);
    const xn = unchecked(zigX[i + 1]);
    const f0 = Math.exp(-0.5 * (xi * xi - x * x));
    const f1 = Math.exp(-0.5 * (xn * xn - x * x));
    if (f1 + uniform() * (f0 - f1) < 1.0) return x;
  }
  return 0;
}

// Per factor, prepared from (distribution, lower %, upper %): kind and two or three parameters.
let factorKind = new StaticArray<i32>(0);
let factorA = new StaticArray<f64>(0);
let factorB = new StaticArray<f64>(0);
let factorC = new StaticArray<f64>(0);
let factorDraw = new StaticArray<f64>(0);

function prepareFactors(count: i32): void {
  if (factorKind.length < count) {
    factorKind = new StaticArray<i32>(count);
    factorA = new StaticArray<f64>(count);
    factorB = new StaticArray<f64>(count);
    factorC = new StaticArray<f64>(count);
    factorDraw = new StaticArray<f64>(count + 1);
  }
  for (let k = 0; k < count; k++) {
    const kind = <i32>unchecked(input[3 * k]);
    const lower = unchecked(input[3 * k + 1]) / 100.0;
    const upper = unchecked(input[3 * k + 2]) / 100.0;
    unchecked((factorKind[k] = kind));
    if (kind == NORMAL) {
      // σ = U / 1.96, U the mean of the two half-widths (equal for a symmetric input).
      unchecked((factorA[k] = 1.0));
      unchecked((factorB[k] = (lower + upper) / 2.0 / 1.96));
    } else if (kind == LOGNORMAL) {
      // Mean-preserving: σ_ln = ln(1 + U)/1.96 from the upper uncertainty, μ_ln = −σ_ln²/2.
      const sigma = Math.log(1.0 + upper) / 1.96;
      unchecked((factorA[k] = -sigma * sigma / 2.0));
      unchecked((factorB[k] = sigma));
    } else if (kind == TRIANGULAR) {
      // From 1 − lower to 1 + upper; the mode keeps the mean at 1 where the range allows.
      const a = 1.0 - lower;
      const b = 1.0 + upper;
      const mode = Math.min(b, Math.max(a, 3.0 - a - b));
      unchecked((factorA[k] = a));
      unchecked((factorB[k] = b));
      unchecked((factorC[k] = b > a ? (mode - a) / (b - a) : 0.5));
    } else {
      unchecked((factorA[k] = 1.0 - lower));
      unchecked((factorB[k] = 1.0 + upper));
    }
  }
  // Index `count` is the factor of "no uncertainty".
  unchecked((factorDraw[count] = 1.0));
}

// @ts-ignore: decorator
@inline function drawFactor(k: i32): f64 {
  const kind = unchecked(factorKind[k]);
  const a = unchecked(factorA[k]);
  const b = unchecked(factorB[k]);
  if (kind == NORMAL) return a + b * standardNormal();
  if (kind == LOGNORMAL) return Math.exp(a + b * standardNormal());
  const u = uniform();
  if (kind == TRIANGULAR) {
    const c = unchecked(factorC[k]);
    const width = b - a;
    return u < c ? a + width * Math.sqrt(u * c) : b - width * Math.sqrt((1.0 - u) * (1.0 - c));
  }
  return a + (b - a) * u;
}

/** Runs `trials` trials of `sourceCount` sources over `factorCount` factors. input = per factor
 *  (distribution, lower %, upper %), then per source (base, activity factor, emission factor),
 *  a factor index of −1 meaning none. output = mean, 2.5th and 97.5th percentiles (linear
 *  interpolation between order statistics), and the shortest interval holding 95 % of the trials. */
export function monteCarlo(factorCount: i32, sourceCount: i32, trials: i32, seedHigh: u32, seedLow: u32): void {
  monteCarloProducts(factorCount, sourceCount, 2, trials, seedHigh, seedLow);
}

/** The same with `width` factor indices per source: a source is base × Π of its factors (a
 *  calculation's activity data and each of its uncertain coefficients; a coefficient shared by
 *  several calculations is one factor, drawn once per trial). input per source: base, then
 *  `width` factor indices (−1: none). */
export function monteCarloProducts(factorCount: i32, sourceCount: i32, width: i32, trials: i32, seedHigh: u32, seedLow: u32): void {
  seed((<u64>seedHigh << 32) | <u64>seedLow);
  prepareFactors(factorCount);
  if (samples.length < trials) {
    samples = new StaticArray<f64>(trials);
    keys = new StaticArray<u64>(trials);
    scratch = new StaticArray<u64>(trials);
  }
  const sources = 3 * factorCount;
  const stride = width + 1;
  // A factor index of −1 (none) reads the constant 1 kept at index factorCount.
  for (let i = 0; i < sourceCount; i++) {
    const at = sources + stride * i;
    for (let j = 1; j <= width; j++) {
      if (unchecked(input[at + j]) < 0) unchecked((input[at + j] = <f64>factorCount));
    }
  }
  let sum: f64 = 0;
  let compensation: f64 = 0;
  for (let t = 0; t < trials; t++) {
    for (let k = 0; k < factorCount; k++) unchecked((factorDraw[k] = drawFactor(k)));
    let total: f64 = 0;
    if (width == 2) {
      for (let i = 0; i < sourceCount; i++) {
        const at = sources + 3 * i;
        total += unchecked(input[at]) * unchecked(factorDraw[<i32>unchecked(input[at + 1])]) * unchecked(factorDraw[<i32>unchecked(input[at + 2])]);
      }
    } else {
      for (let i = 0; i < sourceCount; i++) {
        const at = sources + stride * i;
        let product = unchecked(input[at]);
        for (let j = 1; j <= width; j++) product *= unchecked(factorDraw[<i32>unchecked(input[at + j])]);
        total += product;
      }
    }
    unchecked((samples[t] = total));
    // Neumaier summation: a million trials without losing digits of the mean.
    const next = sum + total;
    compensation += Math.abs(sum) >= Math.abs(total) ? (sum - next) + total : (total - next) + sum;
    sum = next;
  }
  sortSamples(trials);
  unchecked((output[0] = (sum + compensation) / <f64>trials));
  unchecked((output[1] = quantile(trials, 0.025)));
  unchecked((output[2] = quantile(trials, 0.975)));
  // Shortest window of ceil(0.95·N) consecutive order statistics.
  const window = <i32>Math.ceil(0.95 * <f64>trials);
  let best = 0;
  let bestSpan = Infinity;
  for (let i = 0; i + window - 1 < trials; i++) {
    const span = unchecked(samples[i + window - 1]) - unchecked(samples[i]);
    if (span < bestSpan) {
      bestSpan = span;
      best = i;
    }
  }
  unchecked((output[3] = unchecked(samples[best])));
  unchecked((output[4] = unchecked(samples[best + window - 1])));
}

function quantile(n: i32, p: f64): f64 {
  const h = <f64>(n - 1) * p;
  const lo = <i32>Math.floor(h);
  const hi = lo + 1 < n ? lo + 1 : lo;
  const x = unchecked(samples[lo]);
  return x + (h - <f64>lo) * (unchecked(samples[hi]) - x);
}

/** LSD radix sort of the samples on their IEEE bits (16-bit digits, 4 passes): O(N), no
 *  comparator calls. Keys flip the sign bit of positives and every bit of negatives, so their
 *  unsigned order is the numeric order. */
let counts = new StaticArray<i32>(65536);

function sortSamples(n: i32): void {
  for (let i = 0; i < n; i++) {
    const bits = reinterpret<u64>(unchecked(samples[i]));
    unchecked((keys[i] = (bits >> 63) != 0 ? ~bits : bits | 0x8000000000000000));
  }
  let from = keys;
  let to = scratch;
  for (let shift: u64 = 0; shift < 64; shift += 16) {
    for (let d = 0; d < 65536; d++) unchecked((counts[d] = 0));
    for (let i = 0; i < n; i++) {
      const digit = <i32>((unchecked(from[i]) >> shift) & 0xffff);
      unchecked((counts[digit] = unchecked(counts[digit]) + 1));
    }
    let position = 0;
    for (let d = 0; d < 65536; d++) {
      const c = unchecked(counts[d]);
      unchecked((counts[d] = position));
      position += c;
    }
    for (let i = 0; i < n; i++) {
      const key = unchecked(from[i]);
      const digit = <i32>((key >> shift) & 0xffff);
      const at = unchecked(counts[digit]);
      unchecked((to[at] = key));
      unchecked((counts[digit] = at + 1));
    }
    const swap = from;
    from = to;
    to = swap;
  }
  // After four passes the sorted keys are back in `keys`.
  for (let i = 0; i < n; i++) {
    const key = unchecked(from[i]);
    const bits = (key >> 63) != 0 ? key & 0x7fffffffffffffff : ~key;
    unchecked((samples[i] = reinterpret<f64>(bits)));
  }
}
