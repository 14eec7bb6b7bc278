// D18 through the API, what only HTTP shows: the calculations list refuses an unknown «Учет» in
// Russian and keeps another company's project out of reach, for one type and for all at once. The
// counting rule itself (totals, exports, infographics, the list by role): functions/src/domain/calculations/counting.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
let projectId: string;

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО Что учтено"));
  projectId = (await h.newProject(token, "Шахта «Учетная»")).id;
});
afterAll(() => h.close());

describe("the calculations list by «Учет» and across types through the API", () => {
  it("refuses an unknown role in Russian, and another company's project for a type and for all", async () => {
    const bad = await h.request(`/api/v1/underground/?project=${projectId}&role=main`, { token });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^Роль:/);
    const other = await h.signedInUser();
    expect((await h.request(`/api/v1/all/?project=${projectId}`, { token: other.token })).status).toBe(404);
    expect((await h.request(`/api/v1/underground/?project=${projectId}&role=primary`, { token: other.token })).status).toBe(404);
    const own = await h.request(`/api/v1/all/?project=${projectId}&role=alternative`, { token });
    expect(await own.json()).toEqual({ results: [], count: 0 });
  });
});
