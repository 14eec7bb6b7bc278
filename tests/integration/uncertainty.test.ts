// Uncertainty end to end through the API (docs/methodology.md, Uncertainty): dictionary defaults seeded
// from the IPCC ranges, an administrator's change as a new version, the user's own uncertainty in
// a calculation, the project's model that the browser's core reads, company isolation, and the
// Russian {"detail"} of a refused value.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHarness, type Harness } from "../support/harness";
import { signedInAdmin, type SignedIn } from "../support/admin";
import { calculationApproach1, projectApproach1, type CalculationModel } from "@core/calculation-uncertainty";
import { uncertaintyCore } from "@core/uncertainty-node";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
let other: string;
let admin: SignedIn;
let projectId: string;
beforeAll(async () => {
  // A table of its own: an admin changes a coefficient of the whole platform.
  h = await createFreshHarness();
  ({ token } = await h.signedInUser());
  ({ token: other } = await h.signedInUser());
  admin = await signedInAdmin(h);
  projectId = (await h.newProject(token, "Шахта с неопределенностью")).id;
});
afterAll(() => h.close());

const core = uncertaintyCore();

async function json<T = Record<string, unknown>>(res: Response, status = 200): Promise<T> {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body as T;
}

const create = (type: string, body: Record<string, unknown>) =>
  h.request(`/api/v1/${type}/`, { method: "POST", token, json: { project: projectId, ...body } });

type Entry = { id: number; ef?: number; u?: number; version: number; uncertainty: Record<string, Record<string, unknown>> };

describe("uncertainty in the dictionaries", () => {
  it("seeds the coal-mining emission factors and the activity data from the IPCC ranges", async () => {
    const underground = await json<{ results: Entry[] }>(await h.request("/api/v1/dictionary/get_underground_emission_ch4/", { token }));
    expect(underground.results[0].uncertainty.ef).toMatchObject({ lower_pct: 44, upper_pct: 39, distribution: "normal" });
    expect(underground.results[0].uncertainty.ef.source).toMatch(/^МГЭИК 2006.*10–25/);
    const surface = await json<{ results: Entry[] }>(await h.request("/api/v1/dictionary/get_open_mining_ch4/", { token }));
    expect(surface.results.find((e) => e.id === 4)?.uncertainty.ef).toMatchObject({
      lower_pct: 100,
      upper_pct: 100,
      distribution: "lognormal",
    });
    const activity = await json<{ title: string; results: Entry[] }>(
      await h.request("/api/v1/dictionary/get_activity_uncertainty/", { token }),
    );
    expect(activity.title).toBe("Неопределенность данных о деятельности");
    expect(activity.results.map((e) => [e.u, e.uncertainty.u.upper_pct])).toEqual([
      [2, 2],
      [20, 20],
      [5, 5],
    ]);
    // D27: fuel's CO2 factors carry the 95 % interval of IPCC 2006 Vol. 2 Table 1.4, never 0 %.
    const fuel = await json<{ results: Entry[] }>(await h.request("/api/v1/dictionary/get_open_mining_co2/", { token }));
    expect(fuel.results[0].uncertainty.ef).toMatchObject({ lower_pct: 2, upper_pct: 0.9, distribution: "normal" });
    expect(fuel.results[0].uncertainty.ef.source).toMatch(/^МГЭИК 2006, т\. 2, гл\. 1, табл\. 1\.4, «Газ\/дизельное топливо»/);
  });

  it("changes an uncertainty as a new version; calculations keep the version they used", async () => {
    const before = await json<{ id: string; coefficients: Record<string, { uncertainty?: Record<string, unknown> }> }>(
      await create("handling_underground_ch4", {
        name: "До изменения",
        volume: 1000,
        dictionary_items: { get_handling_underground_ch4: 1 },
      }),
      201,
    );
    expect(before.coefficients.ef.uncertainty).toMatchObject({
      lower_pct: 64,
      upper_pct: 60,
      distribution: "lognormal",
      origin: "dictionary",
    });
    const changed = await json<Entry>(
      await h.request("/api/v1/admin/dictionary/get_handling_underground_ch4/1/", {
        method: "PATCH",
        token: admin.token,
        json: {
          field: "ef",
          value: 2.5,
          effective_from: "2027-01-01",
          reason: "Замеры шахты",
          version: 1,
          uncertainty: { lower_pct: 30, upper_pct: 35, distribution: "triangular", source: "Замеры 2026 года" },
        },
      }),
    );
    expect(changed).toMatchObject({ ef: 2.5, version: 2 });
    expect(changed.uncertainty.ef).toEqual({ lower_pct: 30, upper_pct: 35, distribution: "triangular", source: "Замеры 2026 года" });
    const after = await json<{ coefficients: Record<string, { item_version?: number; uncertainty?: Record<string, unknown> }> }>(
      await create("handling_underground_ch4", {
        name: "После изменения",
        volume: 1000,
        dictionary_items: { get_handling_underground_ch4: 1 },
      }),
      201,
    );
    expect(after.coefficients.ef).toMatchObject({
      item_version: 2,
      uncertainty: { lower_pct: 30, upper_pct: 35, distribution: "triangular" },
    });
    const stored = await json<typeof before>(await h.request(`/api/v1/handling_underground_ch4/${before.id}/`, { token }));
    expect(stored.coefficients.ef.uncertainty).toMatchObject({ lower_pct: 64, upper_pct: 60 });
  });

  it("refuses a malformed uncertainty with a Russian detail naming the field", async () => {
    const res = await h.request("/api/v1/admin/dictionary/get_handling_underground_ch4/1/", {
      method: "PATCH",
      token: admin.token,
      json: {
        field: "ef",
        value: 2.5,
        effective_from: "2027-01-01",
        reason: "x",
        version: 2,
        uncertainty: { lower_pct: 120, upper_pct: 10, distribution: "normal" },
      },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("uncertainty.lower_pct")}: от 0 до 100 %`));
  });
});

describe("a calculation's uncertainty", () => {
  it("takes the activity default and the user's own uncertainty, and keeps it on an edit", async () => {
    const created = await json<{ id: string; version: number; coefficients: Record<string, { uncertainty?: Record<string, unknown> }> }>(
      await create("underground_emission_ch4", {
        name: "V1",
        volume: 2_000_000,
        ef: 18,
        dictionary_items: { get_underground_emission_ch4: 1 },
        uncertainty: { ef: { lower_pct: 40, upper_pct: 40, distribution: "normal", source: "Замеры шахты" } },
      }),
      201,
    );
    expect(created.coefficients.volume.uncertainty).toMatchObject({
      lower_pct: 2,
      upper_pct: 2,
      origin: "activity",
      item_id: 1,
      item_version: 1,
    });
    expect(created.coefficients.ef.uncertainty).toEqual({
      lower_pct: 40,
      upper_pct: 40,
      distribution: "normal",
      source: "Замеры шахты",
      origin: "user",
    });
    const renamed = await json<typeof created>(
      await h.request(`/api/v1/underground_emission_ch4/${created.id}/`, {
        method: "PATCH",
        token,
        json: { name: "V1 (шахта)", volume: 2_000_000, version: created.version },
      }),
    );
    expect(renamed.coefficients.ef.uncertainty).toMatchObject({ upper_pct: 40, origin: "user" });
    const reset = await json<typeof created>(
      await h.request(`/api/v1/underground_emission_ch4/${created.id}/`, {
        method: "PATCH",
        token,
        json: { uncertainty: { ef: null }, version: renamed.version },
      }),
    );
    expect(reset.coefficients.ef.uncertainty).toMatchObject({ lower_pct: 44, upper_pct: 39, origin: "dictionary" });
    // Back to V1 for the project below.
    await json(
      await h.request(`/api/v1/underground_emission_ch4/${created.id}/`, {
        method: "PATCH",
        token,
        json: { uncertainty: { ef: { lower_pct: 40, upper_pct: 40, distribution: "normal" } }, version: reset.version },
      }),
    );
  });

  it("refuses an uncertainty of an unknown or fixed input and a wrong distribution", async () => {
    const bad = async (uncertainty: unknown, pattern: RegExp) => {
      const res = await create("underground_emission_ch4", { name: "x", volume: 1, ef: 18, uncertainty });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(pattern);
    };
    await bad(
      { nothing: { lower_pct: 1, upper_pct: 1, distribution: "normal" } },
      /^uncertainty\.nothing: у расчета нет такого исходного значения/,
    );
    await bad(
      { koef_transform: { lower_pct: 1, upper_pct: 1, distribution: "normal" } },
      /^uncertainty\.koef_transform: значение фиксировано методикой/,
    );
    await bad(
      { ef: { lower_pct: 1, upper_pct: 1, distribution: "gamma" } },
      /^uncertainty\.ef\.distribution: normal, lognormal, triangular или uniform/,
    );
  });
});

describe("GET /api/v1/projects/{id}/uncertainty/", () => {
  it("gives the model of every active emission calculation, which the core turns into the total and key categories", async () => {
    await json(await create("open_mining_co2", { name: "Техника", volume: 1000, dictionary_items: { get_open_mining_co2: 1 } }), 201);
    const body = await json<{ project: { name: string }; calculations: CalculationModel[]; count: number }>(
      await h.request(`/api/v1/projects/${projectId}/uncertainty/`, { token }),
    );
    expect(body.project.name).toBe("Шахта с неопределенностью");
    expect(body.count).toBe(4);
    const v1 = body.calculations.find((c) => c.name === "V1 (шахта)")!;
    expect(v1.co2e).toBeCloseTo(603_000, 6);
    expect(v1.inputs.map((i) => [i.name, i.uncertainty.upper_pct])).toEqual([
      ["volume", 2],
      ["ef", 40],
    ]);
    expect(calculationApproach1(core, v1).u_pct).toBeCloseTo(40.049968789001575, 9);
    // D27: fuel carries its cited defaults: the metered consumption ±5 %, the diesel factor −2 % / +0,9 %.
    expect(
      body.calculations.find((c) => c.name === "Техника")!.inputs.map((i) => [i.name, i.uncertainty.lower_pct, i.uncertainty.upper_pct]),
    ).toEqual([
      ["volume", 5, 5],
      ["ef", 2, 0.9],
    ]);
    const project = projectApproach1(core, body.calculations)!;
    expect(project.categories.map((c) => c.id).sort()).toEqual(["handling_underground_ch4", "open_mining_co2", "underground_emission_ch4"]);
    expect(project.key_level[0]).toMatchObject({ id: "underground_emission_ch4", key: true });
  });

  it("answers 404 for another company's project and 401 without a token", async () => {
    const res = await h.request(`/api/v1/projects/${projectId}/uncertainty/`, { token: other });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/[А-Яа-я]/);
    expect((await h.request(`/api/v1/projects/${projectId}/uncertainty/`)).status).toBe(401);
  });
});

describe("exports", () => {
  it("carry each calculation's 95 % interval in txt", async () => {
    const res = await h.request(`/api/v1/projects/${projectId}/export_to_txt/`, { token });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/Неопределенность \(95 %\), ± %: 40,0/);
    // 603 000 ∓ 241 501,31
    expect(text).toMatch(/95 % интервал: от, т CO2-экв\.: 361\u00a0498,6\d/);
    expect(text).toMatch(/95 % интервал: до, т CO2-экв\.: 844\u00a0501,3\d/);
  });
});

describe("detailed spreadsheet exports", () => {
  it("carry the interval columns in xlsx", async () => {
    const { default: ExcelJS } = await import("exceljs");
    const res = await h.request(`/api/v1/projects/${projectId}/export_to_xlsx/?detail=true`, { token });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets.find((w) => w.getCell("A1").value === "Выбросы CH4 при добыче угля подземным способом")!;
    const header = (sheet.getRow(2).values as unknown[]).map(String);
    const column = header.indexOf("Неопределенность (95 %), ± %");
    expect(column).toBeGreaterThan(0);
    expect(sheet.getRow(3).getCell(column).value as number).toBeCloseTo(40.049968789001575, 9);
  });
});
