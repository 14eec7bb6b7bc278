// Issue 17 item 4 / D13 in a real browser: a coal production typed as «3100» with «тыс. т» chosen
// beside it previews, and stores, what 3 100 000 t gives; the dialog says the number it stores and
// the results dialog shows both. Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { calculate } from "@core/emissions";
import { formatResult } from "@web/shared/decimals";
import { startTestServer, type TestServer } from "../support/server";
import { callApi, createProject, openWebApp, pickOption, type WebApp } from "../support/web-page";
import type { CalculationView } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const TYPE = "underground_emission_ch4";
const VOLUME = "Объём добычи угля подземным способом";

describe("web app: a production in thousand t", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let projectId = "";
  const dialog = () => page.getByRole("dialog", { name: "Новый расчет" });
  const expected = calculate(TYPE, { volume: 3_100_000, ef: 18 }, { gwp_ch4: 25 });

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server, { user: server.demo });
    page = app.page;
    projectId = await createProject(page, "Шахта в тысячах тонн");
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("previews 3 100 thousand t as 3 100 000 t and stores both", async () => {
    await page.goto(`${server.url}/projects/${projectId}/calculations?type=${TYPE}`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByLabel("Название расчета").fill("Добыча в тысячах тонн");
    await dialog().getByLabel(VOLUME, { exact: true }).pressSequentially("3100");
    await pickOption(page, dialog().getByLabel(`Единица: ${VOLUME}`), "тыс. т");
    await dialog().getByText("Сохраняется как 3 100 000 т").waitFor();
    const preview = dialog().getByTestId("preview");
    await preview
      .getByTestId("preview-res_ch4")
      .filter({ hasText: formatResult(expected.res_ch4, 2) })
      .waitFor();
    await page.waitForTimeout(400); // the modal's fade-in, for a readable screenshot
    await screenshot(page, { path: `${SHOTS}/web-entry-units-dialog.png` });

    await dialog().getByRole("button", { name: "Создать" }).click();
    await dialog().waitFor({ state: "hidden" });
    const list = await callApi<{ results: CalculationView[] }>(
      page,
      "GET",
      `/api/v1/${TYPE}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
    );
    const [stored] = list.json.results;
    expect(stored.volume).toBe(3_100_000);
    expect(stored.res_ch4).toBe(expected.res_ch4);
    expect(stored.entered).toEqual({ volume: { value: 3100, unit: "тыс. т" } });

    await page.locator(".ant-table-row", { hasText: "Добыча в тысячах тонн" }).click();
    const results = page.getByRole("dialog", { name: "Добыча в тысячах тонн" });
    await results.getByText("введено: 3 100 тыс. т").waitFor();
    await results.getByText("Исходные данные и коэффициенты").scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-entry-units-results.png` });
  });
});
