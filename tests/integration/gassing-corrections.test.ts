// D97 over HTTP on the local storage engine: one gassing, one row, whatever the corrections. The mine's
// dispatch export (cp1251, «;», decimal commas) gives a wing-return meter (norm 0,75 %) at 0,80 %
// 10:00–10:14 of 01.03.2026; the mine's gateway then pushes its first minute at 0,60 % (the readings now
// give 10:01–10:15), and the export is loaded again (the value restored). The book keeps one entry as
// found: a correction by the gateway's key, then one by the re-upload whose `after` is the found
// figures — never a second entry, never «загазирования нет» while the gassing went on.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { encodeLegacy } from "../support/legacy-encoding";

let h: Harness;
let staff: string;
let facility: string;
let gateway: string;

interface Grant {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
  file_upload: string;
}
interface Figures {
  start: string;
  end: string | null;
  max: number;
}
interface Entry {
  id: string;
  start: string;
  end: string | null;
  max: number;
  sensors: string[];
  corrections: { batch: string | null; sent_by: string | null; before: Figures; after: Figures | null; after_closing: boolean }[];
  split_entries: unknown[];
}

const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** 01.03.2026 at UTC+7 (the company's clock), local hour and minute, as ISO. */
const at = (h: number, m: number) => new Date(Date.UTC(2026, 1, 28, 17, 0) + (h * 60 + m) * 60_000).toISOString();
const pad = (n: number) => String(n).padStart(2, "0");
const EXPORT = [
  "Время;Ш-1",
  ...Array.from({ length: 60 }, (_, i) => 9 * 60 + 40 + i).map((m) => {
    const value = m >= 600 && m < 615 ? "0,80" : "0,20";
    return `01.03.2026 ${pad(Math.floor(m / 60))}:${pad(m % 60)}:00;${value}`;
  }),
].join("\r\n");

/** The mine's export uploaded as the browser does (the grant, the PUT, the file named), applied. */
async function upload(): Promise<string> {
  const bytes = encodeLegacy(EXPORT, "windows-1251");
  const grant = await json<Grant>(
    await post("/api/v1/telemetry/upload-url/", { facility, content_type: "text/csv", size: bytes.byteLength, name: "АГК 01.03.csv" }),
    200,
  );
  const put = await h.request(grant.url, {
    method: grant.method,
    headers: { ...grant.headers, "Content-Length": String(bytes.byteLength) },
    body: bytes as NonNullable<RequestInit["body"]>,
  });
  expect(put.status).toBe(200);
  const { batch } = await json<{ batch: string }>(
    await post("/api/v1/telemetry/files/", { facility, file_upload: grant.file_upload, name: "АГК 01.03.csv" }),
    202,
  );
  await h.settled();
  return batch;
}

const book = async () =>
  (
    await json<{ results: Entry[] }>(
      await h.request(`/api/v1/telemetry/gassings/?facility=${facility}&from=2026-03-01&to=2026-03-01`, { token: staff }),
      200,
    )
  ).results;

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff } = await h.signedInUser("ООО «Исправленные показания»"));
  facility = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Крыло»", kind: "underground_mine" }), 201)).id;
  await json(
    await post(`/api/v1/facilities/${facility}/sensors/`, {
      code: "Ш-1",
      kind: "methane",
      working: "Вентиляционный штрек крыла",
      place: "wing_return",
    }),
    201,
  );
  gateway = (await json<{ key: string }>(await post(`/api/v1/facilities/${facility}/gateway-keys/`, { label: "Шлюз АГК" }), 201)).key;
});
afterAll(() => h.close());

it("keeps one entry through the gateway's first-minute correction and the export's re-upload, each correction traced", async () => {
  await upload();
  const found = await book();
  expect(found.map((g) => [g.sensors.join(), g.start, g.end, g.max, g.corrections.length])).toEqual([
    ["Ш-1", at(10, 0), at(10, 15), 0.8, 0],
  ]);

  const pushed = await json<{ batch: string }>(
    await h.request("/api/v1/telemetry/readings/", {
      method: "POST",
      headers: { Authorization: `Gateway ${gateway}`, "Content-Type": "application/json" },
      body: JSON.stringify({ readings: [{ sensor: "Ш-1", t: at(10, 0), value: 0.6 }] }),
    }),
    202,
  );
  await h.settled();
  const corrected = await book();
  expect(corrected.map((g) => [g.id, g.start, g.end, g.max])).toEqual([[found[0].id, at(10, 0), at(10, 15), 0.8]]);
  expect(corrected[0].corrections).toEqual([
    expect.objectContaining({
      batch: pushed.batch,
      sent_by: "ключ шлюза «Шлюз АГК»",
      before: { start: at(10, 0), end: at(10, 15), max: 0.8 },
      after: { start: at(10, 1), end: at(10, 15), max: 0.8 },
      after_closing: false,
    }),
  ]);

  const again = await upload();
  const restored = await book();
  expect(restored.map((g) => [g.id, g.start, g.end, g.max, g.split_entries.length])).toEqual([
    [found[0].id, at(10, 0), at(10, 15), 0.8, 0],
  ]);
  expect(restored[0].corrections.map((c) => [c.batch, c.after])).toEqual([
    [pushed.batch, { start: at(10, 1), end: at(10, 15), max: 0.8 }],
    [again, { start: at(10, 0), end: at(10, 15), max: 0.8 }],
  ]);
});
