// DynamoDB round trips per API operation (issue 20, item 2): each operation may make at most the
// calls counted here, so a change that adds one fails. The counts are measured with
// tests/support/counted-api.ts, which `npm run bench -- api` prints too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countedApi, type CountedApi } from "../support/counted-api";

let api: CountedApi;
let project: string;
let calculation: string;


beforeAll(async () => {
  api = await countedApi();
  const created = await api.callsOf("/api/v1/projects/create_project/", {
    method: "POST",
    json: { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31" },
  });
  project = (created.body as { id: string }).id;
  // The first calculation fills the process's dictionary cache; the counted ones find it warm.
  const first = await api.callsOf("/api/v1/underground_emission_ch4/", { method: "POST", json: { name: "Первый", project, volume: 1000, ef: 18 } });
  calculation = (first.body as { id: string }).id;
});
afterAll(() => api?.close());

describe("DynamoDB calls per API operation", () => {
  it("create-calculation", async () => {
    const { calls } = await api.callsOf("/api/v1/underground_emission_ch4/", { method: "POST", json: { name: "Расчет", project, volume: 1000, ef: 18 } });
    // Get the signed-in user (is still active), Get the project, Query the GWP sets (set in force),
    // Query the emission factors, Query the GWP sets (the set's value), Query the activity
    // uncertainties, Put the calculation.
    expect(calls.length).toBeLessThanOrEqual(7);
  });

  it("list calculations", async () => {
    const { calls } = await api.callsOf(`/api/v1/underground_emission_ch4/?project=${project}&limit=10&offset=0`);
    // Get the user, Get the project (is the caller's), Query the page, Query the count.
    expect(calls.length).toBeLessThanOrEqual(4);
  });

  it("get one calculation", async () => {
    const { calls } = await api.callsOf(`/api/v1/underground_emission_ch4/${calculation}/`);
    // Get the user, Get the calculation.
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it("list projects", async () => {
    // Get the user, Query the page, Query the count.
    expect((await api.callsOf("/api/v1/projects/?limit=10&offset=0")).calls.length).toBeLessThanOrEqual(3);
  });

  it("get_me", async () => {
    // Get the user (authentication), Get the user again and its company (the answer).
    expect((await api.callsOf("/api/v1/users/get_me/")).calls.length).toBeLessThanOrEqual(3);
  });

  it("inventory of a year", async () => {
    const { calls } = await api.callsOf("/api/v1/inventory/?year=2024");
    // Get the user, Query the facilities, the company's projects and its inventory calculations,
    // the GWP sets (the year's set), Get the year's review, Query the GWP sets (per year's totals).
    expect(calls.length).toBeLessThanOrEqual(7);
  });
});
