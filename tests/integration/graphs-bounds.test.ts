// The infographics' data bounded (docs/security.md, «Caps, job queue and chart data bounded»): a
// forecast of 100 000 rows is sent as at most MAX_GRAPH_POINTS points, each bucket's lowest and
// highest, so a one-day peak and a one-day dip are drawn; and the call is heavy work, refused with
// 429 and Retry-After when the user's slots are taken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_GRAPH_POINTS } from "@server/domain/calculations/graphs";
import { HEAVY_PER_USER, reserveHeavyWork } from "@server/domain/heavy-work";
import { storeForecastRows } from "@server/domain/forecast/rows";
import { newId } from "@server/domain/ids";
import type { ProjectGraphs } from "@server/contract/views";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import { longwallRows } from "../support/large-forecasts";
import type { Project } from "@server/contract/schemas/project";

const ROWS = 100_000;
const PEAK_DAY = 54_321;
const DIP_DAY = 77_777;
let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Лава 100 тыс. строк"));
  // A level series with a little noise, one day 1.5 % above everything else and one day below it.
  const rows = longwallRows(ROWS).map((row, i) => ({ ...row, result: 0.6 + (i % 7) / 1000 }));
  rows[PEAK_DAY - 1].result = 0.6 * 1.015 + 0.006;
  rows[DIP_DAY - 1].result = 0.55;
  const id = newId();
  const at = new Date().toISOString();
  await h.deps.repos.calculations.create({
    id,
    type: "regres_methane",
    project: project.id,
    company: user.companyId,
    name: "Прогноз лавы",
    is_active: true,
    is_deleted: false,
    version: 1,
    methodology_version: "2026.1",
    created_at: at,
    created_by: user.email,
    updated_at: at,
    updated_by: user.email,
    inputs: { method: "xgboost" },
    results: { rows: ROWS, max_result: rows[PEAK_DAY - 1].result, data_key: await storeForecastRows(h.deps, user.companyId, id, rows) },
    coefficients: {},
  });
}, 60_000);
afterAll(() => h.close());

const graphs = () => h.request(`/api/v1/projects/${project.id}/graphs/`, { token: user.token });

describe("a forecast of 100 000 rows in the infographics", () => {
  it("is sent as at most 2 000 points in day order, its peak and its dip kept", async () => {
    const res = await graphs();
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text) as ProjectGraphs;
    console.log(`graphs of a ${ROWS}-row forecast: ${body.regres_methane[0].points.length} points, ${Math.round(text.length / 1024)} KB`);
    const points = body.regres_methane[0].points;
    expect(points.length).toBeLessThanOrEqual(MAX_GRAPH_POINTS);
    expect(points.length).toBeGreaterThan(MAX_GRAPH_POINTS / 2);
    const days = points.map((p) => p.day);
    expect(days).toEqual([...days].sort((a, b) => a - b));
    expect(points).toContainEqual({ day: PEAK_DAY, result: 0.6 * 1.015 + 0.006 });
    expect(points).toContainEqual({ day: DIP_DAY, result: 0.55 });
    expect(Math.max(...points.map((p) => p.result))).toBe(0.6 * 1.015 + 0.006);
  });

  it("takes a heavy-work slot: with the user's slots taken it answers 429 with Retry-After", async () => {
    const actor = { id: user.userId, company: user.companyId };
    const held = await Promise.all(Array.from({ length: HEAVY_PER_USER }, () => reserveHeavyWork(h.deps, actor)));
    const refused = await graphs();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await Promise.all(held.map((release) => release()));
    expect((await graphs()).status).toBe(200);
  });
});
