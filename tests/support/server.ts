// The whole product as `npm start` runs it, for browser tests: a fresh data folder, a random
// port, the built web app, the demo company and user.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/users";
import type { Clock } from "@server/ports";

/** The demo user a local server creates in a fresh data folder when given these credentials. */
export const DEMO = { email: "demo@example.com", password: "demo-password" };

export interface Credentials {
  email: string;
  password: string;
}

/** An access token for the API as a script gets one, outside the browser (status 200 expected). */
export async function accessToken(origin: string, user: Credentials): Promise<string> {
  const res = await fetch(`${origin}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password, guardant_code: "" }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

/** Signs the demo user in on a running server (status 200 expected). */
export async function signInAsDemo(url: string): Promise<{ access: string; refresh: string }> {
  const res = await fetch(`${url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...DEMO, guardant_code: "" }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access: string; refresh: string };
}

export interface TestServer {
  url: string;
  demo: { email: string; password: string };
  /** A platform operator (role admin) in its own company, when asked for. */
  admin?: { email: string; password: string };
  dataDir: string;
  /** The server's ports, for a test that seeds more than the API would in its time. */
  deps: LocalServer["deps"];
  /** Resolves when the table stream has applied every write so far (the kept sums and counts). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** `demoYear`: the demo company's last year filled in, as `npm start` does. */
export async function startTestServer(options: { admin?: boolean; clock?: Clock; demoYear?: boolean } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "fugitive-e2e-"));
  const server = await startLocalServer({ dataDir, port: 0, demo: DEMO, clock: options.clock, demoYear: options.demoYear });
  let admin: TestServer["admin"];
  if (options.admin) {
    admin = { email: "operator@example.com", password: "operator-password" };
    const company = await createCompany(server.deps, { name: "Оператор платформы" });
    await createUser(server.deps, { companyId: company.id, ...admin, first_name: "Анна", last_name: "Операторова", role: "admin" });
  }
  return {
    url: server.url,
    demo: DEMO,
    admin,
    dataDir,
    deps: server.deps,
    settled: server.settled,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
