// D12 through the API, what only HTTP shows: another company's project is out of reach of the GWP
// recompute, and a bad year is refused in Russian. The rules themselves (the set in force by
// reporting year, its validation, the recompute): functions/src/domain/reference/gwp-years.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser());
});
afterAll(() => h.close());

describe("GWP by reporting year through the API", () => {
  it("keeps another company's project out of reach and refuses a bad year in Russian", async () => {
    const created = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: "Шахта", start_date: "2025-01-01", end_date: "2025-12-31", reporting_year: 2025 },
    });
    expect(created.status).toBe(201);
    const p = (await created.json()) as { id: string };
    const other = await h.signedInUser();
    expect((await h.request(`/api/v1/projects/${p.id}/gwp_recompute/`, { token: other.token })).status).toBe(404);
    expect((await h.request(`/api/v1/projects/${p.id}/gwp_recompute/`, { method: "POST", token: other.token, json: {} })).status).toBe(404);
    const bad = await h.request(`/api/v1/projects/${p.id}/gwp_recompute/?reporting_year=abc`, { token });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("reporting_year")}: ожидается год`));
    const refused = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: "Шахта", start_date: "2025-01-01", end_date: "2025-12-31", reporting_year: 2026 },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      `${fieldName("reporting_year")}: отчетный год 2026 вне дат проекта (2025 год); выберите год, который охватывают даты`,
    );
  });
});
