// Stored abatement assessments (v1/abatement/assessments/, methodology section 11, D47): list, create,
// read, update with versions, archive; a stream taken from a year's measured drainage uses exactly
// that year's inventory figure; a dictionary change after the assessment does not alter it; the xlsx
// and the PDF read back (LibreOffice, pdftotext) with every figure the screen shows.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ABATEMENT_RESULT_COLUMNS, shownValue, type AbatementOptionResult } from "@core/abatement";
import { formatNumber } from "@server/export/txt-writer";
import { planLine } from "@server/export/abatement-export";
import { changeCoefficient, getDictionaryItem } from "@server/domain/reference/dictionaries";
import type { AbatementAssessment } from "@server/ports";
import { constructedMineRequest, maccMismatches, vectorParams } from "../support/abatement-vectors";
import { createFreshHarness, createHarness, type Harness } from "../support/harness";
import { xlsToCsv } from "../support/libreoffice";
import { instantOfWallTime } from "@core/company-clock";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
let other: string;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, as = token) => h.request(path, { method: "POST", token: as, json: body });
const patch = (path: string, body: unknown, as = token) => h.request(path, { method: "PATCH", token: as, json: body });
const mine = () => ({ name: "Шахта «Северная»: три варианта", ...constructedMineRequest() });

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО «Снижение»"));
  ({ token: other } = await h.signedInUser("ООО «Соседи»"));
});
afterAll(() => h.close());

describe("v1/abatement/assessments/", () => {
  it("creates, reads, lists, updates by version and archives; another company sees nothing", async () => {
    const created = await json<AbatementAssessment>(await post("/api/v1/abatement/assessments/", mine()), 201);
    expect(created).toMatchObject({ version: 1, archived: false, methodology_version: "2026.6", year: null });
    expect(maccMismatches(created.result.macc)).toEqual([]);
    expect(created.thresholds).toMatchObject({
      q_boiler: 0.5,
      q_gas_engine: 2,
      q_vam_energy: 5,
      q_pipeline: 10,
      q_power_plant: 25,
      item_id: 1,
    });
    expect(created.origins.drainage_1).toMatchObject({ source: "manual" });

    const read = await json<AbatementAssessment>(await h.request(`/api/v1/abatement/assessments/${created.id}/`, { token }), 200);
    expect(read).toEqual(created);
    const list = await json<{ results: { id: string; er_t_co2e: number; streams: number }[] }>(
      await h.request("/api/v1/abatement/assessments/", { token }),
      200,
    );
    expect(list.results.find((a) => a.id === created.id)).toMatchObject({ streams: 3 });

    const changed = await json<AbatementAssessment>(
      await patch(`/api/v1/abatement/assessments/${created.id}/`, {
        version: 1,
        params: { ...vectorParams(), price_carbon_unit_rub: 2000 },
      }),
      200,
    );
    expect(changed.version).toBe(2);
    const engine = (a: AbatementAssessment) => a.result.streams[0].options[0];
    expect(engine(changed).er_t_co2e).toBe(engine(created).er_t_co2e);
    expect(engine(changed).npv_rub as number).toBeGreaterThan(engine(created).npv_rub as number);
    // LAC leaves the carbon revenue out (D53).
    expect(engine(changed).lac_rub_per_t).toBe(engine(created).lac_rub_per_t);

    const stale = await patch(`/api/v1/abatement/assessments/${created.id}/`, { version: 1, name: "Другое имя" });
    expect(stale.status).toBe(409);
    const archived = await json<AbatementAssessment>(
      await patch(`/api/v1/abatement/assessments/${created.id}/`, { version: 2, archived: true }),
      200,
    );
    expect(archived).toMatchObject({ archived: true, version: 3 });

    expect((await h.request(`/api/v1/abatement/assessments/${created.id}/`, { token: other })).status).toBe(404);
    const theirs = await json<{ results: unknown[] }>(await h.request("/api/v1/abatement/assessments/", { token: other }), 200);
    expect(theirs.results).toEqual([]);
  });

  it("a required price left empty is a 400 naming the field", async () => {
    const { price_heat_rub_per_mwh: _, ...params } = vectorParams();
    const res = await post("/api/v1/abatement/assessments/", { ...mine(), params });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^${fieldName("params.price_heat_rub_per_mwh")}: Не задано: цена тепла`),
    );
  });

  it("takes a drainage station's and a shaft's methane exactly as the year's inventory has them", async () => {
    const facility = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Шахта «Южная»", kind: "underground_mine" }),
      201,
    );
    const point = async (name: string, kind: string) =>
      json<{ id: string }>(
        await post(`/api/v1/facilities/${facility.id}/points/`, { name, kind, instrument: "Расходомер", frequency: "непрерывно" }),
        201,
      );
    const drainage = await point("Дегазационная установка № 2", "drainage_station");
    const shaft = await point("Вентиляционный ствол № 3", "ventilation_shaft");
    const project = await json<{ id: string }>(
      await post("/api/v1/projects/create_project/", {
        name: "Южная 2024",
        start_date: "2024-01-01",
        end_date: "2024-12-31",
        facility: facility.id,
      }),
      201,
    );
    const measured = (name: string, at: string, millionM3: number, ch4: number) =>
      post("/api/v1/underground/", {
        name,
        project: project.id,
        point: at,
        entered: { volume: { value: millionM3, unit: "млн м³" } },
        ef_ch4: ch4,
        ef_co2: 0,
        p_ch4: 0.668,
        p_co2: 1.8393,
        basis: "gross",
      });
    await json(await measured("Дегазация 2024", drainage.id, 18.25, 42), 201);
    await json(await measured("Вентиляция 2024", shaft.id, 3650, 0.55), 201);

    type Stream = { point: string; t: number; to_air_t: number; kind: string };
    const streams = await json<{ results: Stream[] }>(await h.request("/api/v1/abatement/streams/?year=2024", { token }), 200);
    const inventory = await json<{ balance: { streams?: { point: string; t: number; to_air_t?: number }[] }[] }>(
      await h.request("/api/v1/inventory/?year=2024", { token }),
      200,
    );
    const figure = (id: string) => {
      const s = inventory.balance.flatMap((b) => b.streams ?? []).find((x) => x.point === id);
      return s?.to_air_t ?? s?.t;
    };
    expect(streams.results.map((s) => [s.point, s.kind]).sort()).toEqual(
      [
        [drainage.id, "drainage"],
        [shaft.id, "ventilation"],
      ].sort(),
    );
    // 18,25 million m³ at 42 % CH4 and 0,668 kg/m³.
    expect(figure(drainage.id)).toBeCloseTo((18.25e6 * 0.42 * 0.668) / 1000, 6);

    const created = await json<AbatementAssessment>(
      await post("/api/v1/abatement/assessments/", {
        name: "Южная 2024",
        year: 2024,
        streams: [
          { code: "dg2", kind: "drainage", point: drainage.id, c_ch4_pct: 42 },
          { code: "vs3", kind: "ventilation", point: shaft.id, c_ch4_pct: 0.55 },
        ],
        params: vectorParams(),
      }),
      201,
    );
    const [dg2, vs3] = created.result.streams;
    // the year's methane is spread over the year's 8 784 h (2024) in calendar time, and
    // an option running 8 000 h a year treats 8 000 h of it, not all of it.
    for (const option of dg2.options) expect(option.m_ch4_t / (((figure(drainage.id) as number) * 8000) / 8784) - 1).toBeCloseTo(0, 9);
    for (const option of vs3.options) expect(option.m_ch4_t / (((figure(shaft.id) as number) * 8000) / 8784) - 1).toBeCloseTo(0, 9);
    expect(dg2.q_ch4_m3_min / (((figure(drainage.id) as number) * 1000) / 0.668 / (8784 * 60)) - 1).toBeCloseTo(0, 9);
    expect(created.origins.dg2).toMatchObject({
      source: "inventory",
      point: drainage.id,
      year: 2024,
      point_name: "Дегазационная установка № 2",
    });
    expect(created.origins.dg2.figure_t_ch4).toBe(figure(drainage.id));
    expect(dg2.tech_code).toBe("GAS_ENGINE_CHP");
    expect(vs3.tech_code).toBe("VAM_DESTRUCTION");

    const missing = await post("/api/v1/abatement/assessments/", {
      name: "Нет года",
      year: 2023,
      streams: [{ code: "dg2", kind: "drainage", point: drainage.id, c_ch4_pct: 42 }],
      params: vectorParams(),
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { detail: string }).detail).toBe(
      `${fieldName("streams[0].point")}: В инвентаризации 2023 года нет измеренного метана этой точки`,
    );
  });
});

describe("a point measured in part of the year", () => {
  it("takes the months with measured data to a year by their hours, names them, and offers the engine", async () => {
    const facility = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Шахта «Осенняя»", kind: "underground_mine" }),
      201,
    );
    const station = await json<{ id: string }>(
      await post(`/api/v1/facilities/${facility.id}/points/`, {
        name: "Дегазационная установка № 1",
        kind: "drainage_station",
        instrument: "Расходомер",
        frequency: "непрерывно",
      }),
      201,
    );
    const project = await json<{ id: string }>(
      await post("/api/v1/projects/create_project/", {
        name: "Осенняя 2026",
        start_date: "2026-01-01",
        end_date: "2026-12-31",
        facility: facility.id,
      }),
      201,
    );
    // Two months accepted as «Данные АГК» makes them (monitoring/minutes/offers.ts): the month's volume at
    // 20 °C and its flow-weighted CH4, the month as the period.
    const months = [
      { from: "2026-10-01", to: "2026-10-31", volume: 1290.5, ch4: 41.2 },
      { from: "2026-11-01", to: "2026-11-30", volume: 1188.25, ch4: 43.9 },
    ];
    for (const m of months) {
      await json(
        await post("/api/v1/underground/", {
          name: `Дегазационная установка № 1: по данным АГК, ${m.from.slice(5, 7)}.2026`,
          project: project.id,
          point: station.id,
          volume: m.volume,
          ef_ch4: m.ch4,
          ef_co2: 0,
          dictionary_items: { get_underground: 1, get_underground_content: null },
          period: { from: m.from, to: m.to },
        }),
        201,
      );
    }
    type Stream = { point: string; to_air_t: number; months: string[]; hours: number; year_hours: number };
    const streams = await json<{ results: Stream[] }>(await h.request("/api/v1/abatement/streams/?year=2026", { token }), 200);
    const stream = streams.results.find((s) => s.point === station.id) as Stream;
    expect(stream).toMatchObject({ months: ["2026-10", "2026-11"], hours: (31 + 30) * 24, year_hours: 8760 });

    // The independent computation: the months' methane (thousand m³ × CH4 %) over their hours is the
    // stream's flow in calendar time; an option running 8 000 h a year treats 8 000 h of it.
    const ch4M3 = months.reduce((sum, m) => sum + m.volume * 1000 * (m.ch4 / 100), 0);
    const hours = (31 + 30) * 24;
    const flow = ch4M3 / (hours * 60);
    const treatedT = (flow * 60 * 8000 * 0.668) / 1000;
    const created = await json<AbatementAssessment>(
      await post("/api/v1/abatement/assessments/", {
        name: "Осенняя 2026",
        year: 2026,
        streams: [{ code: "du1", kind: "drainage", point: station.id, c_ch4_pct: 42 }],
        overrides: { du1: { GAS_ENGINE_CHP: { heat_used_share: 0.5 } } },
        params: vectorParams(),
      }),
      201,
    );
    const [du1] = created.result.streams;
    expect(stream.to_air_t).toBeCloseTo((ch4M3 * 0.668) / 1000, 6);
    for (const option of du1.options) expect(option.m_ch4_t / treatedT - 1).toBeCloseTo(0, 9);
    expect(du1.q_ch4_m3_min / flow - 1).toBeCloseTo(0, 9);
    // ≈ 13 m³/min of methane: the engine's window (the one month read as a year gave 1,09).
    expect(du1.tech_code).toBe("GAS_ENGINE_CHP");
    expect(du1.options.map((o) => o.option_code)).toContain("GAS_ENGINE_CHP");
    expect(du1.chosen).toBe("GAS_ENGINE_CHP");
    expect(created.origins.du1).toMatchObject({ months: ["2026-10", "2026-11"], hours, year_hours: 8760 });

    // The files name the months and say fewer than twelve are in.
    const pdf = await h.request(`/api/v1/abatement/assessments/${created.id}/export/?format=pdf`, { token });
    expect(pdf.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "abatement-months-"));
    writeFileSync(join(dir, "a.pdf"), Buffer.from(await pdf.arrayBuffer()));
    const text = spawnSync("pdftotext", ["-layout", join(dir, "a.pdf"), "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    expect(text).toContain("измерения за 2 из 12 месяцев (10.2026, 11.2026): метан пересчитан на год по их 1 464 ч из 8 760 ч года");
  });
});

describe("a month accepted with part of its minutes", () => {
  it("counts the hours its minutes measured, and the stream's flow is its methane over them", async () => {
    const facility = await json<{ id: string }>(
      await post("/api/v1/facilities/", { name: "Шахта «Майская»", kind: "underground_mine" }),
      201,
    );
    const shaft = await json<{ id: string }>(
      await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Вентиляционный ствол № 2", kind: "ventilation_shaft" }),
      201,
    );
    for (const [code, kind] of [
      ["Q-М", "flow"],
      ["М-М", "methane"],
    ]) {
      await json(await post(`/api/v1/facilities/${facility.id}/sensors/`, { code, kind, point: shaft.id }), 201);
    }
    const project = await json<{ id: string }>(
      await post("/api/v1/projects/create_project/", {
        name: "Майская 2026",
        start_date: "2026-01-01",
        end_date: "2026-12-31",
        facility: facility.id,
      }),
      201,
    );
    // May (744 h): the first 12 days measured (288 h), 9 000 m³/min of air at 0,4 % CH4 — 36 m³/min of methane.
    const may = instantOfWallTime(2026, 5, 1, 0, 0, "Asia/Novokuznetsk");
    const readings: { sensor: string; t: string; value: number }[] = [];
    for (let m = 0; m < 288 * 60; m++) {
      const t = new Date(may + m * 60_000 + 30_000).toISOString();
      readings.push({ sensor: "Q-М", t, value: 9000 }, { sensor: "М-М", t, value: 0.4 });
    }
    for (let i = 0; i < readings.length; i += 10_000) {
      await json(await post("/api/v1/telemetry/readings/", { facility: facility.id, readings: readings.slice(i, i + 10_000) }), 202);
    }
    await monitoringIdle(h.deps);
    await json(
      await post("/api/v1/telemetry/offers/accept/", {
        facility: facility.id,
        point: shaft.id,
        months: ["2026-05"],
        project: project.id,
        reason: "ствол пущен 13.05 в ремонт, замеры только до него",
      }),
      201,
    );
    type Stream = { point: string; to_air_t: number; months: string[]; hours: number; year_hours: number };
    const streams = await json<{ results: Stream[] }>(await h.request("/api/v1/abatement/streams/?year=2026", { token }), 200);
    const stream = streams.results.find((s) => s.point === shaft.id) as Stream;
    expect(stream).toMatchObject({ months: ["2026-05"], hours: 288, year_hours: 8760 });
    const created = await json<AbatementAssessment>(
      await post("/api/v1/abatement/assessments/", {
        name: "Майская 2026",
        year: 2026,
        streams: [{ code: "v2", kind: "ventilation", point: shaft.id, c_ch4_pct: 0.4 }],
        params: vectorParams(),
      }),
      201,
    );
    const [v2] = created.result.streams;
    expect(v2.q_ch4_m3_min).toBeCloseTo(36, 6);
  });
});

describe("exports", () => {
  let assessment: AbatementAssessment;
  beforeAll(async () => {
    assessment = await json<AbatementAssessment>(await post("/api/v1/abatement/assessments/", mine()), 201);
  });

  /** Every figure the screen shows of every option, as the screen writes it. */
  const figures = (a: AbatementAssessment) =>
    a.result.streams.flatMap((s) =>
      s.options.flatMap((o: AbatementOptionResult) =>
        ABATEMENT_RESULT_COLUMNS.map((c) => shownValue(c, o))
          .filter((v): v is number => v !== null)
          .map((v, i) => formatNumber(v, ABATEMENT_RESULT_COLUMNS.filter((c) => shownValue(c, o) !== null)[i].decimals)),
      ),
    );

  it("the PDF reads back with pdftotext: inputs, every figure, the coefficients with their sources and the MACC", async () => {
    const res = await h.request(`/api/v1/abatement/assessments/${assessment.id}/export/?format=pdf`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const file = join(mkdtempSync(join(tmpdir(), "abatement-")), "a.pdf");
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    const out = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const text = out.stdout.replace(/\s+/g, " ");
    for (const expected of [
      "Шахта «Северная»: три варианта",
      "Цена электроэнергии: 6 000,00 ₽/МВт·ч",
      "Коэффициент выбросов энергосистемы: 0,500 т CO2/МВт·ч",
      "Эффективность уничтожения метана для климатического проекта (в инвентаризации — 0,98)",
      "Затраты: оценка, не котировка",
      "[R] Tool 06, закрытый факел",
      "Кривая предельных затрат на сокращение выбросов (MACC)",
      ...assessment.result.macc.map(
        (bar) => `от ${formatNumber(bar.x_start, 1)} до ${formatNumber(bar.x_start + bar.width, 1)} т CO2-экв./год`,
      ),
      `LAC ${formatNumber(assessment.result.macc[0].lac_rub_per_t, 2)} ₽/т CO2-экв.`,
      planLine(assessment),
      ...figures(assessment),
    ]) {
      expect(text).toContain(expected.replace(/\u00a0/g, " "));
    }
  });

  it("the xlsx reads back with LibreOffice: every figure on its sheets", async () => {
    const res = await h.request(`/api/v1/abatement/assessments/${assessment.id}/export/?format=xlsx`, { token });
    expect(res.status).toBe(200);
    const sheets = xlsToCsv(new Uint8Array(await res.arrayBuffer()));
    expect([...sheets.keys()].sort()).toEqual(["Исходные данные", "Потоки", "Варианты", "Коэффициенты", "MACC", "Итог плана"].sort());
    // LibreOffice writes the CSV in its own locale (en-US here): 4,488.96 for the 4 488,96 shown.
    const english = (russian: string) =>
      russian
        .replace(/\u00a0/g, "#")
        .replace(",", ".")
        .replace(/#/g, ",");
    const plan = sheets.get("Итог плана") ?? "";
    const t = assessment.result.totals;
    for (const [v, d] of [
      [t.er_t_co2e, 1],
      [t.carbon_units, 0],
      [t.npv_rub, 0],
      [t.lac_rub_per_t as number, 2],
    ] as const) {
      expect(plan).toContain(english(formatNumber(v, d)));
    }
    const options = sheets.get("Варианты") ?? "";
    for (const expected of figures(assessment)) expect(options).toContain(english(expected));
    const macc = sheets.get("MACC") ?? "";
    for (const bar of assessment.result.macc) {
      for (const [value, decimals] of [
        [bar.x_start, 1],
        [bar.width, 1],
        [bar.lac_rub_per_t, 2],
      ] as const) {
        expect(macc).toContain(english(formatNumber(value, decimals)));
      }
    }
    expect(sheets.get("Коэффициенты")).toContain("[R] ACM0008");
  });

  it("a format other than xlsx or pdf is 400", async () => {
    expect((await h.request(`/api/v1/abatement/assessments/${assessment.id}/export/?format=doc`, { token })).status).toBe(400);
  });
});

describe("a dictionary change after the assessment", () => {
  it("does not alter it, nor its recomputation after a change of its own", async () => {
    const fresh = await createFreshHarness();
    try {
      const { token: own } = await fresh.signedInUser("ООО «Пороги»");
      // 10 m³/min at 40 % (4 m³/min of CH4): an engine under the default 2 m³/min threshold.
      const body = {
        name: "Порог ГПУ",
        streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 10, c_ch4_pct: 40 }],
        params: vectorParams(),
      };
      const res = await fresh.request("/api/v1/abatement/assessments/", { method: "POST", token: own, json: body });
      const before = (await res.json()) as AbatementAssessment;
      expect(before.result.streams[0].tech_code).toBe("GAS_ENGINE_CHP");
      const item = await getDictionaryItem(fresh.deps, "get_recycle_technology", 1);
      await changeCoefficient(
        fresh.deps,
        "get_recycle_technology",
        1,
        { field: "q_gas_engine", value: 5, effective_from: "2026-01-01", reason: "Проверка", version: item.version },
        "admin@example.com",
      );
      const read = (await (
        await fresh.request(`/api/v1/abatement/assessments/${before.id}/`, { token: own })
      ).json()) as AbatementAssessment;
      expect(read).toEqual(before);
      const renamed = (await (
        await fresh.request(`/api/v1/abatement/assessments/${before.id}/`, {
          method: "PATCH",
          token: own,
          json: { version: 1, params: { ...vectorParams(), price_el_rub_per_mwh: 6500 } },
        })
      ).json()) as AbatementAssessment;
      expect(renamed.result.streams[0].tech_code).toBe("GAS_ENGINE_CHP");
      expect(renamed.thresholds.q_gas_engine).toBe(2);
      // A new assessment takes the dictionary as it is now.
      const now = (await (
        await fresh.request("/api/v1/abatement/assessments/", { method: "POST", token: own, json: body })
      ).json()) as AbatementAssessment;
      expect(now.result.streams[0].tech_code).toBe("BOILER");
      expect(now.thresholds).toMatchObject({ q_gas_engine: 5, item_version: item.version + 1 });
    } finally {
      await fresh.close();
    }
  });
});
