import { describe, expect, it } from "vitest";
import { FILL_METHODS } from "@core/registry";
import { vectors } from "@core/methodology-vectors";
import type { Calculation, DictionaryEntry } from "../../api/calculations";
import { fileProblem, FILE_TOO_LARGE, FILE_WRONG_TYPE } from "../../shared/fileChecks";
import { MAX_TABULAR_UPLOAD_BYTES } from "@server/contract";
import {
  GWP_BY_YEAR,
  currentGwpSet,
  gwpByYearLabel,
  filledCount,
  initialSeriesState,
  seriesErrors,
  seriesLayout,
  seriesRequest,
  type FilledElement,
  type SensitivityElement,
} from "./series";
import { emissionsFigure, fillMethodLabel, fillingFigure, sensitivityFigure } from "./seriesCharts";

const gwp = [
  { id: 1, name: "AR4", gwp_ch4: 25 },
  { id: 2, name: "AR5", gwp_ch4: 28 },
] as unknown as DictionaryEntry[];

function stored(type: "filling_blanks" | "sensitivity", overrides: Partial<Calculation> = {}): Calculation {
  return {
    id: "s1",
    type,
    name: "Ряд",
    project: "p1",
    is_active: true,
    is_deleted: false,
    version: 2,
    created_at: "",
    created_by: "",
    updated_at: "",
    updated_by: "",
    methodology_version: "2026.1",
    inventory_role: null,
    coefficients: {},
    flags: [],
    file_data: { name: "ряд.xlsx", size: 100, format: "xlsx", uploaded_at: "" },
    ...overrides,
  };
}

const entries = (form: FormData) =>
  Object.fromEntries([...form.keys()].map((k) => [k, form.get(k) instanceof File ? "file" : form.get(k)]));
const file = () => new File(["year,value\n2020,1\n"], "ряд.csv", { type: "text/csv" });

describe("layouts from the registry", () => {
  it("filling_blanks: two column names and a file, no settings", () => {
    const layout = seriesLayout("filling_blanks");
    expect(layout.texts.map((f) => f.name)).toEqual(["name_value", "name_element"]);
    expect(layout.settings).toEqual([]);
    expect(layout.gwp).toBeUndefined();
  });

  it("sensitivity: a file and the settings with their defaults (k_tr labelled illustrative, D6), GWP as a set", () => {
    const layout = seriesLayout("sensitivity");
    expect(layout.texts).toEqual([]);
    expect(layout.settings.map((f) => [f.name, f.default])).toEqual([
      ["rho", 0.67],
      ["k_tr", 0.003149],
      ["delta", 0.1],
      ["ef_transport_fuel", 3.149],
    ]);
    expect(layout.settings.find((f) => f.name === "k_tr")?.label).toContain("условное значение");
    expect(layout.gwp?.default).toBe(25);
    const state = initialSeriesState("sensitivity");
    expect(state.settings).toEqual({ rho: "0,67", k_tr: "0,003149", delta: "0,1", ef_transport_fuel: "3,149" });
    // D12: no set is pre-selected; the server takes the one in force for the project's year.
    expect(state.gwpSet).toBeUndefined();
  });
});

describe("filling_blanks requests", () => {
  it("create: a multipart form with the column names and the file; an empty element column is not sent", () => {
    const state = {
      ...initialSeriesState("filling_blanks"),
      name: " Пропуски ",
      texts: { name_value: " CH4 ", name_element: "" },
      file: file(),
    };
    const request = seriesRequest("filling_blanks", "create", state, { projectId: "p1" });
    expect(request.kind).toBe("form");
    expect(entries((request as { form: FormData }).form)).toEqual({
      name: "Пропуски",
      project: "p1",
      name_value: "CH4",
      file_data: "file",
    });
  });

  it("create needs a name, the value column and a file", () => {
    expect(seriesErrors("filling_blanks", initialSeriesState("filling_blanks"), "create")).toEqual({
      name: "Введите название расчета",
      name_value: "Укажите название столбца",
      file_data: "Выберите файл .xlsx или .csv",
    });
  });

  it("edit without a file: JSON with the version (recomputed from the stored file); '' clears the element column", () => {
    const calc = stored("filling_blanks", { name_value: "CH4", name_element: "Шахта" });
    const state = initialSeriesState("filling_blanks", calc);
    expect(state.texts).toEqual({ name_value: "CH4", name_element: "Шахта" });
    expect(seriesErrors("filling_blanks", state, "edit")).toEqual({});
    const request = seriesRequest(
      "filling_blanks",
      "edit",
      { ...state, texts: { name_value: "value", name_element: "" } },
      { stored: calc },
    );
    expect(request).toEqual({ kind: "patch", body: { name: "Ряд", name_value: "value", name_element: "", version: 2 } });
  });

  it("edit with a new file: multipart with file_data and the version", () => {
    const calc = stored("filling_blanks", { name_value: "CH4" });
    const request = seriesRequest(
      "filling_blanks",
      "edit",
      { ...initialSeriesState("filling_blanks", calc), file: file() },
      { stored: calc },
    );
    expect(entries((request as { form: FormData }).form)).toEqual({
      name: "Ряд",
      name_value: "CH4",
      name_element: "",
      version: "2",
      file_data: "file",
    });
  });
});

describe("sensitivity requests", () => {
  it("create sends only the settings changed from their defaults, and a GWP set only when one is picked (D12)", () => {
    let state = { ...initialSeriesState("sensitivity"), name: "Ч", file: file() };
    expect(currentGwpSet(state)).toBe(GWP_BY_YEAR);
    let form = (seriesRequest("sensitivity", "create", state, { projectId: "p1", gwpInForce: 2 }) as { form: FormData }).form;
    expect(entries(form)).toEqual({ name: "Ч", project: "p1", file_data: "file" });
    // «по отчетному году проекта» picked explicitly on create: still no gwp_set.
    form = (
      seriesRequest("sensitivity", "create", { ...state, gwpSet: GWP_BY_YEAR }, { projectId: "p1", gwpInForce: 2 }) as { form: FormData }
    ).form;
    expect(entries(form)).toEqual({ name: "Ч", project: "p1", file_data: "file" });
    state = { ...state, settings: { ...state.settings, delta: "0.05", k_tr: "0.004" }, gwpSet: 2 };
    form = (seriesRequest("sensitivity", "create", state, { projectId: "p1" }) as { form: FormData }).form;
    expect(entries(form)).toEqual({ name: "Ч", project: "p1", k_tr: "0.004", delta: "0.05", gwp_set: "2", file_data: "file" });
  });

  it("edit starts from the stored coefficients and keeps the stored GWP set until another is chosen", () => {
    const calc = stored("sensitivity", {
      coefficients: {
        delta: { value: 0.2, unit: "доля", source: "input" },
        gwp_ch4: { value: 28, unit: "", source: "dictionary", item_id: 2 },
      },
    });
    const state = initialSeriesState("sensitivity", calc);
    expect(state.settings.delta).toBe("0,2");
    expect(state.settings.rho).toBe("0,67");
    expect(state.gwpSet).toBeUndefined();
    expect(currentGwpSet(state, calc)).toBe(2);
    expect(seriesRequest("sensitivity", "edit", state, { stored: calc })).toEqual({ kind: "patch", body: { name: "Ряд", version: 2 } });
    const changed = { ...state, settings: { ...state.settings, delta: "0.1" }, gwpSet: 1 };
    expect(seriesRequest("sensitivity", "edit", changed, { stored: calc })).toEqual({
      kind: "patch",
      body: { name: "Ряд", delta: 0.1, gwp_set: 1, version: 2 },
    });
  });

  it("edit back to «по отчетному году проекта» names the set in force (the server keeps the stored one otherwise)", () => {
    const calc = stored("sensitivity", { coefficients: { gwp_ch4: { value: 28, unit: "", source: "dictionary", item_id: 2 } } });
    const state = { ...initialSeriesState("sensitivity", calc), gwpSet: GWP_BY_YEAR };
    expect(seriesRequest("sensitivity", "edit", state, { stored: calc, gwpInForce: 1 })).toEqual({
      kind: "patch",
      body: { name: "Ряд", gwp_set: 1, version: 2 },
    });
  });

  it("the «по отчетному году проекта» option names the set in force", () => {
    expect(gwpByYearLabel(gwp, 1)).toBe("по отчетному году проекта (набор AR4: 25)");
    expect(gwpByYearLabel(gwp, undefined)).toBe("по отчетному году проекта");
  });

  it("refuses an empty setting, δ of 0 or over 1", () => {
    const base = { ...initialSeriesState("sensitivity"), name: "Ч", file: file() };
    expect(seriesErrors("sensitivity", { ...base, settings: { ...base.settings, rho: "" } }, "create")).toEqual({
      rho: "Поле обязательно для заполнения",
    });
    expect(seriesErrors("sensitivity", { ...base, settings: { ...base.settings, delta: "0" } }, "create")).toHaveProperty("delta");
    expect(seriesErrors("sensitivity", { ...base, settings: { ...base.settings, delta: "1.5" } }, "create")).toHaveProperty("delta");
    expect(seriesErrors("sensitivity", { ...base, settings: { ...base.settings, delta: "1,5" } }, "create")).toHaveProperty("delta");
    expect(seriesErrors("sensitivity", { ...base, settings: { ...base.settings, delta: "0,2" } }, "create")).toEqual({});
  });
});

describe("files", () => {
  it("takes .xlsx and .csv up to 5 MB", () => {
    expect(fileProblem({ name: "a.XLSX", size: 10 })).toBeUndefined();
    expect(fileProblem({ name: "a.csv", size: MAX_TABULAR_UPLOAD_BYTES })).toBeUndefined();
    expect(fileProblem({ name: "a.csv", size: MAX_TABULAR_UPLOAD_BYTES + 1 })).toBe(FILE_TOO_LARGE);
    expect(fileProblem({ name: "a.pdf", size: 10 })).toBe(FILE_WRONG_TYPE);
  });
});

describe("charts", () => {
  const a = vectors.filling_blanks[0];
  const methods = ["trend", null, "interp", "interp", null, null, "interp", null, "trend", "trend"] as const;
  const element: FilledElement = {
    id: 1,
    name: "Северная",
    rows: a.years.map((year, i) => ({ year, value: a.filled[i], method: methods[i] })),
  };

  it("filling: observed points solid, filled ones hollow with their method in the hover", () => {
    const figure = fillingFigure(element, "CH4");
    const [line, observed, filled] = figure.data as Array<{
      x: number[];
      marker?: { color: string; symbol: string; line?: { color: string } };
      text?: string[];
    }>;
    expect(line.x).toHaveLength(10);
    expect(observed.x).toEqual([2015, 2018, 2019, 2021]);
    expect(filled.x).toEqual([2014, 2016, 2017, 2020, 2022, 2023]);
    expect(filled.marker?.color).toBe("#ffffff");
    expect(filled.marker?.line?.color).not.toBe(observed.marker?.color);
    expect(filled.text?.[0]).toBe(FILL_METHODS.trend);
    expect(filledCount([element])).toBe(6);
    expect(fillMethodLabel("clipped")).toBe("ограничено нулём");
    expect(fillMethodLabel(null)).toBeUndefined();
  });

  it("sensitivity: res_co2_all stacked from methane and transport; the two coefficients by year", () => {
    const rows = vectors.sensitivity.rows.map((r) => ({ ...r, el_volume: null, el_methan: null }));
    const sens: SensitivityElement = { id: 1, name: "Шахта", data_sensitivity: rows };
    const emissions = emissionsFigure(sens);
    expect(emissions.layout.barmode).toBe("stack");
    const [methane, transport, total] = emissions.data as Array<{ type: string; y: number[] }>;
    expect([methane.type, transport.type, total.type]).toEqual(["bar", "bar", "scatter"]);
    methane.y.forEach((m, i) => expect(m + transport.y[i]).toBeCloseTo(total.y[i], 6));
    const coefficients = sensitivityFigure(sens).data as Array<{ y: number[]; name: string }>;
    expect(coefficients.map((d) => d.y)).toEqual([rows.map((r) => r.sn_volume), rows.map((r) => r.sn_methan)]);
  });
});
