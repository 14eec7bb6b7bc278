// hostile: a year in a path or a query is exactly four digits (Number() took «2024.0»,
// «0x7e8», «+2024» and « 2024»), and a project's `facility: ""` is no facility, not a second
// «Без площадки» in the inventory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "@server/contract/schemas/project";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import type { Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Шахта"));
});
afterAll(() => h.close());

const YEARS = ["2024.0", "0x7e8", "+2024", "%202024", "2024%20", "2024e0", "02024", "٢٠٢٤"];

describe("year segments are four digits", () => {
  it("answers 400 in Russian on every route with a year in the path or the query", async () => {
    for (const year of YEARS) {
      const routes: Array<[string, RequestInit & { json?: unknown }]> = [
        [`/api/v1/inventory/?year=${year}`, {}],
        [`/api/v1/inventory/${year}/report/?format=xlsx`, {}],
        [`/api/v1/inventory/${year}/review/`, { method: "POST", json: { action: "submit", version: 0 } }],
        [`/api/v1/inventory/${year}/comments/`, { method: "POST", json: { text: "Замечание", version: 0 } }],
        [`/api/v1/projects/${project.id}/gwp_recompute/?reporting_year=${year}`, {}],
      ];
      for (const [path, init] of routes) {
        const res = await h.request(path, { token: user.token, ...init });
        expect(res.status, `${path}`).toBe(400);
        expect(((await res.json()) as { detail: string }).detail, path).toMatch(/год/);
      }
    }
    // The plain year still works.
    expect((await h.request("/api/v1/inventory/?year=2024", { token: user.token })).status).toBe(200);
  });
});

describe("facility: empty is none", () => {
  it("stores an empty facility as none, on creation and on an edit, and the inventory has one «Без площадки»", async () => {
    const created = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: user.token,
      json: { name: "Пустая площадка", start_date: "2024-01-01", end_date: "2024-12-31", facility: "" },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const empty = (await created.json()) as Project;
    expect(empty.facility).toBeNull();

    const facility = await h.request("/api/v1/facilities/", {
      method: "POST",
      token: user.token,
      json: { name: "Шахта «Северная»", kind: "underground_mine" },
    });
    const { id: facilityId } = (await facility.json()) as { id: string };
    const other = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: user.token,
      json: { name: "С площадкой", start_date: "2024-01-01", end_date: "2024-12-31", facility: facilityId },
    });
    const withFacility = (await other.json()) as Project;
    const patched = await h.request(`/api/v1/projects/${withFacility.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { facility: "", version: withFacility.version },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(((await patched.json()) as Project).facility).toBeNull();

    for (const id of [empty.id, withFacility.id, project.id]) {
      const res = await h.request("/api/v1/open_mining_co2/", {
        method: "POST",
        token: user.token,
        json: { name: "Добыча", project: id, volume: 10, ef: 3.149 },
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const inventory = await h.request("/api/v1/inventory/?year=2024", { token: user.token });
    const body = (await inventory.json()) as { facilities: Array<{ id: string | null; name: string }> };
    expect(body.facilities.filter((f) => f.name === "Без площадки")).toEqual([expect.objectContaining({ id: null })]);
  });
});

describe("text is text", () => {
  it("refuses NUL, U+202E and invalid UTF-8 in a JSON body with 400 naming the field, and stores a name in NFC", async () => {
    const post = (path: string, json: unknown) => h.request(path, { method: "POST", token: user.token, json });
    for (const [path, body, field] of [
      ["/api/v1/facilities/", { name: "Шахта\u0000", kind: "underground_mine" }, "name"],
      ["/api/v1/inventory/2024/comments/", { text: "См. \u202Efdp.exe" }, "text"],
    ] as const) {
      const res = await post(path, body);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(
        `${fieldName(field)}: недопустимые символы (управляющие, смена направления текста или неверная кодировка UTF-8)`,
      );
    }
    // Bytes that are not UTF-8 (0xC3 0x28) decode to U+FFFD: refused the same way.
    const bytes = Buffer.concat([Buffer.from('{"name":"Шахта '), Buffer.from([0xc3, 0x28]), Buffer.from('","kind":"open_pit"}')]);
    const invalid = await h.request("/api/v1/facilities/", {
      method: "POST",
      token: user.token,
      body: bytes,
      headers: { "Content-Type": "application/json" },
    });
    expect(invalid.status).toBe(400);
    const composed = await post("/api/v1/facilities/", { name: "Разрез «Чернии\u0306»", kind: "open_pit" });
    expect(composed.status).toBe(201);
    expect(((await composed.json()) as { name: string }).name).toBe("Разрез «Черний»");
  });
});
