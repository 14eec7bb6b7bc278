// A year of 10-minute readings (52 560 rows, about 8 MB: twice what a request may carry) chosen in
// the forecast dialog as any file, in a real browser against the real local server: the web app
// sends it straight to storage (POST v1/forecast/upload-url/, the PUT to the granted URL) once for
// the preview, the save names the same stored file, the forecast is back-tested, and the results dialog shows the back-test
// of all 52 560 rows with the band. Nothing of the file is left in storage afterwards.
// Needs web/dist (`npm run build:web`) and Debian Chromium. Screenshots go to SCREENSHOT_DIR (/tmp).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { loadModel } from "@core/gbdt";
import { longwallHistory } from "@core/gbdt/longwall-history";
import { MAX_TABULAR_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { modelFixture } from "../support/models";
import { createProjectsAs, openWebApp, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { historyCsv } from "../support/longwall-csv";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const ROWS = 52_560;

/** The files under a folder, recursively (none when it does not exist). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
  } catch {
    return [];
  }
}

describe("web app: a year of 10-minute readings through the direct upload", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let history: ReturnType<typeof longwallHistory>;

  beforeAll(async () => {
    history = longwallHistory(await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8")), ROWS, 0.06);
    // The model calibrated for the demo company on two weeks of the same longwall.
    const models = (await (
      await fetch(`${file.server.url}/api/v1/forecast_models/`, { headers: { Authorization: `Bearer ${file.token}` } })
    ).json()) as { results: Array<{ method: string; versions: Array<{ id: string; is_active: boolean }> }> };
    const modelId = models.results.find((r) => r.method === "xgboost")!.versions.find((v) => v.is_active)!.id;
    const calibration = new FormData();
    calibration.set("file", new Blob([historyCsv(history, 0, 2000)]), "калибровка.csv");
    const calibrated = await fetch(`${file.server.url}/api/v1/forecast_models/${modelId}/calibration/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${file.token}` },
      body: calibration,
    });
    expect(calibrated.status).toBe(201);
    // Opened signed out: the test makes its project through the API and opens the page on it, signed in.
    app = await openWebApp(file.server, { timeout: 30_000 });
    page = app.page;
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it("previews, saves and back-tests the file the user picked, sent straight to storage", async () => {
    const csv = Buffer.from(historyCsv(history));
    expect(csv.byteLength).toBeGreaterThan(MAX_TABULAR_UPLOAD_BYTES);
    // What storage held before (a retry's first try left its own upload's mark).
    const uploadsDir = join(file.server.dataDir, "blobs", "forecast-uploads");
    const storedBefore = new Set(filesUnder(uploadsDir));
    const [projectId] = await createProjectsAs(file.server.url, file.server.demo, ["Лава 7, год телеметрии"]);
    await signIn(page, file.server.url, file.server.demo, `/projects/${projectId}/calculations?type=regres_methane`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Название расчета").pressSequentially("Лава 7, год");
    await dialog.getByText("Загрузить файл", { exact: true }).click();
    await dialog.getByText(".xlsx или .csv, до 32 МБ").waitFor();
    await dialog.locator("input[type=file]").setInputFiles({ name: "телеметрия за год.csv", mimeType: "text/csv", buffer: csv });

    // The preview reads the whole file from storage and keeps it there for the save.
    const preview = dialog.getByTestId("upload-preview");
    await preview.filter({ hasText: /Прочитано строк: 52\s?560/ }).waitFor({ timeout: 60_000 });
    await preview.filter({ hasText: "Ошибок не найдено" }).waitFor();
    await dialog.getByRole("button", { name: "Создать" }).click();
    await dialog.waitFor({ state: "hidden", timeout: 60_000 });

    // What the results dialog fetches: a page of rows and a thinned chart, never the 52 560 rows.
    const answers: Array<{ url: string; bytes: number }> = [];
    page.on("response", (response) => {
      if (!response.url().includes("/api/v1/regres_methane/")) return;
      void response
        .body()
        .then((body) => answers.push({ url: response.url(), bytes: body.byteLength }))
        .catch(() => undefined);
    });
    await page.locator(".ant-table-row", { hasText: "Лава 7, год" }).click();
    const results = page.getByRole("dialog", { name: "Лава 7, год" });
    await results.getByTestId("forecast-results").waitFor({ timeout: 60_000 });
    await results
      .getByTestId("forecast-rows-count")
      .filter({ hasText: /^52\s?560$/ })
      .waitFor();
    await results.getByTestId("forecast-calibration").filter({ hasText: "2000 строк с фактом" }).waitFor();
    await results.getByTestId("backtest-model-mae").waitFor();
    const chart = results.getByTestId("forecast-history-chart");
    await chart.locator(".legendtext", { hasText: "Интервал 90 %" }).waitFor();
    await chart.locator(".legendtext", { hasText: "Факт" }).waitFor();

    // The table pages through all the rows, a page at a time from the server.
    const table = results.getByTestId("forecast-rows");
    await table.getByText(/^Строк: 52\s?560$/).waitFor();
    await table.locator(".ant-table-tbody").getByText("01.01.2025 00:00", { exact: true }).waitFor();
    await table.locator(".ant-pagination-item-2").click();
    await table.locator(".ant-table-tbody").getByText("01.01.2025 00:50", { exact: true }).waitFor();
    // An answer is counted once its body has been read, a moment after the page has shown it.
    const pages = () => answers.filter((a) => /\/rows\/?$/.test(new URL(a.url).pathname));
    await expect.poll(() => pages().length).toBeGreaterThanOrEqual(2);
    expect(answers.some((a) => /single_calc/.test(a.url))).toBe(false);
    const chartAnswer = answers.find((a) => /\/chart\/?$/.test(new URL(a.url).pathname));
    expect(chartAnswer?.bytes).toBeLessThan(400_000);
    for (const answer of pages()) expect(answer.bytes).toBeLessThan(10_000);

    // The file went straight to storage once (one single-use mark): the preview kept it and the save
    // named it again, then deleted it; only the mark waits for the daily sweep.
    const stored = filesUnder(uploadsDir).filter((f) => !storedBefore.has(f));
    expect(stored.filter((f) => f.endsWith(".csv.used")).length).toBe(1);
    expect(stored.filter((f) => !/\.used(\.type|\.pending)?$/.test(f))).toEqual([]);

    await results.getByTestId("forecast-model").scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-forecast-large-history.png` });
    expect(app.pageErrors).toEqual([]);
  }, 240_000);
});
