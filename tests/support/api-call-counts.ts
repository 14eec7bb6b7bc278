// The DynamoDB calls of each API operation docs/performance.md lists, measured in one place:
// `npm run bench -- api` prints them (with `--write-docs`, it writes them into the document's
// generated table, with the machine's load average), and tests/integration/round-trips.test.ts
// holds them to their bounds and fails when the document's table says other than what it measured.
import { readFileSync, writeFileSync } from "node:fs";
import type { SentCall } from "@server/adapters/dynamodb/call-count";
import type { CountedApi } from "./counted-api";
import { machineLine } from "./machine";

export const PERFORMANCE_DOC = "docs/performance.md";
const BEGIN = "<!-- call counts: written by `npm run bench -- api --write-docs` from one run; not edited by hand -->";
const END = "<!-- end of call counts -->";

/** The operations, in the order they are measured (each on what the ones before left). */
export const OPERATIONS = [
  ["create", "create a calculation"],
  ["edit", "edit a calculation (an input)"],
  ["archive", "archive a calculation"],
  ["restore", "restore a calculation"],
  ["list", "list calculations"],
  ["get", "get one calculation"],
  ["projects", "list projects"],
  ["get_me", "get_me"],
  ["inventory", "inventory of a year"],
] as const;

export type Operation = (typeof OPERATIONS)[number][0];

export interface Measured {
  /** The fixture's project and its first calculation. */
  project: string;
  calculation: string;
  calls: Record<Operation, SentCall[]>;
}

/** Sequential rounds of one request's calls (SentCall.round). */
export const roundsOf = (calls: SentCall[]): number => calls.reduce((most, c) => Math.max(most, c.round), 0);

/** A project with one calculation (its create fills the process's dictionary cache), then each
 *  operation once, warm. */
export async function measureOperations(api: CountedApi): Promise<Measured> {
  const created = await api.callsOf("/api/v1/projects/create_project/", {
    method: "POST",
    json: { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31" },
  });
  const project = (created.body as { id: string }).id;
  const type = "/api/v1/underground_emission_ch4/";
  const first = await api.callsOf(type, { method: "POST", json: { name: "Первый", project, volume: 1000, ef: 18 } });
  const calculation = (first.body as { id: string }).id;
  const requests: Record<Operation, [string, { method: string; json: unknown }?]> = {
    create: [type, { method: "POST", json: { name: "Расчет", project, volume: 1000, ef: 18 } }],
    edit: [`${type}${calculation}/`, { method: "PATCH", json: { volume: 2000 } }],
    archive: [`${type}${calculation}/`, { method: "PATCH", json: { is_deleted: true } }],
    restore: [`${type}${calculation}/`, { method: "PATCH", json: { is_deleted: false } }],
    list: [`${type}?project=${project}&limit=10&offset=0`],
    get: [`${type}${calculation}/`],
    projects: ["/api/v1/projects/?limit=10&offset=0"],
    get_me: ["/api/v1/users/get_me/"],
    inventory: ["/api/v1/inventory/?year=2024"],
  };
  const calls = {} as Record<Operation, SentCall[]>;
  for (const [operation] of OPERATIONS) {
    const [path, init] = requests[operation];
    calls[operation] = (await api.callsOf(path, init)).calls;
  }
  return { project, calculation, calls };
}

/** The lines a bench prints. */
export function printedLines(measured: Measured): string[] {
  return OPERATIONS.map(([operation, label]) => {
    const calls = measured.calls[operation];
    const units = calls.reduce((sum, c) => sum + c.capacity, 0);
    return (
      `  ${label.padEnd(34)} ${String(calls.length).padStart(2)} calls in ${roundsOf(calls)} rounds  ` +
      `${units.toFixed(1).padStart(4)} units  ${calls.map((c) => c.command).join(" ")}`
    );
  });
}

function block(measured: Measured, when: Date): string {
  const rows = OPERATIONS.map(([operation, label]) => {
    const calls = measured.calls[operation];
    const units = calls.reduce((sum, c) => sum + c.capacity, 0);
    const order = calls.map((c) => (c.round > 1 && calls.find((d) => d.round === c.round) === c ? `→ ${c.command}` : c.command));
    return `| ${label} | ${calls.length} | ${roundsOf(calls)} | ${units.toFixed(1)} | ${order.join(" ")} |`;
  });
  return [
    BEGIN,
    `${machineLine(when).replace(/\.$/, "")}, a warm process (dynalite).`,
    "",
    "| operation | DynamoDB calls | sequential rounds | capacity units | calls (→ a round that waits for the one before) |",
    "|---|---|---|---|---|",
    ...rows,
    END,
  ].join("\n");
}

/** Writes the measured table into docs/performance.md between its markers. */
export function writeDocumented(measured: Measured, path = PERFORMANCE_DOC, when = new Date()): void {
  const text = readFileSync(path, "utf8");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${path}: the call counts' markers are missing`);
  writeFileSync(path, text.slice(0, start) + block(measured, when) + text.slice(end + END.length));
}

/** The calls and rounds docs/performance.md's generated table states, by operation. */
export function documented(path = PERFORMANCE_DOC): Partial<Record<Operation, { calls: number; rounds: number }>> {
  const text = readFileSync(path, "utf8");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return {};
  const found: Partial<Record<Operation, { calls: number; rounds: number }>> = {};
  for (const line of text.slice(start, end).split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const operation = OPERATIONS.find(([, label]) => label === cells[1])?.[0];
    if (operation) found[operation] = { calls: Number(cells[2]), rounds: Number(cells[3]) };
  }
  return found;
}
