// A forecast's and a calibration's history straight to storage (docs/api.md, «Large histories»),
// on the local host: POST v1/forecast/upload-url/ → PUT the file to the answered url (the local
// PUT /api/v1/uploads/?token=…) → the forecast or the calibration names the key (file_upload) in
// its form. A year of 10-minute readings (52 560 rows, about 8 MB: twice the request cap) and a
// month of 1-minute readings (44 640 rows) fit; the object is read exactly as the multipart file
// (the same Russian row errors), kept by a dry run for the save that follows, deleted after its one
// use, and another company's key is not found. Training on the most rows it takes (200 000, about
// 29 MB) is in the deep tier (forecast-direct-upload.deep.test.ts); here it trains from a key on the year.
import { readFileSync } from "node:fs";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "@core/gbdt";
import { longwallHistory, type LongwallHistory } from "@core/gbdt/longwall-history";
import { MAX_FORECAST_UPLOAD_BYTES, MAX_TABULAR_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { sweepAbandonedUploads } from "@server/domain/files/direct-uploads";
import { keptPreviewColumns, takePreviewColumns, uploadDigest } from "@server/domain/forecast/preview-columns";
import { createHarness, type Harness } from "../support/harness";
import { historyCsv, repeatedHistoryCsv } from "../support/longwall-csv";
import { modelFixture } from "../support/models";
import { forecastUploaded, type ForecastUploadGrant, grantForecastUpload, putGranted } from "../support/forecast-upload";

type Grant = ForecastUploadGrant;

let h: Harness;
let now = Date.now();
const clock = { now: () => new Date(now) };
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;
let other: Awaited<ReturnType<Harness["signedInUser"]>>;
let modelId: string;
let year: LongwallHistory;
let yearText: string;
let yearCsv: Uint8Array;

const encoder = new TextEncoder();

const grant = (token: string, bytes: Uint8Array, name?: string, contentType?: string) =>
  grantForecastUpload(h, token, bytes, name, contentType);
const put = (g: Grant, bytes: Uint8Array) => putGranted(h, g, bytes);
const uploaded = (token: string, bytes: Uint8Array, name?: string) => forecastUploaded(h, token, bytes, name);

function forecastForm(projectId: string, fields: Record<string, string>): FormData {
  const form = new FormData();
  form.set("name", "Лава 7, год");
  form.set("project", projectId);
  form.set("method", "xgboost");
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
}

const post = (path: string, token: string, body: FormData) => h.request(path, { method: "POST", token, body });
const exists = async (key: string) => (await h.deps.blobs.stat!(key)) !== undefined;

beforeAll(async () => {
  h = await createHarness({}, clock);
  staff = await h.signedInUser("Шахта Телеметрия");
  other = await h.signedInUser("Шахта Соседняя");
  const list = (await (await h.request("/api/v1/forecast_models/", { token: staff.token })).json()) as {
    results: Array<{ method: string; versions: Array<{ id: string; is_active: boolean }> }>;
  };
  modelId = list.results.find((r) => r.method === "xgboost")!.versions.find((v) => v.is_active)!.id;
  const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  year = longwallHistory(model, 52_560, 0.06);
  yearText = historyCsv(year);
  yearCsv = encoder.encode(yearText);
}, 120_000);
afterAll(() => h.close());

describe("a year of 10-minute readings and a month of 1-minute readings", () => {
  it("is larger than a request may carry", () => {
    expect(yearCsv.byteLength).toBeGreaterThan(MAX_TABULAR_UPLOAD_BYTES);
    expect(yearCsv.byteLength).toBeLessThan(MAX_FORECAST_UPLOAD_BYTES);
  });

  it("calibrates on a month of 1-minute readings sent straight to storage, then deletes the upload", async () => {
    const month = encoder.encode(repeatedHistoryCsv(yearText, 44_640, 60_000));
    const key = await uploaded(staff.token, month, "март, поминутно.csv");
    expect(key).toMatch(
      new RegExp(`^forecast-uploads/${staff.companyId}/${staff.userId}/${Math.floor(now / 86_400_000)}/[0-9a-f-]{36}\\.csv$`),
    );
    const form = new FormData();
    form.set("file_upload", key);
    const res = await post(`/api/v1/forecast_models/${modelId}/calibration/`, staff.token, form);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({
      scope: "company",
      rows: 44_640,
      period: { from: "2025-01-01T00:00:00", to: "2025-01-31T23:59:00" },
    });
    expect(await exists(key)).toBe(false);
    // Used once: the same key again is not found.
    const again = await post(`/api/v1/forecast_models/${modelId}/calibration/`, staff.token, form);
    expect(again.status).toBe(404);
  }, 120_000);

  it("back-tests a year of 10-minute readings: every row forecast with its interval, the file kept with the calculation", async () => {
    const project = await h.newProject(staff.token, "Лава 7");
    const key = await uploaded(staff.token, yearCsv);
    const res = await post(
      "/api/v1/regres_methane/",
      staff.token,
      forecastForm(project.id, { file_upload: key, file_upload_name: "телеметрия за год.csv" }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { id: string; file_data: { name: string; size: number } };
    expect(created.file_data).toMatchObject({ name: "телеметрия за год.csv", size: yearCsv.byteLength });
    expect(await exists(key)).toBe(false);
    const detail = (await (await h.request(`/api/v1/regres_methane/${created.id}/single_calc/1/`, { token: staff.token })).json()) as {
      rows: number;
      calibration: { rows: number } | null;
      backtest: { model: { rows: number; mae: number; unit: string }; persistence: { rows: number } };
      data: Array<{ result: number; hi: number | null }>;
    };
    expect(detail.rows).toBe(52_560);
    expect(detail.calibration).toMatchObject({ rows: 44_640 });
    // D96 (b): January's rows are the calibration's period, counted apart (31 days of 144); model and persistence are
    // scored on the same rows after it: the first has no reading before it judged.
    expect(detail.backtest).toMatchObject({ seen_rows: 31 * 144 });
    expect(detail.backtest.model).toMatchObject({ rows: 52_560 - 31 * 144 - 1, unit: "shift" });
    expect(detail.backtest.persistence.rows).toBe(52_560 - 31 * 144 - 1);
    detail.data.slice(0, 100).forEach((row, i) => expect(row.result).toBeCloseTo(year.forecast[i], 6));
    expect(detail.data.every((r) => r.hi !== null)).toBe(true);
    // The source file downloads as it was uploaded.
    const file = await h.request(`/api/v1/regres_methane/${created.id}/file/`, { token: staff.token });
    expect(Buffer.from(await file.arrayBuffer()).equals(yearCsv)).toBe(true);
  }, 180_000);
});

describe("training on a year of 10-minute readings sent straight to storage", () => {
  it("trains from the key, the 60 rows without a measured concentration skipped and counted, then deletes the upload", async () => {
    // Every 876th row's fact left empty, as a monitoring system's outage writes it.
    const lines = yearText.split("\n");
    for (let k = 1; k <= 60; k++) lines[k * 876] = lines[k * 876].replace(/;[^;]*$/, ";");
    const key = await uploaded(staff.token, encoder.encode(lines.join("\n")), "лава 7, год без 60 замеров.csv");
    const form = new FormData();
    form.set("file_upload", key);
    form.set("params", JSON.stringify({ n_estimators: 20, max_depth: 4 }));
    const res = await post("/api/v1/forecast_models/xgboost/train/", staff.token, form);
    expect(res.status, await res.clone().text()).toBe(201);
    const trained = (await res.json()) as {
      company: string;
      training: { rows: number; skipped_rows: number; train_rows: number; valid_rows: number };
    };
    expect(trained.company).toBe(staff.companyId);
    expect(trained.training).toMatchObject({ rows: 52_560, skipped_rows: 60 });
    expect(trained.training.train_rows + trained.training.valid_rows).toBe(52_500);
    expect(await exists(key)).toBe(false);
    const both = new FormData();
    both.set("file_upload", key);
    both.set("file", new Blob(["x"]), "история.csv");
    expect((await post("/api/v1/forecast_models/xgboost/train/", staff.token, both)).status).toBe(400);
  }, 120_000);
});

describe("the same checks as the file in the form", () => {
  it("answers a bad cell with the multipart path's Russian row error, and deletes the upload", async () => {
    const project = await h.newProject(staff.token, "Лава 8");
    const text = historyCsv(year, 0, 300).replace(/\n(01\.01\.2025 00:20;)([^;]+)/, "\n$1много");
    const viaForm = forecastForm(project.id, {});
    viaForm.set("file_data", new Blob([text]), "история.csv");
    const multipart = await post("/api/v1/regres_methane/", staff.token, viaForm);
    expect(multipart.status).toBe(400);
    const expected = ((await multipart.json()) as { detail: string }).detail;
    expect(expected).toMatch(/строка 4/);

    const key = await uploaded(staff.token, encoder.encode(text), "история.csv");
    const direct = await post("/api/v1/regres_methane/", staff.token, forecastForm(project.id, { file_upload: key }));
    expect(direct.status).toBe(400);
    expect(((await direct.json()) as { detail: string }).detail).toBe(expected);
    expect(await exists(key)).toBe(false);

    // The dry run (the dialog's preview) reads it the same way and lists the refused row, and keeps
    // the upload for the save; the save refuses it with the same error and deletes it.
    const previewKey = await uploaded(staff.token, encoder.encode(text), "история.csv");
    const preview = await post("/api/v1/regres_methane/?dry_run=1", staff.token, forecastForm(project.id, { file_upload: previewKey }));
    expect(preview.status, await preview.clone().text()).toBe(200);
    expect(JSON.stringify(await preview.json())).toContain("много");
    expect(await exists(previewKey)).toBe(true);
    const saved = await post("/api/v1/regres_methane/", staff.token, forecastForm(project.id, { file_upload: previewKey }));
    expect(saved.status).toBe(400);
    expect(((await saved.json()) as { detail: string }).detail).toBe(expected);
    expect(await exists(previewKey)).toBe(false);
  }, 60_000);

  it("saves the history its preview read, uploaded once: the preview keeps the upload, the save uses it up", async () => {
    const project = await h.newProject(staff.token, "Лава 9");
    const text = encoder.encode(historyCsv(year, 0, 600));
    const key = await uploaded(staff.token, text, "неделя.csv");
    const fields = { file_upload: key, file_upload_name: "неделя.csv" };
    for (let i = 0; i < 2; i++) {
      const preview = await post("/api/v1/regres_methane/?dry_run=1", staff.token, forecastForm(project.id, fields));
      expect(preview.status, await preview.clone().text()).toBe(200);
      expect(await exists(key)).toBe(true);
    }
    // Another company's preview of the key neither reads nor deletes it.
    expect((await post("/api/v1/regres_methane/?dry_run=1", other.token, forecastForm(project.id, fields))).status).toBe(404);
    expect(await exists(key)).toBe(true);
    const res = await post("/api/v1/regres_methane/", staff.token, forecastForm(project.id, fields));
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { id: string; file_data: { name: string; size: number } };
    expect(created.file_data).toMatchObject({ name: "неделя.csv", size: text.byteLength });
    expect(await exists(key)).toBe(false);
    // Used once: neither a second save nor a preview finds it.
    expect((await post("/api/v1/regres_methane/", staff.token, forecastForm(project.id, fields))).status).toBe(404);
    expect((await post("/api/v1/regres_methane/?dry_run=1", staff.token, forecastForm(project.id, fields))).status).toBe(404);
    const file = await h.request(`/api/v1/regres_methane/${created.id}/file/`, { token: staff.token });
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(text))).toBe(true);
  }, 60_000);

  it("saves from the columns its preview read, the same rows as a save that reads the file; a rewritten upload is read again", async () => {
    const project = await h.newProject(staff.token, "Лава 10");
    const text = encoder.encode(historyCsv(year, 0, 2_000));
    const detail = async (id: string) =>
      (await (await h.request(`/api/v1/regres_methane/${id}/single_calc/1/`, { token: staff.token })).json()) as {
        rows: number;
        backtest: unknown;
        data: unknown[];
      };
    const save = async (key: string) => {
      const res = await post("/api/v1/regres_methane/", staff.token, forecastForm(project.id, { file_upload: key }));
      expect(res.status, await res.clone().text()).toBe(201);
      return detail(((await res.json()) as { id: string }).id);
    };
    // Previewed: its columns are kept for this company and this upload only, and the save takes them.
    const previewed = await uploaded(staff.token, text);
    const before = keptPreviewColumns(h.deps).entries;
    expect(
      (await post("/api/v1/regres_methane/?dry_run=1", staff.token, forecastForm(project.id, { file_upload: previewed }))).status,
    ).toBe(200);
    expect(keptPreviewColumns(h.deps).entries).toBe(before + 1);
    expect(takePreviewColumns(h.deps, other.companyId, previewed, () => uploadDigest(text), Date.now())).toBeUndefined();
    expect(keptPreviewColumns(h.deps).entries).toBe(before + 1);
    const fromColumns = await save(previewed);
    expect(keptPreviewColumns(h.deps).entries).toBe(before);
    // Not previewed (a miss: another instance's memory, or none): the file is read; the same rows.
    const fromFile = await save(await uploaded(staff.token, text));
    expect(fromColumns.rows).toBe(2_000);
    expect(fromColumns.data).toEqual(fromFile.data);
    expect(fromColumns.backtest).toEqual(fromFile.backtest);
    // An upload written again after its preview is not the previewed file: its own rows are stored.
    const rewritten = await uploaded(staff.token, text);
    expect(
      (await post("/api/v1/regres_methane/?dry_run=1", staff.token, forecastForm(project.id, { file_upload: rewritten }))).status,
    ).toBe(200);
    await h.deps.blobs.put(rewritten, encoder.encode(historyCsv(year, 2_000, 2_500)), "text/csv");
    const other500 = await save(rewritten);
    expect(other500.rows).toBe(500);
    expect(keptPreviewColumns(h.deps).entries).toBe(before);
  }, 120_000);

  it("refuses a key with a file, a key for another type and a key that is not one", async () => {
    const project = await h.newProject(staff.token, "Лава 9");
    const key = await uploaded(staff.token, encoder.encode(historyCsv(year, 0, 60)));
    const both = forecastForm(project.id, { file_upload: key });
    both.set("file_data", new Blob([historyCsv(year, 0, 60)]), "история.csv");
    expect((await post("/api/v1/regres_methane/", staff.token, both)).status).toBe(400);
    const malformed = await post("/api/v1/regres_methane/", staff.token, forecastForm(project.id, { file_upload: "uploads/../x.csv" }));
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { detail: string }).detail).toMatch(/^Файл: /);
    const series = new FormData();
    series.set("name", "Ряд");
    series.set("project", project.id);
    series.set("file_upload", key);
    const wrongType = await post("/api/v1/sensitivity/", staff.token, series);
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as { detail: string }).detail).toMatch(/только прогноз метана/);
  });
});

describe("company isolation", () => {
  it("answers another company's key as a missing one (404), for the forecast and the calibration, and leaves the file to its owner", async () => {
    const key = await uploaded(staff.token, encoder.encode(historyCsv(year, 0, 200)));
    const theirs = await h.newProject(other.token, "Чужая лава");
    const asForecast = await post("/api/v1/regres_methane/", other.token, forecastForm(theirs.id, { file_upload: key }));
    expect(asForecast.status).toBe(404);
    const theirDetail = await asForecast.json();
    // The same answer as a key that names nothing.
    const missing = key.replace(/[0-9a-f]{4}\.csv$/, "0000.csv");
    const ownProject = await h.newProject(staff.token, "Лава 10");
    const asMissing = await post("/api/v1/regres_methane/", staff.token, forecastForm(ownProject.id, { file_upload: missing }));
    expect({ status: asMissing.status, body: await asMissing.json() }).toEqual({ status: 404, body: theirDetail });
    const form = new FormData();
    form.set("file_upload", key);
    expect((await post(`/api/v1/forecast_models/${modelId}/calibration/`, other.token, form)).status).toBe(404);
    expect(await exists(key)).toBe(true);
    const own = await post(`/api/v1/forecast_models/${modelId}/calibration/`, staff.token, form);
    expect(own.status, await own.clone().text()).toBe(201);
  });
});

describe("the grant and the local PUT", () => {
  it("checks the declared type (415), size (413 over 32 MB, 400 empty) and answers a 15-minute URL", async () => {
    const ask = (json: unknown) => h.request("/api/v1/forecast/upload-url/", { method: "POST", token: staff.token, json });
    expect((await ask({ content_type: "application/pdf", size: 10 })).status).toBe(415);
    expect((await ask({ content_type: "text/csv", size: MAX_FORECAST_UPLOAD_BYTES + 1 })).status).toBe(413);
    expect((await ask({ content_type: "text/csv", size: 0 })).status).toBe(400);
    const missing = await ask({ size: 10 });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/^Тип файла/);
    const g = await grant(staff.token, new Uint8Array(10), "a.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(g.url).toMatch(/^\/api\/v1\/uploads\/\?token=[\w.-]+$/);
    expect(g.file_upload).toMatch(/\.xlsx$/);
    expect(Date.parse(g.expires_at) - now).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(Date.parse(g.expires_at) - now).toBeGreaterThan(14 * 60 * 1000);
    expect(decodeJwt(g.upload_id)).toMatchObject({ purpose: "forecast", key: g.file_upload, max: 10, cid: staff.companyId });
  });

  it("caps the PUT at the declared size while streaming and keeps nothing of a larger body", async () => {
    const g = await grant(staff.token, new Uint8Array(100));
    const declaredMore = await put(g, new Uint8Array(101).fill(65));
    expect(declaredMore.status).toBe(413);
    // A body longer than its Content-Length claims is cut by the count of streamed bytes.
    const g2 = await grant(staff.token, new Uint8Array(100));
    const lying = await h.request(g2.url, {
      method: "PUT",
      headers: { ...g2.headers, "Content-Length": "100" },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(80).fill(65));
          controller.enqueue(new Uint8Array(80).fill(65));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(lying.status).toBe(413);
    expect(await exists(g2.file_upload)).toBe(false);
  });

  it("takes exactly the declared size: a shorter body is refused and nothing kept, a larger one names the size in bytes", async () => {
    const g = await grant(staff.token, new Uint8Array(1000));
    const shorter = await put(g, new Uint8Array(999).fill(65));
    expect(shorter.status).toBe(400);
    const shortText = "файл меньше заявленного размера (999 Б вместо 1 000 Б): загрузите его заново";
    expect(await shorter.json()).toEqual({
      detail: `file: ${shortText}`,
      errors: [{ field: "file", code: "invalid", message: shortText, params: {} }],
    });
    expect(await exists(g.file_upload)).toBe(false);
    const larger = await put(await grant(staff.token, new Uint8Array(1000)), new Uint8Array(1001).fill(65));
    expect(larger.status).toBe(413);
    expect(await larger.json()).toEqual({ detail: "Файл больше 1 000 Б" });
    // A body that ends before its Content-Length is not kept either.
    const g2 = await grant(staff.token, new Uint8Array(1000));
    const cut = await h.request(g2.url, {
      method: "PUT",
      headers: { ...g2.headers, "Content-Length": "1000" },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(500).fill(65));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(cut.status).toBe(400);
    expect(await exists(g2.file_upload)).toBe(false);
  });

  it("grants a user at most 64 MB of histories not yet used: of 40 parallel 16 MB grants 4, the rest a 429 that says when to try again", async () => {
    const sixteenMegabytes = 16 * 1024 * 1024;
    const user = await h.signedInUser("Шахта Квота");
    const declare = () =>
      h.request("/api/v1/forecast/upload-url/", {
        method: "POST",
        token: user.token,
        json: { content_type: "text/csv", size: sixteenMegabytes, name: "история.csv" },
      });
    const answers = await Promise.all(Array.from({ length: 40 }, declare));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(36);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /^Загруженные вами и еще не использованные файлы истории вместе с этим превысили бы 64 МБ/,
    );
  });

  it("takes one PUT per token: again after the upload was used is 409, and an expired token is 401", async () => {
    const bytes = encoder.encode(historyCsv(year, 0, 60));
    const g = await grant(staff.token, bytes);
    expect((await put(g, bytes)).status).toBe(200);
    expect((await put(g, bytes)).status).toBe(409);
    const form = new FormData();
    form.set("file_upload", g.file_upload);
    const project = await h.newProject(staff.token, "Лава 11");
    expect((await post("/api/v1/regres_methane/", staff.token, forecastForm(project.id, { file_upload: g.file_upload }))).status).toBe(201);
    expect(await exists(g.file_upload)).toBe(false);
    const replay = await put(g, bytes);
    expect(replay.status).toBe(409);
    expect(await exists(g.file_upload)).toBe(false);

    const late = await grant(staff.token, bytes);
    now += 16 * 60 * 1000;
    try {
      expect((await put(late, bytes)).status).toBe(401);
    } finally {
      now -= 16 * 60 * 1000;
    }
  });

  it("deletes an upload never used a day later, with its token's mark", async () => {
    const bytes = encoder.encode(historyCsv(year, 0, 60));
    const key = await uploaded(staff.token, bytes);
    expect(await sweepAbandonedUploads(h.deps)).not.toContain(key);
    now += 25 * 60 * 60 * 1000;
    try {
      const swept = await sweepAbandonedUploads(h.deps);
      expect(swept).toEqual(expect.arrayContaining([key, `${key}.used`]));
      expect(await exists(key)).toBe(false);
    } finally {
      now -= 25 * 60 * 60 * 1000;
    }
  });
});
