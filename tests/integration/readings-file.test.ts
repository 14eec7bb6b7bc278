// D57's file path over HTTP on the real local DynamoDB engine: a dispatch system's export in Windows-1251
// («;», «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on the company's clock, a column per sensor) sent as the web sends a large
// file — POST v1/telemetry/upload-url/, PUT to the answered url, POST v1/telemetry/files/ — and applied by
// the one consumer: bad lines refused by number in Russian while the good ones are kept, the same file
// twice stored once, a 0-byte file and a file in another encoding refused at once naming line 1 with
// nothing queued, and another company neither uploading to the facility nor reading the batch. The rules
// line by line, and a consumer stopped half-way: functions/src/domain/monitoring/ingest/files.test.ts.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readingsBetween } from "@server/domain/monitoring/minutes/consumer";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createHarness, type Harness } from "../support/harness";
import { encodeLegacy } from "../support/legacy-encoding";

let h: Harness;
let staff: string;
let other: string;
let companyId: string;
let facility: string;
const ids: Record<string, string> = {};

interface Grant {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
  file_upload: string;
}

const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** The browser's way: the grant, the PUT (no bearer), then the file named. */
async function sent(bytes: Uint8Array, token = staff) {
  const grant = await json<Grant>(
    await post(
      "/api/v1/telemetry/upload-url/",
      { facility, content_type: "text/csv", size: bytes.byteLength, name: "АГК март.csv" },
      token,
    ),
    200,
  );
  expect(grant.file_upload).toMatch(new RegExp(`^telemetry-uploads/${companyId}/${facility}/[0-9a-f-]{36}\\.csv$`));
  const put = await h.request(grant.url, {
    method: grant.method,
    headers: { ...grant.headers, "Content-Length": String(bytes.byteLength) },
    body: bytes as NonNullable<RequestInit["body"]>,
  });
  expect(put.status, await put.clone().text()).toBe(200);
  return post("/api/v1/telemetry/files/", { facility, file_upload: grant.file_upload, name: "АГК март.csv" }, token);
}

interface Batch {
  batch: string;
  state: string;
  lines: number;
  accepted: number;
  duplicate: number;
  refused: { line: number; reason: string }[];
  file_name?: string;
}

async function applied(res: Response): Promise<Batch> {
  const accepted = await json<{ batch: string; status_url: string }>(res, 202);
  await monitoringIdle(h.deps);
  return json<Batch>(await h.request(accepted.status_url, { token: staff }), 200);
}

const HOUR = Date.UTC(2026, 2, 1, 3, 0); // 01.03.2026 10:00 in Kemerovo
const FILE = [
  "Время;М-12;Q-1",
  "01.03.2026 10:00:00;0,44;12 000",
  "01.03.2026 10:01:00;0,45;12 100",
  "01.03.2026 10:02:00;обрыв;12 050",
  "01.03.2026 10:03:00;0,47;",
  "01.03.2026 10:04;0,48;12 200",
].join("\r\n");

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Файл АГК»");
  staff = a.token;
  companyId = a.companyId;
  ({ token: other } = await h.signedInUser("ООО «Чужой файл»"));
  facility = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Выгрузка»", kind: "underground_mine" }), 201))
    .id;
  const point = await json<{ id: string }>(
    await post(`/api/v1/facilities/${facility}/points/`, { name: "Ствол", kind: "ventilation_shaft" }),
    201,
  );
  for (const [code, kind] of [
    ["М-12", "methane"],
    ["Q-1", "flow"],
  ])
    ids[code] = (
      await json<{ id: string }>(await post(`/api/v1/facilities/${facility}/sensors/`, { code, kind, point: point.id }), 201)
    ).id;
});
afterAll(() => h.close());

it("stores a cp1251 export uploaded straight to storage, refusing the bad line by its number", async () => {
  const batch = await applied(await sent(encodeLegacy(FILE, "windows-1251")));
  expect(batch).toMatchObject({ state: "done", lines: 5, accepted: 8, duplicate: 0, file_name: "АГК март.csv" });
  expect(batch.refused).toEqual([{ line: 4, reason: "«М-12»: значение «обрыв» не число" }]);
  const methane = await readingsBetween(h.deps, companyId, ids["М-12"], HOUR, HOUR + 3_600_000);
  expect([...methane.values]).toEqual([0.44, 0.45, 0.47, 0.48]);
  const flow = await readingsBetween(h.deps, companyId, ids["Q-1"], HOUR, HOUR + 3_600_000);
  expect([...flow.times]).toEqual([0, 1, 2, 4].map((m) => HOUR + m * 60_000));
});

it("stores once when the same file is sent again", async () => {
  const batch = await applied(await sent(encodeLegacy(FILE, "windows-1251")));
  expect(batch).toMatchObject({ accepted: 0, duplicate: 8 });
  expect((await readingsBetween(h.deps, companyId, ids["М-12"], HOUR, HOUR + 3_600_000)).values).toHaveLength(4);
});

it("refuses a 0-byte file and a file in another encoding at once, naming line 1, queueing nothing", async () => {
  const empty = await json<{ detail: string }>(
    await post("/api/v1/telemetry/upload-url/", { facility, content_type: "text/csv", size: 0, name: "пусто.csv" }),
    400,
  );
  expect(empty.detail).toBe("Строка 1: файл пустой (0 байт) — в нем нет ни заголовка, ни показаний");
  const utf16 = new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode("В\0р\0е\0м\0я\0")]);
  const refused = await json<{ detail: string }>(await sent(utf16), 400);
  expect(refused.detail).toMatch(/^Строка 1 \(заголовок\): не удалось прочитать: его кодировка не UTF-8 и не Windows-1251/);
  expect(await h.deps.repos.monitoring.queued(100)).toEqual([]);
});

it("lets another company neither upload to the facility nor read the batch", async () => {
  const res = await post("/api/v1/telemetry/upload-url/", { facility, content_type: "text/csv", size: 10, name: "x.csv" }, other);
  expect(res.status).toBe(404);
  const mine = await json<{ batch: string }>(await sent(encodeLegacy(FILE, "windows-1251")), 202);
  expect((await h.request(`/api/v1/telemetry/batches/${mine.batch}/`, { token: other })).status).toBe(404);
  const theirs = await post(
    "/api/v1/telemetry/files/",
    { facility, file_upload: `telemetry-uploads/${companyId}/${facility}/${mine.batch}.csv` },
    other,
  );
  expect(theirs.status).toBe(404);
  await monitoringIdle(h.deps);
});

it("counts grants against the company's budget until their files are applied: past it 429 with Retry-After, grants at once never past it, another company unaffected", async () => {
  const MB = 1024 * 1024;
  const grant = (size: number, token = staff, target = facility) =>
    post("/api/v1/telemetry/upload-url/", { facility: target, content_type: "text/csv", size, name: "год.csv" }, token);
  // Two of the largest files (400 MB each) uploading: 800 MB of the company's 1 024 MB held.
  await json(await grant(400 * MB), 200);
  await json(await grant(400 * MB), 200);
  // A file of 1 MB sent meanwhile is held only until the consumer applied it: after it, 224 MB less
  // 64 KB (the small files of the tests above) still fit.
  const lines = FILE.split("\r\n");
  const big = [lines[0], ...Array.from({ length: Math.ceil(MB / lines[1].length) }, () => lines[1])].join("\r\n");
  await applied(await sent(encodeLegacy(big, "windows-1251")));
  await json(await grant(224 * MB - 64 * 1024), 200);
  const refused = await grant(128 * 1024);
  const answer = await json<{ detail: string }>(refused, 429);
  expect(answer.detail).toMatch(
    /^Выгрузки АГК компании, которые загружаются или ждут обработки, уже занимают 1 023,9 МБ из 1 024 МБ: файл в 128 КБ не помещается — дождитесь, пока они будут применены, и повторите$/,
  );
  expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  // Another company's budget is its own: of six 400 MB grants at once, two are answered (800 MB).
  const theirs = await json<{ id: string }>(
    await post("/api/v1/facilities/", { name: "Шахта «Соседняя»", kind: "underground_mine" }, other),
    201,
  );
  const racing = await Promise.all(Array.from({ length: 6 }, () => grant(400 * MB, other, theirs.id)));
  expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
});
