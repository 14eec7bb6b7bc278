// «Модели прогноза» → «Обучить модель» in a real browser against the real local server: a longwall's
// history (Russian headers, «;», decimal commas) is uploaded, a model trained in a Web Worker with the
// progress shown round by round, its importance drawn with the features' Russian names, saved as a
// model version of the company named for its longwall, and a forecast of the company then runs on
// it; a year of 10-minute readings with 60 empty facts trains (60 skipped) and is saved through the
// direct upload. The history as Russian Excel saves it (Windows-1251, tests/fixtures/encodings)
// trains on the page as its UTF-8 twin does.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { loadModel } from "@core/gbdt";
import { longwallHistory } from "@core/gbdt/longwall-history";
import { MAX_TABULAR_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { historyCsv } from "../support/longwall-csv";
import { encodeLegacy, russianExcelHistory } from "../support/legacy-encoding";
import { CSV_ENCODING_MESSAGE } from "@core/csv";
import { modelFixture } from "../support/models";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const AIR = "Расход воздуха в исходящей струе лавы (суточные замеры)";
const DRAINED = "Концентрация метана в каптируемой смеси";

/** 2 000 rows of 10-minute steps: more air, less methane; drainage readings missing now and then. */
function history(): string {
  const lines = [`Время;${AIR}, м³/мин;${DRAINED}, %;Концентрация CH4 в исходящей струе лавы, факт, %`];
  for (let i = 0; i < 2000; i++) {
    const minutes = i * 10;
    const day = 1 + Math.floor(minutes / 1440);
    const stamp = `${String(day).padStart(2, "0")}.01.2025 ${String(Math.floor((minutes % 1440) / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    const air = 1200 + ((i * 37) % 400);
    const drained = i % 9 === 0 ? "" : String(20 + ((i * 13) % 30));
    const y = (0.5 * 1400) / air + (drained === "" ? 0.1 : 0) + 0.002 * ((i * 7) % 5);
    lines.push(`${stamp};${air};${drained};${y.toFixed(4).replace(".", ",")}`);
  }
  return `${lines.join("\n")}\n`;
}

describe("web app: training a forecast model", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  const file = join(mkdtempSync(join(tmpdir(), "train-model-")), "история лавы.csv");
  const card = () => page.locator(".ant-card", { hasText: "Обучить модель" });

  beforeAll(async () => {
    writeFileSync(file, history());
    // A server of its own: a model version is numbered across the platform, and this one is the second.
    server = await startTestServer({ admin: true, own: true });
    app = await openWebApp(server, { viewport: { width: 1366, height: 1000 }, timeout: 30_000 });
    ({ page, pageErrors } = app);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  // One test: the model saved is the one trained on the page, as the user does it at once.
  it("trains on an uploaded history with the progress shown, draws the importance in Russian and saves it as the company's model, which the company's forecast then runs", async () => {
    await signIn(page, server.url, server.admin!, "/admin?tab=models");
    await card().waitFor();
    await card().locator('input[type="file"]').setInputFiles(file);
    await card().getByText("история лавы.csv").waitFor();
    const trees = card().getByLabel("Деревьев");
    await trees.click();
    await trees.press("Control+A");
    await trees.pressSequentially("120");
    await card().getByRole("button", { name: "Обучить" }).click();

    // The bar and the round counter as the worker reports them.
    await card().getByLabel("Ход обучения").waitFor();
    await card()
      .getByText(/Раунд \d+ из 120: ошибка на обучающих строках [\d,]+ %, на проверочных [\d,]+ %/)
      .waitFor();
    await card()
      .getByText(/Модель обучена: \d+ деревьев, 1600 строк обучения и 400 проверки/)
      .waitFor({ timeout: 60_000 });
    const importance = card().getByRole("region", { name: "Важность признаков" });
    await importance.getByText(AIR, { exact: true }).waitFor();
    await importance.getByText(DRAINED, { exact: true }).waitFor();
    expect(await importance.textContent()).not.toMatch(/x\d/);
    await card().getByRole("img", { name: "Ошибка обучения и проверки по раундам" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-train-model.png`, fullPage: true });

    // Named for its longwall: the models' lists and the forecast's form show the name.
    await card().getByLabel("Название модели").fill("Лава 7");
    await card().getByRole("button", { name: "Сохранить как модель компании" }).click();
    await page.getByText(/Модель компании сохранена: XGBoost, версия 2, прогнозы компании считаются по ней/).waitFor({ timeout: 60_000 });
    const xgboost = page.getByRole("region", { name: "Модели XGBoost" });
    await xgboost.getByText("история лавы.model.json").waitFor();
    await xgboost.getByText("Лава 7", { exact: true }).waitFor();

    const access = await accessToken(server.url, server.admin!);
    const call = async <T>(method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${access}`, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as T };
    };
    const project = await call<{ id: string }>("POST", "/api/v1/projects/create_project/", {
      name: "Лава 3",
      start_date: "2025-01-01",
      end_date: "2025-12-31",
    });
    expect(project.status).toBe(201);
    const forecast = await call<{ id: string; model: { version: number } }>("POST", "/api/v1/regres_methane/", {
      name: "Прогноз по своей модели",
      project: project.body.id,
      method: "xgboost",
      data: [{ id: 1, x1: 1400, x2: 1300, x7: 35, x8: 100, x12: 0.5, x13: 16000, x15: 35 }],
    });
    expect(forecast.status).toBe(201);
    expect(forecast.body.model.version).toBe(2);
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it("trains on a year of 10-minute readings with 60 empty facts, 60 skipped and said so, and saves it through the direct upload", async () => {
    const year = longwallHistory(await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8")), 52_560, 0.06);
    // Every 876th row's fact left empty, as a monitoring system's outage writes it.
    const lines = historyCsv(year).split("\n");
    for (let k = 1; k <= 60; k++) lines[k * 876] = lines[k * 876].replace(/;[^;]*$/, ";");
    const csv = Buffer.from(lines.join("\n"));
    expect(csv.byteLength).toBeGreaterThan(MAX_TABULAR_UPLOAD_BYTES);
    await page.goto(`${server.url}/admin?tab=models`);
    await card().waitFor();
    await card().locator('input[type="file"]').setInputFiles({ name: "лава 7, год.csv", mimeType: "text/csv", buffer: csv });
    await card().getByText("лава 7, год.csv").waitFor();
    const trees = card().getByLabel("Деревьев");
    await trees.click();
    await trees.press("Control+A");
    await trees.pressSequentially("20");
    await card().getByRole("button", { name: "Обучить" }).click();
    await card()
      .getByText(
        /Модель обучена: \d+ деревьев, 42\s?000 строк обучения и 10\s?500 проверки; пропущено строк без фактической концентрации: 60/,
      )
      .waitFor({ timeout: 120_000 });
    await card().getByLabel("Название модели").fill("Лава 7, год");
    await card().getByRole("button", { name: "Сохранить как модель компании" }).click();
    await page.getByText(/Модель компании сохранена: XGBoost, версия 3/).waitFor({ timeout: 120_000 });
    await page.getByRole("region", { name: "Модели XGBoost" }).getByText("Лава 7, год", { exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
  }, 300_000);
  it("trains on a history Russian Excel saved (Windows-1251, «;», decimal commas) the model its UTF-8 twin gives, and refuses KOI8-R in words", async () => {
    const history = russianExcelHistory();
    await signIn(page, server.url, server.admin!, "/admin?tab=models");
    await card().waitFor();
    const trained = async (name: string, bytes: Uint8Array) => {
      await card()
        .locator('input[type="file"]')
        .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(bytes) });
      await card().getByText(name).waitFor();
      const trees = card().getByLabel("Деревьев");
      await trees.click();
      await trees.press("Control+A");
      await trees.pressSequentially("30");
      await card().getByRole("button", { name: "Обучить" }).click();
      const done = card().locator(".ant-alert-success", { hasText: "Модель обучена" });
      await done.waitFor({ timeout: 60_000 });
      return {
        summary: await done.textContent(),
        importance: await card().getByRole("region", { name: "Важность признаков" }).textContent(),
      };
    };
    const utf8 = await trained("история UTF-8.csv", history.utf8);
    const cp1251 = await trained("история Excel.csv", history.cp1251);
    expect(cp1251.summary).toMatch(/Модель обучена: \d+ деревьев, 400 строк обучения и 100 проверки/);
    expect(cp1251).toEqual(utf8);
    expect(cp1251.importance).toContain("Расход воздуха в исходящей струе лавы (суточные замеры)");
    await card().getByRole("button", { name: "Сохранить как модель компании" }).click();
    await page.getByText(/Модель компании сохранена: XGBoost, версия \d+/).waitFor({ timeout: 60_000 });

    const koi8 = encodeLegacy("Время;Шахта;Метан;Примечание\n01.01.2025 00:00;Северная;10;нет данных\n", "koi8-r");
    await card()
      .locator('input[type="file"]')
      .setInputFiles({ name: "история KOI8.csv", mimeType: "text/csv", buffer: Buffer.from(koi8) });
    await card().getByText("история KOI8.csv").waitFor();
    await card().getByRole("button", { name: "Обучить" }).click();
    await card().getByRole("alert").getByText(CSV_ENCODING_MESSAGE).waitFor();
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
