// An API under test: the real Hono app on an in-memory dynalite table, called through
// app.request() (no port). One harness per test file.
//
// The files of a worker share one table, seeded once (dictionaries, production calendar, default
// forecast models) with its blob folder: `createHarness()` gives each file its own app, config and
// signing secret over it, and its users companies of their own, so a file sees nothing of another's
// but what is platform-wide. A file that counts or changes what is platform-wide (dictionaries, the
// calendar, the models, the documents, the admin lists), runs on a clock of its own or with other
// settings, or checks the seeding itself, opens a table of its own: `createFreshHarness()` (or
// `createHarness` with overrides or a clock).
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApi } from "@server/app";
import type { AppConfig } from "@server/config";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import type { Deps } from "@server/domain/context";
import { createCompany, createUser } from "@server/domain/company/users";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { openMemoryStorage, type OpenStorage, type StorageOptions } from "@server/local/storage";
import { seedPlatform, testDeps } from "./deps";
import type { WebhookSender } from "@server/domain/monitoring/derive/webhooks";
import type { Clock, CompanyRepository, Repositories } from "@server/ports";
import type { Project } from "@server/contract/schemas/project";

export interface Harness {
  deps: Deps;
  /** The webhook sender its deps tell of deliveries (tests/support/deps.ts). */
  webhooks: WebhookSender;
  request(path: string, init?: RequestInit & { token?: string; json?: unknown; address?: string }): Promise<Response>;
  /** Creates a project through the API for the user of `token`. */
  newProject(token: string, name?: string): Promise<Project>;
  /** Waits until the in-process event handlers (table stream: audit and statistics; upload
   *  checks) have handled every write so far, as their Lambda twins would have by then. */
  settled(): Promise<void>;
  /** Creates a company with one user and signs in; returns the access token. */
  signedInUser(companyName?: string): Promise<{ token: string; refresh: string; email: string; companyId: string; userId: string }>;
  /** Waits for the file's writes to be handled; closes the table when it is the file's own (the
   *  worker's shared table lives as long as the worker). */
  close(): Promise<void>;
  /** The dynalite endpoint of the harness's table (a client of its own writes without stream records). */
  endpoint?: string;
  /** A transport to the table's engine without HTTP, for such a client (its `requestHandler`). */
  requestHandler?: OpenStorage["requestHandler"];
  /** The document client of the API's repositories (a bench counts its calls). */
  doc?: OpenStorage["doc"];
}

/** A table and the blob folder its items name. */
interface Table {
  storage: OpenStorage;
  files: ReturnType<typeof fsBlobStore>;
}

let workerTable: Promise<Table> | undefined;
// Counted per worker, not per file: every harness of a worker calls from addresses of its own, so
// one file's sign-ins never use up another's budget in the shared table.
let harnesses = 0;
let users = 0;

/** An API on the worker's seeded table; with overrides, a clock or storage options, on a table of its
 *  own. `storage.threads`: dynalite and the table-stream handler in worker threads, as the local
 *  server runs them; in the test's own process without. */
export async function createHarness(
  overrides: Partial<AppConfig> = {},
  clock?: Clock,
  storageOptions: StorageOptions = {},
): Promise<Harness> {
  if (clock || Object.keys(overrides).length > 0 || Object.keys(storageOptions).length > 0) {
    return createFreshHarness(overrides, clock, storageOptions);
  }
  workerTable ??= openSeededTable().catch((error: unknown) => {
    workerTable = undefined;
    throw error;
  });
  return harnessOn(await workerTable, {}, undefined, false);
}

async function openSeededTable(): Promise<Table> {
  const table = await openTable();
  const { deps, uploads } = depsOn(table, {}, undefined);
  await seed(deps);
  await uploads.settled();
  return table;
}

/** An API on a new table of its own, seeded with the harness's clock. */
export async function createFreshHarness(
  overrides: Partial<AppConfig> = {},
  clock?: Clock,
  storageOptions: StorageOptions = {},
): Promise<Harness> {
  const h = harnessOn(await openTable(storageOptions), overrides, clock, true);
  await seed(h.deps);
  return h;
}

async function openTable(storageOptions: StorageOptions = {}): Promise<Table> {
  return { storage: await openMemoryStorage(storageOptions), files: fsBlobStore(mkdtempSync(join(tmpdir(), "blobs-"))) };
}

const seed = seedPlatform;

function depsOn(table: Table, overrides: Partial<AppConfig>, clock: Clock | undefined, repos = table.storage.repos) {
  return testDeps(repos, table.files, overrides, clock);
}

/** The repositories of a file on the shared table: the company list holds the companies made
 *  through this harness alone, as a table of its own would, and so does the unique-name check
 *  (`findByName` reads `this.list()`), so two files may each have their «ООО Чужая». Every item is
 *  still read and written on the real table. */
function withOwnCompanies(repos: Repositories): Repositories {
  const own = new Set<string>();
  const companies: CompanyRepository = {
    ...repos.companies,
    async create(company) {
      await repos.companies.create(company);
      own.add(company.id);
    },
    async list() {
      return (await repos.companies.list()).filter((company) => own.has(company.id));
    },
  };
  return { ...repos, companies };
}

function harnessOn(table: Table, overrides: Partial<AppConfig>, clock: Clock | undefined, ownTable: boolean): Harness {
  const { storage } = table;
  const { deps, uploads, webhooks } = depsOn(table, overrides, clock, ownTable ? storage.repos : withOwnCompanies(storage.repos));
  harnesses += 1;
  const defaultAddress = `203.0.113.${harnesses % 256}`;
  const app = createApi(deps, { clientAddressOf: (c) => c.req.header("x-test-address") ?? defaultAddress });

  const request: Harness["request"] = (path, init = {}) => {
    const { token, json, address, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token) headers.set("Authorization", `Bearer ${token}`);
    if (address) headers.set("x-test-address", address);
    if (json !== undefined) headers.set("Content-Type", "application/json");
    return Promise.resolve(app.request(path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body }));
  };

  return {
    deps,
    webhooks,
    request,
    endpoint: storage.endpoint,
    requestHandler: storage.requestHandler,
    doc: storage.doc,
    async newProject(token, name = "Шахта") {
      const res = await request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name, start_date: "2014-01-01", end_date: "2024-12-31" },
      });
      if (res.status !== 201) throw new Error(`project not created: ${res.status} ${await res.text()}`);
      return (await res.json()) as Project;
    },
    async signedInUser(companyName) {
      users += 1;
      const company = await createCompany(deps, { name: companyName ?? `Компания ${randomBytes(4).toString("hex")}` });
      const email = `user${users}-${randomBytes(3).toString("hex")}@example.com`;
      const user = await createUser(deps, { companyId: company.id, email, password: "correct-horse" });
      // Each user signs in from an address of its own: a test's failed sign-ins never throttle another's.
      const address = `198.18.${(users >> 8) & 255}.${users & 255}`;
      const res = await request("/api/token/", { method: "POST", json: { email, password: "correct-horse", guardant_code: "" }, address });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { access: string; refresh: string };
      return { token: body.access, refresh: body.refresh, email, companyId: company.id, userId: user.id };
    },
    async settled() {
      // Batches of readings pushed are applied after the answer (domain/monitoring/minutes/consumer.ts).
      await monitoringIdle(deps);
      await Promise.all([storage.settled(), uploads.settled()]);
    },
    async close() {
      await webhooks.close();
      await uploads.settled();
      if (ownTable) await storage.close();
      else await storage.settled();
    },
  };
}
