// Monte Carlo (Approach 2) over a 20-source inventory, 10⁶ trials: the WASM core (seeded
// xoshiro256**, ziggurat normals, radix sort of the totals) against the same loop in plain
// TypeScript (xoshiro128**, the same ziggurat, Float64Array.sort). Rate in trials × sources per
// second; goal: 10⁶ trials of 20 sources in under 1 s.
import { performance } from "node:perf_hooks";
import { uncertaintyCore, type FactorInput, type SourceInput } from "@core/uncertainty-node";

const TRIALS = 1_000_000;
const SOURCES = 20;

function inventory(): { factors: FactorInput[]; sources: SourceInput[] } {
  const factors: FactorInput[] = [];
  const sources: SourceInput[] = [];
  for (let i = 0; i < SOURCES; i++) {
    // Tier 1 emission factors are wide and skewed (lognormal); production is measured (±2 %).
    factors.push({ distribution: "lognormal", lower_pct: 44, upper_pct: 39 }, { distribution: "normal", lower_pct: 2, upper_pct: 2 });
    sources.push({ base: 10_000 * (i + 1), factor: 2 * i, activity: 2 * i + 1 });
  }
  return { factors, sources };
}

// ---- the same loop in plain TypeScript ----
function plainMonteCarlo(factors: FactorInput[], sources: SourceInput[], trials: number, seed: number) {
  let a = seed | 0 || 1;
  let b = 0x9e3779b9;
  let c = 0x243f6a88;
  let d = 0xb7e15162;
  const next = () => {
    const result = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = (d << 11) | (d >>> 21);
    return result;
  };
  const uniform = () => (next() * 2 ** 21 + (next() >>> 11)) / 2 ** 53;
  const R = 3.442619855899;
  const V = 9.91256303526217e-3;
  const x = new Float64Array(129);
  const ratio = new Float64Array(128);
  let f = Math.exp(-0.5 * R * R);
  x[0] = V / f;
  x[1] = R;
  for (let i = 2; i < 128; i++) {
    x[i] = Math.sqrt(-2 * Math.log(V / x[i - 1] + f));
    f = Math.exp(-0.5 * x[i] * x[i]);
  }
  for (let i = 0; i < 128; i++) ratio[i] = x[i + 1] / x[i];
  const normal = (): number => {
    for (;;) {
      const u = 2 * uniform() - 1;
      const i = next() & 0x7f;
      if (Math.abs(u) < ratio[i]) return u * x[i];
      if (i === 0) {
        let tx: number, ty: number;
        do {
          tx = Math.log(1 - uniform()) / R;
          ty = Math.log(1 - uniform());
        } while (-2 * ty < tx * tx);
        return u < 0 ? tx - R : R - tx;
      }
      const xx = u * x[i];
      const f0 = Math.exp(-0.5 * (x[i] * x[i] - xx * xx));
      const f1 = Math.exp(-0.5 * (x[i + 1] * x[i + 1] - xx * xx));
      if (f1 + uniform() * (f0 - f1) < 1) return xx;
    }
  };
  const mu = new Float64Array(factors.length);
  const sigma = new Float64Array(factors.length);
  const lognormal = factors.map((fa) => fa.distribution === "lognormal");
  factors.forEach((fa, k) => {
    if (lognormal[k]) {
      sigma[k] = Math.log(1 + fa.upper_pct / 100) / 1.96;
      mu[k] = (-sigma[k] * sigma[k]) / 2;
    } else {
      mu[k] = 1;
      sigma[k] = (fa.lower_pct + fa.upper_pct) / 200 / 1.96;
    }
  });
  const draws = new Float64Array(factors.length);
  const totals = new Float64Array(trials);
  let sum = 0;
  for (let t = 0; t < trials; t++) {
    for (let k = 0; k < factors.length; k++) draws[k] = lognormal[k] ? Math.exp(mu[k] + sigma[k] * normal()) : mu[k] + sigma[k] * normal();
    let total = 0;
    for (const s of sources) total += s.base * draws[s.factor!] * draws[s.activity!];
    totals[t] = total;
    sum += total;
  }
  totals.sort();
  return { mean: sum / trials, p2_5: totals[Math.floor(0.025 * (trials - 1))], p97_5: totals[Math.floor(0.975 * (trials - 1))] };
}

function best(runs: number, run: () => void): number {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest / 1000;
}

export async function run(): Promise<void> {
  const core = uncertaintyCore();
  const { factors, sources } = inventory();
  core.monteCarlo(factors, sources, { trials: 10_000, seed: 1 });
  const wasm = best(3, () => core.monteCarlo(factors, sources, { trials: TRIALS, seed: 42 }));
  const plain = best(2, () => plainMonteCarlo(factors, sources, TRIALS, 42));
  const rate = (seconds: number) => `${((TRIALS * SOURCES) / seconds / 1e6).toFixed(1)} M trials×sources/s`;
  console.log(`Monte Carlo, ${TRIALS.toLocaleString("en")} trials × ${SOURCES} sources (40 factors, lognormal EF and normal AD):`);
  console.log(`  WASM core         ${(wasm * 1000).toFixed(0)} ms  ${rate(wasm)}  (goal < 1 000 ms)`);
  console.log(`  plain TypeScript  ${(plain * 1000).toFixed(0)} ms  ${rate(plain)}`);
}
