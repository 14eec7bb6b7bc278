// A damaged store never becomes a new one — nor does a later release's data break this one: a sensor
// of a kind a later release added (kept in the folder after a rollback to this release) answered its
// edits with 500. Its register entry is listed as stored, and a change or a retirement is a 409 naming
// the kind, the entry unchanged, until the release that knows the kind is running again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sensor } from "@server/ports";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token = "";
let company = "";
let facility = "";
let sensor = "";

beforeAll(async () => {
  h = await createHarness();
  ({ token, companyId: company } = await h.signedInUser("ООО «Откат релиза»"));
  const f = await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: "Шахта «Откатная»", kind: "underground_mine" } });
  facility = ((await f.json()) as { id: string }).id;
  const s = await h.request(`/api/v1/facilities/${facility}/sensors/`, {
    method: "POST",
    token,
    json: { code: "Н2-1", kind: "methane", working: "Лава 3-1", place: "face_10_20m", warning: 1, alarm: 2 },
  });
  expect(s.status, await s.clone().text()).toBe(201);
  sensor = ((await s.json()) as { id: string }).id;
  // What a later release wrote: the same entry with a kind this release does not have.
  const stored = (await h.deps.repos.sensors.get(company, facility, sensor)) as Sensor;
  const later = { ...stored, kind: "hydrogen", revisions: stored.revisions.map((r) => ({ ...r, kind: "hydrogen" })) } as unknown as Sensor;
  await h.deps.repos.sensors.replace({ ...later, version: stored.version + 1 }, stored.version);
});
afterAll(() => h.close());

describe("a sensor of a kind a later release added", () => {
  it("answers a change and a retirement with 409 naming the kind, and keeps the entry", async () => {
    const patched = await h.request(`/api/v1/facilities/${facility}/sensors/${sensor}/`, {
      method: "PATCH",
      token,
      json: { working: "Лава 3-2", version: 2 },
    });
    expect(patched.status, await patched.clone().text()).toBe(409);
    expect(((await patched.json()) as { detail: string }).detail).toContain("«hydrogen»");
    const retired = await h.request(`/api/v1/facilities/${facility}/sensors/${sensor}/`, { method: "DELETE", token });
    expect(retired.status, await retired.clone().text()).toBe(409);
    expect(((await retired.json()) as { detail: string }).detail).toContain("«hydrogen»");
    const listed = await h.request(`/api/v1/facilities/${facility}/sensors/`, { token });
    expect(listed.status, await listed.clone().text()).toBe(200);
    const kept = (await h.deps.repos.sensors.get(company, facility, sensor)) as Sensor;
    expect(kept).toMatchObject({ kind: "hydrogen", working: "Лава 3-1", is_active: true, version: 2 });
  });
});
