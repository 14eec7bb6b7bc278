// A forecast of a history read into columns (functions/src/domain/forecast/file.ts, the one-pass
// CSV reader, and forecastFromColumns) stores exactly what the row-by-row path stores: the same
// summary with its back-test and the same JSON text, with and without a calibration, with ids,
// date-times and step numbers, and the same refusal of times that mix the two.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel, type Backtest } from "@core/gbdt";
import { longwallHistory, type LongwallHistory } from "@core/gbdt/longwall-history";
import { FORECAST_FEATURES } from "@core/registry";
import {
  DEFAULT_FORECAST_SETTINGS,
  finishForecast,
  forecastFromColumns,
  forecastRowsFromTable,
  forecastRun,
  forecastSpec,
  predictRows,
} from "@server/domain/forecast/forecast";
import { readForecastCsv } from "@server/domain/forecast/file";
import { calibrateOnRows } from "@server/domain/forecast/calibrating";
import { parseTable, type UploadedFile } from "@server/files/tabular";
import type { ForecastRun } from "@server/ports";
import { createHarness, type Harness } from "../support/harness";
import { historyCsv } from "../support/longwall-csv";
import { modelFixture } from "../support/models";

let h: Harness;
let company: string;
let history: LongwallHistory;

const file = (text: string): UploadedFile => ({ name: "история.csv", bytes: new TextEncoder().encode(text) });

/** What the row-by-row path stores for the file: the summary and the JSON text. */
async function byRows(f: UploadedFile, run: ForecastRun) {
  const rows = forecastRowsFromTable(await parseTable(f, forecastSpec()));
  const done = finishForecast(run, await predictRows(h.deps, run.version, rows));
  return { summary: done.summary, json: JSON.stringify(done.rows) };
}

async function byColumns(f: UploadedFile, run: ForecastRun) {
  const read = readForecastCsv(f, forecastSpec());
  expect(read).toBeDefined();
  const done = await forecastFromColumns(h.deps, read!.columns, run);
  return { summary: done.summary, json: new TextDecoder().decode(done.json) };
}

beforeAll(async () => {
  h = await createHarness();
  company = (await h.signedInUser("Шахта Колонки")).companyId;
  const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  history = longwallHistory(model, 3_000, 0.06);
}, 120_000);
afterAll(() => h.close());

describe("a history's columns forecast as its rows are", () => {
  it("stores the same summary, back-test and JSON text, without and with a calibration", async () => {
    const f = file(historyCsv(history));
    const plain = await forecastRun(h.deps, company, "xgboost", DEFAULT_FORECAST_SETTINGS);
    expect(plain.calibration).toBeNull();
    expect(await byColumns(f, plain)).toEqual(await byRows(f, plain));
    const rows = forecastRowsFromTable(await parseTable(f, forecastSpec()));
    const actor = { id: "u", company, email: "staff@example.com", role: "staff" as const };
    await calibrateOnRows(h.deps, actor, plain.version, rows.slice(0, 1_500), "company", "история.csv");
    const calibrated = await forecastRun(h.deps, company, "xgboost", { level: 80, limit: 0.9, warning: 0.7, horizon: 0 });
    expect(calibrated.calibration).not.toBeNull();
    const columns = await byColumns(f, calibrated);
    expect(columns).toEqual(await byRows(f, calibrated));
    expect(columns.json).toContain('"p_exceed":');
    expect((columns.summary.backtest as Backtest | null)?.model.coverage).toBeGreaterThan(0);
  }, 120_000);

  it("numbers ids, reads step numbers and rows without y as the rows' path does, and refuses mixed times alike", async () => {
    const header = ["id", "t", ...FORECAST_FEATURES, "y"].join(",");
    const lines = Array.from({ length: 200 }, (_, r) => {
      const id = r % 9 === 0 ? "" : r % 13 === 0 ? "5" : String(r * 2 + 1);
      const y = r % 4 === 0 ? "" : String(history.measured[r]);
      return [id, String(r + 10), ...FORECAST_FEATURES.map((f) => String(history.columns[f][r])), y].join(",");
    });
    const run = await forecastRun(h.deps, company, "xgboost", DEFAULT_FORECAST_SETTINGS);
    const f = file([header, ...lines].join("\n"));
    expect(await byColumns(f, run)).toEqual(await byRows(f, run));
    // Without any y: no back-test.
    const unmeasured = file([header, ...lines.map((l) => l.replace(/,[^,]*$/, ","))].join("\n"));
    const columns = await byColumns(unmeasured, run);
    expect(columns).toEqual(await byRows(unmeasured, run));
    expect(columns.summary.backtest).toBeNull();
    // A date-time among step numbers: both refuse it with the same words.
    lines[7] = lines[7].replace(/^([^,]*),[^,]*,/, "$1,01.01.2025 08:10,");
    const mixed = file([header, ...lines].join("\n"));
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => "stored",
        (e: Error) => e.message,
      );
    const message = await refusal(byRows(mixed, run));
    expect(message).toBe("Время: время должно быть везде датой и временем или везде номером шага");
    expect(await refusal(byColumns(mixed, run))).toBe(message);
  }, 120_000);
});
