// D25 and D19 per point: a mine's ventilation shaft and drainage station measured separately are
// two sources, a flare and a boiler burn the drained gas. The worked example (the 2022 national
// mine-methane balance as one mine, 20 °C densities, 100 % CH4, gross): ventilation 475.4 and
// drainage 303.5 million m³, a flare on 100 and a boiler on 106.1 million m³ of the drained gas →
// no error check; 1.B.1.a.i.1 CH4 = 572.8 × 0.668 = 382 630.4 t; 475.4 to the air by ventilation,
// 303.5 drained of which 206.1 destroyed and 97.4 vented. Then what is still a duplicate: two
// calculations of one point whose periods overlap, and an estimate of the whole mine beside a
// measured point; and a calculation's point must be one of its project's facility.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { inventoryCalculations } from "../support/inventory";

let h: Harness;
let token: string;
let other: string;
let facility: { id: string };
let project: { id: string };
const points: Record<string, { id: string; name: string }> = {};

type Check = { level: string; code: string; message: string; calculations: string[]; count?: number; list?: string };
type Inventory = {
  categories: Array<{ ipcc_code: string; gas: string; t: number; t_co2e: number }>;
  checks: Check[];
  balance: Array<Record<string, unknown> & { streams?: Array<Record<string, unknown>> }>;
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, as = token) => h.request(path, { method: "POST", token: as, json: body });
const patch = (path: string, body: unknown) => h.request(path, { method: "PATCH", token, json: body });
const inventory = async () => json<Inventory>(await h.request("/api/v1/inventory/?year=2022", { token }), 200);
const close = (actual: number, expected: number) => expect(Math.abs(actual - expected), `${actual} ≠ ${expected}`).toBeLessThan(1e-6);

/** A measured stream of 100 % CH4 at 20 °C, gross, in million m³ as entered. */
const measured = (name: string, point: string, millionM3: number, extra: Record<string, unknown> = {}) =>
  post("/api/v1/underground/", {
    name,
    project: project.id,
    point,
    entered: { volume: { value: millionM3, unit: "млн м³" } },
    ef_ch4: 100,
    ef_co2: 0,
    p_ch4: 0.668,
    p_co2: 1.8393,
    basis: "gross",
    ...extra,
  });

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО «Метан 2022»"));
  ({ token: other } = await h.signedInUser("ООО «Чужая»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Баланс 2022»", kind: "underground_mine" }), 201);
  for (const [key, name, kind] of [
    ["shaft", "Вентиляционный ствол № 1", "ventilation_shaft"],
    ["drainage", "Дегазационная установка", "drainage_station"],
    ["flare", "Факельная установка", "flare"],
    ["boiler", "Котельная на шахтном метане", "boiler_engine"],
  ] as const) {
    points[key] = await json(
      await post(`/api/v1/facilities/${facility.id}/points/`, { name, kind, instrument: "Расходомер", frequency: "непрерывно" }),
      201,
    );
  }
  project = await json(
    await post("/api/v1/projects/create_project/", {
      name: "Баланс 2022",
      start_date: "2022-01-01",
      end_date: "2022-12-31",
      facility: facility.id,
    }),
    201,
  );
});
afterAll(() => h.close());

describe("the worked example: one mine, ventilation and drainage measured apart, a flare and a boiler on the drained gas", () => {
  it("has no error check and nets 1.B.1.a.i.1 CH4 to 572.8 × 0.668 = 382 630.4 t", async () => {
    const shaft = await json<{ point: string; volume: number }>(await measured("Вентиляция 2022", points.shaft.id, 475.4), 201);
    expect(shaft).toMatchObject({ point: points.shaft.id, volume: 475_400 });
    await json(await measured("Дегазация 2022", points.drainage.id, 303.5), 201);
    await json(
      await post("/api/v1/torch_composition/", {
        name: "Факел 2022",
        project: project.id,
        point: points.flare.id,
        entered: { volume: { value: 100, unit: "млн м³" } },
        w_ch4: 100,
        w_co2: 0,
        cf: 0.0006,
        p_ch4: 0.668,
        p_co2: 1.8393,
      }),
      201,
    );
    // «Каптированный шахтный метан» (100 % CH4 at 20 °C): thousand m³ of methane burnt.
    await json(
      await post("/api/v1/disposal_co2_stat_sources/", {
        name: "Котельная 2022",
        project: project.id,
        point: points.boiler.id,
        volume: 106_100,
        of: 1,
        dictionary_items: { get_disposal_co2_stat_sources: 8 },
      }),
      201,
    );
    const year = await inventory();
    expect(year.checks.filter((c) => c.level === "error")).toEqual([]);
    const mining = year.categories.find((c) => c.ipcc_code === "1.B.1.a.i.1" && c.gas === "CH4")!;
    close(mining.t, 572_800 * 0.668);
    close(mining.t, 382_630.4);
    // The calculations name their points in the year's list.
    const rows = await inventoryCalculations(h, token, 2022);
    expect(Object.fromEntries(rows.map((r) => [r.name, r.point]))).toEqual({
      "Вентиляция 2022": points.shaft.id,
      "Дегазация 2022": points.drainage.id,
      "Факел 2022": points.flare.id,
      "Котельная 2022": points.boiler.id,
    });
  });

  it("balances by stream: 475.4 to the air by ventilation, 303.5 drained of which 206.1 destroyed and 97.4 vented (t at 0.668)", async () => {
    const [balance] = (await inventory()).balance;
    const t = (millionM3: number) => millionM3 * 1000 * 0.668;
    close(balance.ventilation_t as number, t(475.4));
    close(balance.drained_t as number, t(303.5));
    close((balance.flared_t as number) + (balance.used_t as number), t(206.1));
    close(balance.drained_vented_t as number, t(97.4));
    // Reached the air: the mining line's 572.8 and the flare's unburnt slip its own line reports.
    close(balance.emitted_t as number, t(572.8) + (balance.slip_t as number));
    close(balance.slip_t as number, t(100) * 0.0006);
    expect(balance.streams).toEqual([
      expect.objectContaining({ point: points.shaft.id, name: points.shaft.name, kind: "ventilation_shaft", route: "atmosphere" }),
      expect.objectContaining({ point: points.drainage.id, name: points.drainage.name, kind: "drainage_station", route: "drained" }),
      expect.objectContaining({ point: points.flare.id, name: points.flare.name, kind: "flare", route: "flared" }),
      expect.objectContaining({ point: points.boiler.id, name: points.boiler.name, kind: "boiler_engine", route: "used" }),
    ]);
    close(balance.streams!.find((s) => s.point === points.drainage.id)!.t as number, t(303.5));
  });

  it("prints each point in the passport's sources with its instrument and frequency, measured contents «Уровень 3»", async () => {
    const res = await h.request("/api/v1/inventory/2022/report/?format=pdf", { token });
    expect(res.status).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    const out = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const text = out.stdout.replace(/\s+/g, " ");
    for (const point of [points.shaft, points.drainage, points.flare, points.boiler]) {
      expect(text).toContain(`Источник выбросов «${point.name}»`);
    }
    expect(text).toContain("средство измерений: Расходомер; периодичность измерений: непрерывно");
    expect(text).toContain("Уровень 3 (измерения организации)");
    expect(text).not.toContain("Уровень 2 (данные организации)");
  });

  it("prints each line's point with its instrument and frequency in the xlsx passport's sources, measured contents «Уровень 3»", async () => {
    const res = await h.request("/api/v1/inventory/2022/report/?format=xlsx", { token });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const rows: unknown[][] = [];
    workbook.getWorksheet("Источники")!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows.find((r) => r.includes("Расчет"))!;
    const [calculation, tier, point] = ["Расчет", "Уровень", "Источник выбросов (точка измерения)"].map((h) => header.indexOf(h));
    expect(point).toBeGreaterThan(0);
    const of = (name: string) => rows.filter((r) => r[calculation] === name);
    for (const [name, shown, kind] of [
      ["Вентиляция 2022", points.shaft, "вентиляционный ствол (вентилятор)"],
      ["Дегазация 2022", points.drainage, "дегазационная установка"],
      ["Факел 2022", points.flare, "факельная установка"],
    ] as const) {
      expect(of(name).length, name).toBeGreaterThan(0);
      const expected = `Источник выбросов «${shown.name}» (${kind}); средство измерений: Расходомер; периодичность измерений: непрерывно`;
      for (const row of of(name)) expect(row[point]).toBe(expected);
    }
    expect(of("Вентиляция 2022").map((r) => r[tier])).toContain("Уровень 3 (измерения организации)");
  });
});

describe("the project's export", () => {
  it("names each measured or destruction calculation's emission point", async () => {
    const res = await h.request(`/api/v1/projects/${project.id}/export_to_xlsx/`, { token });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const pointOf: Record<string, unknown> = {};
    workbook.eachSheet((sheet) => {
      const header = (sheet.getRow(2).values as unknown[]).slice(1);
      const [name, point] = [header.indexOf("Название"), header.indexOf("Источник выбросов")];
      if (point < 0) return;
      sheet.eachRow((row, n) => {
        if (n > 2) pointOf[String((row.values as unknown[])[name + 1])] = (row.values as unknown[])[point + 1];
      });
    });
    expect(pointOf).toEqual({
      "Вентиляция 2022": "Вентиляционный ствол № 1 (вентиляционный ствол (вентилятор))",
      "Дегазация 2022": "Дегазационная установка (дегазационная установка)",
      "Факел 2022": "Факельная установка (факельная установка)",
      "Котельная 2022": "Котельная на шахтном метане (котельная, ГПУ)",
    });
  });
});

describe("what is still a duplicate (D19 per point)", () => {
  it("two calculations of one point whose periods overlap: the error names both and the point, and never advises an alternative", async () => {
    const again = await json<{ id: string; version: number }>(
      await measured("Вентиляция, I квартал", points.shaft.id, 120, { period: { from: "2022-01-01", to: "2022-03-31" } }),
      201,
    );
    const duplicate = (await inventory()).checks.filter((c) => c.code === "primary_duplicate");
    expect(duplicate).toHaveLength(1);
    expect(duplicate[0].message).toContain("источник «Вентиляционный ствол № 1»");
    expect(duplicate[0].message).toContain("«Вентиляция 2022» (01.01.2022–31.12.2022)");
    expect(duplicate[0].message).toContain("«Вентиляция, I квартал» (01.01.2022–31.03.2022)");
    expect(duplicate[0].level).toBe("error");
    // The advice: two calculations of one point are one source; a second point is never made an alternative.
    expect(duplicate[0].message).toContain("разделите их периоды или отправьте лишний расчет в архив");
    expect(duplicate[0].message).not.toContain("другой отметьте как альтернативный");
    // The list behind it is the two.
    const listed = await inventoryCalculations(h, token, 2022, { check: duplicate[0].list! });
    expect(listed.map((r) => r.name).sort()).toEqual(["Вентиляция 2022", "Вентиляция, I квартал"]);
    // Moved to the drainage station's Q1 it would be a duplicate there; archived, it is gone.
    await json(await patch(`/api/v1/underground/${again.id}/`, { is_deleted: true, version: again.version }), 200);
    expect((await inventory()).checks.filter((c) => c.level === "error")).toEqual([]);
  });

  it("an estimate of the whole mine (EF × coal) beside a measured point: the error says the estimate covers the whole mine", async () => {
    const estimate = await json<{ id: string; version: number }>(
      await post("/api/v1/underground_emission_ch4/", { name: "Оценка по добыче", project: project.id, volume: 10_000_000, ef: 18 }),
      201,
    );
    const errors = (await inventory()).checks.filter((c) => c.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe("primary_duplicate");
    expect(errors[0].message).toContain("«Оценка по добыче» (01.01.2022–31.12.2022) охватывает всю шахту (оценка по добыче угля)");
    expect(errors[0].message).toContain("в том числе источники «Вентиляционный ствол № 1», «Дегазационная установка», измеренные отдельно");
    expect(errors[0].calculations).toContain(estimate.id);
    const listed = await inventoryCalculations(h, token, 2022, { check: errors[0].list! });
    expect(listed.map((r) => r.name)).toContain("Оценка по добыче");
    // An alternative (a cross-check of the measurements) counts nowhere: no error.
    await json(
      await patch(`/api/v1/underground_emission_ch4/${estimate.id}/`, { inventory_role: "alternative", version: estimate.version }),
      200,
    );
    expect((await inventory()).checks.filter((c) => c.level === "error")).toEqual([]);
  });

  it("two measurements of the mine as a whole: the advice is to name each one's point, not to make one an alternative", async () => {
    const loose = await json<{ id: string }>(
      await post("/api/v1/projects/create_project/", {
        name: "Без источников",
        start_date: "2023-01-01",
        end_date: "2023-12-31",
        facility: facility.id,
      }),
      201,
    );
    const plain = (name: string) =>
      post("/api/v1/underground/", {
        name,
        project: loose.id,
        volume: 1000,
        ef_ch4: 100,
        ef_co2: 0,
        p_ch4: 0.668,
        p_co2: 1.8393,
        basis: "gross",
      });
    await json(await plain("Вентиляция 2023"), 201);
    await json(await plain("Дегазация 2023"), 201);
    const year = await json<Inventory>(await h.request("/api/v1/inventory/?year=2023", { token }), 200);
    const [duplicate] = year.checks.filter((c) => c.code === "primary_duplicate");
    expect(duplicate.message).toContain("укажите в каждом расчете его источник выбросов");
    expect(duplicate.message).not.toMatch(/альтернатив/);
  });
});

describe("a calculation's point", () => {
  it("is one of its project's facility (400 naming point), of a measured or destruction type, and active", async () => {
    const refused = async (res: Response) => {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Источник выбросов: /);
    };
    const otherFacility = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Другая шахта", kind: "underground_mine" }),
      201,
    );
    const foreign = await json<{ id: string }>(
      await post(`/api/v1/facilities/${otherFacility.id}/points/`, { name: "Ствол другой шахты", kind: "ventilation_shaft" }),
      201,
    );
    await refused(await measured("Чужой ствол", foreign.id, 1));
    await refused(await measured("Нет такого", "00000000-0000-7000-8000-000000000000", 1));
    // Another company's point is not found either.
    const theirs = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Их шахта", kind: "underground_mine" }, other),
      201,
    );
    const theirPoint = await json<{ id: string }>(
      await post(`/api/v1/facilities/${theirs.id}/points/`, { name: "Их ствол", kind: "ventilation_shaft" }, other),
      201,
    );
    await refused(await measured("Их ствол", theirPoint.id, 1));
    await refused(
      await post("/api/v1/underground_emission_ch4/", { name: "Оценка", project: project.id, point: points.shaft.id, volume: 1, ef: 18 }),
    );
    const archived = await json<{ id: string; version: number }>(
      await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Старый ствол", kind: "ventilation_shaft" }),
      201,
    );
    await json(await patch(`/api/v1/facilities/${facility.id}/points/${archived.id}/`, { is_active: false, version: 1 }), 200);
    await refused(await measured("В архиве", archived.id, 1));
  });

  it("is taken by an upload of measurement periods (a multipart form), and keeps its project on its facility", async () => {
    const loose = await json<{ id: string; version: number }>(
      await post("/api/v1/projects/create_project/", {
        name: "Мониторинг 2024",
        start_date: "2024-01-01",
        end_date: "2024-12-31",
        facility: facility.id,
      }),
      201,
    );
    const form = new FormData();
    form.set("project", loose.id);
    form.set("name", "Дегазация из файла");
    form.set("point", points.drainage.id);
    form.set("dictionary_items", JSON.stringify({ get_underground: 1 }));
    const csv = "from;to;flow_m3_min;hours;w_ch4;w_co2\n01.01.2024;31.01.2024;12,5;744;76;10,6\n";
    form.set("file_data", new Blob([new TextEncoder().encode(csv)]), "мониторинг.csv");
    const uploaded = await json<{ id: string; version: number; point: string; volume: number }>(
      await h.request("/api/v1/underground/", { method: "POST", token, body: form }),
      201,
    );
    expect(uploaded).toMatchObject({ point: points.drainage.id, volume: 558 });
    const other = await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Соседняя шахта", kind: "underground_mine" }), 201);
    const moved = await patch(`/api/v1/projects/${loose.id}/`, { facility: other.id, version: loose.version });
    expect(moved.status).toBe(400);
    expect(((await moved.json()) as { detail: string }).detail).toMatch(
      /^Площадка: расчет «Дегазация из файла» указывает источник выбросов/,
    );
    // An edit with a new file and the point cleared (an empty field): the facility as a whole.
    const edit = new FormData();
    edit.set("point", "");
    edit.set("version", String(uploaded.version));
    edit.set("file_data", new Blob([new TextEncoder().encode(csv)]), "мониторинг.csv");
    const cleared = await json<{ id: string; point?: string | null }>(
      await h.request(`/api/v1/underground/${uploaded.id}/`, { method: "PATCH", token, body: edit }),
      200,
    );
    expect(cleared.point ?? null).toBeNull();
  });
});
