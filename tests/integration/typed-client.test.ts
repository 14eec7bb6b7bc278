// The web app's typed client (web/src/api/client.ts typedClient: hono/client's hc over the route
// types of functions/src/contract/route-types.ts) against the real app: the paths, parameters, query
// and bodies the types allow are the ones the routes serve.
import { hc } from "hono/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MOUNTS, type Mount, type RoutesOf } from "@server/contract";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;

/** hc over a group of the mount table at its prefix, as the web's typedClient builds it. */
const client = <M extends Mount>(mount: M, fetch: typeof globalThis.fetch) => hc<RoutesOf<M>>(`/api${MOUNTS[mount].prefix}`, { fetch });
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it("lists, creates, edits and recomputes projects through the client typed from their routes", async () => {
  const user = await h.signedInUser();
  const projects = client("projects", (input, init) => h.request(String(input), { ...init, token: user.token }));
  const created = await projects.create_project.$post({
    json: { name: "Типизированный", start_date: "2024-01-01", end_date: "2024-12-31", status: 1 },
  });
  expect(created.status).toBe(201);
  const project = await created.json();
  const list = await (await projects.index.$get({ query: { is_active: "true", is_deleted: "false", limit: "10", offset: "0" } })).json();
  expect(list.results.map((p) => p.id)).toContain(project.id);
  const patched = await projects[":id"].$patch({ param: { id: project.id }, json: { name: "Новое", version: project.version } });
  expect((await patched.json()).name).toBe("Новое");
  expect((await projects[":id"].gwp_recompute.$get({ param: { id: project.id }, query: {} })).status).toBe(200);
  expect((await projects[":id"].gwp_recompute.$post({ param: { id: project.id }, json: {} })).status).toBe(200);
  const refused = await projects[":id"].$patch({ param: { id: project.id }, json: { name: "", version: 99 } });
  expect(refused.status).toBe(400);
  // The problem as data beside the detail: the field, zod's code and the bound the message quotes.
  expect(await refused.json()).toEqual({
    detail: expect.stringContaining("Название"),
    errors: [{ field: "name", code: "too_small", message: "введите название проекта", params: { minimum: 1, origin: "string" } }],
  });
});

it("lists, adds and edits facilities, reads the year's inventory and comments on it through the clients typed from their routes", async () => {
  const user = await h.signedInUser();
  const fetch: typeof globalThis.fetch = (input, init) => h.request(String(input), { ...init, token: user.token });
  const facilities = client("facilities", fetch);
  const inventory = client("inventory", fetch);
  const created = await facilities.index.$post({ json: { name: "Шахта Типизированная", kind: "underground_mine" } });
  expect(created.status).toBe(201);
  const facility = await created.json();
  expect((await (await facilities.index.$get()).json()).map((f) => f.id)).toContain(facility.id);
  const patched = await facilities[":id"].$patch({ param: { id: facility.id }, json: { address: "Кемерово", version: facility.version } });
  expect((await patched.json()).address).toBe("Кемерово");
  const year = await (await inventory.index.$get({ query: { year: "2025", facility: facility.id } })).json();
  expect(year.categories).toEqual([]);
  expect(await (await inventory.years.$get()).json()).toEqual(expect.any(Array));
  const commented = await inventory[":year"].comments.$post({ param: { year: "2025" }, json: { text: "Проверить" } });
  expect(commented.status).toBe(201);
  const comment = await commented.json();
  const listed = await (await inventory[":year"].comments.$get({ param: { year: "2025" }, query: { limit: "5" } })).json();
  expect(listed.results.map((c) => c.text)).toContain("Проверить");
  expect((await inventory[":year"].comments[":id"].$delete({ param: { year: "2025", id: comment.id } })).status).toBe(200);
  const refused = await inventory[":year"].review.$post({ param: { year: "2025" }, json: { action: "approve", version: 99 } });
  // The route is reached (not 404): approving is the reviewer's, over a version the review has not reached.
  expect([403, 409]).toContain(refused.status);
});
