// Прогноз концентрации метана в исходящей струе лавы (regres_methane): the type's registry entry.
import type { CalculationDefinition, NumberField, UploadColumn } from "./definition";
import { PHYSICAL_BOUNDS } from "./definition";
import { analysisParts, numberColumn } from "./fields";

// regres_methane: the data columns of docs/api.md, the manual table's and the upload's, in model feature order.
const FORECAST_DATA_COLUMNS = [
  {
    name: "x1",
    label: "Расход воздуха в исходящей струе лавы (телеметрия)",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  {
    name: "x2",
    label: "Расход воздуха в исходящей струе лавы (суточные замеры)",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  { name: "x7", label: "Концентрация метана в каптируемой смеси", unit: "%", type: "number", min: 0, max: 100, decimals: 4 },
  {
    name: "x8",
    label: "Расход смеси, извлекаемой установкой",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  { name: "x12", label: "Средняя концентрация CH4 в исходящей струе шахты", unit: "%", type: "number", min: 0, max: 100, decimals: 4 },
  {
    name: "x13",
    label: "Расход воздуха в исходящей струе шахты",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
  {
    name: "x15",
    label: "Расход метана, извлекаемого установкой",
    unit: "м³/мин",
    type: "number",
    min: 0,
    max: PHYSICAL_BOUNDS.flow_m3_min,
    decimals: 4,
  },
] as const satisfies readonly NumberField[];

/** A forecast row's measured concentration, where the history gives it (the back-test, the calibration). */
export const FORECAST_MEASURED = {
  name: "y",
  label: "Концентрация CH4 в исходящей струе лавы, факт",
  unit: "%",
  type: "number",
  min: 0,
  max: 100,
  decimals: 4,
} as const satisfies NumberField;
/** A forecast row's barometric pressure at the surface, where the history gives it (a
 *  pressure drop draws methane out of the goaf): a model ahead reads it and its change over the last
 *  hour (wasm-core/src/gbdt/horizon.ts, PRESSURE_FEATURES). */
export const FORECAST_PRESSURE = {
  name: "p_atm",
  label: "Барометрическое давление",
  unit: "кПа",
  type: "number",
  min: 0,
  max: 200,
  decimals: 3,
} as const satisfies NumberField;
/** A forecast row's time: a date-time (ДД.ММ.ГГГГ ЧЧ:ММ) or a step number. */
export const FORECAST_TIME_COLUMN = {
  name: "t",
  label: "Время",
  unit: "",
  kind: "text",
  optional: true,
  note: "Дата и время (01.01.2025 08:10) или номер шага",
} as const satisfies UploadColumn;

/** The forecast model's features: the data columns' names, in order. */
export const FORECAST_FEATURES = FORECAST_DATA_COLUMNS.map((c) => c.name);
/** The 1 % methane limit in a longwall's outgoing air (docs/user-guide.md, «Infographics»): the line
 *  on the forecast chart, the predictions above it highlighted and counted, and a forecast's limit
 *  (its count's, its back-test's) when none is sent. */
export const METHANE_LIMIT_PERCENT = 1;
/** The gradient-boosting libraries a forecast may run (regres_methane's `method`). */
export const FORECAST_METHODS = ["xgboost", "lightgbm"] as const;
export type ForecastMethod = (typeof FORECAST_METHODS)[number];
/** Each library as its makers write it: what a user reads for a forecast's `method`. */
export const FORECAST_METHOD_TITLES: Readonly<Record<ForecastMethod, string>> = { xgboost: "XGBoost", lightgbm: "LightGBM" };
export type ForecastFeature = (typeof FORECAST_DATA_COLUMNS)[number]["name"];

export const definition = {
  title: "Прогноз концентрации метана в исходящей струе лавы",
  kind: "forecast",
  methodology: "—",
  inputs: [
    {
      name: "method",
      label: "Метод",
      unit: "",
      type: "choice",
      options: FORECAST_METHODS,
      optionTitles: FORECAST_METHOD_TITLES,
    },
    // The interval's level and the limits the back-test and the chance of reaching it use (a forecast's own).
    { name: "level", label: "Уровень интервала", unit: "%", type: "number", min: 80, max: 95, decimals: 0, default: 90 },
    { name: "limit", label: "Предел концентрации CH4", unit: "%", type: "number", min: 0, max: 100, decimals: 2, default: 1 },
    { name: "warning", label: "Уровень предупреждения", unit: "%", type: "number", min: 0, max: 100, decimals: 2, default: 0.8 },
    // How far ahead (0: the nowcast, the readings' own moment) and, optionally, which model version.
    { name: "horizon", label: "Горизонт прогноза", unit: "мин", type: "number", min: 0, max: 360, decimals: 0, default: 0 },
    { name: "model_id", label: "Модель", unit: "", type: "text", optional: true },
    {
      name: "data",
      label: "Данные",
      unit: "",
      type: "table",
      columns: FORECAST_DATA_COLUMNS,
    },
    {
      name: "file_data",
      label: "Файл с данными",
      unit: "",
      type: "file",
      template: {
        title: "Прогноз метана",
        example: [
          [1, 1324.7, 1266, 37.01, 124.21, 0.408, 18187, 45.264],
          [2, 1432.3, 1501, 32.36, 116.89, 0.511, 16482, 36.886],
          [3, 1380.2, null, 35.5, 120.4, 0.45, 17050, 41.2],
        ],
      },
      optional: true,
      upload: [
        { name: "id", label: "Номер строки (шаг 10 минут)", unit: "", kind: "number", optional: true },
        // Every data column is in the file; an empty cell is a missing value the models allow.
        ...FORECAST_DATA_COLUMNS.map((c) => numberColumn(c, "Пустая ячейка — пропуск")),
        // History: the measured value and the time, for the back-test and the calibration.
        { ...numberColumn(FORECAST_MEASURED, "Замер; по нему прогноз проверяется на истории"), optional: true },
        // Where the history has it: a model ahead reads the pressure and its change over the last hour.
        { ...numberColumn(FORECAST_PRESSURE, "Где измеряется; прогноз вперед учитывает его и его изменение за час"), optional: true },
        FORECAST_TIME_COLUMN,
      ],
    },
  ],
  results: [
    {
      name: "data",
      label: "Прогноз",
      unit: "",
      type: "table",
      columns: [
        { name: "result", label: "Концентрация метана", unit: "%", type: "number", decimals: 4 },
        // Where the model is calibrated: the interval at the forecast's level and the chance of reaching the limit.
        { name: "lo", label: "Нижняя граница интервала", unit: "%", type: "number", decimals: 4 },
        { name: "hi", label: "Верхняя граница интервала", unit: "%", type: "number", decimals: 4 },
        { name: "p_exceed", label: "Вероятность достичь предела", unit: "доля", type: "number", decimals: 4 },
      ],
    },
  ],
  settings: [],
  dictionaries: [],
  editable: true,
  core: { module: "gbdt", fn: "predict" },
} as const satisfies CalculationDefinition;

/** An analysis, outside the inventory, the balance and the reference page; the methodology gives the forecast
 *  no worked example: its models are checked against the real libraries instead. */
export const { inventory, balance, destroys, reference, vectors } = analysisParts(null);
