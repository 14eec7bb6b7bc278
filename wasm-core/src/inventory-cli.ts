// `npm run --silent inventory -- uncertainty --csv FILE [--monte-carlo N --seed S]`: the Approach 1
// table, key categories (Approach 1 level and trend, Approach 2 level) and optionally a Monte Carlo
// run of the year-t total, printed as JSON. The CSV has the header id,category,base,current,ad_u,ef_u
// (t CO2-eq and %), and for netted lines (D27) two more columns, destroyed,destroyed_u: `current` is
// then the line's net figure and ad_u, ef_u the uncertainties of its gross figure (current +
// destroyed). Comma-separated, fields optionally in double quotes. GET v1/inventory/uncertainty/
// answers the same figures for a company's year (year-uncertainty.ts is the one computation).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseCsv } from "./csv";
import type { GbdtOutput } from "./gbdt/command";
import { FieldError } from "./emissions-core";
import { uncertaintyCore } from "./uncertainty-node";
import { linesReport, type LineInput } from "./year-uncertainty";

const USAGE = "usage: inventory uncertainty --csv FILE [--monte-carlo N --seed S]";
const HEADER = ["id", "category", "base", "current", "ad_u", "ef_u"] as const;
const NETTED = ["destroyed", "destroyed_u"] as const;
type Column = (typeof HEADER)[number] | (typeof NETTED)[number];

export function categoriesFromCsv(text: string): LineInput[] {
  const [header, ...rows] = parseCsv(text);
  const columns = header?.map((h) => h.trim()).join(",");
  const netted = columns === [...HEADER, ...NETTED].join(",");
  if (!header || (columns !== HEADER.join(",") && !netted)) {
    throw new Error(`the header must be ${HEADER.join(",")} (and ${NETTED.join(",")} for netted lines)`);
  }
  const names: readonly Column[] = netted ? [...HEADER, ...NETTED] : HEADER;
  return rows.map((row, r) => {
    if (row.length !== names.length) throw new Error(`line ${r + 2}: ${row.length} fields, expected ${names.length}`);
    const number = (column: Column) => {
      const raw = row[names.indexOf(column)].trim();
      const value = raw === "" ? NaN : Number(raw);
      if (!Number.isFinite(value)) throw new Error(`line ${r + 2}, ${column}: not a number: ${JSON.stringify(raw)}`);
      return value;
    };
    const line: LineInput = {
      id: row[0].trim(),
      base: number("base"),
      current: number("current"),
      ad_u: number("ad_u"),
      ef_u: number("ef_u"),
    };
    return netted ? { ...line, destroyed: number("destroyed"), destroyed_u: number("destroyed_u") } : line;
  });
}

export function uncertaintyReport(categories: LineInput[], monteCarlo?: { trials: number; seed: number }) {
  return linesReport(uncertaintyCore(), categories, monteCarlo);
}

const PROCESS_OUTPUT: GbdtOutput = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** Runs one command line, writing to `io` (the process's stdout and stderr, or a test's buffers);
 *  answers the exit code (2: bad usage, 1: an error). */
export function inventoryCommand(argv: string[], io: GbdtOutput = PROCESS_OUTPUT): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { csv: { type: "string" }, "monte-carlo": { type: "string" }, seed: { type: "string" } },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (positionals[0] !== "uncertainty" || !values.csv) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  const trials = values["monte-carlo"] === undefined ? undefined : Number(values["monte-carlo"]);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  try {
    const categories = categoriesFromCsv(readFileSync(values.csv, "utf8"));
    const report = uncertaintyReport(categories, trials === undefined ? undefined : { trials, seed });
    io.out(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  } catch (error) {
    const message =
      error instanceof FieldError
        ? `${error.field}${error.row === undefined ? "" : ` (row ${error.row + 1})`}: ${error.message}`
        : (error as Error).message;
    io.err(`inventory: ${message}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("inventory-cli.ts")) {
  process.exitCode = inventoryCommand(process.argv.slice(2));
}
