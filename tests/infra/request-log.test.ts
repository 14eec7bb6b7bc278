// The request log on both hosts (docs/operations.md): one JSON line on stdout per request with the
// request id, route pattern, method, status, duration and the company's hash; a 5xx adds the
// error's message and stack. No token, password, body or raw id reaches it, and the request id
// comes back as x-request-id.
import { localRuntime } from "@server/local/subscribers";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { apiHandler } from "@server/lambda/api";
import { configFromEnv } from "@server/config";
import { systemClock, type Deps } from "@server/domain/context";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { createCompany, createUser } from "@server/domain/company/users";
import { createFacility } from "@server/domain/company/facilities";
import { openMemoryStorage, type OpenStorage } from "@server/local/storage";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { companyHash, type RequestLogLine } from "@server/http/request-log";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiGatewayEvent } from "./api-gateway-event";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";

const PASSWORD = "secret-password-Ж7";
/** Every line written to stdout while a test runs (the log lines among them). */
let written: string[] = [];

beforeEach(() => {
  // The test runs log 5xx lines only (vitest.config.ts); here every line is wanted.
  vi.stubEnv("REQUEST_LOG", "all");
  written = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The log lines written: each one whole line of JSON. */
function logLines(): RequestLogLine[] {
  return written
    .join("")
    .split("\n")
    .filter((line) => line.includes('"request_id"'))
    .map((line) => JSON.parse(line) as RequestLogLine);
}

function expectShape(line: RequestLogLine) {
  expect(Object.keys(line).sort()).toEqual(
    [
      "time",
      "level",
      "host",
      "request_id",
      "method",
      "route",
      "status",
      "duration_ms",
      ...("company" in line ? ["company"] : []),
      ...("error" in line ? ["error"] : []),
    ].sort(),
  );
  expect(new Date(line.time).toISOString()).toBe(line.time);
  expect(line.duration_ms).toBeGreaterThanOrEqual(0);
}

async function deployment() {
  const storage = await openMemoryStorage();
  const deps: Deps = {
    repos: storage.repos,
    blobs: fsBlobStore(mkdtempSync(join(tmpdir(), "blobs-"))),
    clock: systemClock,
    config: configFromEnv(randomBytes(32)),
    spreadsheets: inProcessSpreadsheets(() => deps),
    signer: ephemeralSigner(),
    runtime: localRuntime(() => deps),
  };
  return { storage, deps };
}

describe("on the Lambda host", () => {
  let storage: OpenStorage;
  let deps: Deps;
  let handler: ReturnType<typeof apiHandler>;
  let companyId: string;
  let facilityId: string;
  let access: string;

  beforeAll(async () => {
    ({ storage, deps } = await deployment());
    const company = await createCompany(deps, { name: "Угольная компания" });
    companyId = company.id;
    const user = await createUser(deps, { companyId, email: "log@example.com", password: PASSWORD });
    facilityId = (
      await createFacility(
        deps,
        { id: user.id, company: companyId, email: user.email, role: user.role },
        { name: "Шахта Южная", kind: "underground_mine" },
      )
    ).id;
    handler = apiHandler(deps);
  });
  afterAll(() => storage?.close());

  it("logs a sign-in without its password or the tokens it answers, under API Gateway's request id", async () => {
    const res = await handler(
      apiGatewayEvent({ path: "/api/token/", json: { email: "log@example.com", password: PASSWORD, guardant_code: "" } }),
    );
    expect(res.statusCode).toBe(200);
    access = (JSON.parse(res.body) as { access: string }).access;
    const [line, ...more] = logLines();
    expect(more).toEqual([]);
    expectShape(line);
    expect(line).toMatchObject({ level: "info", host: "lambda", request_id: "Ab1CdEfGhIjKlMn=", method: "POST", status: 200 });
    expect(line.route).toMatch(/^\/api\/token\/?$/);
    expect(res.headers?.["x-request-id"]).toBe("Ab1CdEfGhIjKlMn=");
    const text = written.join("");
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain("log@example.com");
    expect(text).not.toContain(access.split(".")[1]);
  });

  it("logs the route pattern and the company's hash, never the raw path, the caller's id or the Authorization header", async () => {
    const res = await handler(
      apiGatewayEvent({
        path: `/api/v1/facilities/${facilityId}/`,
        headers: { authorization: `Bearer ${access}`, "x-request-id": "trace-42" },
      }),
    );
    expect(res.statusCode).toBe(200);
    const [line] = logLines();
    expectShape(line);
    expect(line).toMatchObject({ request_id: "trace-42", method: "GET", status: 200, company: companyHash(companyId) });
    expect(line.route).toMatch(/^\/api\/v1\/facilities\/:id\/?$/);
    expect(res.headers?.["x-request-id"]).toBe("trace-42");
    const text = written.join("");
    for (const secret of [access, access.split(".")[2], "Bearer", facilityId, companyId, "Шахта"]) expect(text).not.toContain(secret);
  });

  it("logs the company's hash of a calculation's create, which reads the user beside the project", async () => {
    const res = await handler(
      apiGatewayEvent({
        path: "/api/v1/underground_emission_ch4/",
        headers: { authorization: `Bearer ${access}`, "content-type": "application/json" },
        json: { name: "Расчет", project: "no-such-project", volume: 1000, ef: 18 },
      }),
    );
    expect(res.statusCode).toBe(404);
    const [line] = logLines();
    expectShape(line);
    expect(line).toMatchObject({ method: "POST", status: 404, company: companyHash(companyId) });
  });

  it("logs a 5xx with the error's message and stack in the same line, the answer keeping them out", async () => {
    const get = deps.repos.facilities.get;
    deps.repos.facilities.get = async () => {
      throw new Error("table unreachable");
    };
    try {
      const res = await handler(
        apiGatewayEvent({ path: `/api/v1/facilities/${facilityId}/`, headers: { authorization: `Bearer ${access}` } }),
      );
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(res.body)).toEqual({ detail: "Внутренняя ошибка сервера" });
      const lines = logLines();
      expect(lines).toHaveLength(1);
      expectShape(lines[0]);
      expect(lines[0]).toMatchObject({ level: "error", status: 500, error: { message: "table unreachable" } });
      expect(lines[0].error?.stack).toMatch(/^Error: table unreachable\n\s+at /);
      expect(written.join("")).not.toContain(access);
    } finally {
      deps.repos.facilities.get = get;
    }
  });
});

describe("on the local host", () => {
  let server: LocalServer;
  const DEMO = { email: "demo-log@example.com", password: PASSWORD };

  beforeAll(async () => {
    server = await startLocalServer({ port: 0, demo: DEMO });
  });
  afterAll(() => server?.close());

  it("logs each request in one line and answers the request id it used", async () => {
    const body = JSON.stringify({ ...DEMO, guardant_code: "" });
    const login = await fetch(`${server.url}/api/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-request-id": "local-1" },
      body,
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("x-request-id")).toBe("local-1");
    const { access } = (await login.json()) as { access: string };
    const me = await fetch(`${server.url}/api/v1/users/get_me/?token=${access}`, {
      headers: { Authorization: `Bearer ${access}`, "x-request-id": "not an id; forged" },
    });
    expect(me.status).toBe(200);
    const missing = await fetch(`${server.url}/api/v1/nothing-here/${"a".repeat(20)}`, { headers: { Authorization: `Bearer ${access}` } });
    expect(missing.status).toBe(404);
    const lines = logLines();
    expect(lines.map((l) => [l.host, l.method, l.status])).toEqual([
      ["local", "POST", 200],
      ["local", "GET", 200],
      ["local", "GET", 404],
    ]);
    for (const line of lines) expectShape(line);
    expect(lines[0].request_id).toBe("local-1");
    // An id that is not plainly an id is replaced by one of the server's own.
    expect(lines[1].request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(me.headers.get("x-request-id")).toBe(lines[1].request_id);
    expect(lines[0].route).toMatch(/^\/api\/token\/?$/);
    expect(lines[1].route).toMatch(/^\/api\/v1\/users\/get_me\/?$/);
    expect(lines[1].company).toBe(companyHash((await server.deps.repos.users.findByEmail(DEMO.email))!.company));
    expect(lines[2].route).not.toContain("a".repeat(20));
    const text = written.join("");
    for (const secret of [PASSWORD, DEMO.email, access, "Bearer", "nothing-here", "forged"]) expect(text).not.toContain(secret);
  });
});
