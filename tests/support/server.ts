// The whole product as `npm start` runs it, for browser tests: a data folder, a random port, the
// built web app. A test worker keeps one such server for its files (the browser tier shares its
// workers' modules, see vitest.config.ts) and gives each file a company of its own on it, with the
// demo company's requisites and a user of its own, so files see nothing of each other. A file that
// needs the server to itself asks for `own` (a clock, the environment it starts with,
// the platform's dictionaries, calendar or default models edited, every company listed) and gets a
// fresh one with the demo company and user, as `npm start` makes it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import type { Clock } from "@server/ports";
import { DEMO_COMPANY } from "@server/seed";
import { seedDemoYear } from "@server/demo-year";
import { onWorkerEnd } from "./worker-end";

/** The demo user a local server creates in a fresh data folder when given these credentials. */
export const DEMO = { email: "demo@example.com", password: "demo-password" };

export interface Credentials {
  email: string;
  password: string;
}

/** An access token for the API as a script gets one, outside the browser (status 200 expected). */
export async function accessToken(origin: string, user: Credentials): Promise<string> {
  return (await tokenPair(origin, user)).access;
}

/** The access and refresh tokens the sign-in form would get for `user` (status 200 expected). */
export async function tokenPair(origin: string, user: Credentials): Promise<{ access: string; refresh: string }> {
  const res = await fetch(`${origin}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password, guardant_code: "" }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access: string; refresh: string };
}

/** Signs the demo user in on a running server (status 200 expected). */
export function signInAsDemo(url: string): Promise<{ access: string; refresh: string }> {
  return tokenPair(url, DEMO);
}

export interface TestServer {
  url: string;
  /** The file's staff user, in its company (on a server of its own: the demo company and user). */
  demo: { email: string; password: string };
  /** A platform operator (role admin) in a company of its own, when asked for. */
  admin?: { email: string; password: string };
  dataDir: string;
  /** A staff user in a new company of its own on this server, with the demo company's requisites:
   *  for a test that needs its lists to itself (an empty list, a count of rows) whatever the file's
   *  other tests, or its own earlier try, left in the file's company. */
  newUser(): Promise<Credentials>;
  /** The server's ports, for a test that seeds more than the API would in its time. */
  deps: LocalServer["deps"];
  /** Changes the config its routes read, in its app threads too. */
  configure: LocalServer["configure"];
  /** Resolves when the table stream has applied every write so far (the kept sums and counts). */
  settled(): Promise<void>;
  /** Closes a server of the file's own; the worker's server stays for its next file. */
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** A platform operator of the file's own as `admin`. */
  admin?: boolean;
  /** The server's clock (a server of the file's own). */
  clock?: Clock;
  /** The file's company's last year filled in as `npm start` fills the demo company's. */
  demoYear?: boolean;
  /** A fresh server for this file alone, with the demo company and user. */
  own?: boolean;
}

interface Running {
  server: LocalServer;
  dataDir: string;
}

let workerServer: Promise<Running> | undefined;
/** How many files the worker's server has served, for names and addresses unique on it. */
let files = 0;

async function startServer(options: { demo?: boolean; clock?: Clock; demoYear?: boolean }): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), "fugitive-e2e-"));
  const server = await startLocalServer({
    dataDir,
    port: 0,
    demo: options.demo ? DEMO : undefined,
    clock: options.clock,
    demoYear: options.demoYear,
    // The browser files' webhook receivers listen on loopback, as an operator names the mine's own.
    webhookAllowedReceivers: ["127.0.0.1"],
    // The routes in app threads as `npm start` runs them where the tier asks (APP_THREADS).
    appThreads: Number(process.env.APP_THREADS ?? 0),
  });
  return { server, dataDir };
}

async function stopServer({ server, dataDir }: Running): Promise<void> {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The worker's server, started by its first file and closed when the worker ends. */
function sharedServer(): Promise<Running> {
  if (!workerServer) {
    const starting = startServer({});
    workerServer = starting;
    starting.catch(() => {
      if (workerServer === starting) workerServer = undefined;
    });
    onWorkerEnd(async () => {
      const running = await starting.catch(() => undefined);
      if (running) await stopServer(running);
    });
  }
  return workerServer;
}

/** A company of the demo's requisites with an ОГРН of its own (requisites are unique across the
 *  platform's companies): the demo's first nine digits, `n` in the next three, the check digit. */
function demoCompanyNumbered(name: string, n: number) {
  const first12 = `${DEMO_COMPANY.ogrn.slice(0, 9)}${String(n % 1000).padStart(3, "0")}`;
  return { ...DEMO_COMPANY, name, ogrn: `${first12}${(BigInt(first12) % 11n) % 10n}` };
}

/** How many users newUser has made in the worker, for names and addresses unique on its servers. */
let extraUsers = 0;

/** A staff user in a new company of its own, named and addressed uniquely in the worker. */
async function addUser(deps: LocalServer["deps"]): Promise<Credentials> {
  const n = ++extraUsers;
  const user = { email: `staff.${n}@example.com`, password: DEMO.password };
  const company = await createCompany(deps, demoCompanyNumbered(`${DEMO_COMPANY.name} (отдельная) ${n}`, 500 + n));
  // The demo login's password, which no one may choose (the security review's R14): these users stand in for it.
  await createUser(deps, { companyId: company.id, ...user, first_name: "Иван", last_name: "Петров" }, "allowed");
  return user;
}

/** A platform operator (role admin) in a company of its own. */
async function addOperator(deps: LocalServer["deps"], email: string, companyName: string): Promise<Credentials> {
  const admin = { email, password: "operator-password" };
  const company = await createCompany(deps, { name: companyName });
  await createUser(deps, { companyId: company.id, ...admin, first_name: "Анна", last_name: "Операторова", role: "admin" });
  return admin;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const own = options.own || options.clock !== undefined;
  if (own) {
    const running = await startServer({ demo: true, clock: options.clock, demoYear: options.demoYear });
    const { server, dataDir } = running;
    const admin = options.admin ? await addOperator(server.deps, "operator@example.com", "Оператор платформы") : undefined;
    return {
      url: server.url,
      demo: DEMO,
      admin,
      dataDir,
      newUser: () => addUser(server.deps),
      deps: server.deps,
      configure: server.configure,
      settled: server.settled,
      close: () => stopServer(running),
    };
  }
  const { server, dataDir } = await sharedServer();
  const file = ++files;
  const company = await createCompany(server.deps, demoCompanyNumbered(`${DEMO_COMPANY.name} ${file}`, 100 + file));
  const demo = { email: `demo.${file}@example.com`, password: DEMO.password };
  // Each file's demo login, with the demo's password as the first start's (the security review's R14).
  const user = await createUser(server.deps, { companyId: company.id, ...demo, first_name: "Иван", last_name: "Петров" }, "allowed");
  if (options.demoYear) await seedDemoYear(server.deps, user);
  const admin = options.admin ? await addOperator(server.deps, `operator.${file}@example.com`, `Оператор платформы ${file}`) : undefined;
  return {
    url: server.url,
    demo,
    admin,
    dataDir,
    newUser: () => addUser(server.deps),
    deps: server.deps,
    configure: server.configure,
    settled: server.settled,
    close: async () => {},
  };
}
