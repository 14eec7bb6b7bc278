// Training data from a CSV file with a header: the target column, the optional `t` (time: a number
// such as a step, an ISO date-time, or «01.01.2025 10:20») and `id`, and every other column a feature.
// Cells as readFeatureCsv reads them (empty or NaN: missing); the target may not be missing.
import { csvDelimiter, csvRecords, parseCsvRecords } from "../csv";
import { headerKey, REGISTRY, type NumberField } from "../registry";
import { readFeatureCsv } from "./csv";
import { MAX_TRAINING_ROWS, TrainingInputError, type TrainingData } from "./train";

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
  const first = csvRecords(text, { delimiter: csvDelimiter(text) }).next();
  const header = first.done ? undefined : first.value.fields.map((field) => field.trim());
  if (!header) throw new TrainingInputError("Файл пуст: нужна строка заголовков и строки данных");
  if (!header.includes(target)) throw new TrainingInputError(`В заголовке нет целевого столбца ${target}`);
  const featureNames = header.filter((name) => name !== target && name !== "id" && name !== "t" && name !== "");
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw new TrainingInputError(`Столбец ${name} встречается в заголовке дважды`);
    seen.add(name);
  }
  // One pass over the file, the features and the target together, refused past the row cap as soon
  // as it is reached (a million rows are not read into memory to be refused).
  let read: ReturnType<typeof readFeatureCsv>;
  try {
    read = readFeatureCsv(text, [...featureNames, target], {
      maxRows: MAX_TRAINING_ROWS,
      tooMany: `Для обучения допускается не больше ${MAX_TRAINING_ROWS.toLocaleString("ru-RU").replace(/\s/g, " ")} строк, в файле больше`,
      textColumn: header.includes("t") ? { name: "t", read: timeValue, problem: "не время и не номер шага" } : undefined,
    });
  } catch (error) {
    throw new TrainingInputError((error as Error).message);
  }
  const width = featureNames.length;
  const rows = new Float64Array(read.rowCount * width);
  const y = new Float64Array(read.rowCount);
  for (let r = 0; r < read.rowCount; r++) {
    rows.set(read.rows.subarray(r * (width + 1), r * (width + 1) + width), r * width);
    y[r] = read.rows[r * (width + 1) + width];
  }
  const t = read.textValues;
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
  // Headers carry commas of their own («…, м³/мин»): a «;» (or a tab) in the header line decides.
  const delimiter = csvDelimiter(text);
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
  const cell = (value: string) => (delimiter !== "," ? value.trim().replace(",", ".") : value.trim());
  const lines = [
    names.join(","),
    ...records.slice(1).map((r) => r.fields.map((f, i) => quote(names[i] === "t" ? f.trim() : cell(f))).join(",")),
  ];
  const data = readTrainingCsv(lines.join("\n"), "y");
  return { ...data, headers };
}
