// «Модели прогноза» as a ventilation engineer of a company (role staff, not an administrator) sees it
// in a real browser against the real local server: from the side menu, a longwall's history uploaded,
// a model trained with its metrics shown, saved (the server trains it as a job, its progress shown),
// the company's forecasts then run on it; renamed, the platform's model chosen again, the own model
// chosen back, archived. Needs web/dist (`npm run build:web`) and Debian Chromium.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const AIR = "Расход воздуха в исходящей струе лавы (суточные замеры)";

/** 1 500 rows of 10-minute steps: more air, less methane. */
function history(): string {
  const lines = [`Время;${AIR}, м³/мин;Концентрация CH4 в исходящей струе лавы, факт, %`];
  for (let i = 0; i < 1500; i++) {
    const minutes = i * 10;
    const day = 1 + Math.floor(minutes / 1440);
    const stamp = `${String(day).padStart(2, "0")}.01.2025 ${String(Math.floor((minutes % 1440) / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    const air = 1200 + ((i * 37) % 400);
    const y = (0.5 * 1400) / air + 0.002 * ((i * 7) % 5);
    lines.push(`${stamp};${air};${y.toFixed(4).replace(".", ",")}`);
  }
  return `${lines.join("\n")}\n`;
}

describe("web app: a company's own forecast models, as its engineer", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  const file = join(mkdtempSync(join(tmpdir(), "company-models-")), "лава 12 январь.csv");
  const card = () => page.locator(".ant-card", { hasText: "Обучить модель" });
  const own = () => page.locator(".ant-card", { hasText: "Модели компании" });
  const inUse = () => page.getByText(/^Прогнозы метана компании \(XGBoost\) считаются по модели: /);

  /** The model version a new forecast of the company runs (the API, as the forecast form sends it). */
  async function forecastModelVersion(): Promise<number> {
    const access = await accessToken(server.url, server.demo);
    const call = async <T>(path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${access}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as T;
    };
    const project = await call<{ id: string }>("/api/v1/projects/create_project/", {
      name: `Лава ${Math.random().toString(36).slice(2, 6)}`,
      start_date: "2025-01-01",
      end_date: "2025-12-31",
    });
    const forecast = await call<{ model: { version: number } }>("/api/v1/regres_methane/", {
      name: "Прогноз",
      project: project.id,
      method: "xgboost",
      data: [{ id: 1, x1: 1400, x2: 1300, x7: 35, x8: 100, x12: 0.5, x13: 16000, x15: 35 }],
    });
    return forecast.model.version;
  }

  beforeAll(async () => {
    writeFileSync(file, history());
    // A server of its own: a model version is numbered across the platform, and this one is the second.
    server = await startTestServer({ own: true });
    app = await openWebApp(server, { viewport: { width: 1366, height: 1000 }, timeout: 30_000 });
    ({ page, pageErrors } = app);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("finds «Модели прогноза» in the menu, trains on the history and sees its metrics", async () => {
    await signIn(page, server.url, server.demo);
    await page.getByRole("navigation", { name: "Главное меню" }).getByText("Модели прогноза", { exact: true }).click();
    await page.getByRole("heading", { name: "Модели прогноза" }).waitFor();
    await inUse().filter({ hasText: "модель платформы, версия 1" }).waitFor();
    await own().getByText("Своих моделей пока нет").waitFor();

    await card().locator('input[type="file"]').setInputFiles(file);
    await card().getByText("лава 12 январь.csv").waitFor();
    const trees = card().getByLabel("Деревьев");
    await trees.click();
    await trees.press("Control+A");
    await trees.pressSequentially("80");
    await card().getByRole("button", { name: "Обучить" }).click();
    await card().getByLabel("Ход обучения").waitFor();
    await card()
      .getByText(/Модель обучена: \d+ деревьев, 1200 строк обучения и 300 проверки/)
      .waitFor({ timeout: 60_000 });
    await card()
      .getByText(/Ошибка на проверочных строках \d+,\d{4} % CH4/)
      .waitFor();
    await card().getByRole("region", { name: "Важность признаков" }).getByText(AIR, { exact: true }).waitFor();
  }, 120_000);

  it("saves it (trained by the server as a job) and the company's forecasts use it", async () => {
    await card().getByRole("button", { name: "Сохранить как модель компании" }).click();
    await page.getByText(/Модель компании сохранена: XGBoost, версия 2, прогнозы компании считаются по ней/).waitFor({ timeout: 90_000 });
    const row = own().locator("tr", { hasText: "Используется в прогнозах" });
    await row.getByText("Обучена на 1 500 строках").waitFor();
    await row.getByText(/^1 500 строк, 01\.01\.2025 – 1[01]\.01\.2025$/).waitFor();
    await row.getByText(/^\d+,\d{4} % CH4$/).waitFor();
    await inUse().filter({ hasText: "«Обучена на 1 500 строках», версия 2" }).waitFor();
    expect(await forecastModelVersion()).toBe(2);
    await screenshot(page, { path: `${SHOTS}/web-company-models.png`, fullPage: true });
  }, 120_000);

  /** A retry starts from where the saving step left the company's model (its failed try may have
   *  renamed, set aside or archived it). */
  async function ownModelAsSaved() {
    const access = await accessToken(server.url, server.demo);
    const demo = apiCaller(
      () => server.url,
      () => access,
    );
    const list = await demo<{ results: Array<{ method: string; versions: Array<{ id: string; company?: string }> }> }>(
      "GET",
      "v1/forecast_models/",
    );
    const saved = list.results.find((r) => r.method === "xgboost")!.versions.find((v) => v.company !== undefined)!;
    await demo("PATCH", `v1/forecast_models/xgboost/${saved.id}/own/`, {
      description: "Обучена на 1 500 строках",
      archived: false,
      is_active: true,
    });
    await page.reload();
    await inUse().filter({ hasText: "«Обучена на 1 500 строках», версия 2" }).waitFor();
  }

  it("renames it, returns to the platform's model, chooses its own again and archives it", async () => {
    await ownModelAsSaved();
    const row = () => own().locator("tbody tr.ant-table-row").first();
    await row().getByRole("button", { name: "Переименовать" }).click();
    const editor = own().locator("textarea");
    await editor.press("Control+A");
    await editor.pressSequentially("Лава 12, январь");
    await editor.press("Enter");
    await page.getByText("Модель переименована").waitFor();
    await inUse().filter({ hasText: "«Лава 12, январь», версия 2" }).waitFor();

    await row().getByRole("button", { name: "Вернуться к модели платформы" }).click();
    await inUse().filter({ hasText: "модель платформы, версия 1" }).waitFor();
    expect(await forecastModelVersion()).toBe(1);

    await row().getByRole("button", { name: "Использовать в прогнозах" }).click();
    await inUse().filter({ hasText: "«Лава 12, январь», версия 2" }).waitFor();
    expect(await forecastModelVersion()).toBe(2);

    await row().getByRole("button", { name: "В архив" }).click();
    // The confirmation as it stands open (not one still fading out).
    await page
      .locator(".ant-popconfirm:not(.ant-popover-hidden)", { hasText: "Убрать модель в архив?" })
      .getByRole("button", { name: "В архив" })
      .click();
    await page.getByText("Модель убрана в архив").waitFor();
    await row().getByText("В архиве").waitFor();
    await inUse().filter({ hasText: "модель платформы, версия 1" }).waitFor();
    await row().getByRole("button", { name: "Вернуть из архива" }).waitFor();
    expect(await forecastModelVersion()).toBe(1);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
