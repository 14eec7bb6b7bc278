import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel, predict } from "@core/gbdt";
import { modelFixture } from "@core/gbdt/test-fixtures";
import { activeModel, horizonModels, type Calculation, type ForecastModelVersion } from "../../api/calculations";
import { routeDetail } from "../../shared/detail";
import {
  FORECAST_FEATURES,
  NO_FILE,
  NO_ROWS,
  ROW_ERRORS,
  addRow,
  cellError,
  createRequest,
  dataRows,
  editRequests,
  forecastErrors,
  forecastListSummary,
  forecastSummary,
  initialForecastState,
  isAboveLimit,
  isBlankRow,
  previewByKey,
  previewInputs,
  removeRow,
  rowHasError,
  rowPayload,
  sentRowNumbers,
  setCell,
  type ForecastState,
} from "./forecast";
import { refused } from "../../testing/refusal";

interface Golden {
  id: number;
  texts: Record<string, string>;
  xgboost: number;
  lightgbm: number;
}

const golden: Golden[] = (() => {
  const [head, ...lines] = readFileSync(modelFixture("golden-default.csv"), "utf8").trim().split("\n");
  const columns = head.split(",");
  return lines.map((line) => {
    const cells = Object.fromEntries(line.split(",").map((c, i) => [columns[i], c]));
    return {
      id: Number(cells.id),
      texts: Object.fromEntries(FORECAST_FEATURES.map((f) => [f, cells[f] === "NaN" ? "" : cells[f]])),
      xgboost: Number(cells.pred_xgboost),
      lightgbm: Number(cells.pred_lightgbm),
    };
  });
})();

/** Rows typed into the manual table, cell by cell, as the dialog does. */
function typedState(rows: Golden[], name = "Прогноз"): ForecastState {
  let state = { ...initialForecastState(), name };
  rows.forEach((g, i) => {
    if (i > 0) state = addRow(state);
    const key = state.rows[i].key;
    for (const f of FORECAST_FEATURES) state = setCell(state, key, f, g.texts[f]);
  });
  return state;
}

/** An uploaded source file as a stored calculation shows it. */
const fileData = (name: string) => ({ name, size: 1, format: "xlsx", uploaded_at: "" });

function stored(overrides: Partial<Calculation> = {}): Calculation {
  return {
    id: "c1",
    type: "regres_methane",
    name: "Лава 7",
    project: "p1",
    is_active: true,
    is_deleted: false,
    version: 4,
    created_at: "",
    created_by: "",
    updated_at: "",
    updated_by: "",
    methodology_version: "2026.1",
    inventory_role: null,
    coefficients: {},
    flags: [],
    method: "lightgbm",
    rows: 2,
    above_limit: 1,
    max_result: 1.25,
    mean_result: 0.9,
    model: { method: "lightgbm", id: "m1", version: 1, library: "lightgbm", library_version: "v4", file_name: "methane-lightgbm.txt" },
    data: [
      { id: 7, x1: 1324.7, x2: null, x7: 37.01, x8: 124.21, x12: 0.408, x13: 18187, x15: 45.264, result: 0.55 },
      { id: 9, x1: 1432.3, x2: 1501, x7: 32.36, x8: 116.89, x12: 0.511, x13: 16482, x15: 36.886, result: 1.25 },
    ],
    ...overrides,
  };
}

describe("the manual rows", () => {
  it("start as one empty row; rows are added, edited and removed, never fewer than one", () => {
    let state = initialForecastState();
    expect(state).toMatchObject({ method: "xgboost", source: "manual" });
    expect(state.rows).toHaveLength(1);
    expect(isBlankRow(state.rows[0])).toBe(true);
    state = addRow(addRow(state));
    const [first, second, third] = state.rows;
    expect(new Set([first.key, second.key, third.key]).size).toBe(3);
    state = setCell(state, second.key, "x1", "1200.5");
    expect(state.rows[1].texts.x1).toBe("1200.5");
    expect(state.rows[0].texts.x1).toBe("");
    state = removeRow(state, first.key);
    expect(state.rows.map((r) => r.key)).toEqual([second.key, third.key]);
    state = removeRow(removeRow(state, second.key), third.key);
    expect(state.rows).toHaveLength(1);
    expect(isBlankRow(state.rows[0])).toBe(true);
  });

  it("edit starts from the stored method, rows and ids; a missing value is an empty cell", () => {
    const state = initialForecastState(stored());
    expect(state).toMatchObject({ name: "Лава 7", method: "lightgbm", source: "manual" });
    expect(state.rows.map((r) => r.id)).toEqual([7, 9]);
    expect(state.rows[0].texts).toMatchObject({ x1: "1324,7", x2: "", x12: "0,408" });
    expect(initialForecastState(stored({ file_data: fileData("t.xlsx") })).source).toBe("file");
  });

  it("flags concentrations over 100 % (x7, x12) as the server would", () => {
    expect(cellError("x7", "100")).toBeUndefined();
    expect(cellError("x7", "100.5")).toBe("Не больше 100");
    expect(cellError("x12", "250")).toBe("Не больше 100");
    expect(cellError("x13", "25000")).toBeUndefined();
    expect(cellError("x7", "")).toBeUndefined();
    expect(cellError("x7", "100,5")).toBe("Не больше 100");
  });

  it("reads a decimal comma and says why a cell is not a number, instead of dropping it", () => {
    let state = initialForecastState();
    const key = state.rows[0].key;
    state = setCell(setCell(state, key, "x1", "1324,7"), key, "x12", "0.408");
    expect(cellError("x1", "1324,7")).toBeUndefined();
    expect(rowPayload(state.rows[0])).toMatchObject({ x1: 1324.7, x12: 0.408, x2: null });
    expect(cellError("x1", "-5")).toBe("Значение не может быть отрицательным");
    expect(cellError("x1", "abc")).toBe("Введите число, например 845,5");
    expect(cellError("x1", "1,23456")).toBe("Не больше 4 знаков после запятой");
    // A cell with text is never a blank row: it is refused, not silently sent as missing.
    const blank = initialForecastState();
    const typo = setCell(blank, blank.rows[0].key, "x1", "abc");
    expect(isBlankRow(typo.rows[0])).toBe(false);
    expect(rowHasError(typo.rows[0])).toBe(true);
  });
});

describe("the live preview", () => {
  it("builds the server's matrix: FORECAST_FEATURES order, NaN for a missing value, blank and refused rows left out", () => {
    let state = typedState([golden[0]]);
    state = addRow(state); // blank
    state = addRow(state);
    const bad = state.rows[2].key;
    state = setCell(setCell(state, bad, "x1", "1000"), bad, "x7", "120");
    const inputs = previewInputs(state.rows);
    expect(inputs.keys).toEqual([state.rows[0].key]);
    expect(Array.from(inputs.matrix)).toEqual(FORECAST_FEATURES.map((f) => Number(golden[0].texts[f])));
    const missing = typedState([golden.find((g) => g.texts.x2 === "")!]);
    const row = Array.from(previewInputs(missing.rows).matrix);
    expect(Number.isNaN(row[FORECAST_FEATURES.indexOf("x2")])).toBe(true);
  });

  it.each(["xgboost", "lightgbm"] as const)("typed golden rows give the %s library's predictions through the same wasm", async (method) => {
    const file = method === "xgboost" ? "methane-xgboost.json" : "methane-lightgbm.txt";
    const model = await loadModel(readFileSync(modelFixture(file), "utf8"));
    const rows = [...golden.slice(0, 20), ...golden.filter((g) => FORECAST_FEATURES.some((f) => g.texts[f] === "")).slice(0, 10)];
    const state = typedState(rows);
    const inputs = previewInputs(state.rows);
    const byKey = previewByKey(inputs, predict(model, inputs.matrix, FORECAST_FEATURES));
    // Bit for bit: the typed text parses to the double the library was given.
    state.rows.forEach((r, i) => expect(byKey.get(r.key)).toBe(rows[i][method]));
  });

  it("predicts what the server predicts from the JSON it is sent", async () => {
    const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
    const state = typedState(golden.slice(0, 5));
    const inputs = previewInputs(state.rows);
    const preview = predict(model, inputs.matrix, FORECAST_FEATURES);
    // The server (domain/forecast/forecast.ts) parses the body and builds its matrix with `?? NaN`.
    const sent = JSON.parse(JSON.stringify(createRequest(state, "p1"))) as { body: { data: Record<string, number | null>[] } };
    const matrix = new Float64Array(sent.body.data.flatMap((row) => FORECAST_FEATURES.map((f) => row[f] ?? Number.NaN)));
    expect(Array.from(predict(model, matrix, FORECAST_FEATURES))).toEqual(Array.from(preview));
  });
});

describe("the requests", () => {
  it("create sends the manual rows as JSON (null = missing, blank rows left out, no ids)", () => {
    let state = typedState([golden.find((g) => g.texts.x2 === "")!, golden[0]]);
    state = addRow({ ...state, method: "lightgbm" });
    const request = createRequest(state, "p1");
    expect(request.kind).toBe("create");
    const body = (request as { body: Record<string, unknown> }).body;
    expect(body).toMatchObject({ name: "Прогноз", project: "p1", method: "lightgbm" });
    const data = body.data as Record<string, unknown>[];
    expect(data).toHaveLength(2);
    expect(data[0].x2).toBeNull();
    expect(data[0]).not.toHaveProperty("id");
    expect(Object.keys(data[1])).toEqual([...FORECAST_FEATURES]);
  });

  it("create sends a chosen file as a multipart form, without rows", () => {
    const file = new File(["id,x1\n"], "t.csv", { type: "text/csv" });
    const request = createRequest({ ...typedState([golden[0]]), source: "file", file }, "p1");
    expect(request.kind).toBe("form");
    const form = (request as { form: FormData }).form;
    expect(Object.fromEntries([...form.keys()].map((k) => [k, form.get(k) instanceof File ? "file" : form.get(k)]))).toEqual({
      name: "Прогноз",
      project: "p1",
      method: "xgboost",
      file_data: "file",
    });
    expect((form.get("file_data") as File).name).toBe("t.csv");
  });

  it("a forecast ahead sends its horizon and the picked model with the file; from manual rows it is refused before sending", () => {
    const file = new File(["id,x1\n"], "t.csv", { type: "text/csv" });
    const ahead = { ...typedState([golden[0]]), source: "file" as const, file, horizon: 60, model: "xgboost-h60" };
    const form = (createRequest(ahead, "p1") as { form: FormData }).form;
    expect(form.get("horizon")).toBe("60");
    expect(form.get("model_id")).toBe("xgboost-h60");
    const nowcast = (createRequest({ ...ahead, horizon: 0 }, "p1") as { form: FormData }).form;
    expect(nowcast.has("horizon")).toBe(false);
    expect(forecastErrors({ ...typedState([golden[0]]), horizon: 60 }, "create").horizon).toMatch(
      /^Прогноз вперед считается по истории из файла/,
    );
  });

  it("edit sends the name and method with the version, then the rows with their ids (docs/user-guide.md)", () => {
    let state = initialForecastState(stored());
    state = setCell(state, state.rows[1].key, "x1", "1500");
    state = addRow({ ...state, method: "xgboost", name: " Лава 7, исправлено " });
    state = setCell(state, state.rows[2].key, "x13", "17000");
    const requests = editRequests(state, 4);
    expect(requests.patch).toEqual({ kind: "patch", body: { name: "Лава 7, исправлено", method: "xgboost", version: 4 } });
    expect(requests.data?.map((r) => r.id)).toEqual([7, 9, undefined]);
    expect(requests.data?.[1]).toMatchObject({ id: 9, x1: 1500, x2: 1501 });
    expect(requests.data?.[2]).toMatchObject({ x1: null, x13: 17000 });
  });

  it("edit with a new file replaces the rows in one multipart PATCH; without one only name and method go", () => {
    const file = new File(["x"], "new.xlsx");
    const withFile = editRequests({ ...initialForecastState(stored({ file_data: fileData("old.xlsx") })), file }, 4);
    expect(withFile.data).toBeUndefined();
    const form = (withFile.patch as { form: FormData }).form;
    expect([form.get("name"), form.get("method"), form.get("version")]).toEqual(["Лава 7", "lightgbm", "4"]);
    expect((form.get("file_data") as File).name).toBe("new.xlsx");
    const keep = editRequests(initialForecastState(stored({ file_data: fileData("old.xlsx") })), 4);
    expect(keep).toEqual({ patch: { kind: "patch", body: { name: "Лава 7", method: "lightgbm", version: 4 } } });
  });

  it("refuses to send a blank name, no rows, refused values or a missing file", () => {
    expect(forecastErrors(initialForecastState(), "create")).toEqual({ name: "Введите название расчета", data: NO_ROWS });
    let state = typedState([golden[0]]);
    state = setCell(state, state.rows[0].key, "x12", "101");
    expect(forecastErrors(state, "create")).toEqual({ data: ROW_ERRORS });
    expect(forecastErrors({ ...typedState([golden[0]]), source: "file" }, "create")).toEqual({ file_data: NO_FILE });
    // Edit of a file-based forecast may keep its stored rows.
    const fromFile = stored({ file_data: fileData("old.xlsx") });
    expect(forecastErrors(initialForecastState(fromFile), "edit", fromFile)).toEqual({});
    expect(dataRows(typedState([golden[0]]))).toHaveLength(1);
  });
});

describe("results and messages", () => {
  it("summarises rows, the share above 1 % and the model", () => {
    expect(forecastSummary(stored())).toEqual({
      rows: 2,
      limit: 1,
      above: 1,
      share: 0.5,
      max: 1.25,
      mean: 0.9,
      model: expect.objectContaining({ library: "lightgbm", version: 1, file_name: "methane-lightgbm.txt" }),
    });
  });

  it("names and counts at the forecast's own limit: one made at 0,5 % is «выше 0,5 %» everywhere", () => {
    const atHalf = stored({ limit: 0.5, above_limit: 2, method: "lightgbm" });
    expect(forecastSummary(atHalf)).toMatchObject({ limit: 0.5, above: 2, share: 1 });
    expect(forecastListSummary(atHalf)).toBe("LightGBM: 2 строки, выше 0,5 % — 2");
    expect(isAboveLimit(0.7, 0.5)).toBe(true);
    expect(isAboveLimit(0.7)).toBe(false);
  });

  it("routes server details to the field, the row, the file or the top", () => {
    expect(routeDetail(400, refused(400, [["data[3].x7", "концентрация не больше 100 %"]]), [], false)).toEqual({
      target: "data",
      message: "Строка 4, «x7»: концентрация не больше 100 %",
    });
    // Blank rows are not sent: data[1] is the table's third row here.
    let state = addRow(typedState([golden[0]]));
    state = addRow(state);
    state = setCell(state, state.rows[2].key, "x1", "1");
    const numbers = sentRowNumbers(state);
    expect(numbers).toEqual([1, 3]);
    expect(routeDetail(400, refused(400, [["data[1].x7", "концентрация не больше 100 %"]]), [], false, (i) => numbers[i]).message).toBe(
      "Строка 3, «x7»: концентрация не больше 100 %",
    );
    expect(routeDetail(400, refused(400, [["name_value", "укажите название столбца"]]), ["name_value"], true)).toEqual({
      target: "name_value",
      message: "Укажите название столбца",
    });
    const cell = "Лист «CSV», строка 3, столбец «volume»: ожидается число, найдено «много»";
    expect(routeDetail(400, refused(400, cell), [], true)).toEqual({ target: "file_data", message: cell });
    expect(routeDetail(413, refused(413, "Файл больше 5 МБ"), [], true).target).toBe("file_data");
    expect(routeDetail(409, refused(409, "Расчет был изменен другим пользователем."), [], true)).toEqual({
      message: "Расчет был изменен другим пользователем.",
    });
    expect(routeDetail(400, refused(400, "Проект не найден"), [], false)).toEqual({ message: "Проект не найден" });
  });
});

describe("the model a new forecast runs", () => {
  const version = (v: Partial<ForecastModelVersion>) => ({ method: "xgboost", is_active: false, ...v }) as ForecastModelVersion;
  const list = (versions: ForecastModelVersion[]) => ({ results: [{ method: "xgboost" as const, versions }], count: 1 });

  it("is the company's own chosen version over the platform's, never an archived one", () => {
    const platform = version({ id: "p", version: 1, is_active: true });
    const own = version({ id: "o", version: 2, is_active: true, company: "c" });
    expect(activeModel(list([platform, own]), "xgboost")?.id).toBe("o");
    expect(activeModel(list([platform, { ...own, is_active: false }]), "xgboost")?.id).toBe("p");
    expect(activeModel(list([platform, { ...own, archived: true }]), "xgboost")?.id).toBe("p");
    expect(activeModel(list([]), "xgboost")).toBeUndefined();
  });

  it("a horizon offers the company's own models of it, newest first, then the platform's default", () => {
    const own = (id: string, v: number, horizon: number, archived = false) => version({ id, version: v, company: "c", horizon, archived });
    const models = {
      results: [
        {
          method: "xgboost" as const,
          versions: [
            version({ id: "p", version: 1, is_active: true }),
            own("a", 2, 60),
            own("b", 3, 10),
            own("c", 4, 60),
            own("d", 5, 60, true),
          ],
          horizons: [version({ id: "xgboost-h10", version: 1, horizon: 10 }), version({ id: "xgboost-h60", version: 1, horizon: 60 })],
        },
      ],
      count: 1,
    };
    expect(horizonModels(models, "xgboost", 60).map((v) => v.id)).toEqual(["c", "a", "xgboost-h60"]);
    expect(horizonModels(models, "lightgbm", 60)).toEqual([]);
  });
});
