// @vitest-environment happy-dom
// «Мониторинг» of a facility: where the host keeps no stream (AWS answers it 404) the page
// polls the tiles; each working shows its meters' values the Russian way with their states in words
// (never by colour alone), «нет данных N мин», the air and drainage flow, the forecast with its interval
// and probability, which alert rule is on and whether it is raised; a working without a model says
// why; a model bound from the tile's dialog is sent as the route declares it; the advisory note shown.
// The forecasts are a table, a row per horizon; their model, note and rule are said once under it where
// every horizon shares them, else once per group of horizons that do.
// The page is opened for what it does with the server (the tiles polled, a model bound); how a tile
// reads its forecasts renders the tile alone.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { ADVISORY_NOTE } from "@core/monitoring";
import { checksDue, methaneLimitsInForce, signedInUser } from "../../../testing/fixtures";
import { failure } from "../../../testing/contract-api";
import { closeApp, openPage, openPart, type OpenApp } from "../../../testing/render-app";
import type { LiveTile, LiveView } from "../../../api/live";
import { LiveTileCard } from "./LiveTileCard";
import MonitoringPage from "./MonitoringPage";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

type Forecast = LiveTile["forecasts"][number];

// Typed as the route answers them: the tiles the tests render alone are not checked by the contract's stand-in.
const meter = (changes: Partial<LiveTile["meters"][number]>): LiveTile["meters"][number] => ({
  sensor: "s1",
  code: "М-1",
  kind: "methane",
  place: "face",
  norm_place: null,
  value: 0.93,
  at: "2026-03-01T03:00:00.000Z",
  warning: 1,
  alarm: 1.5,
  state: "pre_warning",
  state_label: "≥ 0,9·W (0,9 %): близко к предупредительному",
  levels_label: null,
  gassing_since: null,
  stale_minutes: null,
  ...changes,
});
/** A table row's cells' text. */
const cells = (row: Element) => [...row.children].map((c) => c.textContent);
const FORECAST: Forecast = {
  horizon: 60,
  horizon_label: "1 ч",
  model: { id: "xgboost-h60", method: "xgboost", version: 1, label: "XGBoost, версия 1 (модель платформы)" },
  sensor: "М-1",
  issued_at: "2026-03-01T03:00:00.000Z",
  for: "2026-03-01T04:00:00.000Z",
  result: 0.95,
  lo: 0.82,
  hi: 1.1,
  p_exceed: 0.62,
  // Judged better than the base rate: shown (P is shown only then).
  probability: {
    reliable: true,
    judgement: "better",
    brier: 0.05,
    base_brier: 0.09,
    rows: 900,
    events: 40,
    judged_on: "history",
    judged_after: null,
  },
  limit: 1.5,
  level: 90,
  note: "",
  alert: {
    rule: "forecast",
    reason: "Оповещение по прогнозу включено: на истории выработки за 7 сут. оно раньше при не большем числе ложных.",
    days: 7,
    events: 3,
    forecast: { caught: 3, missed: 0, lead_median: 40, false_per_day: 0.2 },
    reading: { caught: 3, missed: 0, lead_median: 10, false_per_day: 0.3 },
    raised: true,
  },
};
const VIEW: LiveView = {
  facility: "f1",
  facility_name: "Шахта «Мониторинг»",
  now: "2026-03-01T03:01:00.000Z",
  advisory: ADVISORY_NOTE,
  processing: null,
  etag: '"abc"',
  tiles: [
    {
      working: "Лава 12-1",
      place: null,
      meters: [
        meter({}),
        meter({ sensor: "s2", code: "М-2", value: 0.4, state: "none", state_label: "нет данных 12 мин", stale_minutes: 12 }),
      ],
      air_flow: { code: "V-1", value: 1440, at: "2026-03-01T03:00:00.000Z", stale_minutes: null },
      drainage_flow: { code: "Q-Д", value: 50, at: "2026-03-01T03:00:00.000Z", stale_minutes: null },
      channels: [],
      forecasts: [FORECAST],
      forecast_note: "",
      updated_at: "2026-03-01T03:00:00.000Z",
    },
    {
      working: "Лава 14",
      place: null,
      meters: [meter({ sensor: "s3", code: "М-3", value: 1.52, state: "alarm", state_label: "≥ A (1,5 %): аварийный" })],
      air_flow: null,
      drainage_flow: null,
      channels: [],
      forecasts: [],
      forecast_note:
        "Модель прогноза для выработки не выбрана: прогноз не считается. Выберите модель для горизонта в настройке прогноза выработки.",
      updated_at: "2026-03-01T03:00:00.000Z",
    },
  ],
};
/** A sensor of the register as the server answers it. */
function sensor(id: string, code: string, kind: "methane" | "air_velocity", working: string) {
  const at = "2026-03-01T03:00:00.000Z";
  const register = {
    code,
    kind,
    point: null,
    role: "recording" as const,
    working,
    section: working,
    place: "other" as const,
    warning: null,
    alarm: null,
    area_m2: kind === "air_velocity" ? 10 : null,
    conditions: "standard" as const,
    in_service_from: null,
    in_service_to: null,
  };
  return {
    id,
    company: "company-1",
    facility: "f1",
    ...register,
    is_active: true,
    revisions: [{ ...register, valid_from: "1970-01-01T00:00:00.000Z" }],
    created_at: at,
    updated_at: at,
    version: 1,
  };
}
const SENSORS = [
  sensor("s-v14", "V-14", "air_velocity", "Лава 14"),
  sensor("s-vd", "V-С", "air_velocity", "Лава 14"),
  sensor("s-m3", "М-3", "methane", "Лава 14"),
  sensor("s-m4", "М-4", "methane", "Лава 14"),
  sensor("s-m9", "М-9", "methane", "Лава 12-1"),
];

const MODEL = {
  method: "xgboost",
  id: "xgboost-h60",
  version: 1,
  library: "xgboost",
  library_version: "1.7.4",
  objective: "reg:squarederror",
  horizon: 60,
  feature_names: ["x1", "x2", "y_now"],
  num_trees: 44,
  file_name: "methane-xgboost-h60.json",
  description: "Модель по умолчанию на 1 ч вперед: XGBoost 1.7.4, 44 деревьев",
  is_active: true,
  uploaded_at: "2026-01-01T00:00:00.000Z",
  uploaded_by: "platform",
};

/** D104: a record «отключение не подтверждено» as GET …/cutoffs/ answers it. */
const CUTOFF = {
  id: "s1.r1.abc",
  facility: "f1",
  sensor: "s1",
  sensor_code: "М-1",
  place: "У забоя (призабойное пространство)",
  working: "Лава 12-1",
  setpoint: 1.3,
  start: "2026-03-01T03:10:00.000Z",
  end: "2026-03-01T03:20:00.000Z",
  peak: 1.4,
  minutes: 10,
  run_sensor: "r1",
  run_code: "РК-1",
  run_minutes: 10,
  text: "отключение не подтверждено: М-1 1,40 % при уставке отключения 1,30 %, РК-1 в работе 10 мин",
  state: "open" as const,
  answer: null,
  confirmation: null,
};

it("polls the tiles where no stream is kept, shows each working in words and binds a model to one", async () => {
  app = openPage({ path: "/facilities/f1/monitoring", route: "/facilities/:facilityId/monitoring", page: <MonitoringPage /> }, (api) =>
    api
      .on("getMe", () => signedInUser())
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("sensorChecksDue", checksDue())
      .on("listFacilities", [])
      .on("streamMonitoringLive", () => failure(404, "Поток обновлений есть только на локальном сервере"))
      .on("getMonitoringLive", VIEW)
      .on("listMonitoringLiveModels", [])
      .on("listSensors", SENSORS)
      .on("listCutoffs", { facility: "f1", facility_name: "Шахта", from: "2026-01-30", to: "2026-03-01", results: [CUTOFF] })
      .on("listForecastModels", { results: [{ method: "xgboost", versions: [], horizons: [MODEL] }], count: 1 })
      .on("bindMonitoringLiveModel", ({ body }) => [
        { ...(body as object), method: "xgboost", sensor: null, bound_at: "2026-03-01T03:02:00.000Z", bound_by: "demo@example.com" },
      ]),
  );
  expect(await screen.findByText(ADVISORY_NOTE)).toBeTruthy();
  expect(await screen.findByText(/^Обновляется раз в 15 с; данные на 01\.03\.2026/)).toBeTruthy();
  // D104: a cut-off not confirmed is listed on «Мониторинг», with the way to answer it.
  const cutoffs = await screen.findByTestId("cutoffs-alert");
  expect(cutoffs.textContent).toContain("Отключение не подтверждено: 1");
  expect(cutoffs.textContent).toContain(
    "01.03.2026 10:10: отключение не подтверждено: М-1 1,40 % при уставке отключения 1,30 %, РК-1 в работе 10 мин",
  );
  expect(within(cutoffs).getByRole("link").getAttribute("href")).toBe("/facilities/f1/readings-audit");
  const [lava, other] = screen.getAllByTestId("live-tile");
  expect(lava.getAttribute("aria-label")).toBe("Выработка Лава 12-1: ≥ 0,9·W");
  expect(lava.textContent).toContain("М-10,93 % об.≥ 0,9·W (0,9 %): близко к предупредительному");
  // A silent meter's silence is its state, said once and never beside «норма».
  expect(lava.textContent).toContain("М-20,40 % об.нет данных 12 минW 1 %");
  expect(lava.textContent).toContain("Расход воздуха: 1\u00a0440 м³/мин (V-1)");
  expect(lava.textContent).toContain("Расход дегазации: 50 м³/мин (Q-Д)");
  const table = within(lava).getByTestId("live-forecasts");
  expect(table.querySelector("caption")?.textContent).toBe(
    "Прогноз М-1; P — вероятность, что за горизонт хотя бы одна минута достигнет 1,5\u00a0%",
  );
  expect(cells(table.querySelector("thead tr")!)).toEqual(["Горизонт", "К времени", "%\u00a0об.", "Интервал 90\u00a0%", "P"]);
  expect(within(lava).getAllByTestId("live-forecast").map(cells)).toEqual([["1 ч", "11:00", "0,95", "0,82–1,10", "62\u00a0%"]]);
  const about = within(lava).getByTestId("live-forecast-about");
  expect(about.textContent).toContain("Модель: XGBoost, версия 1 (модель платформы)");
  expect(about.textContent).toContain("Оповещение по прогнозу (P ≥ 0,5)");
  expect(about.textContent).toContain("Прогноз превышения");
  expect(lava.textContent).not.toContain("xgboost-h60");
  expect(other.getAttribute("aria-label")).toBe("Выработка Лава 14: ≥ A");
  expect(other.textContent).toContain("1,52 % об.≥ A (1,5 %): аварийный");
  expect(other.textContent).toContain("Модель прогноза для выработки не выбрана");
  expect(other.textContent).toContain("Расход воздуха: нет датчика");

  await app.user.click(within(other).getByText("Модель прогноза").closest("button")!);
  const dialog = (await screen.findByText("Модель прогноза: Лава 14", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  await app.user.click(within(dialog).getByLabelText("Модель"));
  await app.user.click(await screen.findByText("Модель платформы, версия 1", { selector: ".ant-select-item-option-content" }));
  // Named short in the list; its description read in full under it.
  expect((await within(dialog).findByTestId("model-description")).textContent).toBe(
    "Модель по умолчанию на 1 ч вперед: XGBoost 1.7.4, 44 деревьев",
  );
  // ML M1: the sensor of each column the model reads — x1 by kind from the working, x2 chosen.
  const columns = within(dialog).getByTestId("model-columns");
  expect(columns.textContent).toContain("x1: Расход воздуха в исходящей струе лавы (телеметрия)");
  expect(columns.textContent).toContain("По виду датчика выработки: V-14");
  expect(columns.textContent).toContain("x2: Расход воздуха в исходящей струе лавы (суточные замеры)");
  expect(columns.textContent).toContain("Не задан: прогноз без этого столбца");
  await app.user.click(within(dialog).getByLabelText("Датчик столбца x2"));
  await app.user.click(await screen.findByText("V-С (Лава 14)", { selector: ".ant-select-item-option-content" }));
  // the meter the model forecasts is chosen among the working's methane meters.
  await app.user.click(within(dialog).getByLabelText("Датчик прогноза"));
  const meterOptions = await screen.findAllByText(/^М-\d$/, { selector: ".ant-select-item-option-content" });
  expect(meterOptions.map((o) => o.textContent)).toEqual(["М-3", "М-4"]);
  await app.user.click(meterOptions[1]);
  await app.user.click(within(dialog).getByText("Сохранить").closest("button")!);
  await waitFor(() => expect(app.api.calls("bindMonitoringLiveModel")).toHaveLength(1));
  expect(app.api.calls("bindMonitoringLiveModel")[0].body).toEqual({
    facility: "f1",
    working: "Лава 14",
    horizon: 60,
    model: "xgboost-h60",
    features: { x2: "s-vd" },
    sensor: "s-m4",
  });
});

it("reads the forecasts once as a table, saying the model, note and rule once where every horizon shares them", async () => {
  const uncalibrated: Forecast = {
    ...FORECAST,
    lo: null,
    hi: null,
    p_exceed: null,
    note: "Модель не откалибрована: интервал и вероятность превышения не рассчитываются.",
    alert: { ...FORECAST.alert, rule: "reading", raised: false, reason: "Оповещение по прогнозу не включено: модель не откалибрована." },
  };
  const horizons = [
    { horizon: 10, horizon_label: "10 мин", for: "2026-03-01T03:10:00.000Z" },
    { horizon: 60, horizon_label: "1 ч", for: "2026-03-01T04:00:00.000Z" },
    { horizon: 360, horizon_label: "6 ч", for: "2026-03-01T09:00:00.000Z" },
  ];
  const tile = { ...VIEW.tiles[0], forecasts: horizons.map((h) => ({ ...uncalibrated, ...h })) };
  const apartForecasts: Forecast[] = [
    { ...FORECAST, horizon: 10, horizon_label: "10 мин", for: "2026-03-01T03:10:00.000Z", alert: { ...FORECAST.alert, raised: false } },
    FORECAST,
    { ...uncalibrated, horizon: 120, horizon_label: "2 ч", for: "2026-03-01T05:00:00.000Z", result: null },
  ];
  app = openPart(
    <>
      <LiveTileCard facility="f1" tile={tile} />
      <LiveTileCard facility="f1" tile={{ ...tile, working: "Лава 15", forecasts: apartForecasts }} />
    </>,
    (api) => api.on("listMethaneLimits", methaneLimitsInForce()).on("sensorChecksDue", checksDue()),
  );
  const [shared, apart] = await screen.findAllByTestId("live-tile");
  // the tile names the act, point and edition of the limit its meters are read against.
  expect(
    (
      await within(shared).findAllByText(
        /Правила безопасности в угольных шахтах \(приказ № 507 от 08\.12\.2020\), п\. 122, приложение № 3$/,
      )
    ).length,
  ).toBeGreaterThan(0);
  expect(within(shared).getAllByTestId("live-forecast").map(cells)).toEqual([
    ["10 мин", "10:10", "0,95", "—", "—"],
    ["1 ч", "11:00", "0,95", "—", "—"],
    ["6 ч", "16:00", "0,95", "—", "—"],
  ]);
  const about = within(shared).getByTestId("live-forecast-about");
  expect(about.textContent).toBe(
    "Модель: XGBoost, версия 1 (модель платформы)" +
      "Модель не откалибрована: интервал и вероятность превышения не рассчитываются." +
      "Оповещение по текущему значению (≥ 0,9·предела)" +
      "Оповещение по прогнозу не включено: модель не откалибрована.",
  );
  for (const said of ["Модель не откалибрована", "XGBoost", "Оповещение по текущему"])
    expect(shared.textContent?.split(said)).toHaveLength(2);
  // Where the horizons differ, each part is said once per group of horizons that share it.
  expect(within(apart).getAllByTestId("live-forecast").map(cells)).toEqual([
    ["10 мин", "10:10", "0,95", "0,82–1,10", "62\u00a0%"],
    ["1 ч", "11:00", "0,95", "0,82–1,10", "62\u00a0%"],
    ["2 ч", "12:00", "нет прогноза", "—", "—"],
  ]);
  const apartAbout = within(apart).getByTestId("live-forecast-about");
  expect(apartAbout.textContent).toBe(
    "Модель: XGBoost, версия 1 (модель платформы)" +
      "2 ч: Модель не откалибрована: интервал и вероятность превышения не рассчитываются." +
      "10 мин, 1 ч: Оповещение по прогнозу (P ≥ 0,5)Прогноз превышения: 1 ч" +
      "Оповещение по прогнозу включено: на истории выработки за 7 сут. оно раньше при не большем числе ложных." +
      "2 ч: Оповещение по текущему значению (≥ 0,9·предела)" +
      "Оповещение по прогнозу не включено: модель не откалибрована.",
  );
});

// the demo's tile showed 0,62 at every horizon — the last reading, the model having
// lost to it on the history — without saying so.
it("says where a horizon shows the last reading, and shows the model's own figure on a click", async () => {
  const persistence: Forecast = { ...FORECAST, result: 0.62, model_result: 0.71 };
  const tile = { ...VIEW.tiles[0], forecasts: [persistence] };
  app = openPart(<LiveTileCard facility="f1" tile={tile} />, (api) =>
    api.on("listMethaneLimits", methaneLimitsInForce()).on("sensorChecksDue", checksDue()),
  );
  const [row] = await screen.findAllByTestId("live-forecast");
  expect(row.textContent).toContain("0,62последнее показание (модель не точнее)");
  expect(within(row).queryByTestId("model-own")).toBeNull();
  await app.user.click(within(row).getByText("прогноз модели"));
  expect(within(row).getByTestId("model-own").textContent).toBe("модель: 0,71");
});

// a sensor feeding the model that has sent nothing for 8 minutes is named in the note,
// and each horizon's figure is marked as made without it.
it("names a silent sensor of the model in the note and marks the forecast as made without it", async () => {
  const note = "Датчики модели молчат — V-1 (x1, «Расход воздуха»): нет показаний 9 мин: прогноз сделан без их показаний.";
  const silent: Forecast = { ...FORECAST, note, made_without: ["V-1"] };
  app = openPart(<LiveTileCard facility="f1" tile={{ ...VIEW.tiles[0], forecasts: [silent] }} />, (api) =>
    api.on("listMethaneLimits", methaneLimitsInForce()).on("sensorChecksDue", checksDue()),
  );
  const tile = await screen.findByTestId("live-tile");
  expect(within(tile).getAllByTestId("live-forecast").map(cells)).toEqual([["1 ч", "11:00", "0,95без V-1", "0,82–1,10", "62\u00a0%"]]);
  expect(within(tile).getByTestId("live-forecast-about").textContent).toContain(note);
});

// D94: a sensor of the working whose latest check failed says so on the tile, and opens its checks.
it("says on the tile that a sensor did not pass its check", async () => {
  const failed = {
    sensor: "s1",
    code: "М-7",
    kind: "methane",
    working: VIEW.tiles[0].working,
    rule: "раз в 7 дн.",
    last_check: { id: "c1", at: "2026-03-01T03:00:00.000Z", result: "failed" as const },
    failed: true,
    next_due: "2026-03-08T17:00:00.000Z",
    overdue_days: null,
    problems: ["датчик не прошел проверку 01.03.2026"],
    verification: "поверен до 31.12.2026",
    out_of_verification_from: null,
  };
  app = openPage({ path: "/facilities/f1/monitoring", page: <LiveTileCard facility="f1" tile={VIEW.tiles[0]} /> }, (api) =>
    api
      .on("listMethaneLimits", methaneLimitsInForce())
      .on("sensorChecksDue", checksDue("f1", [failed, { ...failed, sensor: "s9", working: "Другая", code: "М-9" }])),
  );
  const tile = await screen.findByTestId("live-tile");
  await within(tile).findByText("датчик не прошел проверку 01.03.2026");
  expect(within(tile).getByRole("link", { name: "М-7" }).getAttribute("href")).toBe("/facilities/f1/sensors/s1/checks");
  expect(within(tile).queryByText("М-9")).toBeNull();
});

// D94: a sensor of the working out of verification is named so on the tile, whatever its checks.
it("names on the tile a sensor out of verification", async () => {
  const expired = {
    sensor: "s1",
    code: "М-7",
    kind: "methane",
    working: VIEW.tiles[0].working,
    rule: "раз в 7 дн.",
    last_check: { id: "c1", at: "2026-03-05T03:00:00.000Z", result: "passed" as const },
    failed: false,
    next_due: "2026-03-12T17:00:00.000Z",
    overdue_days: null,
    problems: ["вне поверки с 10.03.2026"],
    verification: "вне поверки с 10.03.2026",
    out_of_verification_from: "2026-03-10",
  };
  app = openPage({ path: "/facilities/f1/monitoring", page: <LiveTileCard facility="f1" tile={VIEW.tiles[0]} /> }, (api) =>
    api.on("listMethaneLimits", methaneLimitsInForce()).on("sensorChecksDue", checksDue("f1", [expired])),
  );
  const tile = await screen.findByTestId("live-tile");
  await within(tile).findByText("вне поверки с 10.03.2026");
  expect(within(tile).getByRole("link", { name: "М-7" }).getAttribute("href")).toBe("/facilities/f1/sensors/s1/checks");
});

// the sensors without a working are a tile under their place — the shaft's meter and its
// anemometer silent past the day, said in minutes, never «нет датчика» — with no model and no chart of a
// working; a working's anemometer silent past the day is said so too.
it("shows a place's tile of the sensors without a working, a silent anemometer by its minutes", async () => {
  const shaft: LiveTile = {
    working: "",
    place: "shaft",
    meters: [
      meter({ sensor: "s5", code: "М-С", place: "shaft", value: 0.3, warning: null, alarm: null, state: "normal", state_label: "норма" }),
    ],
    air_flow: { code: "V-С", value: null, at: "2026-02-28T01:00:00.000Z", stale_minutes: 1561 },
    drainage_flow: null,
    channels: [],
    forecasts: [],
    forecast_note: "",
    updated_at: "2026-03-01T03:00:00.000Z",
  };
  app = openPart(<LiveTileCard facility="f1" tile={shaft} />, (api) =>
    api.on("listMethaneLimits", methaneLimitsInForce()).on("sensorChecksDue", checksDue()),
  );
  const tile = await screen.findByTestId("live-tile");
  expect(tile.getAttribute("aria-label")).toBe("Место: Ствол (канал вентилятора): нет данных 1 сут 2 ч (V-С)");
  expect(tile.querySelector(".ant-card-head-title")?.textContent).toBe("Ствол (канал вентилятора)");
  expect(tile.textContent).toContain("Расход воздуха: нет данных 1 сут 2 ч (V-С)");
  expect(tile.textContent).not.toContain("нет датчика");
  // No drainage line at the shaft: not said; no model or chart of a working.
  expect(tile.textContent).not.toContain("Расход дегазации");
  expect(within(tile).queryByText("Модель прогноза")).toBeNull();
  expect(within(tile).queryByText("График за сутки")).toBeNull();
});

it("says a working's anemometer silent through the day by its code, not «нет датчика»", async () => {
  const lava: LiveTile = { ...VIEW.tiles[1], air_flow: { code: "V-1", value: null, at: null, stale_minutes: null } };
  app = openPart(<LiveTileCard facility="f1" tile={lava} />, (api) =>
    api.on("listMethaneLimits", methaneLimitsInForce()).on("sensorChecksDue", checksDue()),
  );
  const working = await screen.findByTestId("live-tile");
  expect(working.textContent).toContain("Расход воздуха: нет показаний за сутки (V-1)");
  expect(working.textContent).toContain("Расход дегазации: нет датчика");
});

// D108, item f: one reading raised one tag — three horizons whose reasons differ gave three red «Текущее ≥ 0,9·предела».
// A horizon showing the time-of-day mean (D108 e) names it.
it("raises one reading tag for one reading, and names the time-of-day mean where it is shown", async () => {
  const reading = (horizon: number, label: string, reason: string, shown?: Forecast["shown"]): Forecast => ({
    ...FORECAST,
    horizon,
    horizon_label: label,
    p_exceed: null,
    probability: { ...FORECAST.probability!, reliable: false, judgement: "not_better" },
    ...(shown ? { shown, model_result: 0.9 } : {}),
    alert: { ...FORECAST.alert, rule: "reading", raised: true, reason },
  });
  const forecasts = [
    reading(10, "10 мин", "Оповещение по прогнозу не включено: прогноз поймал меньше событий."),
    reading(60, "1 ч", "Оповещение по прогнозу не включено: у прогноза больше ложных оповещений."),
    reading(360, "6 ч", "Оповещение по прогнозу не включено: недостаточно событий.", "time_of_day"),
  ];
  app = openPart(<LiveTileCard facility="f1" tile={{ ...VIEW.tiles[0], forecasts }} />, (api) =>
    api.on("listMethaneLimits", methaneLimitsInForce()).on("sensorChecksDue", checksDue()),
  );
  const tile = await screen.findByTestId("live-tile");
  expect(within(tile).getAllByText("Текущее ≥ 0,9·предела")).toHaveLength(1);
  expect(tile.textContent).toContain("среднее по времени суток (модель не точнее)");
});
