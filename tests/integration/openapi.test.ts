// The route table (functions/src/http/openapi.ts) against the routes Hono really registered: a new
// route without an entry, or an entry for a route that is gone, fails here. Then the OpenAPI
// document served at /api/openapi.json: public, complete, and internally consistent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "@server/app";
import { OPERATIONS, documentPath, errorStatuses } from "@server/http/openapi";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let doc: {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters: Array<{ name: string; in: string }>;
        responses: Record<string, unknown>;
        security: unknown[];
        requestBody?: unknown;
      }
    >
  >;
  components: Record<string, Record<string, unknown>>;
};

beforeAll(async () => {
  h = await createHarness();
  const res = await h.request("/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  doc = (await res.json()) as typeof doc;
});
afterAll(() => h.close());

/** Method and path of every handler Hono registered; `use` middleware is registered as ALL. */
function registeredRoutes(): Set<string> {
  const app = createApi(h.deps, { clientAddressOf: () => "203.0.113.1" });
  return new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
}

describe("the route table", () => {
  it("declares every registered route, and nothing that is not registered", () => {
    const registered = registeredRoutes();
    const declared = new Set(OPERATIONS.map((op) => `${op.method} ${op.path}`));
    const undeclared = [...registered].filter((r) => !declared.has(r));
    const unregistered = [...declared].filter((r) => !registered.has(r));
    expect(undeclared, "registered routes missing from functions/src/http/openapi.ts").toEqual([]);
    expect(unregistered, "documented routes that the app does not register").toEqual([]);
    expect(declared.size, "one entry per route").toBe(OPERATIONS.length);
  });

  it("gives every operation a unique operationId, a summary and a tag", () => {
    expect(new Set(OPERATIONS.map((op) => op.operationId)).size).toBe(OPERATIONS.length);
    for (const op of OPERATIONS) {
      expect(op.summary.length, op.operationId).toBeGreaterThan(3);
      expect(op.tag.length, op.operationId).toBeGreaterThan(0);
    }
  });

  it("names the owned ids of every company-scoped operation among its parameters", () => {
    for (const op of OPERATIONS) {
      if (op.isolation.scope !== "company") continue;
      expect(op.isolation.ids.length, op.operationId).toBeGreaterThan(0);
      for (const id of op.isolation.ids) {
        if (id.in === "path") expect(documentPath(op), op.operationId).toContain(`{${id.name}}`);
      }
    }
  });
});

describe("GET /api/openapi.json", () => {
  it("is OpenAPI 3.1 with every operation of the table under its path and method", () => {
    expect(doc.openapi).toBe("3.1.0");
    let count = 0;
    for (const op of OPERATIONS) {
      const entry = doc.paths[documentPath(op)]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${documentPath(op)}`).toBeDefined();
      expect(entry.operationId).toBe(op.operationId);
      count += 1;
    }
    const documented = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(documented).toBe(count);
  });

  it("declares every path template parameter, the error answers of each operation and the {detail} schema", () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, operation] of Object.entries(methods)) {
        const declared = operation.parameters
          .filter((p) => p.in === "path")
          .map((p) => p.name)
          .sort();
        expect(declared, `${method} ${path}`).toEqual(templated);
      }
    }
    for (const op of OPERATIONS) {
      const responses = doc.paths[documentPath(op)][op.method.toLowerCase()].responses;
      for (const status of errorStatuses(op)) expect(responses[status], `${op.operationId} ${status}`).toBeDefined();
      if (op.auth !== "public") expect(responses[401], op.operationId).toBeDefined();
      if (op.auth === "admin") expect(responses[403], op.operationId).toBeDefined();
      if (op.body) expect(responses[413], op.operationId).toBeDefined();
    }
    expect(doc.components.schemas.Error).toMatchObject({ properties: { detail: { type: "string" } }, required: ["detail"] });
  });

  it("resolves every $ref", () => {
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      const target = ref.split("/").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it("reuses the routes' zod schemas for bodies (the login body requires email and password)", () => {
    const login = doc.paths["/api/token/"].post.requestBody as { content: Record<string, { schema: { required: string[] } }> };
    expect(login.content["application/json"].schema.required).toEqual(["email", "password"]);
    const create = doc.paths["/api/v1/{type}/"].post.requestBody as {
      content: Record<string, { schema: { anyOf: Array<{ title: string }> } }>;
    };
    expect(create.content["application/json"].schema.anyOf.map((s) => s.title)).toContain("underground");
    expect(create.content["multipart/form-data"].schema.anyOf.map((s) => s.title)).toEqual([
      "underground",
      "regres_methane",
      "filling_blanks",
      "sensitivity",
    ]);
  });
});
