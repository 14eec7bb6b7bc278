import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHarness, type Harness } from "../support/harness";
import { DICTIONARY_NAMES } from "@server/dictionaries/reference-data";
import { changeCoefficient, seedDictionaries } from "@server/domain/reference/dictionaries";
import { calculationView } from "@server/domain/calculations/calculations";
import type { StoredCalculation } from "@server/ports";

let h: Harness;
let token: string;
beforeAll(async () => {
  // A table of its own: the tests change the platform's dictionaries and seed them again.
  h = await createFreshHarness();
  ({ token } = await h.signedInUser());
});
afterAll(() => h.close());

type Entry = Record<string, unknown> & {
  id: number;
  name: string;
  units: Record<string, string>;
  sources: Record<string, string>;
  verification: Record<string, string>;
  version: number;
};

async function dictionary(name: string) {
  const res = await h.request(`/api/v1/dictionary/${name}/`, { token });
  expect(res.status, name).toBe(200);
  return (await res.json()) as { title: string; results: Entry[]; count: number };
}

describe("GET /api/v1/dictionary/{name}/", () => {
  it.each(DICTIONARY_NAMES)("answers %s with items carrying values, units and sources", async (name) => {
    const body = await dictionary(name);
    expect(body.count).toBeGreaterThan(0);
    for (const item of body.results) {
      expect(item).toMatchObject({ id: expect.any(Number), name: expect.any(String), version: 1 });
      for (const field of Object.keys(item.units)) {
        expect(typeof item[field]).toBe("number");
        // Users read the document and table; the check status is a field of its own.
        expect(item.sources[field]).toMatch(/^[А-ЯЁA-Z]/);
        expect(item.sources[field]).not.toMatch(/\[[A-Z]\d*\]|methodology|\bD\d+\b|\bQ\d+\b/);
        expect(item.verification[field]).toMatch(/^(verified|transcription|recalled|assumption)$/);
      }
    }
  });

  it("gives measurement conditions as id, name, p_ch4, p_co2 and fuels as id, name, p", async () => {
    const conditions = await dictionary("get_coeff_co2_density");
    expect(conditions.results[0]).toMatchObject({ id: 1, p_ch4: 0.668, p_co2: 1.8393 });
    const underground = await dictionary("get_underground");
    expect(underground.results.map((i) => i.p_ch4)).toEqual(conditions.results.map((i) => i.p_ch4));
    const fuels = await dictionary("get_open_mining_co2");
    expect(fuels.results.find((f) => f.id === 2)).toMatchObject({ name: "Дизельное топливо зимнее", p: 0.84, ef: 3.149 });
  });

  it("offers the mine's ventilation air among the gas mixtures, so a ventilation shaft needs no «Фактическое значение»", async () => {
    const mixtures = await dictionary("get_underground_content");
    const air = mixtures.results.find((item) => item.name.startsWith("Исходящая вентиляционная струя шахты"))!;
    expect(air).toMatchObject({ ef_ch4: 0.3, ef_co2: 0, units: { ef_ch4: "% об.", ef_co2: "% об." } });
    expect(air.sources.ef_ch4).toMatch(/обычно 0,1–1 % об\., чаще всего около 0,3 % об\..*формула 3\.1 требует измеренного содержания/);
    // Computed as methodology 4.5 computes ventilation air: volume × W_CH4 × ρ_CH4 × 10⁻².
    const project = await h.newProject(token, "Вентиляционный ствол");
    const res = await h.request("/api/v1/underground/", {
      method: "POST",
      token,
      json: {
        name: "Ствол №1",
        project: project.id,
        volume: 500_000,
        dictionary_items: { get_underground: 1, get_underground_content: air.id },
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { id: string };
    const single = (await (await h.request(`/api/v1/underground/${created.id}/single_calc/1/`, { token })).json()) as {
      res_ch4: number;
      res_co2: number;
    };
    expect(single.res_ch4).toBeCloseTo(500_000 * 0.3 * 0.668 * 1e-2, 6);
    expect(single.res_co2).toBe(0);
  });

  it("names every field in words for the screens", async () => {
    const body = (await dictionary("get_underground")) as unknown as { labels: Record<string, string> };
    expect(body.labels).toEqual({ p_co2: "Плотность CO2", p_ch4: "Плотность CH4" });
  });

  it("answers 404 for an unknown dictionary and 401 without a token", async () => {
    expect((await h.request("/api/v1/dictionary/get_nothing/", { token })).status).toBe(404);
    expect((await h.request("/api/v1/dictionary/get_torch_ch4/")).status).toBe(401);
  });

  it("lists the dictionaries", async () => {
    const res = await h.request("/api/v1/dictionary/", { token });
    const body = (await res.json()) as { results: Array<{ name: string; title: string }> };
    expect(body.results.map((d) => d.name)).toEqual(DICTIONARY_NAMES);
  });
});

describe("coefficient versions", () => {
  it("keeps the earlier value as a version and serves the new one as current", async () => {
    const before = (await dictionary("get_underground_emission_ch4")).results.find((i) => i.id === 1)!;
    await changeCoefficient(
      h.deps,
      "get_underground_emission_ch4",
      1,
      { field: "ef", value: 19.5, effective_from: "2027-01-01", reason: "Уточнение по замерам шахты", version: before.version },
      "admin@example.com",
    );
    const after = (await dictionary("get_underground_emission_ch4")).results.find((i) => i.id === 1)!;
    expect(after).toMatchObject({ ef: 19.5, version: 2, effective_from: "2027-01-01" });
    // Users read the document the value is cited from and the reason beside it; the operator
    // reads who set it.
    expect(after.sources.ef).toBe(`${before.sources.ef}; значение изменено администратором, причина: Уточнение по замерам шахты`);
    expect(after.verification.ef).toBe("changed");
    // 0.67 is read through a reproduction of IPCC 2006 (secondary copy, docs/methodology.md).
    expect(after.verification.koef_transform).toBe("transcription");
    const history = await h.request("/api/v1/dictionary/get_underground_emission_ch4/1/history/", { token });
    const versions = ((await history.json()) as { results: Entry[] }).results;
    expect(versions.map((v) => [v.version, v.ef])).toEqual([
      [1, 18],
      [2, 19.5],
    ]);
    expect(versions[1]).toMatchObject({ changed_by: "admin@example.com", reason: "Уточнение по замерам шахты" });

    // Where the value is used, both print: a calculation of 2027 and the year's passport.
    const project = (await (
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Шахта 2027", start_date: "2027-01-01", end_date: "2027-12-31" },
      })
    ).json()) as { id: string };
    const created = await h.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      token,
      json: { name: "Добыча 2027", project: project.id, volume: 1000, dictionary_items: { get_underground_emission_ch4: 1 } },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const calculation = (await created.json()) as { coefficients: Record<string, { value: number; reference?: string }> };
    expect(calculation.coefficients.ef).toMatchObject({
      value: 19.5,
      reference: `${before.sources.ef}; значение изменено администратором, причина: Уточнение по замерам шахты`,
    });
    const passport = await h.request("/api/v1/inventory/2027/report/?format=xlsx", { token });
    expect(passport.status).toBe(200);
    const ExcelJS = (await import("exceljs")).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await passport.arrayBuffer()) as ArrayBuffer);
    const texts: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => texts.push(String(cell.value ?? "")))));
    expect(texts.some((t) => t.includes(before.sources.ef) && t.includes("причина: Уточнение по замерам шахты"))).toBe(true);
  });

  it("refuses a change from a stale version with 409 and a reseed never overwrites a change", async () => {
    await expect(
      changeCoefficient(
        h.deps,
        "get_underground_emission_ch4",
        1,
        {
          field: "ef",
          value: 1,
          effective_from: "2027-01-01",
          reason: "x",
          version: 1,
        },
        "x",
      ),
    ).rejects.toMatchObject({ kind: "conflict" });
    expect(await seedDictionaries(h.deps)).toBe(0);
    const current = (await dictionary("get_underground_emission_ch4")).results.find((i) => i.id === 1)!;
    expect(current.ef).toBe(19.5);
  });
});

describe("a corrected default (docs/methodology.md, Defaults read through a secondary copy)", () => {
  it("serves CO2 at 15 °C as the real-gas 1.8718 with its standard, and a reseed corrects an installation that stored 1.8738 as a new version", async () => {
    const fresh = (await dictionary("get_coeff_co2_density")).results.find((i) => i.id === 2)!;
    expect(fresh).toMatchObject({ p_co2: 1.8718, p_ch4: 0.6797 });
    expect(fresh.sources.p_co2).toMatch(/ГОСТ 31369-2008.*табл\. 2.*Диоксид углерода/);

    // An installation seeded before the correction holds 1.8738 as version 1.
    const other = await createFreshHarness();
    try {
      const stored = (await other.deps.repos.dictionaries.get("get_coeff_co2_density", 2))!;
      const wrong = { ...stored, values: { ...stored.values, p_co2: { value: 1.8738, unit: "кг/м³", tag: "T", ref: "371-1.2" } } };
      await other.deps.repos.dictionaries.putVersion({ ...wrong, version: 2 });
      expect(await seedDictionaries(other.deps)).toBe(1);
      const history = await other.deps.repos.dictionaries.history("get_coeff_co2_density", 2);
      const byVersion = history.sort((a, b) => a.version - b.version).map((v) => [v.version, v.values.p_co2.value]);
      expect(byVersion.slice(-2)).toEqual([
        [2, 1.8738],
        [3, 1.8718],
      ]);
      expect(history.at(-1)).toMatchObject({ changed_by: "system", reason: expect.stringMatching(/^Исправление/) });
      expect(await seedDictionaries(other.deps)).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe("values the methodology added after an installation seeded its dictionaries", () => {
  it("adds get_gwp's reporting years to sets stored without them, as a new version an admin can then date", async () => {
    const other = await createFreshHarness();
    try {
      // A set seeded before D12 had no reporting years.
      const stored = (await other.deps.repos.dictionaries.get("get_gwp", 2))!;
      const { year_from: _from, year_to: _to, ...older } = stored.values;
      await other.deps.repos.dictionaries.putVersion({ ...stored, values: older, version: stored.version + 1 });
      expect(await seedDictionaries(other.deps)).toBe(1);
      const current = (await other.deps.repos.dictionaries.get("get_gwp", 2))!;
      expect(current.version).toBe(stored.version + 2);
      expect(current.values).toMatchObject({ gwp_ch4: stored.values.gwp_ch4, year_from: { value: 0 }, year_to: { value: 0 } });
      expect(current).toMatchObject({
        changed_by: "system",
        reason: expect.stringMatching(/^Добавлены значения методики: «Действует с отчетного года/),
      });
      expect(await seedDictionaries(other.deps)).toBe(0);
      // Now datable by an admin through the coefficient change.
      const dated = await changeCoefficient(
        other.deps,
        "get_gwp",
        2,
        {
          field: "year_from",
          value: 2025,
          effective_from: "2026-11-23",
          reason: "Проверено по официальному тексту",
          version: current.version,
        },
        "admin@example.com",
      );
      expect(dated.values.year_from.value).toBe(2025);
    } finally {
      await other.close();
    }
  });
});

describe("coefficient sources of stored calculations", () => {
  it("reads the tagged references older calculations recorded as plain document names", () => {
    const stored = {
      id: "c1",
      type: "open_mining_co2",
      project: "p1",
      company: "co1",
      name: "Расчет",
      is_active: true,
      is_deleted: false,
      version: 1,
      // Every stored calculation has its creation date; one without it reads as damaged and shows no coefficients.
      created_at: "2024-03-01T00:00:00.000Z",
      inputs: { volume: 10 },
      results: { res_co2: 31.49 },
      coefficients: {
        ef: {
          value: 3.149,
          unit: "т CO2/т",
          source: "dictionary",
          dictionary: "get_open_mining_co2",
          item_id: 1,
          item_version: 1,
          reference: "[T] Приказ Минприроды России № 371 от 27.05.2022, табл. 18.1 (по транскрипции [S4])",
        },
        volume: { value: 10, unit: "т", source: "input" },
      },
    } as unknown as StoredCalculation;
    const view = calculationView(stored) as unknown as { coefficients: StoredCalculation["coefficients"] };
    expect(view.coefficients.ef.reference).toBe("Приказ Минприроды России № 371 от 27.05.2022, табл. 18.1");
    expect(view.coefficients.volume).toEqual({ value: 10, unit: "т", source: "input" });
    expect(stored.coefficients.ef.reference).toMatch(/^\[T\]/);
  });
});
