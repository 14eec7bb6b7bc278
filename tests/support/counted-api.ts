// The real Hono app on a fresh in-memory dynalite table, with every DynamoDB call of its requests
// counted (adapters/dynamodb/call-count.ts): the round trips of each API operation, for
// tests/integration/round-trips.test.ts and `npm run bench -- api`. Its client captures the
// table's changes as the local host's does (local/table-stream.ts: an update's images come back
// with it, so what is counted is what the local server sends, and DynamoDB gets in AWS); the
// records go nowhere: this API has no stream handler, so the kept sums are never usable here.
// `otherProcess()` opens a second set of repositories on the same table, as another Lambda
// instance or server would.
import { localRuntime } from "@server/local/subscribers";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApi } from "@server/app";
import { configFromEnv } from "@server/config";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { countCalls, type CallCounter, type SentCall } from "@server/adapters/dynamodb/call-count";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { dynamoRepositories } from "@server/adapters/dynamodb/repositories";
import type { Deps } from "@server/domain/context";
import { systemClock } from "@server/domain/context";
import { seedDictionaries } from "@server/domain/reference/dictionaries";
import { seedProductionCalendar } from "@server/domain/reference/production-calendar";
import { seedDefaultModels } from "@server/domain/forecast/models";
import { createCompany, createUser } from "@server/domain/company/users";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { startDynalite, type RunningDynalite } from "@server/local/dynalite";
import { captureTableChanges } from "@server/local/table-stream";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";

const TABLE = "round-trips";

export interface CountedApi {
  deps: Deps;
  /** The client the app's repositories send through (the create bench records a create's calls on it). */
  doc: DynamoDBDocumentClient;
  token: string;
  request(path: string, init?: { method?: string; json?: unknown }): Promise<Response>;
  /** The DynamoDB calls one request made, with the capacity they consumed; fails on a non-2xx. */
  callsOf(path: string, init?: { method?: string; json?: unknown }): Promise<{ calls: SentCall[]; body: unknown }>;
  /** The repositories of another process on the same table (their own client and caches). */
  otherProcess(): Deps;
  close(): Promise<void>;
}

function depsOn(engine: RunningDynalite): { deps: Deps; doc: DynamoDBDocumentClient; counter: CallCounter; destroy: () => void } {
  const doc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
  const counter = countCalls(doc);
  captureTableChanges(doc, () => undefined, { imagesWithUpdates: true });
  const deps: Deps = {
    repos: dynamoRepositories(doc, TABLE),
    blobs: fsBlobStore(mkdtempSync(join(tmpdir(), "round-trips-"))),
    clock: systemClock,
    config: configFromEnv(randomBytes(32)),
    spreadsheets: inProcessSpreadsheets(() => deps),
    signer: ephemeralSigner(),
    runtime: localRuntime(() => deps),
  };
  return { deps, doc, counter, destroy: () => doc.destroy() };
}

export async function countedApi(): Promise<CountedApi> {
  const engine = await startDynalite();
  const main = depsOn(engine);
  const others: Array<() => void> = [];
  const { deps, counter } = main;
  // ensureTable goes through a client of its own; its calls belong to no operation.
  const setup = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint });
  await ensureTable(setup, TABLE);
  setup.destroy();
  await seedDictionaries(deps);
  await seedProductionCalendar(deps);
  await seedDefaultModels(deps);
  const app = createApi(deps, { clientAddressOf: () => "203.0.113.1" });
  const company = await createCompany(deps, { name: "Компания" });
  const email = "counted@example.com";
  await createUser(deps, { companyId: company.id, email, password: "correct-horse" });

  const request: CountedApi["request"] = (path, init = {}) =>
    Promise.resolve(
      app.request(path, {
        method: init.method ?? "GET",
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      }),
    );
  let token = "";
  const login = await request("/api/token/", { method: "POST", json: { email, password: "correct-horse", guardant_code: "" } });
  token = ((await login.json()) as { access: string }).access;

  return {
    deps,
    doc: main.doc,
    token,
    request,
    async callsOf(path, init) {
      counter.reset();
      const res = await request(path, init);
      const calls = [...counter.calls];
      if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
      return { calls, body: await res.json() };
    },
    otherProcess() {
      const other = depsOn(engine);
      others.push(other.destroy);
      return other.deps;
    },
    async close() {
      main.destroy();
      for (const destroy of others) destroy();
      await engine.close();
    },
  };
}
