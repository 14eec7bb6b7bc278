import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import type { Project } from "@server/contract/schemas/project";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const valid = { name: "Шахта «Северная»", start_date: "2024-01-01", end_date: "2024-12-31", status: 1 };

async function create(token: string, body: unknown = valid) {
  return h.request("/api/v1/projects/create_project/", { method: "POST", token, json: body });
}

async function list(token: string, query = "is_active=true&is_deleted=false&limit=10&offset=0") {
  const res = await h.request(`/api/v1/projects/?${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as { results: Project[]; count: number };
}

describe("projects", () => {
  it("creates a project of the user's company, whatever company the body names", async () => {
    const { token, companyId, userId } = await h.signedInUser();
    const res = await create(token, { ...valid, company: "someone-else", user: "someone" });
    expect(res.status).toBe(201);
    const project = (await res.json()) as Project;
    expect(project).toMatchObject({
      name: valid.name,
      start_date: "2024-01-01",
      end_date: "2024-12-31",
      status: 1,
      company: companyId,
      user: userId,
      is_active: true,
      is_deleted: false,
      version: 1,
    });
    expect(project.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("gets one project with and without the trailing slash", async () => {
    const { token } = await h.signedInUser();
    const created = (await (await create(token)).json()) as Project;
    for (const path of [`/api/v1/projects/${created.id}/`, `/api/v1/projects/${created.id}`]) {
      const res = await h.request(path, { token });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(created);
    }
  });

  it.each([
    [{ ...valid, name: "   " }, "name"],
    [{ ...valid, name: "x".repeat(256) }, "name"],
    [{ ...valid, start_date: undefined }, "start_date"],
    [{ ...valid, end_date: "31.12.2024" }, "end_date"],
    [{ ...valid, start_date: "2024-02-30" }, "start_date"],
    [{ ...valid, start_date: "2025-01-01", end_date: "2024-12-31" }, "end_date"],
    [{ ...valid, name: 42 }, "name"],
    [[1, 2, 3], ""],
  ])("rejects %j with 400 naming %s and stores nothing", async (body, field) => {
    const { token } = await h.signedInUser();
    const res = await create(token, body);
    expect(res.status).toBe(400);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toContain(fieldName(field));
    expect((await list(token)).count).toBe(0);
  });

  it("lists newest first with count, limit and offset", async () => {
    const { token } = await h.signedInUser();
    for (let i = 1; i <= 12; i++) {
      expect((await create(token, { ...valid, name: `Проект ${i}` })).status).toBe(201);
    }
    // The count of a list longer than a page is kept by the table's stream handler, a moment
    // behind the writes (as in AWS).
    await h.settled();
    const first = await list(token, "is_active=true&is_deleted=false&limit=10&offset=0");
    expect(first.count).toBe(12);
    expect(first.results.map((p) => p.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Проект ${12 - i}`));
    const second = await list(token, "is_active=true&is_deleted=false&limit=10&offset=10");
    expect(second.results.map((p) => p.name)).toEqual(["Проект 2", "Проект 1"]);
    const bad = await h.request("/api/v1/projects/?limit=-1", { token });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toContain(fieldName("limit"));
  });

  it("updates with PATCH and bumps the version", async () => {
    const { token } = await h.signedInUser();
    const created = (await (await create(token)).json()) as Project;
    const res = await h.request(`/api/v1/projects/${created.id}/`, {
      method: "PATCH",
      token,
      json: { ...created, name: "Переименован", end_date: "2025-06-30" },
    });
    expect(res.status).toBe(200);
    const updated = (await res.json()) as Project;
    expect(updated).toMatchObject({ name: "Переименован", end_date: "2025-06-30", version: 2, created_at: created.created_at });
  });

  it("refuses a PATCH that would end before the start, and keeps the project as it was", async () => {
    const { token } = await h.signedInUser();
    const created = (await (await create(token)).json()) as Project;
    const res = await h.request(`/api/v1/projects/${created.id}/`, { method: "PATCH", token, json: { end_date: "2023-01-01" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toContain(fieldName("end_date"));
    expect(await (await h.request(`/api/v1/projects/${created.id}/`, { token })).json()).toEqual(created);
  });

  it("answers a stale version with 409 and loses neither write", async () => {
    const { token } = await h.signedInUser();
    const created = (await (await create(token)).json()) as Project;
    const first = await h.request(`/api/v1/projects/${created.id}/`, { method: "PATCH", token, json: { ...created, name: "A" } });
    expect(first.status).toBe(200);
    const stale = await h.request(`/api/v1/projects/${created.id}/`, { method: "PATCH", token, json: { ...created, name: "B" } });
    expect(stale.status).toBe(409);
    const now = (await (await h.request(`/api/v1/projects/${created.id}/`, { token })).json()) as Project;
    expect(now).toMatchObject({ name: "A", version: 2 });
  });

  it("archives by soft delete, lists the archive, and restores", async () => {
    const { token } = await h.signedInUser();
    const created = (await (await create(token)).json()) as Project;
    const archived = await h.request(`/api/v1/projects/${created.id}/`, {
      method: "PATCH",
      token,
      json: { ...created, is_deleted: true, is_active: false },
    });
    expect(await archived.json()).toMatchObject({ is_deleted: true, is_active: false });
    expect((await list(token)).count).toBe(0);
    const archive = await list(token, "is_active=true&is_deleted=true&limit=10&offset=0");
    expect(archive.results.map((p) => p.id)).toEqual([created.id]);
    const restored = await h.request(`/api/v1/projects/${created.id}/`, {
      method: "PATCH",
      token,
      json: { is_deleted: false, is_active: true },
    });
    expect(await restored.json()).toMatchObject({ is_deleted: false, is_active: true, version: 3 });
    expect((await list(token)).count).toBe(1);
    expect((await list(token, "is_deleted=true")).count).toBe(0);
  });

  it("counts projects in the statistics", async () => {
    const { token } = await h.signedInUser();
    const a = (await (await create(token)).json()) as Project;
    await create(token);
    await h.request(`/api/v1/projects/${a.id}/`, { method: "PATCH", token, json: { is_deleted: true } });
    // The stream handler keeps the snapshot; in AWS it lags the write by about a second.
    await h.settled();
    const stats = await (await h.request("/api/v1/users/statistics/", { token })).json();
    expect(stats).toMatchObject({ projects: { active: 1, archived: 1 } });
  });

  it("answers 404 JSON for an unknown project and an unknown route", async () => {
    const { token } = await h.signedInUser();
    for (const path of ["/api/v1/projects/no-such-id/", "/api/v1/nothing/here/"]) {
      const res = await h.request(path, { token });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
  });
});

describe("GET v1/projects/?search=", () => {
  it("finds the company's projects whose name contains the text, in any case, paged on the matches", async () => {
    const { token } = await h.signedInUser();
    for (const name of ["Шахта «Ёлочная»", "Разрез Восточный", "шахта Северная", "Обогатительная фабрика", "ШАХТА-3"]) {
      expect((await create(token, { ...valid, name })).status).toBe(201);
    }
    const all = await list(token, "is_active=true&is_deleted=false&limit=10&offset=0&search=%D1%88%D0%B0%D1%85%D1%82%D0%B0");
    expect(all.count).toBe(3);
    // Newest first, as the unfiltered list.
    expect(all.results.map((p) => p.name)).toEqual(["ШАХТА-3", "шахта Северная", "Шахта «Ёлочная»"]);
    const second = await list(token, `is_active=true&is_deleted=false&limit=2&offset=2&search=${encodeURIComponent("ШАХТ")}`);
    expect(second).toMatchObject({ count: 3 });
    expect(second.results.map((p) => p.name)).toEqual(["Шахта «Ёлочная»"]);
    // ё and е are one letter to the search; blank is no search.
    expect((await list(token, `is_active=true&is_deleted=false&search=${encodeURIComponent("елочн")}`)).count).toBe(1);
    expect((await list(token, "is_active=true&is_deleted=false&search=%20%20")).count).toBe(5);
    expect((await list(token, `is_active=true&is_deleted=false&search=${encodeURIComponent("нет такого")}`)).results).toEqual([]);
  });

  it("searches the archive apart from the active list", async () => {
    const { token } = await h.signedInUser();
    const archivedOne = (await (await create(token, { ...valid, name: "Шахта в архиве" })).json()) as Project;
    await create(token, { ...valid, name: "Шахта действующая" });
    const patch = await h.request(`/api/v1/projects/${archivedOne.id}/`, {
      method: "PATCH",
      token,
      json: { is_deleted: true, version: 1 },
    });
    expect(patch.status).toBe(200);
    const q = (deleted: boolean) => `is_active=true&is_deleted=${deleted}&search=${encodeURIComponent("шахта")}`;
    expect((await list(token, q(false))).results.map((p) => p.name)).toEqual(["Шахта действующая"]);
    expect((await list(token, q(true))).results.map((p) => p.name)).toEqual(["Шахта в архиве"]);
  });

  it("never finds another company's project", async () => {
    const mine = await h.signedInUser("Своя компания");
    const theirs = await h.signedInUser("Чужая компания");
    await create(theirs.token, { ...valid, name: "Чужая шахта Уникальная" });
    const found = await list(mine.token, `is_active=true&is_deleted=false&search=${encodeURIComponent("Уникальная")}`);
    expect(found).toEqual({ results: [], count: 0 });
  });

  it("answers 400 naming the parameter for a search longer than 100 characters", async () => {
    const { token } = await h.signedInUser();
    const res = await h.request(`/api/v1/projects/?is_active=true&is_deleted=false&search=${"ш".repeat(101)}`, { token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("search")}: `));
  });
});
