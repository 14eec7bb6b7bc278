// A CSV as Russian Excel saves it («CSV (разделители — точки с запятой)»: Windows-1251, «;»,
// decimal commas, CRLF) uploaded for every file-based calculation through the real API, giving the
// same results as the same table in UTF-8; a file in another encoding is refused in words. One
// history in that form (tests/fixtures/encodings) goes through every path a history takes — the
// forecast's upload, its preview and the direct upload, the training through the API and through
// the direct upload, the calibration — and gives what its UTF-8 twin gives: the same rows, the same
// model. (The training in the browser: tests/e2e/web-train-model.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import { openProjectFixture, readCalculation, type SignedInUser } from "../support/project-fixture";
import { encodeLegacy, russianExcelHistory } from "../support/legacy-encoding";
import { CSV_ENCODING_MESSAGE } from "@server/files/tabular";
import type { Project } from "@server/contract/schemas/project";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Шахта «Северная»"));
});
afterAll(() => h.close());

type Body = Record<string, unknown> & { id: string };

async function upload(type: string, fields: Record<string, string>, bytes: Uint8Array, name = "Книга1.csv") {
  const form = new FormData();
  form.set("project", project.id);
  form.set("name", `${type} ${name}`);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file_data", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "text/csv" }), name);
  return h.request(`/api/v1/${type}/`, { method: "POST", token: user.token, body: form });
}

const crlf = (lines: string[]) => lines.join("\r\n") + "\r\n";

const CASES: Array<{ type: string; fields: Record<string, string>; text: string; check: (body: Body) => void }> = [
  {
    type: "regres_methane",
    fields: { method: "xgboost" },
    text: crlf([
      // A column of its own beside the features, as a mine's sheet has.
      "id;x1;x2;x7;x8;x12;x13;x15;Примечание",
      "1;1\u00a0000,5;1\u00a0010;30,5;50;0,5;9\u00a0000;15,25;Замер после смены",
      "2;1\u00a0200;1\u00a0190;35;55,75;0,6;9\u00a0100;16;Датчик заменен",
    ]),
    check: (body) => {
      const rows = body.data as Array<Record<string, number>>;
      expect(rows.map((r) => [r.id, r.x1, r.x7, r.x15])).toEqual([
        [1, 1000.5, 30.5, 15.25],
        [2, 1200, 35, 16],
      ]);
      expect(rows.every((r) => typeof r.result === "number")).toBe(true);
    },
  },
  {
    // A gas-monitoring system's periods (underground, formula 3.1), «м3» for «м³».
    type: "underground",
    fields: { dictionary_items: JSON.stringify({ get_underground: 1 }) },
    text: crlf([
      "Начало периода;Конец периода;Расход газовой смеси, м3/мин;Время работы за период, ч;Содержание CH4 в смеси, % об.;Содержание CO2 в смеси, % об.",
      "01.01.2024;31.01.2024;12,5;744;76;10,6",
      "01.02.2024;29.02.2024;10,25;650,5;75,5;10",
    ]),
    check: (body) => {
      const periods = body.periods as Array<Record<string, unknown>>;
      expect(periods.map((p) => [p.flow_m3_min, p.hours, p.w_ch4])).toEqual([
        [12.5, 744, 76],
        [10.25, 650.5, 75.5],
      ]);
    },
  },
  {
    type: "filling_blanks",
    fields: { name_value: "Метан, т", name_element: "Шахта" },
    text: crlf(["year;Шахта;Метан, т", "2019;Северная;100,5", "2020;Северная;", "2021;Северная;130,5", "2019;Южная «Глубокая»;10"]),
    check: (body) => {
      const elements = body.elements as Array<{ name: string; rows: Array<{ year: number; value: number }> }>;
      expect(elements.map((e) => e.name)).toEqual(["Северная", "Южная «Глубокая»"]);
      expect(elements[0].rows.map((r) => r.value)).toEqual([100.5, 115.5, 130.5]);
    },
  },
  {
    type: "sensitivity",
    fields: {},
    text: crlf([
      "year;volume;methane;element",
      "2020;1\u00a0000\u00a0000;10,5;Лава №1",
      "2021;1\u00a0200\u00a0000;9,25;Лава №1",
      "2022;1\u00a0100\u00a0000;11;Лава №1",
    ]),
    check: (body) => {
      const elements = body.elements as Array<{ name: string; data_sensitivity: Array<Record<string, number>> }>;
      expect(elements.map((e) => e.name)).toEqual(["Лава №1"]);
      expect(elements[0].data_sensitivity.map((r) => [r.year, r.volume])).toEqual([
        [2020, 1_000_000],
        [2021, 1_200_000],
        [2022, 1_100_000],
      ]);
    },
  },
];

const single = (type: string, id: string) => readCalculation<Body>(h, user.token, type, id);

/** What two uploads of the same table share: everything but the identity, the audit and the file. */
function results(body: Body): Record<string, unknown> {
  const { id: _id, name: _name, created_at: _c, updated_at: _u, file_data: _f, version: _v, ...rest } = body;
  return rest;
}

describe("CSV saved by Russian Excel (Windows-1251)", () => {
  it.each(CASES)("is read for $type like the same table in UTF-8", async ({ type, fields, text, check }) => {
    const cp1251 = encodeLegacy(text, "windows-1251");
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(cp1251)).toThrow();
    const fromCp1251 = await upload(type, fields, cp1251);
    expect(fromCp1251.status, await fromCp1251.clone().text()).toBe(201);
    const a = await single(type, ((await fromCp1251.json()) as Body).id);
    check(a);
    // The same table in UTF-8 with a BOM (Excel's «CSV UTF-8»).
    const fromUtf8 = await upload(type, fields, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]));
    expect(fromUtf8.status).toBe(201);
    const b = await single(type, ((await fromUtf8.json()) as Body).id);
    expect(results(a)).toEqual(results(b));
    // The stored source file is the bytes uploaded, for download as they were.
    const file = await h.request(`/api/v1/${type}/${a.id}/file`, { token: user.token });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(cp1251);
  });

  it.each(CASES)("refuses $type in KOI8-R with a message saying which encodings to use", async ({ type, fields, text }) => {
    // KOI8-R has no «», № and no-break space.
    const koi8 = encodeLegacy(
      text
        .replace(/[«»]/g, '"')
        .replace(/№/g, "N")
        .replace(/\u00a0/g, ""),
      "koi8-r",
    );
    const res = await upload(type, fields, koi8);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: CSV_ENCODING_MESSAGE });
  });
});

describe("one history saved by Russian Excel, on every path a history takes", () => {
  const history = russianExcelHistory();
  const twin = (bytes: Uint8Array) => (bytes === history.cp1251 ? "Windows-1251" : "UTF-8");
  const form = (fields: Record<string, string>, bytes?: Uint8Array, field = "file") => {
    const body = new FormData();
    for (const [key, value] of Object.entries(fields)) body.set(key, value);
    if (bytes) body.set(field, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "text/csv" }), history.name);
    return body;
  };
  const post = (path: string, body: FormData) => h.request(path, { method: "POST", token: user.token, body });
  /** The file sent straight to storage (POST v1/forecast/upload-url/, PUT): its key. */
  async function direct(bytes: Uint8Array): Promise<string> {
    const grant = await h.request("/api/v1/forecast/upload-url/", {
      method: "POST",
      token: user.token,
      json: { content_type: "text/csv", size: bytes.byteLength, name: history.name },
    });
    expect(grant.status, await grant.clone().text()).toBe(200);
    const g = (await grant.json()) as { url: string; method: string; headers: Record<string, string>; file_upload: string };
    const put = await h.request(g.url, {
      method: g.method,
      headers: { ...g.headers, "Content-Length": String(bytes.byteLength) },
      body: bytes as NonNullable<RequestInit["body"]>,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    return g.file_upload;
  }
  const FORECAST = { method: "xgboost", name: "Лава по истории" };

  it("is the UTF-8 text, byte for byte, as the code page reads it", () => {
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(history.cp1251)).toThrow();
    expect(history.utf8.byteLength).toBeGreaterThan(history.cp1251.byteLength);
    expect(new TextDecoder().decode(history.utf8)).toMatch(/^Время;Расход воздуха в исходящей струе лавы \(телеметрия\), м3\/мин;/);
  });

  it("gives the forecast the same rows, through the form, the preview and the direct upload", async () => {
    const seen: Record<string, unknown>[] = [];
    for (const bytes of [history.cp1251, history.utf8]) {
      const res = await post("/api/v1/regres_methane/", form({ ...FORECAST, project: project.id }, bytes, "file_data"));
      expect(res.status, `${twin(bytes)}: ${await res.clone().text()}`).toBe(201);
      const saved = await single("regres_methane", ((await res.json()) as Body).id);
      expect((saved.data as unknown[]).length).toBe(500);
      seen.push(results(saved));
      const viaStorage = await post(
        "/api/v1/regres_methane/",
        form({ ...FORECAST, project: project.id, file_upload: await direct(bytes) }),
      );
      expect(viaStorage.status, `${twin(bytes)}: ${await viaStorage.clone().text()}`).toBe(201);
      seen.push(results(await single("regres_methane", ((await viaStorage.json()) as Body).id)));
      const preview = await post("/api/v1/regres_methane/?dry_run=1", form({ ...FORECAST, project: project.id }, bytes, "file_data"));
      expect(preview.status, `${twin(bytes)}: ${await preview.clone().text()}`).toBe(200);
      const read = (await preview.json()) as { count: number; errors: unknown[]; columns: Array<{ header: string }> };
      expect(read).toMatchObject({ count: 500, errors: [] });
      expect(read.columns.map((c) => c.header)).toContain("Расход воздуха в исходящей струе лавы (суточные замеры), м3/мин");
    }
    for (const other of seen.slice(1)) expect(other).toEqual(seen[0]);
  });

  it("trains the same model through the API and through the direct upload", async () => {
    const params = JSON.stringify({ n_estimators: 30, max_depth: 3, learning_rate: 0.3 });
    const models: Array<{ training: unknown; file: string }> = [];
    for (const bytes of [history.cp1251, history.utf8]) {
      for (const viaStorage of [false, true]) {
        const body = viaStorage ? form({ params, file_upload: await direct(bytes) }) : form({ params }, bytes);
        const res = await post("/api/v1/forecast_models/xgboost/train/", body);
        expect(res.status, `${twin(bytes)}: ${await res.clone().text()}`).toBe(201);
        const version = (await res.json()) as { id: string; feature_names: string[]; training: { rows: number; seconds: number } };
        // All but how long it took.
        const { seconds: _seconds, ...training } = version.training;
        expect(training.rows).toBe(500);
        expect(version.feature_names).toEqual(["x1", "x2", "x7", "x8", "x12", "x13", "x15"]);
        const file = await h.request(`/api/v1/forecast_models/xgboost/${version.id}/file/`, { token: user.token });
        expect(file.status).toBe(200);
        models.push({ training, file: await file.text() });
      }
    }
    for (const other of models.slice(1)) expect(other).toEqual(models[0]);
  });

  it("calibrates the platform's model alike", async () => {
    const list = (await (await h.request("/api/v1/forecast_models/", { token: user.token })).json()) as {
      results: Array<{ method: string; versions: Array<{ id: string; is_active: boolean; company?: string }> }>;
    };
    const platform = list.results.find((r) => r.method === "xgboost")!.versions.find((v) => v.is_active && !v.company)!;
    const answers: unknown[] = [];
    for (const bytes of [history.cp1251, history.utf8]) {
      const res = await post(`/api/v1/forecast_models/${platform.id}/calibration/`, form({}, bytes));
      expect(res.status, `${twin(bytes)}: ${await res.clone().text()}`).toBe(201);
      const { calibrated_at: _at, ...calibration } = (await res.json()) as Record<string, unknown>;
      answers.push(calibration);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ rows: 500 });
  });
});
