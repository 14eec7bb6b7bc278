// Numbers as a Russian user types and reads them, in a real browser (issue 14, items 1 and 2):
// «845,5» typed key by key into a calculation dialog is 845.5 in the live preview and in the stored
// result; a minus where negatives make no sense and a text that is no number get a message under
// the field, never a silent rewrite; the converter answers «0,6680»; settings refuse 7 decimals.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { emissionsCore } from "@core/emissions";
import { REGISTRY } from "@core/registry";
import { formatResult } from "@web/shared/decimals";
import { startTestServer, type TestServer } from "../support/server";
import { callApi, createProject, openWebApp, type WebApp } from "../support/web-page";
import type { CalculationView } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const TYPE = "underground_emission_ch4";
const VOLUME = "Объём добычи угля подземным способом";

describe("web app: a decimal comma and one number format", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let projectId = "";

  const at = (path: string) => `${server.url}${path}`;
  const menu = () => page.getByRole("navigation", { name: "Главное меню" });
  const dialog = () => page.getByRole("dialog", { name: "Новый расчет" });
  const volume = () => dialog().getByLabel(VOLUME, { exact: true });
  const problem = () => dialog().locator(".numeric-input-problem");
  const stored = async () =>
    (
      await callApi<{ results: CalculationView[] }>(
        page,
        "GET",
        `/api/v1/${TYPE}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
      )
    ).json.results;

  // The results the server must store for 845.5 t (and, to tell them apart, for 8455 t).
  const core = emissionsCore();
  const resultsFor = (value: number) => core.calculate(TYPE, { volume: value, ef: 18 }, { gwp_ch4: 25 }) as Record<string, number>;
  const expected = resultsFor(845.5);
  const tenTimes = resultsFor(8455);

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server, { user: server.demo });
    page = app.page;
    projectId = await createProject(page, "Шахта Десятичная");
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("reads «845,5» typed key by key as 845.5: the preview shows its result", async () => {
    await page.goto(at(`/projects/${projectId}/calculations?type=${TYPE}`));
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
    await dialog().getByLabel("Название расчета").fill("Десятичная запятая");
    await volume().pressSequentially("845,5");
    expect(await volume().inputValue()).toBe("845,5");
    const preview = dialog().getByTestId("preview");
    await preview
      .getByTestId("preview-res_ch4")
      .filter({ hasText: formatResult(expected.res_ch4, 2) })
      .waitFor();
    expect(await preview.getByTestId("preview-res_ch4_to_co2").innerText()).toBe(formatResult(expected.res_ch4_to_co2, 2));
    expect(formatResult(expected.res_ch4, 2)).not.toBe(formatResult(tenTimes.res_ch4, 2));
    expect(await problem().count()).toBe(0);
    await page.waitForTimeout(400); // the modal's fade-in, for a readable screenshot
    await screenshot(page, { path: `${SHOTS}/web-numbers-comma-dialog.png` });
  });

  it("keeps a minus as typed and says the value cannot be negative; nothing is sent", async () => {
    await volume().fill("");
    await volume().pressSequentially("-5");
    expect(await volume().inputValue()).toBe("-5");
    await problem().filter({ hasText: "Значение не может быть отрицательным" }).waitFor();
    expect(await volume().getAttribute("aria-invalid")).toBe("true");
    await dialog().getByTestId("preview-pending").filter({ hasText: "Значение не может быть отрицательным" }).waitFor();
    await dialog().getByRole("button", { name: "Создать" }).click();
    await page.waitForTimeout(300);
    expect(await dialog().isVisible()).toBe(true);
    expect(await stored()).toEqual([]);
  });

  it("says a text is not a number instead of dropping the letters", async () => {
    await volume().fill("");
    await volume().pressSequentially("84a");
    expect(await volume().inputValue()).toBe("84a");
    await problem().filter({ hasText: "Введите число, например 845,5" }).waitFor();
    await volume().fill("");
    await volume().pressSequentially("12,34567");
    await problem().filter({ hasText: "Не больше 4 знаков после запятой" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-numbers-problem.png` });
  });

  it("stores 845.5 and its results once the field holds «845,5» again", async () => {
    await volume().fill("");
    await volume().pressSequentially("845,5");
    await problem().waitFor({ state: "detached" });
    await dialog()
      .getByTestId("preview-res_ch4")
      .filter({ hasText: formatResult(expected.res_ch4, 2) })
      .waitFor();
    await dialog().getByRole("button", { name: "Создать" }).click();
    await dialog().waitFor({ state: "hidden" });
    const [calc] = await stored();
    expect(calc).toMatchObject({
      name: "Десятичная запятая",
      volume: 845.5,
      res_ch4: expected.res_ch4,
      res_ch4_to_co2: expected.res_ch4_to_co2,
    });
    // The list shows the stored result the Russian way.
    await page
      .locator(".ant-table-row", { hasText: "Десятичная запятая" })
      .getByText(formatResult(expected.res_ch4_to_co2, 2))
      .first()
      .waitFor();
  });

  it("reads «845.5» with a dot as the same number", async () => {
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await volume().pressSequentially("845.5");
    await dialog()
      .getByTestId("preview-res_ch4")
      .filter({ hasText: formatResult(expected.res_ch4, 2) })
      .waitFor();
    await dialog().getByRole("button", { name: "Отмена" }).click();
    await dialog().waitFor({ state: "hidden" });
  });

  it("stores «3 100» typed key by key as 3100 and «12 480,7504» pasted as the app prints it as 12480.7504", async () => {
    const create = async (name: string, enter: () => Promise<void>) => {
      await page.getByRole("button", { name: "Добавить расчет" }).click();
      await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
      await dialog().getByLabel("Название расчета").fill(name);
      await enter();
      await dialog().getByTestId("preview-res_ch4").waitFor();
      expect(await problem().count()).toBe(0);
      await dialog().getByRole("button", { name: "Создать" }).click();
      await dialog().waitFor({ state: "hidden" });
    };
    await create("Тысячи с пробелом", () => volume().pressSequentially("3 100"));
    await create("Вставлено из конвертера", async () => {
      await volume().focus();
      await page.keyboard.insertText(formatResult(12480.7504, 4));
    });
    await expect
      .poll(async () => Object.fromEntries((await stored()).map((calc) => [calc.name, calc.volume])))
      .toMatchObject({ "Тысячи с пробелом": 3100, "Вставлено из конвертера": 12480.7504 });
  });

  it("says how to write a number with both a dot and a comma instead of guessing", async () => {
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await volume().pressSequentially("1.250,5");
    await problem().filter({ hasText: "отделяйте разряды пробелом, а дробь запятой" }).waitFor();
    await dialog().getByRole("button", { name: "Отмена" }).click();
    await dialog().waitFor({ state: "hidden" });
  });

  it("converts with a decimal comma and answers in the Russian format: 1000 m³ CH4 → 0,6680 t", async () => {
    await menu().getByText("Виджеты", { exact: true }).click();
    await page.waitForURL(at("/widgets"));
    const quantity = page.locator("#converter-quantity");
    const result = page.locator("#converter-result");
    await quantity.pressSequentially("1000");
    await expect.poll(() => result.inputValue()).toBe("0,6680");
    await quantity.fill("");
    await quantity.pressSequentially("845,5");
    await expect.poll(() => result.inputValue()).toBe("0,5648");
    // The density in the conditions list is written the same way.
    await page
      .locator(".ant-select", { has: page.locator("#converter-conditions") })
      .getByText("0,668 кг/м³")
      .waitFor();
    await quantity.fill("");
    await quantity.pressSequentially("-1");
    await page.locator(".numeric-input-problem", { hasText: "Значение не может быть отрицательным" }).waitFor();
    await expect.poll(() => result.inputValue()).toBe("");
    await screenshot(page, { path: `${SHOTS}/web-numbers-converter.png`, fullPage: true });
  });

  it("refuses 7 decimal places with a message and keeps the stored setting", async () => {
    await menu().getByText("Настройки", { exact: true }).click();
    await page.waitForURL(at("/settings"));
    const decimals = page.getByLabel("Количество знаков после запятой");
    expect(await decimals.inputValue()).toBe("4");
    await decimals.fill("");
    await decimals.pressSequentially("7");
    await page.getByText("Введите целое число от 0 до 4").waitFor();
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.waitForTimeout(300);
    expect(await page.getByText("Настройки сохранены").count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("comma"))).toBeNull();
    await screenshot(page, { path: `${SHOTS}/web-numbers-settings.png` });
    await decimals.fill("2,5");
    await page.getByText("Введите целое число, например 3").waitFor();
    await decimals.fill("3");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByText("Настройки сохранены").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("comma"))).toBe("3");
  });

  it("rounds the converter by the saved setting, still the Russian way: 3 → 0,668", async () => {
    await menu().getByText("Виджеты", { exact: true }).click();
    await page.locator("#converter-quantity").pressSequentially("1000");
    await expect.poll(() => page.locator("#converter-result").inputValue()).toBe("0,668");
  });

  it("raised no uncaught errors in the page", () => {
    expect(app.pageErrors).toEqual([]);
  });
});
