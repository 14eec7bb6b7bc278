// No API answer that carries data is kept by a browser or a proxy: tokens, a company's figures and
// the error answers alike say `Cache-Control: no-store`; only the routes that serve no company's
// data choose their own caching (docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("Cache-Control of the API's answers", () => {
  it("is no-store on the sign-in, the refresh and every answer with a company's data, errors included", async () => {
    const { token, refresh, email } = await h.signedInUser();
    const project = await h.newProject(token);
    const answers: Array<[string, Promise<Response>]> = [
      ["POST token/", h.request("/api/token/", { method: "POST", json: { email, password: "correct-horse", guardant_code: "" } })],
      ["POST token/ 401", h.request("/api/token/", { method: "POST", json: { email, password: "wrong", guardant_code: "" } })],
      ["POST token/refresh/", h.request("/api/token/refresh/", { method: "POST", json: { refresh } })],
      ["GET get_me", h.request("/api/v1/users/get_me/", { token })],
      ["GET projects", h.request("/api/v1/projects/?is_active=true&is_deleted=false&limit=10&offset=0", { token })],
      ["GET project", h.request(`/api/v1/projects/${project.id}/`, { token })],
      [
        "POST calculation",
        h.request("/api/v1/open_mining_co2/", {
          method: "POST",
          token,
          json: { name: "Самосвалы", project: project.id, volume: 120, ef: 3.149 },
        }),
      ],
      ["GET inventory", h.request("/api/v1/inventory/?year=2024", { token })],
      ["GET 404", h.request("/api/v1/projects/00000000-0000-0000-0000-000000000000/", { token })],
      ["GET 401", h.request("/api/v1/users/get_me/")],
    ];
    for (const [name, answer] of answers) {
      const res = await answer;
      expect(res.status, name).toBeLessThan(500);
      expect(res.headers.get("cache-control"), name).toBe("no-store");
    }
  });

  it("keeps the caching a route chose for what is no company's data", async () => {
    const res = await h.request("/api/openapi.json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
  });
});
