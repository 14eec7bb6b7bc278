// an earlier round through the API on dynalite: a facility's workings at a glance (GET v1/telemetry/live/) — each
// methane meter's latest reading against 0,9·W, W and A in words, the air flow from the anemometer over
// its cross-section, «нет данных» after two missed intervals (D65) — the forecast of the model bound to a
// working equal, bit for bit, to POST v1/regres_methane/ of the same minutes (computed on the read for a
// model just bound, and by the forecaster as a later minute is applied), a working without a model
// saying why; the ETag answered 304; the stream (GET v1/telemetry/live/stream/) sending the tiles, then
// the tiles again after a push, then its close event; another company's user, a gateway key and a
// reviewer's binding refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { NO_MODEL_NOTE } from "@server/domain/monitoring/live/live";
import { closeLiveStreams } from "@server/http/monitoring";
import { createHarness, type Harness } from "../support/harness";
import { eventStreamText } from "../support/event-stream";

let h: Harness;
let staff: string;
let other: string;
let facility: { id: string; company: string };
let project: { id: string };
const sensors: Record<string, string> = {};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });

interface Tile {
  working: string;
  meters: {
    code: string;
    value: number | null;
    state: string;
    state_label: string;
    levels_label?: string | null;
    stale_minutes: number | null;
  }[];
  air_flow: { code: string; value: number } | null;
  drainage_flow: { code: string; value: number } | null;
  forecasts: {
    horizon: number;
    issued_at: string;
    result: number | null;
    lo: number | null;
    hi: number | null;
    p_exceed: number | null;
    limit: number;
    note: string;
    alert: { rule: string; reason: string };
  }[];
  forecast_note: string;
}
interface View {
  tiles: Tile[];
  advisory: string;
  etag: string;
}

// The minutes pushed: 8 hours up to the minute before the clock's.
const END = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
const MINUTES = 480;
const at = (k: number) => END - (MINUTES - 1 - k) * MINUTE_MS;
const methane = (k: number) => Number((0.5 + (0.43 * k) / (MINUTES - 1) + 0.02 * Math.sin(k / 7)).toFixed(4));
const velocity = (k: number) => Number((2 + 0.1 * Math.sin(k / 11)).toFixed(3));

async function push(readings: { sensor: string; t: number; value: number }[]) {
  for (let i = 0; i < readings.length; i += 10_000) {
    const body = { facility: facility.id, readings: readings.slice(i, i + 10_000).map((r) => ({ ...r, t: new Date(r.t).toISOString() })) };
    await json(await post("/api/v1/telemetry/readings/", body), 202);
  }
  await monitoringIdle(h.deps);
}

const live = (token = staff) => h.request(`/api/v1/telemetry/live/?facility=${facility.id}`, { token });

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff } = await h.signedInUser("ООО «Лава на экране»"));
  ({ token: other } = await h.signedInUser("ООО «Чужой экран»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Мониторинг»", kind: "underground_mine" }), 201);
  project = await h.newProject(staff, "Прогноз по лаве");
  const point = (
    await json<{ id: string }>(await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" }), 201)
  ).id;
  for (const [code, kind, working, extra] of [
    ["М-1", "methane", "Лава 12-1", { warning: 1, alarm: 1.5 }],
    ["М-2", "methane", "Лава 12-1", { warning: 1, alarm: 1.5 }],
    ["V-1", "air_velocity", "Лава 12-1", { area_m2: 10 }],
    ["Q-Д", "flow", "Лава 12-1", {}],
    ["М-Д", "methane_high", "Лава 12-1", {}],
    ["М-3", "methane", "Лава 14", { warning: 1, alarm: 1.5 }],
  ] as const) {
    sensors[code] = (
      await json<{ id: string }>(await post(`/api/v1/facilities/${facility.id}/sensors/`, { code, kind, point, working, ...extra }), 201)
    ).id;
  }
  const readings: { sensor: string; t: number; value: number }[] = [];
  for (let k = 0; k < MINUTES; k++) {
    readings.push({ sensor: "М-1", t: at(k), value: methane(k) });
    if (k < MINUTES - 12) readings.push({ sensor: "М-2", t: at(k), value: 0.4 });
    readings.push({ sensor: "V-1", t: at(k), value: velocity(k) });
    readings.push({ sensor: "Q-Д", t: at(k), value: 50 });
    readings.push({ sensor: "М-Д", t: at(k), value: 40 });
    readings.push({ sensor: "М-3", t: at(k), value: 0.3 });
  }
  await push(readings);
});
afterAll(() => h.close());

describe("the live tiles", () => {
  it("show each meter against its levels in words, the air flow, a stale channel and a working without a model", async () => {
    // answered from the facility's kept heads, no minute read (a day of each
    // sensor's minutes was folded on the request thread), nothing asked of the threads.
    const monitoring = h.deps.repos.monitoring;
    const kept = { ...monitoring };
    const read: string[] = [];
    for (const name of ["minutesOf", "getMinute", "getDay", "getDays", "getMinutesHead"] as const) {
      (monitoring as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        read.push(name);
        return (kept[name] as (...a: unknown[]) => unknown)(...args);
      };
    }
    const threads = h.deps.spreadsheets.minutesRead;
    h.deps.spreadsheets.minutesRead = (actor, what) => {
      read.push(`thread: ${what.read}`);
      return threads ? threads(actor, what) : Promise.reject(new Error("no threads"));
    };
    let view: View;
    try {
      view = await json<View>(await live(), 200);
    } finally {
      Object.assign(monitoring, kept);
      h.deps.spreadsheets.minutesRead = threads;
    }
    expect(read).toEqual([]);
    expect(view.advisory).toMatch(/^Справочно: данные АГК шахты/);
    expect(view.tiles.map((t) => t.working)).toEqual(["Лава 12-1", "Лава 14"]);
    const [lava, other14] = view.tiles;
    const last = methane(MINUTES - 1);
    expect(last).toBeGreaterThanOrEqual(0.9);
    // D98: М-1 hangs at the shaft's point, whose norm is 0,75 %: at 0,9 % the book holds its gassing in force,
    // and the tile says so, its 0,9·W beside it.
    expect(lava.meters[0]).toMatchObject({ code: "М-1", value: last, state: "gassing", stale_minutes: null });
    expect(lava.meters[0].state_label).toBe(
      `загазирование: ${last.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} % при норме 0,75 %`,
    );
    expect(lava.meters[0].levels_label).toBe("≥ 0,9·W (0,9 %): близко к предупредительному");
    // The clock is a minute or two past END: 12 to 14 minutes without a reading. A silent meter is never
    // «норма»: its silence is its state.
    expect(lava.meters[1]).toMatchObject({ code: "М-2", value: 0.4, state: "none" });
    expect(lava.meters[1].stale_minutes).toBeGreaterThanOrEqual(12);
    expect(lava.meters[1].stale_minutes).toBeLessThan(16);
    expect(lava.meters[1].state_label).toBe(`нет данных ${lava.meters[1].stale_minutes} мин`);
    expect(lava.air_flow).toMatchObject({ code: "V-1", value: velocity(MINUTES - 1) * 10 * 60 });
    expect(lava.drainage_flow).toMatchObject({ code: "Q-Д", value: 50 });
    expect(lava.forecasts).toEqual([]);
    expect(lava.forecast_note).toBe(NO_MODEL_NOTE);
    expect(other14.meters[0]).toMatchObject({ code: "М-3", value: 0.3, state: "normal" });
  });

  it("forecast with the bound model what POST v1/regres_methane/ of the same minutes gives, bit for bit", async () => {
    const bound = await json<{ working: string; horizon: number; model: string }[]>(
      await post("/api/v1/telemetry/live/models/", { facility: facility.id, working: "Лава 12-1", horizon: 60, model: "xgboost-h60" }),
      200,
    );
    expect(bound).toMatchObject([{ working: "Лава 12-1", horizon: 60, model: "xgboost-h60" }]);
    const view = await json<View>(await live(), 200);
    const [forecast] = view.tiles[0].forecasts;
    expect(forecast).toMatchObject({ horizon: 60, issued_at: new Date(END).toISOString(), limit: 1.5 });
    expect(view.tiles[1].forecast_note).toBe(NO_MODEL_NOTE);
    // The same minutes as rows of the forecast route, built here from what was pushed: 144 steps of
    // 10 minutes up to the latest minute, the meter's value as y, the anemometer × 10 m² × 60 as x1.
    const rows = [];
    for (let s = 0; s < 144; s++) {
      const t = END - (143 - s) * 10 * MINUTE_MS;
      const k = MINUTES - 1 - (END - t) / MINUTE_MS;
      rows.push(
        k < 0
          ? { t: new Date(t).toISOString().slice(0, 16) }
          : { t: new Date(t).toISOString().slice(0, 16), x1: velocity(k) * 10 * 60, x7: 40, x8: 50, y: methane(k) },
      );
    }
    const created = await json<{ id: string }>(
      await post("/api/v1/regres_methane/", {
        name: "Лава 12-1 на час",
        project: project.id,
        method: "xgboost",
        horizon: 60,
        model_id: "xgboost-h60",
        limit: 1.5,
        warning: 1,
        data: rows,
      }),
      201,
    );
    const stored = await json<{ data: { result: number | null; lo?: number | null; hi?: number | null; p_exceed?: number | null }[] }>(
      await h.request(`/api/v1/regres_methane/${created.id}/single_calc/1/`, { token: staff }),
      200,
    );
    const row = stored.data.at(-1)!;
    expect(forecast.result).not.toBeNull();
    expect(Object.is(forecast.result, row.result)).toBe(true);
    expect(forecast.lo).toBe(row.lo ?? null);
    expect(forecast.hi).toBe(row.hi ?? null);
    expect(forecast.p_exceed).toBe(row.p_exceed ?? null);
    // The working's chart: the meters' minutes and the forecasts over the same rows, the last the tile's.
    const chart = await json<{
      meters: { code: string; t: string[]; v: number[] }[];
      forecasts: { horizon: number; t: string[]; result: (number | null)[] }[];
    }>(
      await h.request(`/api/v1/telemetry/live/chart/?facility=${facility.id}&working=${encodeURIComponent("Лава 12-1")}`, { token: staff }),
      200,
    );
    expect(chart.meters.map((m) => [m.code, m.v.length])).toEqual([
      ["М-1", MINUTES],
      ["М-2", MINUTES - 12],
      ["М-Д", MINUTES],
    ]);
    expect(chart.meters[0].v.at(-1)).toBe(methane(MINUTES - 1));
    expect(chart.forecasts[0].t.at(-1)).toBe(new Date(END + 60 * MINUTE_MS).toISOString());
    expect(chart.forecasts[0].result).toHaveLength(144);
    expect(Object.is(chart.forecasts[0].result.at(-1), forecast.result)).toBe(true);
    expect(forecast.alert.rule).toBe("reading");
    expect(forecast.alert.reason).toMatch(/^Оповещение по прогнозу не включено: /);
  });

  it("answer 304 to the ETag they sent", async () => {
    const res = await live();
    const etag = res.headers.get("ETag")!;
    expect(etag).toBe(((await res.json()) as View).etag);
    const again = await h.request(`/api/v1/telemetry/live/?facility=${facility.id}`, { token: staff, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("stream the tiles, again after a push, and close", async () => {
    const res = await h.request(`/api/v1/telemetry/live/stream/?facility=${facility.id}&max_events=2`, { token: staff });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const { until, text } = eventStreamText(res);
    expect(await until(/event: live\ndata: .*\n/)).toBe(true);
    const first = JSON.parse(/event: live\ndata: (.*)\n/.exec(text())![1]) as View;
    expect(first.tiles[0].meters[0].value).toBe(methane(MINUTES - 1));
    await push([{ sensor: "М-1", t: END + MINUTE_MS, value: 1.52 }]);
    expect(await until(/event: close\n/)).toBe(true);
    const views = [...text().matchAll(/event: live\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]) as View);
    expect(views).toHaveLength(2);
    expect(views[1].tiles[0].meters[0]).toMatchObject({
      value: 1.52,
      state: "gassing",
      state_label: "загазирование: 1,52 % при норме 0,75 %",
      levels_label: "≥ A (1,5 %): аварийный",
    });
  });

  it("end every open stream with its close event when the host stops", async () => {
    const res = await h.request(`/api/v1/telemetry/live/stream/?facility=${facility.id}`, { token: staff });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!/event: live\n/.test(text)) text += (await reader.read()).value ?? "";
    closeLiveStreams(h.deps);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(text).toMatch(/event: close\ndata: \n\n$/);
  });

  it("show the forecaster's forecast of a minute pushed since, again what POST v1/regres_methane/ of its minutes gives", async () => {
    // Computed as the batch was applied (domain/monitoring/live/forecaster.ts), not by this read.
    const t = END + 2 * MINUTE_MS;
    await push([
      { sensor: "М-1", t, value: 0.97 },
      { sensor: "V-1", t, value: 2.05 },
      { sensor: "Q-Д", t, value: 50 },
      { sensor: "М-Д", t, value: 40 },
    ]);
    const stored = await h.deps.repos.liveBindings.forecastsOfFacility(facility.company, facility.id);
    expect(stored.map((f) => f.issued)).toEqual([t]);
    const [forecast] = (await json<View>(await live(), 200)).tiles[0].forecasts;
    expect(forecast.issued_at).toBe(new Date(t).toISOString());
    const rows = [];
    for (let s = 0; s < 144; s++) {
      const r = t - (143 - s) * 10 * MINUTE_MS;
      const k = MINUTES - 1 - (END - r) / MINUTE_MS;
      const time = new Date(r).toISOString().slice(0, 16);
      rows.push(
        r === t
          ? { t: time, x1: 2.05 * 10 * 60, x7: 40, x8: 50, y: 0.97 }
          : k < 0
            ? { t: time }
            : { t: time, x1: velocity(k) * 10 * 60, x7: 40, x8: 50, y: methane(k) },
      );
    }
    const created = await json<{ id: string }>(
      await post("/api/v1/regres_methane/", {
        name: "Лава 12-1 на час, минута позже",
        project: project.id,
        method: "xgboost",
        horizon: 60,
        model_id: "xgboost-h60",
        limit: 1.5,
        warning: 1,
        data: rows,
      }),
      201,
    );
    const row = (
      await json<{ data: { result: number | null; lo?: number | null; hi?: number | null; p_exceed?: number | null }[] }>(
        await h.request(`/api/v1/regres_methane/${created.id}/single_calc/1/`, { token: staff }),
        200,
      )
    ).data.at(-1)!;
    expect(typeof forecast.result).toBe("number");
    expect(Object.is(forecast.result, row.result)).toBe(true);
    expect(forecast.lo).toBe(row.lo ?? null);
    expect(forecast.hi).toBe(row.hi ?? null);
    expect(forecast.p_exceed).toBe(row.p_exceed ?? null);
  });

  it("are another company's 404, a gateway key's 401 and a reviewer may not bind a model", async () => {
    expect((await live(other)).status).toBe(404);
    expect((await h.request(`/api/v1/telemetry/live/stream/?facility=${facility.id}`, { token: other })).status).toBe(404);
    expect(
      (await post("/api/v1/telemetry/live/models/", { facility: facility.id, working: "Лава 12-1", horizon: 60, model: null }, other))
        .status,
    ).toBe(404);
    const { key } = await json<{ key: string }>(await post(`/api/v1/facilities/${facility.id}/gateway-keys/`, { label: "Шлюз" }), 201);
    const byKey = await h.request(`/api/v1/telemetry/live/?facility=${facility.id}`, { headers: { Authorization: `Gateway ${key}` } });
    expect(byKey.status).toBe(401);
    const unknown = await post("/api/v1/telemetry/live/models/", {
      facility: facility.id,
      working: "Лава 99",
      horizon: 60,
      model: "xgboost-h60",
    });
    expect((await json<{ detail: string }>(unknown, 400)).detail).toBe(
      "Выработка: на площадке нет выработки «Лава 99» с датчиками в работе",
    );
  });
});

// ML M1: the tile fed a bound model only x1, x7, x8 and x15, though models are trained
// on seven columns and the facility had sensors for the others; nothing said so. A company's model of
// 30 minutes is trained here on seven columns of a longwall whose methane follows the mine's return
// (x12) half an hour later, so its figure is its own (not the last reading) and moves with x12.
describe("a model's seven columns", () => {
  let mine: string;
  let model = "";
  const ids: Record<string, string> = {};
  const v = (k: number, base: number, amp: number, period: number) => Number((base + amp * Math.sin(k / period)).toFixed(3));
  const x12 = (k: number) => v(k, 0.6, 0.15, 20);
  const series: Record<string, (k: number) => number> = {
    // The longwall's methane: the mine's return's half an hour before, with a slow rise of its own.
    "М-7": (k) => Number((0.4 + 0.8 * (x12(k - 30) - 0.6) + 0.02 * Math.sin(k / 97)).toFixed(4)),
    "V-7": (k) => v(k, 2, 0.2, 9),
    "V-С": (k) => v(k, 2.1, 0.1, 23),
    "МД-7": (k) => v(k, 38, 2, 17),
    "Q-7": (k) => v(k, 45, 5, 13),
    "М-Ш": x12,
    "V-Ш": (k) => v(k, 6, 0.4, 19),
    "CH4-7": (k) => v(k, 17, 1.5, 11),
  };
  const column: Record<string, (k: number) => number> = {
    x1: (k) => series["V-7"](k) * 10 * 60,
    x2: (k) => series["V-С"](k) * 10 * 60,
    x7: series["МД-7"],
    x8: series["Q-7"],
    x12: series["М-Ш"],
    x13: (k) => series["V-Ш"](k) * 20 * 60,
    x15: series["CH4-7"],
  };
  const SEVEN = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"];

  /** The history the model is trained on: 900 ten-minute rows before the pushed minutes, as a user keeps it. */
  function history(): string {
    const headers = [
      "Время",
      "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин",
      "Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин",
      "Концентрация метана в каптируемой смеси, %",
      "Расход смеси, извлекаемой установкой, м³/мин",
      "Средняя концентрация CH4 в исходящей струе шахты, %",
      "Расход воздуха в исходящей струе шахты, м³/мин",
      "Расход метана, извлекаемого установкой, м³/мин",
      "Концентрация CH4 в исходящей струе лавы, факт, %",
    ];
    const two = (n: number) => String(n).padStart(2, "0");
    const lines = [headers.join(";")];
    for (let r = 0; r < 900; r++) {
      const k = -9000 + r * 10;
      const d = new Date(at(0) + k * MINUTE_MS);
      const time = `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
      const values = [...SEVEN.map((c) => column[c](k)), series["М-7"](k)].map((n) => String(n).replace(".", ","));
      lines.push([time, ...values].join(";"));
    }
    return lines.join("\n");
  }

  beforeAll(async () => {
    mine = (await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Семь столбцов»", kind: "underground_mine" }), 201))
      .id;
    const point = (
      await json<{ id: string }>(await post(`/api/v1/facilities/${mine}/points/`, { name: "Ствол", kind: "ventilation_shaft" }), 201)
    ).id;
    for (const [code, kind, working, extra] of [
      ["М-7", "methane", "Лава 7", { warning: 1, alarm: 1.5 }],
      ["V-7", "air_velocity", "Лава 7", { area_m2: 10 }],
      // The longwall's air measured daily (x2): a second anemometer of the working, set on the binding.
      ["V-С", "air_velocity", "Лава 7", { area_m2: 10 }],
      ["МД-7", "methane_high", "Лава 7", {}],
      ["Q-7", "flow", "Лава 7", {}],
      ["CH4-7", "methane_flow", "Лава 7", {}],
      // The mine's return (x12, x13): no working.
      ["М-Ш", "methane", "", {}],
      ["V-Ш", "air_velocity", "", { area_m2: 20 }],
    ] as const) {
      ids[code] = (
        await json<{ id: string }>(await post(`/api/v1/facilities/${mine}/sensors/`, { code, kind, point, working, ...extra }), 201)
      ).id;
    }
    const readings = [];
    for (let k = 0; k < MINUTES; k++)
      for (const [code, f] of Object.entries(series)) readings.push({ sensor: code, t: new Date(at(k)).toISOString(), value: f(k) });
    await json(await post("/api/v1/telemetry/readings/", { facility: mine, readings }), 202);
    await monitoringIdle(h.deps);
    const form = new FormData();
    form.set("params", JSON.stringify({ n_estimators: 40, max_depth: 4 }));
    form.set("horizon", "30");
    form.append("file", new File([history()], "лава 7.csv", { type: "text/csv" }));
    const trained = await json<{ id: string; feature_names: string[] }>(
      await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token: staff, body: form }),
      201,
    );
    expect(trained.feature_names.filter((f) => f.startsWith("x"))).toEqual(SEVEN);
    model = trained.id;
  });

  /** The rows of the forecast route from what was pushed: 144 ten-minute steps, each column `columns` names. */
  function rows(columns: readonly string[]) {
    const out = [];
    for (let s = 0; s < 144; s++) {
      const t = END - (143 - s) * 10 * MINUTE_MS;
      const k = MINUTES - 1 - (END - t) / MINUTE_MS;
      const row: Record<string, number | string> = { t: new Date(t).toISOString().slice(0, 16) };
      if (k >= 0) {
        for (const c of columns) row[c] = column[c](k);
        row.y = series["М-7"](k);
      }
      out.push(row);
    }
    return out;
  }

  async function routeResult(columns: readonly string[]) {
    const created = await json<{ id: string }>(
      await post("/api/v1/regres_methane/", {
        name: `Лава 7: ${columns.join(", ")}`,
        project: project.id,
        method: "xgboost",
        horizon: 30,
        model_id: model,
        limit: 1.5,
        warning: 1,
        data: rows(columns),
      }),
      201,
    );
    const stored = await json<{
      data: { result: number | null; model_result?: number | null; lo?: number | null; hi?: number | null; p_exceed?: number | null }[];
    }>(await h.request(`/api/v1/regres_methane/${created.id}/single_calc/1/`, { token: staff }), 200);
    return stored.data.at(-1)!;
  }

  interface Fed {
    result: number | null;
    lo: number | null;
    hi: number | null;
    p_exceed: number | null;
    probability: { reliable: boolean } | null;
    note: string;
    columns: { column: string; label: string; sensor: string | null }[];
  }
  const tile = async () =>
    (await json<{ tiles: { forecasts: Fed[] }[] }>(await h.request(`/api/v1/telemetry/live/?facility=${mine}`, { token: staff }), 200))
      .tiles[0].forecasts[0];
  const bind = (features: Record<string, string>) =>
    post("/api/v1/telemetry/live/models/", { facility: mine, working: "Лава 7", horizon: 30, model, features });

  it("feeds every column the model was trained on from the sensors set, equal bit for bit to POST v1/regres_methane/ of those columns", async () => {
    const bound = await json<{ features?: Record<string, string> }[]>(
      await bind({ x2: ids["V-С"], x12: ids["М-Ш"], x13: ids["V-Ш"] }),
      200,
    );
    expect(bound[0].features).toEqual({ x2: ids["V-С"], x12: ids["М-Ш"], x13: ids["V-Ш"] });
    const forecast = await tile();
    expect(forecast.columns.map((c) => [c.column, c.sensor])).toEqual([
      ["x1", "V-7"],
      ["x2", "V-С"],
      ["x7", "МД-7"],
      ["x8", "Q-7"],
      ["x12", "М-Ш"],
      ["x13", "V-Ш"],
      ["x15", "CH4-7"],
    ]);
    expect(forecast.note).not.toMatch(/не задан датчик/);
    const seven = await routeResult(SEVEN);
    expect(typeof forecast.result).toBe("number");
    expect(Object.is(forecast.result, seven.result)).toBe(true);
    expect(forecast.lo).toBe(seven.lo ?? null);
    expect(forecast.hi).toBe(seven.hi ?? null);
    // D108 (b, c): the tile carries the chance only where its working's back-test judged it better than the base
    // rate; the route's row keeps it, shown or not: where the tile shows it, it is the route's, bit for bit.
    expect(typeof seven.p_exceed).toBe("number");
    expect(forecast.p_exceed).toBe(forecast.probability?.reliable === true ? (seven.p_exceed ?? null) : null);
    // What the tile fed before, four columns, gives another figure: the model's own (D96 d: a day's rows cannot show
    // the model's advantage over the last reading, which is shown, the model's figure beside it).
    const four = await routeResult(["x1", "x7", "x8", "x15"]);
    const own = (r: typeof four) => (r.model_result === undefined ? r.result : r.model_result);
    expect(own(four)).not.toBe(own(seven));
  });

  it("names on the tile a column the model reads and no sensor feeds", async () => {
    await json(await bind({ x12: ids["М-Ш"], x13: ids["V-Ш"] }), 200);
    const forecast = await tile();
    expect(forecast.columns.find((c) => c.column === "x2")).toEqual({
      column: "x2",
      label: "Расход воздуха в исходящей струе лавы (суточные замеры)",
      sensor: null,
    });
    expect(forecast.note).toContain(
      "Модель обучена на столбцах, для которых не задан датчик: x2 («Расход воздуха в исходящей струе лавы (суточные замеры)») — прогноз считается без них.",
    );
    const six = await routeResult(["x1", "x7", "x8", "x12", "x13", "x15"]);
    expect(Object.is(forecast.result, six.result)).toBe(true);
  });

  it("refuses a column's sensor of a kind the column does not take, or of another facility", async () => {
    const wrong = await bind({ x12: ids["V-Ш"] });
    expect((await json<{ detail: string }>(wrong, 400)).detail).toMatch(
      /^features\.x12: датчик V-Ш не подходит для столбца «Средняя концентрация CH4 в исходящей струе шахты»: нужен /,
    );
    const foreign = await bind({ x2: sensors["V-1"] });
    expect((await json<{ detail: string }>(foreign, 400)).detail).toBe("features.x2: такого датчика в работе нет на площадке");
  });
});
