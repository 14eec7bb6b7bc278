// «Калибровка модели» on «Модели прогноза» in a real browser against the real local server
// (docs/user-guide.md, docs/api.md «Large histories»): the demo company's engineer calibrates the
// model its forecasts use on a longwall's history with the measured concentration — a short one sent
// in the form as any file, then seven months of 10-minute readings (over the 4 MB a request may
// carry) sent straight to storage first and named by the form — and sees the rows, the period and
// the interval's half-widths the server stored. Needs web/dist (`npm run build:web`) and Chromium.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { loadModel } from "@core/gbdt";
import { longwallHistory } from "@core/gbdt/longwall-history";
import { MAX_TABULAR_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { modelFixture } from "../support/models";
import { accessToken, startTestServer, type TestServer } from "../support/server";
import { openWebApp, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { historyCsv } from "../support/longwall-csv";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const LARGE_ROWS = 30_000;

describe("web app: the company calibrates the model its forecasts use", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let history: ReturnType<typeof longwallHistory>;
  /** The API calls the page made: method, path and the body's size. */
  const sent: Array<{ method: string; path: string; bytes: number }> = [];

  beforeAll(async () => {
    server = await startTestServer();
    history = longwallHistory(await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8")), LARGE_ROWS, 0.06);
    app = await openWebApp(server, {
      user: server.demo,
      timeout: 60_000,
      viewport: { width: 1366, height: 1000 },
      watch: (p) =>
        p.on("request", (request) => {
          const url = new URL(request.url());
          if (!url.pathname.startsWith("/api/")) return;
          const call = { method: request.method(), path: url.pathname, bytes: request.postDataBuffer()?.byteLength ?? 0 };
          sent.push(call);
          // A form's file is not in postData: the body's size is its Content-Length.
          void request
            .allHeaders()
            .then((headers) => {
              if (headers["content-length"]) call.bytes = Number(headers["content-length"]);
            })
            .catch(() => undefined);
        }),
    });
    page = app.page;
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("sends a short history in the form and a long one straight to storage, and shows what was stored", async () => {
    await page.goto(`${server.url}/forecast-models`);
    const card = page.getByTestId("calibrate-model");
    await card.getByText(/^Калибруется модель, по которой считаются прогнозы компании: модель платформы, версия \d+/).waitFor();
    await card.getByTestId("model-calibration").filter({ hasText: "Модель не откалибрована для компании" }).waitFor();

    // Two weeks of readings: the form carries the file.
    const short = Buffer.from(historyCsv(history, 0, 2000));
    await card.locator("input[type=file]").setInputFiles({ name: "лава 7 две недели.csv", mimeType: "text/csv", buffer: short });
    await card.getByTestId("calibration-file").filter({ hasText: "лава 7 две недели.csv" }).waitFor();
    await card.getByRole("button", { name: "Откалибровать" }).click();
    await card.getByTestId("model-calibration").filter({ hasText: "2 000, 01.01.2025 00:00 – 14.01.2025 21:10" }).waitFor();
    const calibrations = () => sent.filter((s) => s.method === "POST" && /\/calibration\/?$/.test(s.path));
    expect(calibrations()).toHaveLength(1);
    expect(calibrations()[0].bytes).toBeGreaterThan(short.byteLength);
    expect(sent.some((s) => s.path.includes("upload-url"))).toBe(false);

    // Seven months: larger than a request, sent straight to storage and named by the form.
    const large = Buffer.from(historyCsv(history));
    expect(large.byteLength).toBeGreaterThan(MAX_TABULAR_UPLOAD_BYTES);
    await card.locator("input[type=file]").setInputFiles({ name: "лава 7 семь месяцев.csv", mimeType: "text/csv", buffer: large });
    await card.getByRole("button", { name: "Откалибровать" }).click();
    await card.getByTestId("model-calibration").filter({ hasText: "30 000, 01.01.2025 00:00 – 28.07.2025 07:50" }).waitFor();
    expect(sent.filter((s) => s.method === "POST" && /\/forecast\/upload-url\/?$/.test(s.path))).toHaveLength(1);
    expect(sent.filter((s) => s.method === "PUT" && s.path.startsWith("/api/v1/uploads"))).toHaveLength(1);
    expect(calibrations()).toHaveLength(2);
    expect(calibrations()[1].bytes).toBeLessThan(10_000);
    const halfWidths = await card.getByTestId("model-calibration").innerText();
    expect(halfWidths).toMatch(/± \d+,\d{4} % \/ ± \d+,\d{4} % \/ ± \d+,\d{4} %/);

    // What the server stored for the company, and the forecasts of the company now carry an interval.
    const token = await accessToken(server.url, server.demo);
    const models = (await (
      await fetch(`${server.url}/api/v1/forecast_models/`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { results: Array<{ method: string; versions: Array<{ id: string; is_active: boolean }> }> };
    const modelId = models.results.find((r) => r.method === "xgboost")!.versions.find((v) => v.is_active)!.id;
    const stored = (await (
      await fetch(`${server.url}/api/v1/forecast_models/${modelId}/calibration/`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { rows: number; scope: string; file_name: string; quantiles: Record<string, number> };
    expect(stored).toMatchObject({ rows: LARGE_ROWS, file_name: "лава 7 семь месяцев.csv" });
    expect(halfWidths).toContain(`± ${stored.quantiles["90"].toFixed(4).replace(".", ",")} %`);

    await card.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-forecast-calibration.png` });
    expect(app.pageErrors).toEqual([]);
  }, 240_000);
});
