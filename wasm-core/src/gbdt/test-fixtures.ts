// Paths and CSV helpers shared by the gbdt tests (not a test itself).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readFeatureCsv } from "./csv";
import type { TrainingData } from "./index";

/** The institute's default models and the libraries' golden predictions (tests/fixtures/models). */
export { modelFixture } from "../../../tests/support/models";
export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const readText = (path: string): string => readFileSync(path, "utf8");

/** Feature rows (in featureNames order) and one numeric column of a CSV with a header. */
export function readCsvWithColumn(path: string, featureNames: readonly string[], column: string) {
  const text = readText(path);
  const { rows, rowCount } = readFeatureCsv(text, featureNames);
  const lines = text.trim().split(/\r?\n/);
  const index = lines[0].split(",").indexOf(column);
  if (index < 0) throw new Error(`${path} has no column ${column}`);
  const values = Float64Array.from(lines.slice(1), (line) => Number(line.split(",")[index]));
  return { rows, rowCount, values };
}

/** A known function of three of five features, NaN in a tenth of x3's values (the target then shifts by 2). */
export function syntheticData(count: number, seed: number, noise = 0.1): TrainingData {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const width = 5;
  const rows = new Float64Array(count * width);
  const y = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    for (let f = 0; f < width; f++) rows[i * width + f] = Math.round(next() * 1000) / 100;
    const missing = next() < 0.1;
    if (missing) rows[i * width + 3] = Number.NaN;
    const [a, b, c] = [rows[i * width], rows[i * width + 1], rows[i * width + 2]];
    y[i] = 2 * Math.sin(a) + (b > 5 ? 1.5 : 0) + 0.1 * c + (missing ? 2 : 0) + noise * (next() - 0.5);
  }
  return { featureNames: ["x1", "x2", "x7", "x8", "x12"], rows, y };
}
