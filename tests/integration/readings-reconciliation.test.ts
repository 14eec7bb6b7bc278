// «Сверка с выгрузкой АГК» over HTTP on the real local DynamoDB engine: a mine's
// dispatch export in Windows-1251 (a column per sensor, «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on the company's clock,
// across the company's midnight) reconciled with what its pushes stored. It names exactly the readings
// held back from the push (missing) and the values changed in the file (different), per sensor and
// company day; «Догрузить недостающие» stores them as one batch through the consumer, and once they and
// the changed values are pushed the reconciliation finds nothing. Readings stored that the file omits are
// extra; a file of another facility's sensors names them as unknown; another company's facility and
// reconciliation are 404. Item 4: the readings «Догрузить недостающие» brings into a climate period's
// hours or an accepted month flag them as any reading written after them does.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { reconciliationKey } from "@server/domain/monitoring/ingest/reconciliation";
import { createHarness, type Harness } from "../support/harness";
import { encodeLegacy } from "../support/legacy-encoding";
import { climateProjectBody } from "../support/tenant-objects";

let h: Harness;
let staff: string;
let company: string;
let other: string;
let facility: string;
let otherFacility: string;

const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

interface Counts {
  in_file: number;
  stored: number;
  missing: number;
  extra: number;
  different: number;
}
interface Reconciliation {
  id: string;
  facility: string;
  state: string;
  verdict: "match" | "differences" | "unread" | "partly_read" | null;
  file_name: string;
  from: string | null;
  to: string | null;
  totals: Counts;
  days: (Counts & {
    sensor: string;
    sensor_code: string;
    day: string;
    examples: { t: string; file: number | null; stored: number | null }[];
  })[];
  refused_count: number;
  refused: { line: number; reason: string }[];
  unknown_sensors: string[];
  detail?: string;
  fill?: { batch: string; status_url: string };
  days_count: number;
}

/** The export sent as the web sends it (the grant, the PUT), then reconciled and read once done. */
async function reconciled(text: string, token = staff, target = facility): Promise<Reconciliation> {
  return reconciledAt(target, text, token);
}

/** The key of `bytes` uploaded for `target` through the grant of upload-url. */
async function uploaded(target: string, bytes: Uint8Array, token = staff): Promise<string> {
  const grant = await json<{ url: string; method: string; headers: Record<string, string>; file_upload: string }>(
    await post(
      "/api/v1/telemetry/upload-url/",
      { facility: target, content_type: "text/csv", size: bytes.byteLength, name: "АГК.csv" },
      token,
    ),
    200,
  );
  const put = await h.request(grant.url, {
    method: grant.method,
    headers: { ...grant.headers, "Content-Length": String(bytes.byteLength) },
    body: bytes as NonNullable<RequestInit["body"]>,
  });
  expect(put.status).toBe(200);
  return grant.file_upload;
}

async function reconciledAt(target: string, text: string, token = staff, utf8 = false): Promise<Reconciliation> {
  const bytes = utf8 ? new TextEncoder().encode(text) : encodeLegacy(text, "windows-1251");
  const file_upload = await uploaded(target, bytes, token);
  const started = await json<{ id: string; status_url: string }>(
    await post("/api/v1/telemetry/reconciliations/", { facility: target, file_upload, name: "АГК.csv" }, token),
    202,
  );
  expect(started.status_url).toBe(`/api/v1/telemetry/reconciliations/${started.id}/`);
  // Read, the export no longer counts against the company's budget of exports waiting to be applied.
  const upload = /([0-9a-f-]{36})\.csv$/.exec(file_upload)![1];
  const held = await h.deps.repos.caps.listAmounts(company, "TELEMETRY_UPLOADS");
  if (token === staff) expect(held.flatMap((c) => Object.keys(c.amounts))).not.toContain(upload);
  return json<Reconciliation>(await h.request(started.status_url, { token }), 200);
}

const MINUTES = 480;
// 01.03.2026 20:00 in Kemerovo (UTC+7): the file runs to 02.03.2026 03:59, across the company's midnight.
const START = Date.UTC(2026, 2, 1, 13, 0);
const methane = (m: number) => Math.round((0.3 + (m % 50) / 100) * 100) / 100;
const flow = (m: number) => 12_000 + m;
const HELD = [3, 17, 239, 240, 241, 400, 479]; // minutes of М-12 not pushed (the last three of them: 2 March)
const HELD_FLOW = [100]; // and one of Q-1
const CHANGED = new Map([
  [50, 0.91],
  [300, 0.05],
]); // М-12's values the file writes otherwise
const CHANGED_FLOW = new Map([[200, 9_999]]);

const wall = (t: number) => {
  const iso = new Date(t + 7 * 3_600_000).toISOString();
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
};
const comma = (v: number) => String(v).replace(".", ",");

function exportText(skipFlow: number[] = []): string {
  const lines = ["Время;М-12;Q-1"];
  for (let m = 0; m < MINUTES; m++) {
    const q = skipFlow.includes(m) ? "" : comma(CHANGED_FLOW.get(m) ?? flow(m));
    lines.push(`${wall(START + m * 60_000)};${comma(CHANGED.get(m) ?? methane(m))};${q}`);
  }
  return lines.join("\r\n");
}

async function push(readings: { sensor: string; t: string; value: number }[]) {
  const accepted = await json<{ status_url: string }>(await post("/api/v1/telemetry/readings/", { facility, readings }), 202);
  await monitoringIdle(h.deps);
  return json<{ state: string; accepted: number; corrected: number }>(await h.request(accepted.status_url, { token: staff }), 200);
}

const at = (m: number) => new Date(START + m * 60_000).toISOString();

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff, companyId: company } = await h.signedInUser("ООО «Сверка АГК»"));
  ({ token: other } = await h.signedInUser("ООО «Чужая сверка»"));
  facility = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Сверка»", kind: "underground_mine" }), 201)).id;
  otherFacility = (
    await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Соседка»", kind: "underground_mine" }), 201)
  ).id;
  for (const [target, code, kind] of [
    [facility, "М-12", "methane"],
    [facility, "Q-1", "flow"],
    [otherFacility, "Q-9", "flow"],
  ]) {
    const point = await json<{ id: string }>(
      await post(`/api/v1/facilities/${target}/points/`, { name: `Ствол ${code}`, kind: "ventilation_shaft" }),
      201,
    );
    await json(await post(`/api/v1/facilities/${target}/sensors/`, { code, kind, point: point.id }), 201);
  }
  // The gateway's pushes: every minute of both sensors but the held-back ones, as the mine measured them.
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = 0; m < MINUTES; m++) {
    if (!HELD.includes(m)) readings.push({ sensor: "М-12", t: at(m), value: methane(m) });
    if (!HELD_FLOW.includes(m)) readings.push({ sensor: "Q-1", t: at(m), value: flow(m) });
  }
  expect(await push(readings)).toMatchObject({ state: "done", accepted: 2 * MINUTES - HELD.length - HELD_FLOW.length });
});
afterAll(() => h.close());

it("names exactly the readings held back from the push and the values changed in the file, per sensor and company day; «Догрузить недостающие» stores them through the consumer, and once the changed values are pushed too nothing differs", async () => {
  const first = await reconciled(exportText());
  expect(first).toMatchObject({
    facility,
    state: "done",
    verdict: "differences",
    file_name: "АГК.csv",
    from: at(0),
    to: at(MINUTES - 1),
    refused_count: 0,
    unknown_sensors: [],
    totals: { in_file: 960, stored: 952, missing: 8, extra: 0, different: 3 },
  });
  expect(first.detail).toBeUndefined();
  // A row per sensor and day on the company's clock (20:00-23:59 of 1 March, 00:00-03:59 of 2 March).
  expect(first.days.map((d) => [d.sensor_code, d.day, d.in_file, d.missing, d.different])).toEqual([
    ["М-12", "2026-03-01", 240, 3, 1],
    ["М-12", "2026-03-02", 240, 4, 1],
    ["Q-1", "2026-03-01", 240, 1, 1],
    ["Q-1", "2026-03-02", 240, 0, 0],
  ]);
  const examples = first.days.flatMap((d) => d.examples.map((e) => [d.sensor_code, e.t, e.file, e.stored]));
  expect(examples).toEqual([
    ...[3, 17, 50, 239].map((m) => ["М-12", at(m), CHANGED.get(m) ?? methane(m), CHANGED.has(m) ? methane(m) : null]),
    ...[240, 241, 300, 400, 479].map((m) => ["М-12", at(m), CHANGED.get(m) ?? methane(m), CHANGED.has(m) ? methane(m) : null]),
    ["Q-1", at(100), flow(100), null],
    ["Q-1", at(200), 9_999, flow(200)],
  ]);

  // The differences as an xlsx: a row per reading, times on the company's clock.
  const xlsx = await h.request(`/api/v1/telemetry/reconciliations/${first.id}/xlsx/`, { token: staff });
  expect(xlsx.status).toBe(200);
  expect(xlsx.headers.get("content-disposition")).toContain(encodeURIComponent("Сверка АГК.xlsx"));
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await xlsx.arrayBuffer());
  const sheet = book.worksheets[0];
  const rows = sheet.getSheetValues().filter(Boolean).slice(2) as unknown[][];
  expect(rows).toHaveLength(11);
  expect(rows[0].slice(1)).toEqual(["М-12", "01.03.2026 20:03:00", "нет в хранилище", methane(3)]);
  expect(rows[2].slice(1)).toEqual(["М-12", "01.03.2026 20:50:00", "другое значение", 0.91, methane(50)]);

  // «Догрузить недостающие»: one batch of the 8, applied by the consumer as a push is; asked again, the same.
  const filled = await json<{ batch: string; status_url: string }>(
    await post(`/api/v1/telemetry/reconciliations/${first.id}/fill/`, {}),
    202,
  );
  await monitoringIdle(h.deps);
  expect(await json(await h.request(filled.status_url, { token: staff }), 200)).toMatchObject({
    state: "done",
    lines: 8,
    accepted: 8,
    duplicate: 0,
    corrected: 0,
  });
  expect(await json(await post(`/api/v1/telemetry/reconciliations/${first.id}/fill/`, {}), 202)).toEqual(filled);
  expect(
    (await json<Reconciliation>(await h.request(`/api/v1/telemetry/reconciliations/${first.id}/`, { token: staff }), 200)).fill,
  ).toEqual(filled);

  const second = await reconciled(exportText());
  expect(second.totals).toEqual({ in_file: 960, stored: 960, missing: 0, extra: 0, different: 3 });
  expect((await post(`/api/v1/telemetry/reconciliations/${second.id}/fill/`, {})).status).toBe(400);

  // The mine's values pushed again as corrections: nothing differs.
  await push([
    ...[...CHANGED].map(([m, value]) => ({ sensor: "М-12", t: at(m), value })),
    ...[...CHANGED_FLOW].map(([m, value]) => ({ sensor: "Q-1", t: at(m), value })),
  ]);
  const third = await reconciled(exportText());
  expect(third.totals).toEqual({ in_file: 960, stored: 960, missing: 0, extra: 0, different: 0 });
  expect(third.verdict).toBe("match");
  expect(third.days.every((d) => d.examples.length === 0)).toBe(true);
});

it("counts readings stored within a sensor's first and last instant of the file and not in it as extra", async () => {
  const result = await reconciled(exportText([5, 6, 7]));
  expect(result.totals).toEqual({ in_file: 957, stored: 960, missing: 0, extra: 3, different: 0 });
  const q = result.days.find((d) => d.sensor_code === "Q-1" && d.day === "2026-03-01");
  expect(q?.examples).toEqual([5, 6, 7].map((m) => ({ t: at(m), file: null, stored: flow(m) })));
});

it("names a file's sensors that are not in the facility's register as unknown, the others reconciled", async () => {
  const text = ["Время;М-12;Q-9", `${wall(START)};${comma(methane(0))};12 000`, `${wall(START + 60_000)};${comma(methane(1))};12 001`].join(
    "\r\n",
  );
  const result = await reconciled(text);
  expect(result).toMatchObject({
    state: "done",
    verdict: "partly_read",
    unknown_sensors: ["Q-9"],
    detail: "Датчики не найдены в реестре датчиков площадки, их показания не сверены: «Q-9»",
    totals: { in_file: 2, stored: 2, missing: 0, extra: 0, different: 0 },
  });
  expect(result.refused).toEqual([
    { line: 1, reason: "столбец «Q-9»: датчик не найден в реестре датчиков площадки, его значения не прочитаны" },
  ]);
  const rows = ["Датчик;Время;Значение", `Q-9;${wall(START)};12 000`, `М-12;${wall(START)};${comma(methane(0))}`].join("\r\n");
  const byRow = await reconciled(rows);
  expect(byRow).toMatchObject({ unknown_sensors: ["Q-9"], totals: { in_file: 1, missing: 0 } });
  expect(byRow.refused).toEqual([{ line: 2, reason: "датчик «Q-9» не найден в реестре датчиков площадки" }]);
});

// a 74 MB export's record (7 260 rows of sensor and day, 9,8 MB) was parsed and sent whole.
it("answers a done reconciliation's rows a page at a time, from pages stored apart from its head", async () => {
  const start = START + 10 * 86_400_000;
  const days = 61;
  const lines = ["Время;М-12;Q-1"];
  for (let d = 0; d < days; d++) lines.push(`${wall(start + d * 86_400_000)};${comma(methane(d))};${comma(flow(d))}`);
  const first = await reconciled(lines.join("\r\n"));
  expect(first.days_count).toBe(2 * days);
  expect(first.days).toHaveLength(100);
  const page = async (query: string) =>
    (await json<Reconciliation>(await h.request(`/api/v1/telemetry/reconciliations/${first.id}/?${query}`, { token: staff }), 200)).days;
  const rest = await page("offset=100");
  expect(rest).toHaveLength(2 * days - 100);
  expect(await page("offset=95&limit=10")).toEqual([...first.days.slice(95), ...rest.slice(0, 5)]);
  expect((await h.request(`/api/v1/telemetry/reconciliations/${first.id}/?limit=101`, { token: staff })).status).toBe(400);
  // The head the read parses holds no row.
  const head = await h.deps.blobs.get(reconciliationKey(company, first.id));
  expect((JSON.parse(new TextDecoder().decode(head!.body)) as { days: unknown[] }).days).toEqual([]);
});

// the gateway delivered the missing minutes with its own values after the reconciliation, and
// «Догрузить недостающие» replaced them with the file's («corrected: 60»).
it("«Догрузить недостающие» adds only what is still missing: what the gateway delivered since is kept as it sent it", async () => {
  const start = START + 3 * 86_400_000;
  const t = (m: number) => new Date(start + m * 60_000).toISOString();
  const held = [2, 5, 8, 11];
  await push(
    Array.from({ length: 20 }, (_, m) => m)
      .filter((m) => !held.includes(m))
      .map((m) => ({ sensor: "М-12", t: t(m), value: methane(m) })),
  );
  const file = ["Время;М-12", ...Array.from({ length: 20 }, (_, m) => `${wall(start + m * 60_000)};${comma(methane(m))}`)].join("\r\n");
  const result = await reconciled(file);
  expect(result.totals).toMatchObject({ missing: 4, different: 0 });
  // The gateway's own values of three of the four arrive after the reconciliation.
  await push(held.slice(0, 3).map((m) => ({ sensor: "М-12", t: t(m), value: 0.77 })));
  const filled = await json<{ status_url: string }>(await post(`/api/v1/telemetry/reconciliations/${result.id}/fill/`, {}), 202);
  await monitoringIdle(h.deps);
  expect(await json(await h.request(filled.status_url, { token: staff }), 200)).toMatchObject({
    state: "done",
    lines: 1,
    accepted: 1,
    corrected: 0,
  });
  const after = await reconciled(file);
  expect(after.totals).toMatchObject({ missing: 0, different: 3 });
  expect(after.days.flatMap((d) => d.examples.map((e) => [e.t, e.stored]))).toEqual(held.slice(0, 3).map((m) => [t(m), 0.77]));
  // Everything it found missing delivered since: nothing to add, refused, nothing stored.
  const stale = await reconciled(["Время;М-12", ...[21, 22].map((m) => `${wall(start + m * 60_000)};${comma(methane(m))}`)].join("\r\n"));
  expect(stale.totals.missing).toBe(2);
  await push([21, 22].map((m) => ({ sensor: "М-12", t: t(m), value: 0.66 })));
  const refused = await post(`/api/v1/telemetry/reconciliations/${stale.id}/fill/`, {});
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/уже получены после сверки/);
});

// a file's bidi and NUL characters were echoed raw in `unknown_sensors`, `detail` and `refused`.
it("shows a file's unknown codes and refusals without its bidi, zero-width and NUL characters", async () => {
  const code = "Q\u202E-9\u0000\u200B";
  const text = ["Время;М-12;" + code, `${wall(START)};${comma(methane(0))};12 000`].join("\r\n");
  const result = await reconciledAt(facility, text, staff, true);
  expect(result.state).toBe("done");
  expect(result.unknown_sensors).toEqual(["Q-9"]);
  const unshown = /[\u0000-\u001F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/;
  for (const shown of [result.detail ?? "", ...result.refused.map((r) => r.reason), ...result.unknown_sensors]) {
    expect(shown).not.toMatch(unshown);
  }
  expect(result.detail).toContain("«Q-9»");
});

// a file of refused lines was answered «Расхождений нет» (nothing read, nothing differs),
// and one read in half as a match of the half read.
it("says a file none of whose lines was read is unread, and one read in part partly read, never a match", async () => {
  const unreadable = ["Время;М-12;Q-1"];
  for (let m = 0; m < 20; m++) unreadable.push(`${new Date(START + m * 60_000).toISOString().slice(0, 16)};0,5;12 000`);
  const unread = await reconciled(unreadable.join("\r\n"));
  expect(unread).toMatchObject({ state: "done", verdict: "unread", refused_count: 20, totals: { in_file: 0, missing: 0, different: 0 } });
  expect(unread.refused[0]).toEqual({
    line: 2,
    reason: expect.stringMatching(/^время «2026-03-01T13:00» не в формате: «ДД\.ММ\.ГГГГ ЧЧ:ММ:СС»/),
  });
  // 20 lines, the last ten unreadable: the ten read equal the store, the file is still not read whole.
  const half = ["Время;М-12;Q-1"];
  for (let m = 0; m < 20; m++) {
    const t = START + m * 60_000;
    half.push(`${m >= 10 ? new Date(t).toISOString().slice(0, 16) : wall(t)};${comma(methane(m))};${comma(flow(m))}`);
  }
  const partly = await reconciled(half.join("\r\n"));
  expect(partly).toMatchObject({ verdict: "partly_read", refused_count: 10 });
  expect(partly.totals).toEqual({ in_file: 20, stored: 20, missing: 0, extra: 0, different: 0 });
});

// the stored readings at the instants of a line the reader could not read were counted again
// as «нет в выгрузке» (extra), beside the line's own refusal: the file has them, unread.
it("does not count the readings of an unread line or value as absent from the file", async () => {
  const lines = ["Время;М-12;Q-1"];
  for (let m = 0; m < 20; m++) {
    const t = START + m * 60_000;
    // 5–7: a time the reader does not take; 12: М-12's value not a number; 15: the line cut short, no Q-1.
    const time = m >= 5 && m <= 7 ? new Date(t).toISOString().slice(0, 16) : wall(t);
    if (m === 15) lines.push(`${time};${comma(methane(m))}`);
    else lines.push(`${time};${m === 12 ? "нет" : comma(methane(m))};${comma(flow(m))}`);
  }
  const result = await reconciled(lines.join("\r\n"));
  expect(result).toMatchObject({ verdict: "partly_read", refused_count: 5 });
  // 20 minutes of two sensors stored; 3 lines, a value and a cell not read: 8 readings not compared, none extra.
  expect(result.totals).toEqual({ in_file: 32, stored: 40, missing: 0, extra: 0, different: 0, unread: 8 });
  const [methaneDay, flowDay] = result.days;
  expect([methaneDay.sensor_code, methaneDay.extra, (methaneDay as { unread?: number }).unread]).toEqual(["М-12", 0, 4]);
  expect([flowDay.sensor_code, flowDay.extra, (flowDay as { unread?: number }).unread]).toEqual(["Q-1", 0, 4]);
  expect(result.days.flatMap((d) => d.examples)).toEqual([]);
});

// the dispatch dialogs offered no example of the file they take. The template is the
// facility's own sensors' columns, and the reader reads every value of it (a reconciliation stores nothing).
it("offers a template of the export for the facility's register that the reader reads whole", async () => {
  const res = await h.request(`/api/v1/facilities/${facility}/sensors/dispatch-template/`, { token: staff });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(decodeURIComponent(res.headers.get("content-disposition") ?? "")).toContain("Шаблон — выгрузка АГК, Шахта «Сверка».csv");
  const bytes = new Uint8Array(await res.arrayBuffer());
  // UTF-8 with its byte order mark, as Russian Excel opens it; sent back as it came.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const lines = text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0].split(";").slice(1).sort()).toEqual(["Q-1", "М-12"]);
  expect(lines).toHaveLength(4);
  // Yesterday 10:00–10:02 on the company's clock, a flow with its digits grouped («12 345,6»).
  expect(lines[1]).toMatch(/^\d\d\.\d\d\.\d{4} 10:00:00;/);
  expect(lines[1]).toContain("12 345,6");
  const result = await reconciledAt(facility, text, staff, true);
  expect(result).toMatchObject({ state: "done", refused_count: 0, unknown_sensors: [] });
  expect(result.totals.in_file).toBe(6);
  // Sent back unchanged through «Загрузить выгрузку АГК», its example lines would have been stored as the
  // mine's readings: refused, nothing queued, its bytes out of the budget; one value of the export's own
  // makes it the mine's file.
  const imported = async (body: string) => {
    const upload = await uploaded(facility, new TextEncoder().encode(body));
    return { upload, res: await post("/api/v1/telemetry/files/", { facility, file_upload: upload, name: "АГК.csv" }, staff) };
  };
  const unchanged = await imported(text);
  expect(unchanged.res.status).toBe(400);
  expect(((await unchanged.res.json()) as { detail: string }).detail).toBe(
    "Файл — шаблон выгрузки АГК без изменений: его строки — пример (10:00–10:02, значения примера), не показания. Замените их строками выгрузки и загрузите файл снова",
  );
  const held = await h.deps.repos.caps.listAmounts(company, "TELEMETRY_UPLOADS");
  expect(held.flatMap((c) => Object.keys(c.amounts))).not.toContain(/([0-9a-f-]{36})\.csv$/.exec(unchanged.upload)![1]);
  expect((await h.deps.repos.monitoring.getBatch(company, /([0-9a-f-]{36})\.csv$/.exec(unchanged.upload)![1])) ?? null).toBeNull();
  const edited = await imported(text.replace("12 345,6", "12 351,2"));
  expect(edited.res.status).toBe(202);
  // Another company's facility: 404.
  expect((await h.request(`/api/v1/facilities/${facility}/sensors/dispatch-template/`, { token: other })).status).toBe(404);
});

it("reads a dispatch system's two-digit year and its date in a column of its own", async () => {
  const short = (t: number) => wall(t).replace(/\.20(\d\d) /, ".$1 ");
  const lines = ["Дата;Время;М-12;Q-1"];
  const twoDigit = ["Время;М-12;Q-1"];
  for (let m = 20; m < 30; m++) {
    const t = START + m * 60_000;
    const [date, time] = short(t).split(" ");
    lines.push(`${date};${time};${comma(methane(m))};${comma(flow(m))}`);
    twoDigit.push(`${short(t)};${comma(methane(m))};${comma(flow(m))}`);
  }
  for (const text of [lines, twoDigit]) {
    const result = await reconciled(text.join("\r\n"));
    expect(result).toMatchObject({ verdict: "match", refused_count: 0, from: at(20), to: at(29) });
    expect(result.totals).toEqual({ in_file: 20, stored: 20, missing: 0, extra: 0, different: 0 });
  }
});

it("answers 404 for another company's facility and reconciliation, and 400 for a key of no upload", async () => {
  const mine = await reconciled(exportText());
  for (const path of [`${mine.id}/`, `${mine.id}/xlsx/`]) {
    expect((await h.request(`/api/v1/telemetry/reconciliations/${path}`, { token: other })).status).toBe(404);
  }
  expect((await post(`/api/v1/telemetry/reconciliations/${mine.id}/fill/`, {}, other)).status).toBe(404);
  const theirs = await post(
    "/api/v1/telemetry/reconciliations/",
    { facility, file_upload: `telemetry-uploads/x/${facility}/${mine.id}.csv` },
    other,
  );
  expect(theirs.status).toBe(404);
  const bad = await json<{ detail: string }>(await post("/api/v1/telemetry/reconciliations/", { facility, file_upload: "мой.csv" }), 400);
  expect(bad.detail).toContain("ожидается ключ файла из ответа upload-url");
  const none = await json<{ detail: string }>(await post("/api/v1/telemetry/reconciliations/", { file_upload: "x" }), 400);
  expect(none.detail).toContain("укажите площадку");
  expect((await h.request("/api/v1/telemetry/reconciliations/not-an-id/", { token: staff })).status).toBe(404);
});

it("flags a climate period computed before when «Догрузить недостающие» brings a reading into its hours", async () => {
  const mine = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Факел»", kind: "underground_mine" }), 201)).id;
  const point = (await json<{ id: string }>(await post(`/api/v1/facilities/${mine}/points/`, { name: "Факел", kind: "flare" }), 201)).id;
  const meters = { q: "Q-Ф", c: "C-Ф", flame: "ФЛ-Ф" };
  for (const [code, kind] of [
    [meters.q, "flow"],
    [meters.c, "methane"],
    [meters.flame, "flame"],
  ])
    await json(await post(`/api/v1/facilities/${mine}/sensors/`, { code, kind, point }), 201);
  // An hour of minutes, 01.03.2026 20:00-20:59 in Kemerovo; the flow's 20:10 held back from the push.
  const readings: { sensor: string; t: string; value: number }[] = [];
  const lines = [`Время;${meters.q};${meters.c};${meters.flame}`];
  for (let m = 0; m < 60; m++) {
    if (m !== 10) readings.push({ sensor: meters.q, t: at(m), value: 21 });
    readings.push({ sensor: meters.c, t: at(m), value: 0.38 }, { sensor: meters.flame, t: at(m), value: 1 });
    lines.push(`${wall(START + m * 60_000)};21;0,38;1`);
  }
  const pushed = await json<{ status_url: string }>(await post("/api/v1/telemetry/readings/", { facility: mine, readings }), 202);
  await monitoringIdle(h.deps);
  expect(await json(await h.request(pushed.status_url, { token: staff }), 200)).toMatchObject({ state: "done", accepted: 179 });
  const project = await json<{ id: string }>(
    await post("/api/v1/climate-projects/", climateProjectBody("Факел шахты", mine, point, meters)),
    201,
  );
  const period = await json<{ id: string; readings_changed: unknown }>(
    await post(`/api/v1/climate-projects/${project.id}/periods/`, { start: "2026-03-01T20:00", end: "2026-03-01T21:00" }),
    201,
  );
  expect(period.readings_changed).toBeNull();

  const result = await reconciledAt(mine, lines.join("\r\n"));
  expect(result.totals).toMatchObject({ in_file: 180, missing: 1, extra: 0, different: 0 });
  const filled = await json<{ status_url: string }>(await post(`/api/v1/telemetry/reconciliations/${result.id}/fill/`, {}), 202);
  await monitoringIdle(h.deps);
  expect(await json(await h.request(filled.status_url, { token: staff }), 200)).toMatchObject({ state: "done", accepted: 1 });
  const after = await json<{ readings_changed: { sensors: string[] } | null }>(
    await h.request(`/api/v1/climate-projects/${project.id}/periods/${period.id}/`, { token: staff }),
    200,
  );
  expect(after.readings_changed?.sensors).toEqual([meters.q]);
});

it("flags a month accepted before when «Догрузить недостающие» brings readings into it", async () => {
  const mine = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Месяц»", kind: "underground_mine" }), 201)).id;
  const point = (
    await json<{ id: string }>(await post(`/api/v1/facilities/${mine}/points/`, { name: "Ствол № 5", kind: "ventilation_shaft" }), 201)
  ).id;
  for (const [code, kind] of [
    ["Q-5", "flow"],
    ["М-5", "methane"],
  ])
    await json(await post(`/api/v1/facilities/${mine}/sensors/`, { code, kind, point }), 201);
  // An hour of minutes from 01.03.2026 20:00 in Kemerovo; 20 minutes of the flow at twice the rate held
  // back from the push (the month substitutes them from their neighbours).
  const flowAt = (m: number) => (m >= 20 && m < 40 ? 2000 : 1000);
  const readings: { sensor: string; t: string; value: number }[] = [];
  const lines = ["Время;Q-5;М-5"];
  for (let m = 0; m < 60; m++) {
    if (flowAt(m) === 1000) readings.push({ sensor: "Q-5", t: at(m), value: flowAt(m) });
    // Methane that moves (60 equal minutes while the flow changes would be a stuck meter, D58).
    const ch4 = Math.round((0.5 + (m % 7) / 100) * 100) / 100;
    readings.push({ sensor: "М-5", t: at(m), value: ch4 });
    lines.push(`${wall(START + m * 60_000)};${flowAt(m)};${comma(ch4)}`);
  }
  await json(await post("/api/v1/telemetry/readings/", { facility: mine, readings }), 202);
  await monitoringIdle(h.deps);
  const project = await json<{ id: string }>(
    await post("/api/v1/projects/create_project/", {
      name: "Замеры 2026",
      start_date: "2026-01-01",
      end_date: "2026-12-31",
      facility: mine,
    }),
    201,
  );
  const [accepted] = await json<{ accepted: { ch4_t: number; changed: boolean } }[]>(
    await post("/api/v1/telemetry/offers/accept/", {
      facility: mine,
      point,
      months: ["2026-03"],
      project: project.id,
      reason: "Час замеров",
    }),
    201,
  );
  expect(accepted.accepted.changed).toBe(false);

  const result = await reconciledAt(mine, lines.join("\r\n"));
  expect(result.totals).toMatchObject({ in_file: 120, missing: 20, extra: 0, different: 0 });
  const filled = await json<{ status_url: string }>(await post(`/api/v1/telemetry/reconciliations/${result.id}/fill/`, {}), 202);
  await monitoringIdle(h.deps);
  expect(await json(await h.request(filled.status_url, { token: staff }), 200)).toMatchObject({ state: "done", accepted: 20 });
  const offers = await json<{ point: string; month: string; accepted: { changed: boolean; difference_pct: number } | null }[]>(
    await h.request(`/api/v1/telemetry/offers/?facility=${mine}&year=2026`, { token: staff }),
    200,
  );
  const month = offers.find((o) => o.point === point && o.month === "2026-03")!;
  expect(month.accepted).toMatchObject({ changed: true });
  expect(month.accepted!.difference_pct).toBeGreaterThan(0.1);
});

it("keeps a reconciliation's xlsx before its record says done: a page that reads «done» finds the file", async () => {
  // The loop budget asked for the xlsx as soon as the record said «done» and got 404 «Файл сверки не найден».
  const blobs = h.deps.blobs;
  const put = blobs.put;
  const order: string[] = [];
  blobs.put = async (key, body, contentType) => {
    if (key.endsWith(".xlsx")) order.push("xlsx");
    else if (/\/[^/.]+\.json$/.test(key) && key.includes("reconciliation")) {
      order.push(String((JSON.parse(new TextDecoder().decode(body as Uint8Array)) as { state?: string }).state));
    }
    return put.call(blobs, key, body, contentType);
  };
  try {
    expect(await reconciled(exportText())).toMatchObject({ state: "done" });
  } finally {
    blobs.put = put;
  }
  expect(order.slice(-2)).toEqual(["xlsx", "done"]);
});
