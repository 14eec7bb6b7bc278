// an earlier round on the tile: a model trained with the working's own channels (`features`: the face meter
// and the shearer's run status, tests/integration/forecast-named-features.test.ts) is bound to a working with
// each of them mapped to a sensor of that working (`channels`). The binding refuses a feature left unbound, one
// the model does not read, a sensor of another working and another company's sensor; it is stored; the tile
// forecasts from the bound sensors what POST v1/regres_methane/ gives for the same minutes, bit for bit, and
// names each channel's sensor among the model's columns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createHarness, type Harness } from "../support/harness";
import { AUDIT_CHANNEL_HEADERS, AUDIT_ROWS, auditCsv, auditLongwall } from "../support/audit-longwall";

const FACE = AUDIT_CHANNEL_HEADERS.face_ch4;
const RUN = AUDIT_CHANNEL_HEADERS.shearer_run;
const history = auditLongwall();
const WEEK = AUDIT_ROWS / 3;

let h: Harness;
let staff: string;
let other: string;
let facility: { id: string };
let project: { id: string };
let model: string;
let foreign: string;
const sensors: Record<string, string> = {};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const bind = (channels: Record<string, string> | undefined) =>
  post("/api/v1/telemetry/live/models/", {
    facility: facility.id,
    working: "Лава 12-1",
    horizon: 60,
    model,
    sensor: sensors["М-1"],
    channels,
  });

// 8 hours of minutes up to the minute before the clock's, each minute the audit longwall's 10-minute row.
const END = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
const MINUTES = 480;
const at = (k: number) => END - (MINUTES - 1 - k) * MINUTE_MS;
const rowOf = (k: number) => 2 * WEEK + Math.floor(k / 10);
const four = (v: number) => Math.round(v * 10_000) / 10_000;
const velocity = (k: number) => four(history.x.x1[rowOf(k)] / 600);

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff } = await h.signedInUser("ООО «Каналы лавы»"));
  ({ token: other } = await h.signedInUser("ООО «Чужие каналы»"));
  // The model: two weeks of the audit longwall with the face meter and the shearer's run status.
  const form = new FormData();
  form.set("features", JSON.stringify([FACE, RUN]));
  form.set("horizon", "60");
  form.set("params", JSON.stringify({ n_estimators: 60, max_depth: 4 }));
  form.set("file", new File([auditCsv(history, 0, 2 * WEEK, ["face_ch4", "shearer_run"])], "лава.csv"));
  model = (
    await json<{ id: string }>(await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token: staff, body: form }), 201)
  ).id;
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Каналы»", kind: "underground_mine" }), 201);
  project = await h.newProject(staff, "Прогноз по каналам");
  const point = (
    await json<{ id: string }>(await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" }), 201)
  ).id;
  for (const [code, kind, working, extra] of [
    ["М-1", "methane", "Лава 12-1", { warning: 1, alarm: 1.5 }],
    ["М-З", "methane", "Лава 12-1", {}],
    ["К-1", "run_status", "Лава 12-1", {}],
    ["V-1", "air_velocity", "Лава 12-1", { area_m2: 10 }],
    ["К-2", "run_status", "Лава 14", {}],
  ] as const) {
    sensors[code] = (
      await json<{ id: string }>(await post(`/api/v1/facilities/${facility.id}/sensors/`, { code, kind, point, working, ...extra }), 201)
    ).id;
  }
  const theirs = await json<{ id: string }>(
    await post("/api/v1/facilities/", { name: "Чужая шахта", kind: "underground_mine" }, other),
    201,
  );
  const theirPoint = (
    await json<{ id: string }>(
      await post(`/api/v1/facilities/${theirs.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" }, other),
      201,
    )
  ).id;
  foreign = (
    await json<{ id: string }>(
      await post(
        `/api/v1/facilities/${theirs.id}/sensors/`,
        { code: "К-9", kind: "run_status", point: theirPoint, working: "Лава 12-1" },
        other,
      ),
      201,
    )
  ).id;
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let k = 0; k < MINUTES; k++) {
    const r = rowOf(k);
    const t = new Date(at(k)).toISOString();
    readings.push({ sensor: "М-1", t, value: history.y[r] });
    readings.push({ sensor: "М-З", t, value: four(history.channels.face_ch4[r]) });
    readings.push({ sensor: "К-1", t, value: history.channels.shearer_run[r] });
    readings.push({ sensor: "V-1", t, value: velocity(k) });
  }
  await json(await post("/api/v1/telemetry/readings/", { facility: facility.id, readings }), 202);
  await monitoringIdle(h.deps);
}, 300_000);
afterAll(() => h.close());

const detail = async (res: Response) => {
  expect(res.status).toBe(400);
  return ((await res.json()) as { detail: string }).detail;
};

describe("a working's channels bound to the model's named features", () => {
  it("refuses a feature left unbound, one the model does not read, another working's or company's sensor", async () => {
    expect(await detail(await bind(undefined))).toBe(
      `Каналы выработки: выберите датчик выработки «Лава 12-1» для столбца модели «${FACE}»`,
    );
    expect(await detail(await bind({ [FACE]: sensors["М-З"], [RUN]: sensors["К-1"], Лишний: sensors["К-1"] }))).toMatch(
      /^Каналы выработки: модель не читает «Лишний»: ее собственные столбцы — «Метан у забоя, %», «Комбайн в работе»$/,
    );
    for (const id of [sensors["К-2"], foreign]) {
      expect(await detail(await bind({ [FACE]: sensors["М-З"], [RUN]: id }))).toBe(
        `Каналы выработки: столбец модели «${RUN}»: такого датчика в работе нет в выработке «Лава 12-1»`,
      );
    }
    const none = await json<unknown[]>(await h.request(`/api/v1/telemetry/live/models/?facility=${facility.id}`, { token: staff }), 200);
    expect(none).toEqual([]);
  });

  it("stores the binding and forecasts on the tile from the bound sensors what the forecast route gives, bit for bit", async () => {
    const bound = await json<{ channels?: Record<string, string> }[]>(await bind({ [FACE]: sensors["М-З"], [RUN]: sensors["К-1"] }), 200);
    expect(bound[0].channels).toEqual({ [FACE]: sensors["М-З"], [RUN]: sensors["К-1"] });
    const view = await json<{
      tiles: { working: string; forecasts: { result: number | null; columns: { column: string; sensor: string | null }[] }[] }[];
    }>(await h.request(`/api/v1/telemetry/live/?facility=${facility.id}`, { token: staff }), 200);
    const [forecast] = view.tiles.find((t) => t.working === "Лава 12-1")!.forecasts;
    expect(forecast.columns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ column: "x1", sensor: "V-1" }),
        expect.objectContaining({ column: FACE, sensor: "М-З" }),
        expect.objectContaining({ column: RUN, sensor: "К-1" }),
      ]),
    );
    // The same minutes as the forecast route's rows: 144 steps of 10 minutes up to the latest minute.
    const rows = [];
    for (let s = 0; s < 144; s++) {
      const t = END - (143 - s) * 10 * MINUTE_MS;
      const k = MINUTES - 1 - (END - t) / MINUTE_MS;
      const time = new Date(t).toISOString().slice(0, 16);
      rows.push(
        k < 0
          ? { t: time, [FACE]: null, [RUN]: null }
          : {
              t: time,
              x1: velocity(k) * 10 * 60,
              [FACE]: four(history.channels.face_ch4[rowOf(k)]),
              [RUN]: history.channels.shearer_run[rowOf(k)],
              y: history.y[rowOf(k)],
            },
      );
    }
    const created = await json<{ id: string }>(
      await post("/api/v1/regres_methane/", {
        name: "Лава 12-1 с каналами",
        project: project.id,
        method: "xgboost",
        horizon: 60,
        model_id: model,
        limit: 1.5,
        warning: 1,
        data: rows,
      }),
      201,
    );
    const stored = await json<{ data: { result: number | null }[] }>(
      await h.request(`/api/v1/regres_methane/${created.id}/single_calc/1/`, { token: staff }),
      200,
    );
    expect(forecast.result).not.toBeNull();
    expect(Object.is(forecast.result, stored.data.at(-1)!.result)).toBe(true);
  });
});
