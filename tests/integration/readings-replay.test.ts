// `npm run readings -- replay`: a dispatch system's export in Windows-1251 with «;», local times
// «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on the company's clock and decimal commas, one column per sensor or one row per
// reading, pushed through the gateway path as a gateway would: every value stored at its instant in UTC.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { readingsBetween } from "@server/domain/monitoring/minutes/consumer";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { dispatchReadings, replay } from "../../tools/readings";
import { createHarness, type Harness } from "../support/harness";
import { encodeLegacy } from "../support/legacy-encoding";

let h: Harness;
let companyId: string;
let key: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Диспетчерская»");
  companyId = a.companyId;
  const post = async (path: string, body: unknown) =>
    (await h.request(path, { method: "POST", token: a.token, json: body })).json() as Promise<Record<string, string>>;
  const facility = await post("/api/v1/facilities/", { name: "Шахта «Повтор»", kind: "underground_mine" });
  const point = await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" });
  for (const [code, kind] of [
    ["М-12", "methane"],
    ["Q-1", "flow"],
  ])
    ids[code] = (await post(`/api/v1/facilities/${facility.id}/sensors/`, { code, kind, point: point.id })).id;
  key = (await post(`/api/v1/facilities/${facility.id}/gateway-keys/`, { label: "Повтор" })).key;
  // The tool's requests go to the harness's app instead of a network server.
  vi.stubGlobal("fetch", (url: string, init: RequestInit) => h.request(new URL(url).pathname, init));
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await h.close();
});

it("reads a wide cp1251 export on Kemerovo's clock and stores each value at its UTC instant", async () => {
  const text = "Время;М-12;Q-1\r\n01.03.2026 10:00:00;0,44;12000\r\n01.03.2026 10:01:00;0,45;12 100\r\n01.03.2026 10:02:00;обрыв;12050\r\n";
  const { readings, skipped } = dispatchReadings(encodeLegacy(text, "windows-1251"), "Asia/Novokuznetsk");
  expect(skipped).toBe(1);
  expect(readings[0]).toEqual({ sensor: "М-12", t: Date.UTC(2026, 2, 1, 3, 0), value: 0.44 });
  const batches = await replay(readings, { url: "http://gateway.test", key });
  expect(batches).toHaveLength(1);
  await monitoringIdle(h.deps);
  const methane = await readingsBetween(h.deps, companyId, ids["М-12"], Date.UTC(2026, 2, 1, 3, 0), Date.UTC(2026, 2, 1, 4, 0));
  expect([...methane.values]).toEqual([0.44, 0.45]);
  const flow = await readingsBetween(h.deps, companyId, ids["Q-1"], Date.UTC(2026, 2, 1, 3, 0), Date.UTC(2026, 2, 1, 4, 0));
  expect([...flow.values]).toEqual([12000, 12100, 12050]);
});

it("reads one row per reading and splits a long file into pushes of 10 000", async () => {
  const rows = ["Датчик;Время;Значение"];
  for (let m = 0; m < 12_000; m++) {
    const t = new Date(Date.UTC(2026, 2, 2, 0, m) + 7 * 3_600_000);
    const local = `${String(t.getUTCDate()).padStart(2, "0")}.03.2026 ${String(t.getUTCHours()).padStart(2, "0")}:${String(t.getUTCMinutes()).padStart(2, "0")}:00`;
    rows.push(`М-12;${local};0,${30 + (m % 9)}`);
  }
  const { readings } = dispatchReadings(new TextEncoder().encode(rows.join("\n")), "Asia/Novokuznetsk");
  expect(readings).toHaveLength(12_000);
  expect(await replay(readings, { url: "http://gateway.test", key })).toHaveLength(2);
  await monitoringIdle(h.deps);
  const stored = await readingsBetween(h.deps, companyId, ids["М-12"], Date.UTC(2026, 2, 2), Date.UTC(2026, 2, 2) + 12_000 * 60_000);
  expect(stored.times.length).toBe(12_000);
  expect(stored.times[0]).toBe(Date.UTC(2026, 2, 2));
});
