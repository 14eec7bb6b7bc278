// `npm run --silent inventory -- uncertainty --csv FILE [--monte-carlo N --seed S]`: the Approach 1
// table, key categories (Approach 1 level and trend, Approach 2 level) and optionally a Monte Carlo
// run of the year-t total, printed as JSON. The CSV has the header id,category,base,current,ad_u,ef_u
// (t CO2-eq and %), comma-separated, fields optionally in double quotes.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseCsv } from "./csv";
import { FieldError } from "./emissions-core";
import { normalModelOf, uncertaintyCore, type CategoryInput } from "./uncertainty-node";

const USAGE = "usage: inventory uncertainty --csv FILE [--monte-carlo N --seed S]";
const HEADER = ["id", "category", "base", "current", "ad_u", "ef_u"] as const;

export function categoriesFromCsv(text: string): CategoryInput[] {
  const [header, ...rows] = parseCsv(text);
  if (!header || header.map((h) => h.trim()).join(",") !== HEADER.join(",")) {
    throw new Error(`the header must be ${HEADER.join(",")}`);
  }
  return rows.map((row, r) => {
    if (row.length !== HEADER.length) throw new Error(`line ${r + 2}: ${row.length} fields, expected ${HEADER.length}`);
    const number = (column: (typeof HEADER)[number]) => {
      const raw = row[HEADER.indexOf(column)].trim();
      const value = raw === "" ? NaN : Number(raw);
      if (!Number.isFinite(value)) throw new Error(`line ${r + 2}, ${column}: not a number: ${JSON.stringify(raw)}`);
      return value;
    };
    return { id: row[0].trim(), base: number("base"), current: number("current"), ad_u: number("ad_u"), ef_u: number("ef_u") };
  });
}

export function uncertaintyReport(categories: CategoryInput[], monteCarlo?: { trials: number; seed: number }) {
  const core = uncertaintyCore();
  const table = core.approach1(categories);
  const g = new Map(table.rows.map((row) => [row.id, row.G]));
  const report: Record<string, unknown> = {
    ...table,
    kca_level: core.keyCategoriesLevel(categories).map(({ id, share, cumulative, key }) => ({ id, L: share, cumulative, key })),
    kca_trend: core
      .keyCategoriesTrend(categories)
      .map(({ id, measure, share, cumulative, key }) => ({ id, T: measure, share, cumulative, key })),
    kca_level_approach2: core
      .keyCategoriesLevel(
        categories,
        categories.map((c) => g.get(c.id)!),
      )
      .map(({ id, share, cumulative, key }) => ({ id, LU: share, cumulative, key })),
  };
  if (monteCarlo) {
    const { factors, sources } = normalModelOf(categories);
    const { mean, p2_5, p97_5, half_width_pct } = core.monteCarlo(factors, sources, monteCarlo);
    report.monte_carlo = { mean, p2_5, p97_5, half_width_pct };
  }
  return report;
}

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { csv: { type: "string" }, "monte-carlo": { type: "string" }, seed: { type: "string" } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (positionals[0] !== "uncertainty" || !values.csv) {
    console.error(USAGE);
    return 2;
  }
  const trials = values["monte-carlo"] === undefined ? undefined : Number(values["monte-carlo"]);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  try {
    const categories = categoriesFromCsv(readFileSync(values.csv, "utf8"));
    const report = uncertaintyReport(categories, trials === undefined ? undefined : { trials, seed });
    console.log(JSON.stringify(report, null, 2));
    return 0;
  } catch (error) {
    const message =
      error instanceof FieldError
        ? `${error.field}${error.row === undefined ? "" : ` (row ${error.row + 1})`}: ${error.message}`
        : (error as Error).message;
    console.error(`inventory: ${message}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("inventory-cli.ts")) {
  process.exitCode = main(process.argv.slice(2));
}
