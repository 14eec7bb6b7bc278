// The floor under a create at four writers (`npm run bench -- create`): the DynamoDB calls one of the
// load's creates makes on the request's path, recorded as the app sends them (tests/support/
// counted-api.ts) and sent again, call for call and round for round, by WRITERS loops of this
// process to an engine in a thread of its own on disk, as the local server reaches it (message
// ports, the table stream's capture asking each update for its images; the records go nowhere).
// No HTTP, no authentication, no validation or computation, no stream handler: what a create
// cannot do without, the storage engine's cost of the writes it makes durable. Its p50 beside the
// bare route's says whether a create ≤ 2× the bare route can be reached by anything above the storage.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BatchGetCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { startDynalite } from "@server/local/dynalite";
import { captureTableChanges } from "@server/local/table-stream";
import { countedApi } from "../support/counted-api";
import { LOAD_CREATE_PATH, loadCreateBody, loadProjectWarmed } from "../support/load-create";

interface Recorded {
  command: string;
  input: Record<string, unknown>;
  round: number;
}

/** The calls of the load's second create (the first fills the dictionary cache), with their inputs
 *  as the app handed them to the document client, and the items its reads found. */
async function recordCreate(): Promise<{ calls: Recorded[]; items: Record<string, unknown>[]; id: string }> {
  const api = await countedApi();
  try {
    const project = await loadProjectWarmed(api);
    const recorded: Recorded[] = [];
    let recording = true;
    let inFlight = 0;
    let round = 0;
    const client = api.doc;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!recording) return next(args);
        if (inFlight === 0) round += 1;
        recorded.push({ command: String(context.commandName), input: structuredClone(args.input as Record<string, unknown>), round });
        inFlight += 1;
        try {
          return await next(args);
        } finally {
          inFlight -= 1;
        }
      },
      { step: "initialize", priority: "high", name: "recordCreate" },
    );
    const { body } = await api.callsOf(LOAD_CREATE_PATH, { method: "POST", json: loadCreateBody(project) });
    recording = false;
    // The items the create read and updated, so that the replayed calls find what the app's found.
    const keys = recorded.flatMap((call) =>
      call.command === "BatchGetItemCommand"
        ? Object.values(call.input.RequestItems as Record<string, { Keys: Record<string, unknown>[] }>).flatMap((r) => r.Keys)
        : call.command === "UpdateItemCommand"
          ? [call.input.Key as Record<string, unknown>]
          : [],
    );
    const table = String(recorded.find((call) => call.input.TableName)?.input.TableName);
    const items: Record<string, unknown>[] = [];
    for (const key of keys) {
      const found = (await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
      if (found) items.push(found);
    }
    return { calls: recorded, items, id: (body as { id: string }).id };
  } finally {
    await api.close();
  }
}

const COMMANDS: Record<string, new (input: never) => unknown> = {
  BatchGetItemCommand: BatchGetCommand,
  UpdateItemCommand: UpdateCommand,
  PutItemCommand: PutCommand,
};

/** The value with every occurrence of each key of `to` in its strings replaced by its value (a
 *  new calculation id, a writer's own company). */
function renamed<T>(value: T, to: Record<string, string>): T {
  if (typeof value === "string") return Object.entries(to).reduce((text, [a, b]) => text.split(a).join(b), value as string) as T;
  if (Array.isArray(value)) return value.map((v) => renamed(v, to)) as T;
  if (value && typeof value === "object" && value.constructor === Object) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [renamed(k, to), renamed(v, to)])) as T;
  }
  return value;
}

/** Writer `w`'s company id: the recorded one with its last digits its own. */
const companyOf = (company: string, w: number) => `${company.slice(0, -4)}${String(w).padStart(4, "0")}`;

export interface Floor {
  /** The recorded calls by round, e.g. "BatchGet → Update Update Update → Put". */
  shape: string;
  p50: number;
  p99: number;
  /** CPU of this process per create (this thread's client and the engine's thread), ms. */
  cpuMs: number;
  count: number;
}

const percentile = (values: readonly number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
};

/** Sends the recorded create's calls `perWriter` times from each of `writers` loops. */
export async function createFloor(
  writers: number,
  perWriter: number,
  warmUp = 20,
  only?: (command: string, input: Record<string, unknown>) => boolean,
): Promise<Floor> {
  const { calls, items, id } = await recordCreate();
  const dir = mkdtempSync(join(tmpdir(), "fugitive-create-floor-"));
  const engine = await startDynalite({ path: join(dir, "sqlite"), thread: true });
  const table = String(
    (calls[0].input as { TableName?: string }).TableName ?? Object.keys((calls[0].input as { RequestItems: object }).RequestItems)[0],
  );
  const doc = createDocumentClient({ tableName: table, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
  try {
    await ensureTable(doc, table);
    // Each writer a company of its own, as the bench's users are: no two writers update one item.
    const company = String(items.find((item) => String(item.PK).startsWith("COMPANY#"))?.PK).slice("COMPANY#".length);
    for (let w = 0; w < writers; w++) {
      for (const item of items)
        await doc.send(new PutCommand({ TableName: table, Item: renamed(item, { [company]: companyOf(company, w) }) }));
    }
    captureTableChanges(doc, () => undefined, { imagesWithUpdates: true });
    const rounds = [...new Set(calls.map((call) => call.round))]
      .map((round) => calls.filter((call) => call.round === round && (!only || only(call.command, call.input))))
      .filter((round) => round.length > 0);
    // Every create's inputs made before the clock starts (a new calculation id in each Put).
    const prepared = Array.from({ length: writers * (warmUp + perWriter) }, (_, n) => {
      const to = { [id]: `${id.slice(0, -8)}${String(n).padStart(8, "0")}`, [company]: companyOf(company, n % writers) };
      return rounds.map((round) =>
        round.map((call) => {
          const Command = COMMANDS[call.command];
          if (!Command) throw new Error(`the floor cannot send ${call.command}`);
          const { ReturnConsumedCapacity: _, ...input } = renamed(call.input, to);
          return new Command(input as never) as never;
        }),
      );
    });
    // Writer w sends the creates prepared for its company (n % writers = w), in turn.
    const taken = Array.from({ length: writers }, (_, w) => w);
    const once = async (w: number) => {
      const creates = prepared[taken[w]];
      taken[w] += writers;
      for (const round of creates) await Promise.all(round.map((command) => doc.send(command)));
    };
    const loop = async (w: number, n: number, latencies?: number[]) => {
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        await once(w);
        latencies?.push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => loop(w, warmUp)));
    const latencies: number[] = [];
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: writers }, (_, w) => loop(w, perWriter, latencies)));
    const used = process.cpuUsage(before);
    const shape = rounds
      .map((round) => round.map((call) => call.command.replace(/Command$/, "").replace(/Items?$/, "")).join(" "))
      .join(" → ");
    return {
      shape,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      cpuMs: (used.user + used.system) / 1000 / latencies.length,
      count: latencies.length,
    };
  } finally {
    doc.destroy();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
