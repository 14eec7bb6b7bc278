import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import type { Project } from "@server/contract/schemas/project";

let h: Harness;
let a: Awaited<ReturnType<Harness["signedInUser"]>>;
let b: Awaited<ReturnType<Harness["signedInUser"]>>;
let project: Project;

beforeAll(async () => {
  h = await createHarness();
  a = await h.signedInUser("Компания А");
  b = await h.signedInUser("Компания Б");
  const res = await h.request("/api/v1/projects/create_project/", {
    method: "POST",
    token: a.token,
    json: { name: "Секретный проект А", start_date: "2024-01-01", end_date: "2024-12-31" },
  });
  project = (await res.json()) as Project;
});
afterAll(() => h.close());

describe("a user of another company", () => {
  it("gets 404 for company A's project, like for a missing one", async () => {
    const foreign = await h.request(`/api/v1/projects/${project.id}/`, { token: b.token });
    const missing = await h.request(`/api/v1/projects/00000000-0000-0000-0000-000000000000/`, { token: b.token });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
  });

  it("cannot update, archive or restore company A's project, and nothing changes", async () => {
    for (const json of [{ name: "Взлом" }, { is_deleted: true, is_active: false }, { is_deleted: false }]) {
      const res = await h.request(`/api/v1/projects/${project.id}/`, { method: "PATCH", token: b.token, json });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("Секретный");
    }
    const still = await h.request(`/api/v1/projects/${project.id}/`, { token: a.token });
    expect(await still.json()).toEqual(project);
  });

  it("does not see company A's projects in any list, even naming A's company in the query", async () => {
    for (const deleted of ["false", "true"]) {
      const res = await h.request(`/api/v1/projects/?company=${a.companyId}&is_active=true&is_deleted=${deleted}`, {
        token: b.token,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ results: [], count: 0 });
    }
  });

  it("sees its own company in get_me, never A's", async () => {
    const me = (await (await h.request("/api/v1/users/get_me/", { token: b.token })).json()) as {
      company: { id: string; name: string };
    };
    expect(me.company).toMatchObject({ id: b.companyId, name: "Компания Б" });
  });

  it("is 401 on every protected route without a token", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/users/get_me/"],
      ["GET", "/api/v1/users/statistics/"],
      ["GET", "/api/v1/projects/"],
      ["GET", `/api/v1/projects/${project.id}/`],
      ["PATCH", `/api/v1/projects/${project.id}/`],
      ["POST", "/api/v1/projects/create_project/"],
    ] as const) {
      const res = await h.request(path, { method, json: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
