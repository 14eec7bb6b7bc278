// The events list is paged with a documented bound (LIMITS.monitoring.eventsPage, docs/api.md): a facility
// of 1 000 silent meters has 1 000 open «нет данных», and one list answered all of them, reading each
// one's demo origin on the request thread (2–3 s each, ten lanes of it held another company's get_me to
// 5,2 s). A page holds at most the bound, `offset` pages on in the same order, `count` says how many
// matched, and a `limit` past the bound is a 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@server/contract";
import type { SensorEvent } from "@server/ports";
import { createHarness, type Harness } from "../support/harness";

const OPEN = 1_000;
let h: Harness;
let token = "";
let facility = "";

beforeAll(async () => {
  h = await createHarness();
  let company: string;
  ({ token, companyId: company } = await h.signedInUser("ООО «Тысяча событий»"));
  const f = await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: "Шахта «Тихая»", kind: "underground_mine" } });
  facility = ((await f.json()) as { id: string }).id;
  const s = await h.request(`/api/v1/facilities/${facility}/sensors/`, {
    method: "POST",
    token,
    json: { code: "М-1", kind: "methane", working: "Лава 1", place: "face_10_20m", warning: 1, alarm: 2 },
  });
  const sensor = ((await s.json()) as { id: string }).id;
  const now = Date.now();
  const events: SensorEvent[] = Array.from({ length: OPEN }, (_, i) => ({
    company,
    facility,
    id: `stale-${String(i).padStart(4, "0")}`,
    sensor,
    kind: "stale",
    level: null,
    threshold: null,
    start: new Date(now - 3_600_000 + i * 1_000).toISOString(),
    end: null,
    peak: null,
    peak_at: null,
    minutes_above: 0,
    acknowledged_by: null,
    acknowledged_at: null,
    comment: "",
    version: 0,
  }));
  for (let i = 0; i < events.length; i += 50) await Promise.all(events.slice(i, i + 50).map((e) => h.deps.repos.sensorEvents.put(e, 0)));
}, 120_000);
afterAll(() => h.close());

interface Page {
  results: { id: string; start: string }[];
  count: number;
}
const list = async (query: string) => {
  const res = await h.request(`/api/v1/telemetry/events/?facility=${facility}${query}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
};

describe("the events list", () => {
  it("answers a page of at most the bound, pages on in order with offset, and counts all", async () => {
    const bound = LIMITS.monitoring.eventsPage;
    const started = performance.now();
    const first = await list("");
    const firstMs = performance.now() - started;
    expect(first.count).toBe(OPEN);
    expect(first.results).toHaveLength(bound);
    const pages = [first];
    const times: number[] = [];
    for (let offset = bound; offset < OPEN; offset += bound) {
      const at = performance.now();
      pages.push(await list(`&offset=${offset}`));
      times.push(performance.now() - at);
    }
    const all = performance.now();
    await list(`&limit=1`);
    const oneMs = performance.now() - all;
    const ids = pages.flatMap((p) => p.results.map((e) => e.id));
    expect(ids).toHaveLength(OPEN);
    expect(new Set(ids).size).toBe(OPEN);
    expect(ids).toEqual([...ids].sort());
    expect((await list(`&offset=${OPEN - 10}&limit=20`)).results).toHaveLength(10);
    console.log(
      `events list of ${OPEN} open: a page of ${bound} in ${firstMs.toFixed(0)} ms, the next ${times.map((t) => t.toFixed(0)).join(", ")} ms; a page of 1 in ${oneMs.toFixed(0)} ms`,
    );

    const over = await h.request(`/api/v1/telemetry/events/?facility=${facility}&limit=${bound + 1}`, { token });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(["limit"]);
  }, 60_000);
});
