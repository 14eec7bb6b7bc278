// Training data from a CSV file with a header: the target column, the optional `t` (time: a number
// such as a step, an ISO date-time, or «01.01.2025 10:20») and `id`, and every other column a feature.
// Cells as readFeatureCsv reads them (empty or NaN: missing); the target may not be missing.
import { parseCsvRecords } from "../csv";
import { headerKey, REGISTRY, type NumberField } from "../registry";
import { isBlankRecord, readFeatureCsv } from "./csv";
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
    const records = parseCsvRecords(text, { keepEmptyRows: true })
      .map((record) => ({ line: record.line, cells: record.fields.map((field) => field.trim()) }))
      .filter((record) => !isBlankRecord(record.cells))
      .slice(1);
    t = Float64Array.from(records, ({ line, cells }) => {
      const value = timeValue(cells[column] ?? "");
      if (Number.isNaN(value)) throw new TrainingInputError(`CSV line ${line}, column t: "${cells[column] ?? ""}" is not a time`);
      return value;
    });
  }
  return { featureNames, rows, y, t, hasTime: t !== null };
}

/** The Russian headers a forecast history may have, by column name: the data columns' labels (with or
 *  without the unit) and names, the measured concentration y and the time t. */
function historyHeaders(): Map<string, string> {
  const keys = new Map<string, string>();
  const data = (REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[];
  for (const column of data) {
    for (const header of [column.name, column.label, `${column.label}, ${column.unit}`]) keys.set(headerKey(header), column.name);
  }
  const target = "Концентрация CH4 в исходящей струе лавы, факт";
  for (const header of ["y", target, `${target}, %`, "Факт", "Концентрация метана, факт", "CH4 факт"]) keys.set(headerKey(header), "y");
  for (const header of ["t", "Время", "Дата и время", "Дата", "Шаг"]) keys.set(headerKey(header), "t");
  for (const header of ["id", "№", "Номер", "Номер строки"]) keys.set(headerKey(header), "id");
  return keys;
}

/**
 * A forecast history as users keep it (the browser's training reads it): CSV with «;» or «,», decimal
 * commas under «;», the forecast's data columns by their Russian headers, `y` and optionally `t`.
 * Returns the data by the model's feature names (x1, x2, ...) with the file's own headers.
 */
export function readForecastHistoryCsv(text: string): TrainingData & { headers: Record<string, string> } {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  // Headers carry commas of their own («…, м³/мин»): a «;» anywhere in the header line decides.
  const delimiter = firstLine.includes(";") ? ";" : ",";
  const records = parseCsvRecords(text, { delimiter });
  if (records.length === 0) throw new TrainingInputError("Файл пуст: нужна строка заголовков и строки данных");
  const known = historyHeaders();
  const headers: Record<string, string> = {};
  const names = records[0].fields.map((raw) => {
    const header = raw.trim();
    const name = known.get(headerKey(header)) ?? known.get(headerKey(header.replace(/\s*[,(].*$/s, "")));
    if (!name) throw new TrainingInputError(`Столбец «${header}» не распознан: нужны столбцы данных прогноза, «y» и, если есть, «Время»`);
    if (headers[name]) throw new TrainingInputError(`Столбцы «${headers[name]}» и «${header}» означают одно и то же`);
    headers[name] = header;
    return name;
  });
  if (!headers.y) throw new TrainingInputError("Нет столбца «y» (Концентрация CH4 в исходящей струе лавы, факт, %)");
  const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  const cell = (value: string) => (delimiter === ";" ? value.trim().replace(",", ".") : value.trim());
  const lines = [
    names.join(","),
    ...records.slice(1).map((r) => r.fields.map((f, i) => quote(names[i] === "t" ? f.trim() : cell(f))).join(",")),
  ];
  const data = readTrainingCsv(lines.join("\n"), "y");
  return { ...data, headers };
}
