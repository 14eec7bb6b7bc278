// «Модели прогноза» as a ventilation engineer of a company (role staff, not an administrator) sees it
// in a real browser against the real local server: from the side menu, a longwall's history uploaded,
// a model trained with its metrics shown, saved (the server trains it as a job, its progress shown),
// the company's forecasts then run on it; renamed, the platform's model chosen again, the own model
// chosen back, archived. Model versions are numbered across the platform, so the file has a server of
// its own; each test puts the company's models in the state it starts from before its page opens
// (none of its own: what an earlier try saved taken out of the server's table, as no route deletes a
// version; or one saved and named as the saving leaves it, trained through the API if none is), so
// either runs alone, in either order, and a retry starts from that state again.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { forecastModel, forecastModelVersion as versionNumberKey } from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE, openSharedStorage, type OpenStorage } from "@server/local/storage";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp, pickOption, signIn, type WebApp } from "../support/web-page";
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

/** The same longwall with every column a forecast reads (those the history above lacks held steady). */
function fullHistory(): string {
  const [, ...lines] = history().trimEnd().split("\n");
  const header = [
    "Время",
    "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин",
    `${AIR}, м³/мин`,
    "Концентрация метана в каптируемой смеси, %",
    "Расход смеси, извлекаемой установкой, м³/мин",
    "Средняя концентрация CH4 в исходящей струе шахты, %",
    "Расход воздуха в исходящей струе шахты, м³/мин",
    "Расход метана, извлекаемого установкой, м³/мин",
    "Концентрация CH4 в исходящей струе лавы, факт, %",
  ];
  const rows = lines.map((line) => {
    const [stamp, air, y] = line.split(";");
    return [stamp, "1400", air, "35", "100", "0,5", "16000", "35", y].join(";");
  });
  return `${[header.join(";"), ...rows].join("\n")}\n`;
}

describe("web app: a company's own forecast models, as its engineer", () => {
  let server: TestServer;
  let storage: OpenStorage;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  const folder = mkdtempSync(join(tmpdir(), "company-models-"));
  const file = join(folder, "лава 12 январь.csv");
  const fullFile = join(folder, "лава 12 все столбцы.csv");
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
    writeFileSync(fullFile, fullHistory());
    // A server of its own: a model version is numbered across the platform, and this one is the second.
    server = await startTestServer({ own: true });
    // The server's own table, as a command beside it reaches it: a test takes the company's models out of it.
    storage = await openSharedStorage(server.dataDir);
    app = await openWebApp(server, { viewport: { width: 1366, height: 1000 }, timeout: 30_000 });
    ({ page, pageErrors } = app);
  });

  // Every test's page errors, its own: none.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await storage?.close();
    await server?.close();
  });

  /** No model of the company's own, as the server starts: what a saving left taken out of the
   *  server's table (no route deletes a version), so the next one saved is version 2 again. */
  async function noOwnModels() {
    for (const v of await storage.repos.forecastModels.list("xgboost")) {
      if (v.company === undefined) continue;
      await storage.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: forecastModel("xgboost", v.id) }));
      await storage.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: versionNumberKey("xgboost", v.version) }));
    }
  }

  // Trained, then saved: the card the user trains on is the one they save from, at once.
  it("finds «Модели прогноза» in the menu, trains on the history, sees its metrics and saves it (trained by the server as a job): the company's forecasts use it", async () => {
    await noOwnModels();
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

    await card().getByRole("button", { name: "Сохранить как модель компании" }).click();
    await page.getByText(/Модель компании сохранена: XGBoost, версия 2, прогнозы компании считаются по ней/).waitFor({ timeout: 90_000 });
    const row = own().locator("tr", { hasText: "Используется в прогнозах" });
    await row.getByText("Обучена на 1 500 строках").waitFor();
    // The history's times as written, with their time of day (web/src/shared/dates.ts displayWrittenTime).
    await row.getByText(/^1 500 строк, 01\.01\.2025 00:00 – 1[01]\.01\.2025 \d{2}:\d{2}$/).waitFor();
    await row.getByText(/^\d+,\d{4} % CH4$/).waitFor();
    await inUse().filter({ hasText: "«Обучена на 1 500 строках», версия 2" }).waitFor();
    expect(await forecastModelVersion()).toBe(2);
    await screenshot(page, { path: `${SHOTS}/web-company-models.png`, fullPage: true });
  }, 200_000);

  // the job's message lost the horizon, so a model the card trained for 1 h was stored as a
  // nowcast and a forecast at 1 h refused it.
  it("trains in the browser for 30 min and for 1 h ahead, saves each with its horizon, and the company's forecasts at it run on it", async () => {
    await noOwnModels();
    await signIn(page, server.url, server.demo, "/forecast-models");
    await page.getByRole("heading", { name: "Модели прогноза" }).waitFor();
    const access = await accessToken(server.url, server.demo);
    const project = await apiCaller(
      () => server.url,
      () => access,
    )<{ id: string }>("POST", "v1/projects/create_project/", { name: "Лава 12", start_date: "2025-01-01", end_date: "2025-12-31" });
    try {
      for (const [horizon, label, version] of [
        [30, "30 мин", 2],
        [60, "1 ч", 3],
      ] as const) {
        await card().locator('input[type="file"]').setInputFiles(fullFile);
        await card().getByText("лава 12 все столбцы.csv").waitFor();
        await pickOption(page, card().getByLabel("Горизонт прогноза"), label);
        const trees = card().getByLabel("Деревьев");
        await trees.click();
        await trees.press("Control+A");
        await trees.pressSequentially("30");
        await card().getByRole("button", { name: "Обучить" }).click();
        await card()
          .getByText(/Модель обучена: \d+ деревьев/)
          .waitFor({ timeout: 60_000 });
        await card().getByText(`Модель на ${label} вперед выбирается в форме прогноза с этим горизонтом`).waitFor();
        await card().getByRole("button", { name: "Сохранить как модель компании" }).click();
        await page.getByText(`Модель компании сохранена: XGBoost, версия ${version}`, { exact: true }).waitFor({ timeout: 90_000 });
        const saved = (await storage.repos.forecastModels.list("xgboost")).find((v) => v.company !== undefined && v.version === version);
        expect(saved).toMatchObject({ horizon, is_active: false, training: { horizon } });

        // The company's forecast at that horizon, as the forecast form sends it, runs on it.
        const form = new FormData();
        form.set("name", `Лава 12, ${label} вперед`);
        form.set("project", project.id);
        form.set("method", "xgboost");
        form.set("horizon", String(horizon));
        form.set("file_data", new Blob([readFileSync(fullFile)]), "история.csv");
        const res = await fetch(`${server.url}/api/v1/regres_methane/`, {
          method: "POST",
          headers: { Authorization: `Bearer ${access}` },
          body: form,
        });
        expect(res.status, await res.clone().text()).toBe(201);
        expect(await res.json()).toMatchObject({ horizon, model: { id: saved!.id, version } });
      }
    } finally {
      // The next test starts from no model ahead of the company's.
      await noOwnModels();
    }
  }, 240_000);

  /** The company's own model as the saving leaves it: version 2, named «Обучена на 1 500 строках», in
   *  use, not archived; trained through the API on the same history when the company has none (the
   *  route the card's saving calls, with fewer trees: this test reads its name, not its trees). The
   *  page then shows «Модели прогноза» as the demo user: inside the app when it shows it as it is,
   *  else (a retry too: its failed try may have left a confirmation open) in one load. */
  async function ownModelAsSaved(retry: number | undefined) {
    const access = await accessToken(server.url, server.demo);
    const demo = apiCaller(
      () => server.url,
      () => access,
    );
    const own = async () => (await storage.repos.forecastModels.list("xgboost")).find((v) => v.company !== undefined);
    let saved = await own();
    let changed = false;
    if (!saved) {
      const form = new FormData();
      form.set("file", new File([readFileSync(file)], "лава 12 январь.csv", { type: "text/csv" }));
      form.set("params", JSON.stringify({ n_estimators: 20, max_depth: 3 }));
      form.set("activate", "true");
      const res = await fetch(`${server.url}/api/v1/forecast_models/xgboost/train/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${access}` },
        body: form,
      });
      expect([201, 202]).toContain(res.status);
      const job = (await res.json()) as { status_url?: string };
      if (job.status_url) {
        for (let state = ""; state !== "done"; ) {
          const status = await demo<{ state: string; model_id?: string }>("GET", job.status_url.replace(/^\/api\//, ""));
          state = status.state;
          expect(state).not.toBe("failed");
          if (state !== "done") await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      saved = (await own())!;
      changed = true;
    }
    if (saved.description !== "Обучена на 1 500 строках" || saved.archived || !saved.is_active) {
      await demo("PATCH", `v1/forecast_models/xgboost/${saved.id}/own/`, {
        description: "Обучена на 1 500 строках",
        archived: false,
        is_active: true,
      });
      changed = true;
    }
    const onModels = !changed && !retry && (await page.getByRole("heading", { name: "Модели прогноза" }).count()) > 0;
    if (!onModels) await signIn(page, server.url, server.demo, "/forecast-models");
    await inUse().filter({ hasText: "«Обучена на 1 500 строках», версия 2" }).waitFor();
  }

  it("renames it, returns to the platform's model, chooses its own again and archives it", async ({ task }) => {
    await ownModelAsSaved(task.result?.retryCount);
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
  }, 120_000);
});
