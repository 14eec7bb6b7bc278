// `npm run bench -- forecast-backtest`: a year of 10-minute readings (52 560 rows) of a generated
// longwall through the core as the results dialog takes it: forecast by the default XGBoost model,
// calibration on the first half, lo / hi / p_exceed of every row, the back-test of the model and of
// the persistence baseline, and the rows as the dialog receives them. Prints each step's time and
// the CSV's size against the upload cap (the file's trip through the API and the browser's drawing
// are not timed here).
import { readFileSync } from "node:fs";
import { adaptiveIntervalColumns, backtest, calibrate, intervalColumns, loadModel } from "@core/gbdt";
import { HISTORY_FEATURES, longwallHistory } from "@core/gbdt/longwall-history";
import { MAX_TABULAR_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { modelFixture } from "../support/models";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalServer } from "@server/local/server";
import type { TestServer } from "../support/server";
import type { Browser, Page } from "playwright-core";
import { historyCsv } from "../support/longwall-csv";

const ROWS = 52_560;

export async function run(): Promise<void> {
  const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  let start = performance.now();
  const history = longwallHistory(model, ROWS, 0.06);
  const generated = performance.now() - start;
  const half = ROWS / 2;
  start = performance.now();
  const calibration = calibrate(history.forecast.subarray(0, half), history.measured.subarray(0, half), history.columns);
  const calibrated = performance.now() - start;
  start = performance.now();
  const stored = intervalColumns(history.forecast, calibration, 90, 1);
  const intervals = performance.now() - start;
  // The intervals a forecast with facts shows: each bin's scale updated on the facts before each row.
  start = performance.now();
  const { lo, hi, pExceed } = adaptiveIntervalColumns(history.forecast, calibration, 90, 1, {
    targets: history.measured,
    time: history.time,
  });
  const adapted = performance.now() - start;
  start = performance.now();
  const result = backtest({
    measured: history.measured,
    predicted: history.forecast,
    lo,
    hi,
    storedLo: stored.lo,
    storedHi: stored.hi,
    intervalMethod: "adaptive",
    level: 90,
    time: history.time,
    timeKind: "datetime",
  });
  const tested = performance.now() - start;
  start = performance.now();
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    id: i + 1,
    t: new Date(history.time[i]).toISOString().slice(0, 19),
    y: history.measured[i],
    result: history.forecast[i],
    lo: lo[i],
    hi: hi[i],
    p_exceed: pExceed[i],
  }));
  const drawn = performance.now() - start;
  const csvBytes = Buffer.byteLength(
    rows.map((r, i) => [r.t, ...HISTORY_FEATURES.map((f) => history.columns[f][i]), r.y].join(";")).join("\n"),
  );
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(
    `rows ${ROWS}: forecast + generation ${ms(generated)}, calibration ${ms(calibrated)}, intervals as calibrated ${ms(intervals)}, updated on the facts ${ms(adapted)}`,
  );
  console.log(result.interval?.sentence);
  console.log(
    `back-test ${ms(tested)} (MAE ${result.model.mae?.toFixed(4)} % vs persistence ${result.persistence.mae?.toFixed(4)} %, ${result.model.units} shifts)`,
  );
  console.log(`rows as stored ${ms(drawn)}`);
  console.log(
    `core total ${ms(calibrated + intervals + adapted + tested + drawn)}; CSV ${(csvBytes / 1048576).toFixed(1)} MB against the ${MAX_TABULAR_UPLOAD_BYTES / 1048576} MB request cap`,
  );
  await browserFigure(history);
}

/** The browser figure: a real Chromium on the local server, from choosing the year's CSV in the
 *  forecast dialog (sent straight to storage for the preview and the save) to the back-test shown
 *  in the results dialog. Needs web/dist (npm run build:web). */
async function browserFigure(history: ReturnType<typeof longwallHistory>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-forecast-"));
  const demo = { email: "demo@example.com", password: "demo-password" };
  const local = await startLocalServer({ dataDir, port: 0, demo });
  const server = { url: local.url, demo, dataDir, deps: local.deps, settled: local.settled, close: local.close } as TestServer;
  // Loaded by a path held in a variable: the browser helpers are DOM code, which the server's type
  // check (this file's) does not read.
  const helpers = "../support/web-page";
  const { openWebApp, createProject } = (await import(helpers)) as {
    openWebApp(
      server: TestServer,
      options: { user: typeof demo; timeout: number },
    ): Promise<{ page: Page; browser: Browser; close(): Promise<void> }>;
    createProject(page: Page, name: string): Promise<string>;
  };
  const app = await openWebApp(server, { user: demo, timeout: 120_000 });
  try {
    const page = app.page;
    const csv = Buffer.from(historyCsv(history));
    const projectId = await createProject(page, "Лава 7, год телеметрии");
    await page.goto(`${server.url}/projects/${projectId}/calculations?type=regres_methane`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Название расчета").pressSequentially("Лава 7, год");
    await dialog.getByText("Загрузить файл", { exact: true }).click();
    const start = performance.now();
    await dialog.locator("input[type=file]").setInputFiles({ name: "телеметрия за год.csv", mimeType: "text/csv", buffer: csv });
    await dialog.getByTestId("upload-preview").filter({ hasText: "Ошибок не найдено" }).waitFor();
    const previewed = performance.now() - start;
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.waitFor({ state: "hidden" });
    const saved = performance.now() - start;
    const opening = performance.now();
    await page.locator(".ant-table-row", { hasText: "Лава 7, год" }).click();
    const results = page.getByRole("dialog", { name: "Лава 7, год" });
    await results.getByTestId("backtest-model-mae").waitFor();
    await results.getByTestId("forecast-history-chart").locator(".legendtext", { hasText: "Факт" }).waitFor();
    const shown = performance.now() - start;
    const opened = performance.now() - opening;
    console.log(
      `browser, ${ROWS} rows (${(csv.byteLength / 1048576).toFixed(1)} MB, direct upload): preview ${(previewed / 1000).toFixed(1)} s, ` +
        `saved ${(saved / 1000).toFixed(1)} s, back-test and chart shown ${(shown / 1000).toFixed(1)} s from choosing the file (target < 5 s); ` +
        `the results dialog ${(opened / 1000).toFixed(1)} s from its row's click`,
    );
  } finally {
    await app.close();
    // The browser helpers keep one Chromium per test worker for the next file; a bench is the
    // whole process, and a browser left running keeps it from exiting.
    await app.browser.close();
    await local.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
