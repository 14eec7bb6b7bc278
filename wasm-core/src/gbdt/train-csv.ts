// Training data from a CSV file with a header: the target column, the optional `t` (time: a number
// such as a step, an ISO date-time, or «01.01.2025 10:20») and `id`, and every other column a feature.
// Cells as readFeatureCsv reads them (empty or NaN: missing); the target may not be missing.
import { parseCsvRecords } from "../csv";
import { readFeatureCsv } from "./csv";
import { TrainingInputError, type TrainingData } from "./train";

const RU_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** A time cell as a number: the number itself, or milliseconds since 1970 (UTC) for a date. */
export function timeValue(cell: string): number {
  const text = cell.trim();
  if (text === "") return Number.NaN;
  const number = Number(text.replace(",", "."));
  if (Number.isFinite(number)) return number;
  const ru = RU_DATE.exec(text);
  if (ru) {
    const [, d, m, y, h = "0", min = "0", s = "0"] = ru;
    const value = Date.UTC(Number(y), Number(m) - 1, Number(d), Number(h), Number(min), Number(s));
    const back = new Date(value);
    return back.getUTCDate() === Number(d) && back.getUTCMonth() === Number(m) - 1 ? value : Number.NaN;
  }
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) : Number.NaN;
}

export function readTrainingCsv(text: string, target: string): TrainingData & { hasTime: boolean } {
  const header = parseCsvRecords(text)
    .map((record) => record.fields.map((field) => field.trim()))
    .find((cells) => cells.some((cell) => cell !== ""));
  if (!header) throw new TrainingInputError("Файл пуст: нужна строка заголовков и строки данных");
  if (!header.includes(target)) throw new TrainingInputError(`В заголовке нет целевого столбца ${target}`);
  const featureNames = header.filter((name) => name !== target && name !== "id" && name !== "t" && name !== "");
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw new TrainingInputError(`Столбец ${name} встречается в заголовке дважды`);
    seen.add(name);
  }
  const read = (names: string[]) => {
    try {
      return readFeatureCsv(text, names);
    } catch (error) {
      throw new TrainingInputError((error as Error).message);
    }
  };
  const { rows } = read(featureNames);
  const { rows: y } = read([target]);
  let t: Float64Array | null = null;
  if (header.includes("t")) {
    const column = header.indexOf("t");
    const records = parseCsvRecords(text)
      .map((record) => ({ line: record.line, cells: record.fields.map((field) => field.trim()) }))
      .filter((record) => record.cells.some((cell) => cell !== ""))
      .slice(1);
    t = Float64Array.from(records, ({ line, cells }) => {
      const value = timeValue(cells[column] ?? "");
      if (Number.isNaN(value)) throw new TrainingInputError(`CSV line ${line}, column t: "${cells[column] ?? ""}" is not a time`);
      return value;
    });
  }
  return { featureNames, rows, y, t, hasTime: t !== null };
}
