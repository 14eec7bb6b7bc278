// /admin «Модели прогноза» in a real browser against the real local server: the shipped models are
// version 1 of each method and active; a LightGBM file uploaded as XGBoost is refused with the
// server's reason; uploaded as LightGBM with «сделать активной» it becomes version 2, active; the
// operator switches back to version 1.
// The models are the platform's, so the file has a server of its own; each test puts them in the
// state it starts from before its page opens (the versions after 1 and their log entries taken out of
// the server's table, as no route deletes a version; version 2 uploaded and version 1 chosen again
// through the API, as the operator does), so any one runs alone, in any order, and a retry starts
// from that state again.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { existsSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { DeleteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { ADMIN_AUDIT_PK, forecastModel, forecastModelVersion } from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE, openSharedStorage, type OpenStorage } from "@server/local/storage";
import { modelFixture } from "../support/models";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const LIGHTGBM_MODEL = modelFixture("methane-lightgbm.txt");
const RETRAINED = "Переобучена на данных 2025 года";

describe("web app: administration, forecast models", () => {
  let server: TestServer;
  let storage: OpenStorage;
  let operator: string;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];

  const at = (path: string) => `${server.url}${path}`;
  const section = (label: "XGBoost" | "LightGBM") => page.getByRole("region", { name: `Модели ${label}` });
  const versionRow = (table: Locator, version: number) =>
    table.locator(".ant-table-row").filter({ has: page.locator("td:first-child", { hasText: new RegExp(`^${version}$`) }) });
  const uploadCard = () => page.locator(".ant-card", { hasText: "Загрузить новую версию" });

  async function chooseMethod(label: string) {
    await uploadCard().getByRole("combobox", { name: "Метод" }).click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: label }).first().click();
  }

  async function expectActive(table: Locator, active: number, inactive: number[]) {
    await versionRow(table, active).getByText("Активна", { exact: true }).waitFor();
    for (const v of inactive) {
      await versionRow(table, v)
        .getByRole("button", { name: /Сделать активной/ })
        .waitFor();
      expect(await versionRow(table, v).getByText("Активна", { exact: true }).count()).toBe(0);
    }
  }

  /** The list as the API shows it, for what the screen does not say (which version is active after a reload). */
  async function activeVersions(): Promise<Record<string, number[]>> {
    const res = await fetch(at("/api/v1/forecast_models/"), { headers: { Authorization: `Bearer ${operator}` } });
    const body = (await res.json()) as { results: { method: string; versions: { version: number; is_active: boolean }[] }[] };
    return Object.fromEntries(body.results.map((r) => [r.method, r.versions.filter((v) => v.is_active).map((v) => v.version)]));
  }

  beforeAll(async () => {
    if (!existsSync(LIGHTGBM_MODEL)) throw new Error(`model file missing: ${LIGHTGBM_MODEL}`);
    server = await startTestServer({ admin: true, own: true });
    // The server's own table, as a command beside it reaches it: a test takes versions out of it.
    storage = await openSharedStorage(server.dataDir);
    operator = await accessToken(server.url, server.admin!);
    app = await openWebApp(server, { viewport: { width: 1366, height: 860 }, timeout: 15_000 });
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

  const METHODS = ["xgboost", "lightgbm"] as const;
  const logOfModels = async () => {
    const out = await storage.doc!.send(
      new QueryCommand({
        TableName: LOCAL_TABLE,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": ADMIN_AUDIT_PK },
      }),
    );
    return (out.Items ?? [])
      .filter((item) => String(item.action).startsWith("forecast_model."))
      .sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
  };

  /** The models as shipped: version 1 of each method alone and active, no model change in the log
   *  (what a later version left taken out of the server's table: no route deletes a version); true if
   *  anything was changed. */
  async function modelsAsShipped(): Promise<boolean> {
    let changed = false;
    for (const method of METHODS) {
      for (const v of await storage.repos.forecastModels.list(method)) {
        if (v.version === 1) {
          if (!v.is_active) await storage.repos.forecastModels.activate(method, v.id);
          changed ||= !v.is_active;
          continue;
        }
        await storage.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: forecastModel(method, v.id) }));
        await storage.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: forecastModelVersion(method, v.version) }));
        changed = true;
      }
    }
    for (const entry of await logOfModels()) {
      await storage.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: { PK: entry.PK, SK: entry.SK } }));
      changed = true;
    }
    return changed;
  }

  /** The LightGBM file uploaded as version 2 with «сделать активной», through the API as the
   *  operator's form sends it. */
  async function uploadVersion2(): Promise<string> {
    const form = new FormData();
    form.set("file", new File([readFileSync(LIGHTGBM_MODEL)], "methane-lightgbm.txt"));
    form.set("description", RETRAINED);
    form.set("activate", "true");
    const res = await fetch(at("/api/v1/forecast_models/lightgbm/"), {
      method: "POST",
      headers: { Authorization: `Bearer ${operator}` },
      body: form,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  /** The models as the operator leaves them after uploading version 2 of LightGBM active and, if
   *  `switchedBack`, choosing version 1 again (those two changes alone in the log); true if they
   *  had to be put so. */
  async function withVersion2(switchedBack: boolean): Promise<boolean> {
    const lightgbm = await storage.repos.forecastModels.list("lightgbm");
    const xgboost = await storage.repos.forecastModels.list("xgboost");
    const log = (await logOfModels()).map((entry) => entry.action);
    const asLeft =
      xgboost.length === 1 &&
      xgboost[0].is_active &&
      lightgbm.length === 2 &&
      lightgbm[1].description === RETRAINED &&
      lightgbm[0].is_active === switchedBack &&
      lightgbm[1].is_active === !switchedBack &&
      log.join() === (switchedBack ? "forecast_model.upload,forecast_model.activate" : "forecast_model.upload");
    if (asLeft) return false;
    await modelsAsShipped();
    await uploadVersion2();
    if (switchedBack) {
      const call = apiCaller(
        () => server.url,
        () => operator,
      );
      await call("PATCH", `v1/forecast_models/lightgbm/${lightgbm.find((v) => v.version === 1)!.id}/`, { is_active: true });
    }
    return true;
  }

  /** /admin as the operator: the page as it is when it is on /admin (its tabs on view) and shows the
   *  models as they are (`changed` false), else loaded on `path` (a retry always loads: its failed
   *  try may have left a confirmation or a form half filled). */
  async function onAdmin(path: string, changed: boolean, retry: number | undefined) {
    const open =
      !changed && !retry && new URL(page.url()).pathname === "/admin" && (await page.getByRole("tab", { name: "Журнал" }).count()) > 0;
    if (!open) await signIn(page, server.url, server.admin!, path);
  }

  /** The models tab of /admin as the operator (onAdmin), reached by its tab when the page shows another. */
  async function showModels(changed: boolean, retry: number | undefined) {
    await onAdmin("/admin?tab=models", changed, retry);
    if (!/[?&]tab=models/.test(page.url())) await page.getByRole("tab", { name: "Модели прогноза" }).click();
  }

  it("lists the shipped models as version 1 of each method, active", async () => {
    await modelsAsShipped();
    await signIn(page, server.url, server.admin!, "/admin");
    await page.getByRole("tab", { name: "Модели прогноза" }).click();
    await page.waitForURL(/[?&]tab=models/);
    await page.getByText("Сохраненные расчеты хранят версию модели", { exact: false }).waitFor();

    for (const [label, library, engine] of [
      ["XGBoost", "XGBoost 1.7.4", "Вычисление: QuickScorer с контрольными точками префиксов"],
      ["LightGBM", "LightGBM v4", "Вычисление: QuickScorer с контрольными точками префиксов"],
    ] as const) {
      const row = versionRow(section(label), 1);
      await row.getByText("Активна", { exact: true }).waitFor();
      await row.getByText(library, { exact: true }).waitFor();
      await row.getByText("поставляется с системой").waitFor();
      // Why the model runs on the faster engine, in words.
      await row.getByText(engine, { exact: false }).waitFor();
      expect(await section(label).locator(".ant-table-row").count()).toBe(1);
    }
    await versionRow(section("LightGBM"), 1).getByText("methane-lightgbm.txt").waitFor();
    await versionRow(section("XGBoost"), 1).getByText("methane-xgboost.json").waitFor();
  });

  // The refusal and the upload that follows it are one form the operator fills at once.
  it("shows the server's refusal of a LightGBM file uploaded as XGBoost, then uploads it as LightGBM with «сделать активной»: version 2 is active", async ({
    task,
  }) => {
    const changed = await modelsAsShipped();
    await showModels(changed, task.result?.retryCount);
    await versionRow(section("LightGBM"), 1).getByText("Активна", { exact: true }).waitFor();
    await chooseMethod("XGBoost");
    await uploadCard().locator('input[type="file"]').setInputFiles(LIGHTGBM_MODEL);
    await uploadCard().getByText("methane-lightgbm.txt").waitFor();
    await uploadCard().getByRole("button", { name: "Загрузить" }).click();
    await uploadCard().getByText("это модель lightgbm, а выбран метод xgboost").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-admin-models-refused.png`, fullPage: true });
    expect(await section("XGBoost").locator(".ant-table-row").count()).toBe(1);
    expect(await activeVersions()).toEqual({ xgboost: [1], lightgbm: [1] });

    await chooseMethod("LightGBM");
    // Changing the method clears the old refusal; the chosen file stays.
    await uploadCard().getByText("а выбран метод").waitFor({ state: "detached" });
    await uploadCard().getByText("methane-lightgbm.txt").waitFor();
    await uploadCard().getByLabel("Описание").fill(RETRAINED);
    await uploadCard().getByText("сделать активной").click();
    await uploadCard().getByRole("button", { name: "Загрузить" }).click();

    const lightgbm = section("LightGBM");
    await versionRow(lightgbm, 2).getByText(RETRAINED).waitFor();
    await expectActive(lightgbm, 2, [1]);
    await versionRow(lightgbm, 2).getByText(server.admin!.email).waitFor();
    await versionRow(lightgbm, 2).getByText("LightGBM v4", { exact: true }).waitFor();
    // The other method is untouched; the form is ready for the next file.
    await expectActive(section("XGBoost"), 1, []);
    await uploadCard().getByText("methane-lightgbm.txt").waitFor({ state: "detached" });
    expect(await activeVersions()).toEqual({ xgboost: [1], lightgbm: [2] });
    await screenshot(page, { path: `${SHOTS}/web-admin-models.png`, fullPage: true });
  });

  it("switches back to version 1 after a confirmation", async ({ task }) => {
    const changed = await withVersion2(false);
    await showModels(changed, task.result?.retryCount);
    const lightgbm = section("LightGBM");
    await versionRow(lightgbm, 2).getByText("Активна", { exact: true }).waitFor();
    await versionRow(lightgbm, 1)
      .getByRole("button", { name: /Сделать активной/ })
      .click();
    const confirm = page.locator(".ant-popover:visible");
    await confirm.getByText("сохраненные расчеты не изменятся").waitFor();
    await confirm.getByRole("button", { name: "Сделать активной" }).click();
    await expectActive(lightgbm, 1, [2]);
    expect(await activeVersions()).toEqual({ xgboost: [1], lightgbm: [1] });

    // And it stays so after a reload.
    await page.reload();
    await expectActive(section("LightGBM"), 1, [2]);
    await screenshot(page, { path: `${SHOTS}/web-admin-models-switched.png`, fullPage: true });
  });

  it("lists the upload and the switch in «Журнал», newest first", async ({ task }) => {
    await onAdmin("/admin", await withVersion2(true), task.result?.retryCount);
    await page.getByRole("tab", { name: "Журнал" }).click();
    const rows = page.locator(".ant-table-row", { hasText: "Модель прогноза" });
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/Модель прогноза выбрана[\s\S]*Модель прогноза LightGBM, версия 1/);
    expect(texts[1]).toMatch(/Модель прогноза загружена[\s\S]*Модель прогноза LightGBM, версия 2 \(methane-lightgbm\.txt\)/);
    expect(texts[1]).toContain(server.admin!.email);
  });
});
