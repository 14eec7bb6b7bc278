// An API under test: the real Hono app on a fresh in-memory dynalite table, called through
// app.request() (no port). One harness per test file.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApi } from "@server/app";
import { configFromEnv, type AppConfig } from "@server/config";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import type { Deps } from "@server/domain/context";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { createCompany, createUser } from "@server/domain/users";
import { seedDictionaries } from "@server/domain/dictionaries";
import { seedProductionCalendar } from "@server/domain/production-calendar";
import { seedDefaultModels } from "@server/domain/forecast-models";
import { openMemoryStorage, type OpenStorage, type StorageOptions } from "@server/local/storage";
import { withUploadNotifications } from "@server/local/upload-notifications";
import type { Clock } from "@server/ports";
import type { Project } from "@server/contract/schemas/project";

export interface Harness {
  deps: Deps;
  request(path: string, init?: RequestInit & { token?: string; json?: unknown; address?: string }): Promise<Response>;
  /** Creates a project through the API for the user of `token`. */
  newProject(token: string, name?: string): Promise<Project>;
  /** Waits until the in-process event handlers (table stream: audit and statistics; upload
   *  checks) have handled every write so far, as their Lambda twins would have by then. */
  settled(): Promise<void>;
  /** Creates a company with one user and signs in; returns the access token. */
  signedInUser(companyName?: string): Promise<{ token: string; refresh: string; email: string; companyId: string; userId: string }>;
  close(): Promise<void>;
  /** The dynalite endpoint of the harness's table (a client of its own writes without stream records). */
  endpoint?: string;
  /** The document client of the API's repositories (a bench counts its calls). */
  doc?: OpenStorage["doc"];
}

/** `storage.threads`: dynalite and the table-stream handler in worker threads, as the local server
 *  runs them; in the test's own process without. */
export async function createHarness(
  overrides: Partial<AppConfig> = {},
  clock?: Clock,
  storageOptions: StorageOptions = {},
): Promise<Harness> {
  const storage = await openMemoryStorage(storageOptions);
  const uploads = withUploadNotifications(fsBlobStore(mkdtempSync(join(tmpdir(), "blobs-"))));
  const deps: Deps = {
    repos: storage.repos,
    blobs: uploads.blobs,
    clock: clock ?? { now: () => new Date() },
    config: { ...configFromEnv(randomBytes(32)), ...overrides },
    spreadsheets: inProcessSpreadsheets(() => deps),
  };
  await seedDictionaries(deps);
  await seedProductionCalendar(deps);
  await seedDefaultModels(deps);
  const app = createApi(deps, { clientAddressOf: (c) => c.req.header("x-test-address") ?? "203.0.113.1" });
  let userCounter = 0;

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
    request,
    endpoint: storage.endpoint,
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
      userCounter += 1;
      const company = await createCompany(deps, { name: companyName ?? `Компания ${randomBytes(4).toString("hex")}` });
      const email = `user${userCounter}-${randomBytes(3).toString("hex")}@example.com`;
      const user = await createUser(deps, { companyId: company.id, email, password: "correct-horse" });
      // Each user signs in from an address of its own: a test's failed sign-ins never throttle another's.
      const address = `198.18.${userCounter >> 8}.${userCounter & 255}`;
      const res = await request("/api/token/", { method: "POST", json: { email, password: "correct-horse", guardant_code: "" }, address });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { access: string; refresh: string };
      return { token: body.access, refresh: body.refresh, email, companyId: company.id, userId: user.id };
    },
    async settled() {
      await Promise.all([storage.settled(), uploads.settled()]);
    },
    async close() {
      await uploads.settled();
      await storage.close();
    },
  };
}
