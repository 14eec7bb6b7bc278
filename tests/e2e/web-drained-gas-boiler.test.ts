// D28 in a real browser: the boiler dialog (disposal_co2_stat_sources) asks the gas composition
// only once the fuel «Каптированный шахтный метан» is chosen; «60» and «5» typed key by key give
// the preview 1 000 × (5 + 60) × 1,8393 × 10⁻² = 1 195,55 t CO2, and the stored calculation
// carries them with the oxidation factor labelled the Order's default. The test makes its project
// through the API (one of its own on each try) and opens the page once on it.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { REGISTRY } from "@core/registry";
import { startTestServer, type TestServer } from "../support/server";
import { callApi, createProjectsAs, openWebApp, pickOption, signIn, type WebApp } from "../support/web-page";
import type { CalculationView } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const TYPE = "disposal_co2_stat_sources";
const MINE_GAS = "Каптированный шахтный метан (100 % CH4), тыс. м³";

describe("web app: a boiler on drained gas of known composition", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;

  const dialog = () => page.getByRole("dialog", { name: "Новый расчет" });
  const field = (name: string) => {
    const label = REGISTRY[TYPE].inputs.find((f) => f.name === name)!.label;
    return dialog().getByLabel(label, { exact: true });
  };

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server);
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("asks W_CH4 and W_CO2 for drained gas only, previews the CO2 of both and stores them, the oxidation factor as the Order's default", async () => {
    const [projectId] = await createProjectsAs(server.url, server.demo, ["Шахта Котельная"]);
    await signIn(page, server.url, server.demo, `/projects/${projectId}/calculations?type=${TYPE}`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
    await dialog().getByLabel("Название расчета").fill("Котельная на каптированном метане");
    // Natural gas, the first entry: no composition asked.
    expect(await field("w_ch4").count()).toBe(0);
    await pickOption(page, dialog().locator("#calc-dictionary-get_disposal_co2_stat_sources"), MINE_GAS);
    await field("w_ch4").waitFor();
    // The units are the gas's: thousand m³ burnt, t CO2 per thousand m³; no t c.e. and no «тыс. м³ или т».
    const units = await dialog().innerText();
    expect(units).toContain("т CO2/тыс. м³");
    for (const generic of ["тыс. м³ или т", "т CO2/т у.т.", "т у.т./ед."]) expect(units).not.toContain(generic);
    for (const [name, text] of [
      ["volume", "1000"],
      ["w_ch4", "60"],
      ["w_co2", "5"],
    ] as const) {
      await field(name).pressSequentially(text);
      expect(await field(name).inputValue()).toBe(text);
    }
    await dialog().getByTestId("preview").getByTestId("preview-res_co2").filter({ hasText: "1 195,55" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-drained-gas-boiler-dialog.png`, fullPage: true });

    // Created, it is stored with the composition and the CO2 it previewed.
    await dialog().getByRole("button", { name: "Создать" }).click();
    await dialog().waitFor({ state: "hidden" });
    const { json } = await callApi<{ results: CalculationView[] }>(
      page,
      "GET",
      `/api/v1/${TYPE}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
    );
    const [calc] = json.results;
    expect(calc).toMatchObject({ w_ch4: 60, w_co2: 5 });
    expect(Math.abs((calc.res_co2 as number) - 1195.545)).toBeLessThanOrEqual(1e-9);
    expect(calc.coefficients.of).toMatchObject({ value: 1, source: "order_default" });
    // Its results read the gas's units too.
    await page.locator(".ant-table-row", { hasText: "Котельная на каптированном метане" }).click();
    const results = page.getByTestId("results-dialog");
    await results.getByText("т CO2/тыс. м³", { exact: false }).first().waitFor();
    const text = await results.innerText();
    for (const generic of ["тыс. м³ или т", "т CO2/т у.т.", "т у.т./ед."]) expect(text).not.toContain(generic);
    await screenshot(page, { path: `${SHOTS}/web-drained-gas-boiler-results.png`, fullPage: true });
    expect(app.pageErrors).toEqual([]);
  });
});
