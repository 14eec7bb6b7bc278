// Properties of the emission core over generated inputs (fast-check): linearity in volume,
// non-negative results, CO2e = CH4 × GWP exactly, batch (copied or in place) = per-row exactly, and validation that
// rejects every negative or non-finite value before the core runs.
import fc from "fast-check";
import { describe, it } from "vitest";
import { FieldError, calculate, calculateBatch, fillBlanks, openBatch, recycleTechnology, sensitivity } from "./emissions";
import { EMISSION_TYPES, REGISTRY, type EmissionType, type NumberField } from "./registry";

// Realistic magnitudes without subnormals (a relative check on 1e-320 means nothing).
const magnitude = fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 1e7, noNaN: true }));

function numberInputs(type: EmissionType): NumberField[] {
  return (REGISTRY[type].inputs as readonly NumberField[]).filter((f) => f.type === "number");
}

function fieldValue(field: NumberField): fc.Arbitrary<number> {
  if (field.fixed !== undefined) return fc.constant(field.fixed);
  if (field.max !== undefined) return fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: field.max, noNaN: true }));
  return magnitude;
}

function inputsArb(type: EmissionType): fc.Arbitrary<Record<string, number>> {
  const record = fc.record(Object.fromEntries(numberInputs(type).map((f) => [f.name, fieldValue(f)])));
  // Cross-field limits (torch_composition: contents ≤ 100 % vol in sum) hold by scaling down.
  const sums: readonly { fields: readonly string[]; max: number }[] =
    (REGISTRY[type] as { sums?: { fields: readonly string[]; max: number }[] }).sums ?? [];
  return record.map((inputs) => {
    for (const { fields, max } of sums) {
      const total = fields.reduce((sum, name) => sum + inputs[name], 0);
      if (total > max) for (const name of fields) inputs[name] = (inputs[name] / total) * max * 0.999;
    }
    return inputs;
  });
}

/** Results per unit of activity (torch_composition's ef_co2, t per thousand m³) do not scale with volume. */
const perUnit = (type: EmissionType, name: string) => REGISTRY[type].results.some((r) => r.name === name && r.unit.includes("/"));

const gwpArb = fc.constantFrom(25, 28, 29.8);
const typeArb = fc.constantFrom(...EMISSION_TYPES);
const typeWithInputs = typeArb.chain((type) => fc.tuple(fc.constant(type), inputsArb(type)));

function closeRel(a: number, b: number, rel = 1e-9): boolean {
  return a === b || Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));
}

describe("emission formulas", () => {
  it("are linear in volume", () => {
    fc.assert(
      fc.property(typeWithInputs, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), gwpArb, ([type, drawn], k, gwp) => {
        // Scaled by up to 1e3, the volume stays within its physical bound.
        const inputs = { ...drawn, volume: drawn.volume / 1e3 };
        const base = calculate(type, inputs, { gwp_ch4: gwp }) as Record<string, number>;
        const scaled = calculate(type, { ...inputs, volume: inputs.volume * k }, { gwp_ch4: gwp }) as Record<string, number>;
        for (const name of Object.keys(base)) {
          if (!closeRel(scaled[name], perUnit(type, name) ? base[name] : base[name] * k)) return false;
        }
        return true;
      }),
    );
  });

  it("give non-negative, finite results", () => {
    fc.assert(
      fc.property(typeWithInputs, gwpArb, ([type, inputs], gwp) =>
        Object.values(calculate(type, inputs, { gwp_ch4: gwp }) as Record<string, number>).every((v) => v >= 0 && Number.isFinite(v)),
      ),
    );
  });

  it("give res_ch4_to_co2 = res_ch4 × GWP exactly, and sum_co2 = res_co2 + res_ch4_to_co2", () => {
    const ch4Types = EMISSION_TYPES.filter((t) => REGISTRY[t].results.some((r) => r.name === "res_ch4_to_co2"));
    const arb = fc.constantFrom(...ch4Types).chain((type) => fc.tuple(fc.constant(type), inputsArb(type)));
    fc.assert(
      fc.property(arb, fc.double({ min: 0, max: 100, noNaN: true }), ([type, inputs], gwp) => {
        const r = calculate(type, inputs, { gwp_ch4: gwp }) as Record<string, number>;
        if (r.res_ch4_to_co2 !== r.res_ch4 * gwp) return false;
        return !("sum_co2" in r) || r.sum_co2 === r.res_co2 + r.res_ch4_to_co2;
      }),
    );
  });

  it("give in a batch exactly what they give row by row", () => {
    const arb = typeArb.chain((type) => fc.tuple(fc.constant(type), fc.array(inputsArb(type), { minLength: 1, maxLength: 40 })));
    fc.assert(
      fc.property(arb, gwpArb, ([type, rows], gwp) => {
        const columns: Record<string, Float64Array> = {};
        for (const field of numberInputs(type)) columns[field.name] = Float64Array.from(rows, (r) => r[field.name]);
        const batch = calculateBatch(type, columns, { gwp_ch4: gwp }) as Record<string, Float64Array>;
        // And written in place, into the core's memory.
        const open = openBatch(type, rows.length);
        for (const [name, column] of Object.entries(columns)) (open.inputs as Record<string, Float64Array>)[name].set(column);
        const inPlace = open.run({ gwp_ch4: gwp }) as Record<string, Float64Array>;
        return rows.every((row, i) => {
          const single = calculate(type, row, { gwp_ch4: gwp }) as Record<string, number>;
          return Object.keys(single).every((name) => Object.is(batch[name][i], single[name]) && Object.is(inPlace[name][i], single[name]));
        });
      }),
      { numRuns: 50 },
    );
  });

  it("reject any negative or non-finite input with a FieldError naming it", () => {
    const bad = fc.oneof(
      fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
    );
    const arb = typeWithInputs.chain(([type, inputs]) => {
      const free = numberInputs(type)
        .filter((f) => f.fixed === undefined)
        .map((f) => f.name);
      return fc.tuple(fc.constant(type), fc.constant(inputs), fc.constantFrom(...free), bad);
    });
    fc.assert(
      fc.property(arb, ([type, inputs, field, value]) => {
        try {
          calculate(type, { ...inputs, [field]: value });
          return false;
        } catch (error) {
          return error instanceof FieldError && error.field === field;
        }
      }),
    );
  });
});

describe("recycle_technology", () => {
  it("answers every valid (C, Q) and rejects every out-of-range one", () => {
    fc.assert(
      fc.property(fc.double({ min: -50, max: 150, noNaN: true }), fc.double({ min: -10, max: 100, noNaN: true }), (metan, a_metan) => {
        const valid = metan >= 0 && metan <= 100 && a_metan >= 0;
        try {
          const { technology } = recycleTechnology(metan, a_metan);
          return valid && technology.length > 0;
        } catch (error) {
          return !valid && error instanceof FieldError;
        }
      }),
    );
  });
});

describe("sensitivity", () => {
  it("gives sn_volume = 1 and sn_methan = methane share without a transport fuel column (4.11)", () => {
    const row = fc.record({
      volume: fc.double({ min: 1, max: 1e8, noNaN: true }),
      methane: fc.double({ min: 0.01, max: 50, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 10 }), (rows) => {
        const result = sensitivity(rows.map((r, i) => ({ year: 2000 + i, ...r })));
        return result.every((r) => closeRel(r.sn_volume ?? NaN, 1, 1e-6) && closeRel(r.sn_methan ?? NaN, r.res_co2 / r.res_co2_all, 1e-6));
      }),
    );
  });
});

describe("filling_blanks", () => {
  it("keeps observed values, fills every gap of an observed series, never goes below 0", () => {
    const cell = fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null, freq: 3 });
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 30 }), (values) => {
        const years = values.map((_, i) => 1990 + i * 2);
        const filled = fillBlanks(years, values);
        const observed = values.some((v) => v !== null);
        return filled.every((f, i) => {
          if (values[i] !== null) return f.value === values[i] && f.method === null;
          if (!observed) return f.value === null && f.method === "empty";
          return f.value !== null && f.value >= 0 && f.method !== null && f.method !== "empty";
        });
      }),
    );
  });

  it("interpolates between its anchors", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        (a, b, gap) => {
          const years = Array.from({ length: gap + 2 }, (_, i) => 2000 + i);
          const values = years.map((_, i) => (i === 0 ? a : i === gap + 1 ? b : null));
          return fillBlanks(years, values).every(
            (f) => f.value !== null && f.value >= Math.min(a, b) - 1e-9 && f.value <= Math.max(a, b) + 1e-9,
          );
        },
      ),
    );
  });
});
