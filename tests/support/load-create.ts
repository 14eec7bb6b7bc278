// The create `npm run load` offers (tests/load/run.ts) and the DynamoDB calls it makes on the
// request's path, counted on the same app (tests/support/counted-api.ts): the load prints them and
// writes them into docs/performance.md with `--write-docs`, and tests/integration/round-trips.test.ts
// fails when the document states another count.
import { countedApi } from "./counted-api";
import { generatedBlock } from "./generated-doc";

export const LOAD_CREATE_PATH = "/api/v1/underground_emission_ch4/";

// A small figure each: thousands of creates stay far inside a project's bound on its kept sums
// (domain/inventory/magnitudes.ts), so every one is a write the load counts.
export const loadCreateBody = (project: string) => ({ name: "Нагрузка", project, volume: 1000, ef: 18 });

type CountedApi = Awaited<ReturnType<typeof countedApi>>;

/** A project for the load's creates, and its first create made: it fills the process's dictionary
 *  cache, as the server's has been by the time the load's creates are counted. */
export async function loadProjectWarmed(api: CountedApi): Promise<string> {
  const created = await api.callsOf("/api/v1/projects/create_project/", {
    method: "POST",
    json: { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31" },
  });
  const project = (created.body as { id: string }).id;
  await api.callsOf(LOAD_CREATE_PATH, { method: "POST", json: loadCreateBody(project) });
  return project;
}

/** The DynamoDB calls of one of the load's creates, in order (their commands). */
export async function loadCreateCalls(): Promise<string[]> {
  const api = await countedApi();
  try {
    const project = await loadProjectWarmed(api);
    const { calls } = await api.callsOf(LOAD_CREATE_PATH, { method: "POST", json: loadCreateBody(project) });
    return calls.map((c) => c.command);
  } finally {
    await api.close();
  }
}

/** The load's line of the calls per create, as printed and written. */
export const createCallsLine = (calls: readonly string[]) =>
  `DynamoDB calls per create: ${calls.length} (${calls.join(", ")}), on the request's path`;

/** The calls per create docs/performance.md's load figures state, or undefined when not written. */
export function documentedCreateCalls(): number | undefined {
  const line = (generatedBlock("load") ?? []).find((l) => l.startsWith("DynamoDB calls per create:"));
  const match = line && /^DynamoDB calls per create: (\d+) /.exec(line);
  return match ? Number(match[1]) : undefined;
}
