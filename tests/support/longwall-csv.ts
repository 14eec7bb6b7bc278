// A generated longwall's history (wasm-core/src/gbdt/longwall-history.ts) as the CSV a monitoring
// system exports: Russian headers, «01.01.2025 08:10» times, decimal commas, semicolons. For the
// direct-upload tests and the forecast back-test bench (a year of 10-minute rows is about 8 MB).
import { HISTORY_FEATURES, HISTORY_START_MS, HISTORY_STEP_MS, type LongwallHistory } from "@core/gbdt/longwall-history";

export const HISTORY_HEADERS = [
  "Время",
  "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин",
  "Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин",
  "Концентрация метана в каптируемой смеси, %",
  "Расход смеси, извлекаемой установкой, м³/мин",
  "Средняя концентрация CH4 в исходящей струе шахты, %",
  "Расход воздуха в исходящей струе шахты, м³/мин",
  "Расход метана, извлекаемого установкой, м³/мин",
  "Концентрация CH4 в исходящей струе лавы, факт, %",
];

const two = (n: number) => String(n).padStart(2, "0");
const typed = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
};
const comma = (v: number) => String(v).replace(".", ",");

/** Rows [from, to) of `history`; `stepMs` re-times them (a month of 1-minute readings: 60 000). */
export function historyCsv(history: LongwallHistory, from = 0, to = history.time.length, stepMs?: number): string {
  const lines = [HISTORY_HEADERS.join(";")];
  const start = history.time[0];
  for (let r = from; r < to; r++) {
    const time = stepMs === undefined ? history.time[r] : start + r * stepMs;
    lines.push([typed(time), ...HISTORY_FEATURES.map((f) => comma(history.columns[f][r])), comma(history.measured[r])].join(";"));
  }
  return lines.join("\n");
}

/** A file of `rows` rows, `stepMs` apart, whose readings are `csv`'s rows over and over: a large
 *  file for what counts rows, or `csv` re-timed, without printing every row's numbers again. */
export function repeatedHistoryCsv(csv: string, rows: number, stepMs = HISTORY_STEP_MS): string {
  const [header, ...readings] = csv.split("\n").map((line, i) => (i === 0 ? line : line.slice(line.indexOf(";"))));
  const lines = [header];
  for (let r = 0; r < rows; r++) lines.push(typed(HISTORY_START_MS + r * stepMs) + readings[r % readings.length]);
  return lines.join("\n");
}
