// A company's own forecast model trained from its history (domain/forecast/training.ts) on the in-memory
// repositories, inside the call as a host without training jobs runs it: the version stored with its
// summary (rows, the latest fifth kept for validation, the period on the file's clock, the ranges by the
// columns' Russian labels) and made the company's active model; a model ahead never made active; the
// history's own refusals in Russian, naming the sheet, row and the file's header (a column without a
// value, a time that is not one, a pressure out of range, no column of the forecast, rows without y
// said when too few are left), and the form's horizon and parameters. Over HTTP, with the heavy-work
// slots and the models' byte bound: tests/integration/forecast-training.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { Actor } from "../context";
import { Invalid } from "../errors";
import { activeModelVersion, listForecastModels } from "./models";
import { trainForecastModel, trainingHorizon, trainingParams, trainingTableFromFile, type TrainingRequest } from "./training";
import { forecastRowsFromJson, forecastRun, runForecast } from "./forecast";
import { fieldName } from "../../contract/field-names";

const AIR = "Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин";
const DRAINED = "Концентрация метана в каптируемой смеси, %";
const HEADER = `Время;${AIR};${DRAINED};Концентрация CH4 в исходящей струе лавы, факт, %`;
const two = (n: number) => String(n).padStart(2, "0");

/** A longwall's history, 10-minute steps from 01.01.2025: more air, less methane; every ninth drainage reading missing. */
function history(rows: number, header = HEADER, every = 10): string {
  const lines = [header];
  for (let i = 0; i < rows; i++) {
    const minutes = i * every;
    const time = `${two(1 + Math.floor(minutes / 1440))}.01.2025 ${two(Math.floor((minutes % 1440) / 60))}:${two(minutes % 60)}`;
    const air = 1200 + ((i * 37) % 400);
    const drained = i % 9 === 0 ? "" : String(20 + ((i * 13) % 30));
    const y = (0.5 * 1400) / air + (drained === "" ? 0.1 : 0) + 0.002 * ((i * 7) % 5);
    lines.push(`${time};${air};${drained};${y.toFixed(4).replace(".", ",")}`);
  }
  return `${lines.join("\n")}\n`;
}

const file = (text: string, name = "история.csv") => ({ name, bytes: new TextEncoder().encode(text) });
const request = (overrides: Partial<TrainingRequest> = {}): TrainingRequest => ({
  params: trainingParams(JSON.stringify({ n_estimators: 30, max_depth: 3, learning_rate: 0.3 })),
  horizon: 0,
  features: [],
  description: "",
  activate: false,
  ...overrides,
});
/** The refusal's Russian text. */
async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Invalid);
  return (error as Invalid).detail;
}

let d: MemoryDomain;
let admin: Actor;

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  admin = await d.actor("ООО «Своя модель»", "admin");
});

describe("training on the company's history", () => {
  it("stores the company's own version with its summary and makes it the active model", async () => {
    const version = await trainForecastModel(d.deps, admin, file(history(300)), request({ activate: true }));
    expect(version).toMatchObject({
      company: admin.company,
      is_active: true,
      feature_names: ["x2", "x7"],
      file_name: "история.model.json",
    });
    expect(version.description).toBe("Обучена на 300 строках");
    expect(version.training).toMatchObject({
      rows: 300,
      train_rows: 240,
      valid_rows: 60,
      validation: "time",
      period: { from: "2025-01-01T00:00:00.000Z", to: "2025-01-03T01:50:00.000Z" },
    });
    const ranges = version.training?.ranges ?? [];
    expect(ranges.find((r) => r.feature === "x2")).toMatchObject({
      label: "Расход воздуха в исходящей струе лавы (суточные замеры)",
      min: 1200,
      max: 1599,
      missing: 0,
    });
    // Every ninth of 300 rows has no drainage reading: rows 0, 9, … 297.
    expect(ranges.find((r) => r.feature === "x7")?.missing).toBe(34);
    expect((await activeModelVersion(d.deps, "xgboost", admin.company)).id).toBe(version.id);
    const listed = await listForecastModels(d.deps, "xgboost", admin.company);
    expect(JSON.stringify(listed)).toContain(version.id);
  });

  // a model keeps the step of the rows it was trained on, and is fed rows of that step only.
  it("keeps the training rows' step, and refuses rows of another step, naming both", async () => {
    const tens = await trainForecastModel(d.deps, admin, file(history(300)), request({ horizon: 10 }));
    expect(tens.training?.step).toBe(10);
    const minutes = await trainForecastModel(d.deps, admin, file(history(600, HEADER, 1)), request({ horizon: 10 }));
    expect(minutes.training?.step).toBe(1);
    const settings = { level: 90 as const, limit: 1, warning: 0.8, horizon: 10 };
    /** `count` rows `every` minutes apart from 01.01.2025, as the dialog sends them. */
    const rowsOf = (count: number, every: number) =>
      forecastRowsFromJson(
        Array.from({ length: count }, (_, i) => ({
          t: new Date(Date.UTC(2025, 0, 1) + i * every * 60_000).toISOString().slice(0, 16),
          x2: 1200 + ((i * 37) % 400),
          x7: 20 + ((i * 13) % 30),
          y: 0.5 + 0.002 * ((i * 7) % 5),
        })),
      );
    const run = await forecastRun(d.deps, admin.company, "xgboost", settings, minutes.id);
    expect(await refusal(runForecast(d.deps, run, rowsOf(300, 10)))).toBe(
      "Время: модель обучена на строках с шагом 1 мин, а строки идут с шагом 10 мин: ее лаги прочитались бы неверно — " +
        "подайте строки с шагом 1 мин или обучите модель на строках с шагом 10 мин",
    );
    // Its own step is taken.
    const own = await runForecast(d.deps, run, rowsOf(120, 1));
    expect(own.rows.some((r) => typeof r.result === "number")).toBe(true);
  });

  it("never makes a model ahead the active one, and stores nothing for it", async () => {
    const before = JSON.stringify(await listForecastModels(d.deps, "xgboost", admin.company));
    expect(await refusal(trainForecastModel(d.deps, admin, file(history(300)), request({ horizon: 60, activate: true })))).toBe(
      "activate: модель прогноза вперед не делается активной: ее выбирают в форме прогноза вместе с горизонтом",
    );
    expect(await refusal(trainForecastModel(d.deps, admin, file(""), request()))).toBe("file: файл пуст");
    expect(JSON.stringify(await listForecastModels(d.deps, "xgboost", admin.company))).toBe(before);
  });

  it("says how many rows it left out for want of y when too few are left", async () => {
    const text = history(30)
      .split("\n")
      .map((line, i) => (i > 0 && i % 2 === 0 && line !== "" ? line.replace(/;[\d,]+$/, ";") : line))
      .join("\n");
    expect(await refusal(trainForecastModel(d.deps, admin, file(text), request()))).toMatch(
      /^file: .*не меньше 20 строк, в данных 15.*\(пропущено строк без измеренной концентрации \(y\): 15\)$/,
    );
  });
});

describe("the history's refusals", () => {
  it("names a column with a header and no value by the file's header", async () => {
    const text = history(40)
      .split("\n")
      .map((line, i) => (i === 0 || line === "" ? line : line.replace(/^([^;]*;[^;]*;)[^;]*;/, "$1;")))
      .join("\n");
    expect(await refusal(trainingTableFromFile(file(text)))).toBe(
      `file: столбец «${DRAINED}» без единого значения: заполните его или удалите из файла`,
    );
  });

  it("names the row and column of a time that is not one, and of a pressure out of range", async () => {
    const badTime = history(40).replace("01.01.2025 00:20", "вчера");
    expect(await refusal(trainingTableFromFile(file(badTime)))).toMatch(
      /строка 4, столбец «Время»: нужна дата и время \(«01\.01\.2025 10:20»\) или номер шага$/,
    );
    const withPressure = history(40)
      .split("\n")
      .map((line, i) => (line === "" ? line : `${line};${i === 0 ? "Барометрическое давление, кПа" : i === 5 ? "250" : "99,1"}`))
      .join("\n");
    expect(await refusal(trainingTableFromFile(file(withPressure)))).toMatch(
      /строка 6, столбец «Барометрическое давление, кПа»: давление от 0 до 200 кПа$/,
    );
    const table = await trainingTableFromFile(file(withPressure.replace(";250\n", ";98,5\n")));
    expect(table.pressure?.[4]).toBe(98.5);
    expect(table.pressure?.[0]).toBe(99.1);
  });

  it("refuses a file without any column of the forecast, listing them", async () => {
    const text = "Время;Концентрация CH4 в исходящей струе лавы, факт, %\n01.01.2025 00:00;0,5\n";
    const detail = await refusal(trainingTableFromFile(file(text)));
    expect(detail).toMatch(/^file: в файле нет ни одного столбца данных прогноза \(/);
    expect(detail).toContain("Расход воздуха в исходящей струе лавы (суточные замеры)");
  });
});

describe("the form's horizon and parameters", () => {
  it("reads the horizon in minutes, none as the nowcast, and names the horizons it takes", () => {
    expect(trainingHorizon(undefined)).toBe(0);
    expect(trainingHorizon("")).toBe(0);
    expect(trainingHorizon(" 60 ")).toBe(60);
    expect(() => trainingHorizon("45")).toThrow(Invalid);
    try {
      trainingHorizon("45");
    } catch (error) {
      expect((error as Invalid).detail).toBe("Горизонт прогноза: горизонт прогноза в минутах: 0, 10, 30, 60, 120, 360");
    }
  });

  it("takes a JSON object of numbers by XGBoost's names and says what else it expects", () => {
    expect(trainingParams(undefined)).toMatchObject({ n_estimators: expect.any(Number) });
    expect(trainingParams('{"n_estimators": 50}')).toMatchObject({ n_estimators: 50 });
    const detail = (raw: string) => {
      try {
        trainingParams(raw);
      } catch (error) {
        return (error as Invalid).detail;
      }
      return "accepted";
    };
    expect(detail("[1, 2]")).toBe(`${fieldName("params")}: ожидается объект JSON с параметрами обучения`);
    expect(detail("null")).toBe(`${fieldName("params")}: ожидается объект JSON с параметрами обучения`);
    expect(detail('{"learning_rate": "0,3"}')).toBe('params.learning_rate: ожидается число без кавычек, например {"n_estimators": 300}');
    expect(detail('{"max_depth": 30}')).toMatch(/^params\.max_depth: нужно целое число от 0 до 10/);
  });
});
