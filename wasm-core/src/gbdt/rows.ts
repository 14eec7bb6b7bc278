// Input rows for prediction: checks their width against the model and copies them, in the
// model's feature order, into a row-major Float64Array (a WASM buffer or the TS evaluator's).
import type { ParsedModel } from "./model";

export type Rows = Float64Array | number[][];

export interface RowSource {
  rowCount: number;
  /** Copies rows [start, start + count) into target[0 .. count * numFeatures), model feature order. */
  fill(target: Float64Array, start: number, count: number): void;
}

/** Where each model feature sits in the caller's rows. */
function columnsOf(model: ParsedModel, featureOrder: readonly string[] | undefined): { width: number; columns: number[] } {
  const names = model.featureNames;
  if (!featureOrder) return { width: names.length, columns: names.map((_, i) => i) };
  const position = new Map<string, number>();
  featureOrder.forEach((name, i) => {
    if (position.has(name)) throw new Error(`feature "${name}" appears twice in the data columns`);
    position.set(name, i);
  });
  const lacking = names.filter((name) => !position.has(name));
  if (lacking.length > 0) {
    throw new Error(`the data lacks model feature(s) ${lacking.join(", ")} (the model uses ${names.join(", ")})`);
  }
  return { width: featureOrder.length, columns: names.map((name) => position.get(name)!) };
}

export function rowSource(model: ParsedModel, rows: Rows, featureOrder?: readonly string[]): RowSource {
  const { width, columns } = columnsOf(model, featureOrder);
  const numFeatures = columns.length;
  const identity = width === numFeatures && columns.every((c, i) => c === i);
  const widthHint = featureOrder ? `${width} data columns` : `the model's ${numFeatures} features`;

  if (rows instanceof Float64Array) {
    if (rows.length % width !== 0) {
      throw new Error(`${rows.length} values are not whole rows of ${widthHint}`);
    }
    return {
      rowCount: rows.length / width,
      fill(target, start, count) {
        if (identity) {
          target.set(rows.subarray(start * width, (start + count) * width));
          return;
        }
        for (let r = 0; r < count; r++) {
          const from = (start + r) * width;
          for (let f = 0; f < numFeatures; f++) target[r * numFeatures + f] = rows[from + columns[f]];
        }
      },
    };
  }

  rows.forEach((row, r) => {
    if (!Array.isArray(row) || row.length !== width) {
      throw new Error(`row ${r} has ${Array.isArray(row) ? row.length : "no"} values, expected ${widthHint}`);
    }
  });
  return {
    rowCount: rows.length,
    fill(target, start, count) {
      for (let r = 0; r < count; r++) {
        const row = rows[start + r];
        for (let f = 0; f < numFeatures; f++) {
          const value: unknown = row[columns[f]];
          // JSON callers spell a missing value null; anything else that is not a number is a caller bug.
          if (typeof value === "number") target[r * numFeatures + f] = value;
          else if (value === null || value === undefined) target[r * numFeatures + f] = NaN;
          else throw new Error(`row ${start + r}, feature ${model.featureNames[f]}: ${String(value)} is not a number`);
        }
      }
    },
  };
}
