// Paths and CSV helpers shared by the gbdt tests (not a test itself).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readFeatureCsv } from "./csv";

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
