// A company switches between its own trained models (PATCH v1/forecast_models/{method}/{id}/own/):
// which one its forecasts use, or the platform's again; a description of its own (renamed); archived
// (never used, the one in use giving way to the platform's) and restored. Staff may, for their own
// company's versions only: a platform version or another company's is 404; a refused body 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";

let h: Harness;
let user: SignedInUser;
let other: SignedInUser;

beforeAll(async () => {
  ({ h, user } = await openProjectFixture("Лава 7"));
  other = await h.signedInUser("Компания Б");
});
afterAll(() => h.close());

const HEADER = "Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин;Концентрация CH4 в исходящей струе лавы, факт, %";

function history(rows: number, slope: number): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const air = 1200 + ((i * 37) % 400);
    lines.push(`${air};${((slope * 1400) / air).toFixed(4).replace(".", ",")}`);
  }
  return `${lines.join("\n")}\n`;
}

interface Version {
  id: string;
  version: number;
  company?: string;
  is_active: boolean;
  archived?: boolean;
  description: string;
}

async function train(slope: number, activate: boolean): Promise<Version> {
  const form = new FormData();
  form.append("params", JSON.stringify({ n_estimators: 20, max_depth: 3 }));
  form.append("activate", String(activate));
  form.append("file", new File([history(200, slope)], `лава ${slope}.csv`, { type: "text/csv" }));
  const res = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token: user.token, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Version;
}

const change = (id: string, json: unknown, token = user.token, method = "xgboost") =>
  h.request(`/api/v1/forecast_models/${method}/${id}/own/`, { method: "PATCH", token, json });

async function versions(token = user.token): Promise<Version[]> {
  const res = await h.request("/api/v1/forecast_models/", { token });
  const body = (await res.json()) as { results: Array<{ method: string; versions: Version[] }> };
  return body.results.find((r) => r.method === "xgboost")!.versions;
}

/** The version the company's forecasts run now (the same choice a forecast makes). */
async function serving(token = user.token): Promise<string> {
  const res = await h.request("/api/v1/forecast_models/xgboost/active/file/", { token });
  expect(res.status).toBe(200);
  return res.headers.get("X-Model-Id")!;
}

describe("a company's own forecast models", () => {
  let first: Version;
  let second: Version;
  let platform: Version;

  beforeAll(async () => {
    platform = (await versions()).find((v) => v.company === undefined && v.is_active)!;
    first = await train(0.5, true);
    second = await train(0.7, true);
  }, 60_000);

  it("uses the one chosen, then the platform's again when none is", async () => {
    expect(await serving()).toBe(second.id);
    const chosen = await change(first.id, { is_active: true });
    expect(chosen.status).toBe(200);
    expect(await chosen.json()).toMatchObject({ id: first.id, is_active: true });
    expect(await serving()).toBe(first.id);
    const own = (await versions()).filter((v) => v.company !== undefined);
    expect(own.filter((v) => v.is_active).map((v) => v.id)).toEqual([first.id]);

    expect((await change(first.id, { is_active: false })).status).toBe(200);
    expect(await serving()).toBe(platform.id);
    // Another company never saw any of it.
    expect(await serving(other.token)).toBe(platform.id);
  });

  it("renames a version by its description", async () => {
    const res = await change(second.id, { description: "  Лава 7, зима 2025  " });
    expect(res.status).toBe(200);
    expect((await versions()).find((v) => v.id === second.id)!.description).toBe("Лава 7, зима 2025");
  });

  it("archives the one in use, which gives way to the platform's, and restores it", async () => {
    expect((await change(second.id, { is_active: true })).status).toBe(200);
    expect(await serving()).toBe(second.id);
    const archived = await change(second.id, { archived: true });
    expect(await archived.json()).toMatchObject({ archived: true, is_active: false });
    expect(await serving()).toBe(platform.id);
    // Still listed, and never chosen while archived.
    expect((await versions()).find((v) => v.id === second.id)).toMatchObject({ archived: true });
    const refused = await change(second.id, { is_active: true });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^Действует: модель в архиве/);
    expect(await serving()).toBe(platform.id);
    // Restored and chosen at once.
    const back = await change(second.id, { archived: false, is_active: true });
    expect(await back.json()).toMatchObject({ archived: false, is_active: true });
    expect(await serving()).toBe(second.id);
  });

  it("answers 404 for a platform version and another company's, 400 for a body without a change", async () => {
    expect((await change(platform.id, { is_active: false })).status).toBe(404);
    const stranger = await change(second.id, { archived: true }, other.token);
    expect(stranger.status).toBe(404);
    expect((await versions()).find((v) => v.id === second.id)).toMatchObject({ archived: false, is_active: true });
    const empty = await change(second.id, {});
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { detail: string }).detail).toMatch(/Укажите, что изменить/);
    expect((await change(second.id, { description: "x".repeat(501) })).status).toBe(400);
    expect((await change(second.id, { is_active: "yes" })).status).toBe(400);
  });
});
