// The calculations page in a real browser (methodology D18): «Все типы» lists a project's
// calculations of every type at once (GET v1/all/), each row with its type and «Учет», and the
// «Учет» filter keeps the primary or the alternative ones (?role=), both in the address; a row of
// the all-types list opens its own type's results (an IPCC flare's saying its gas is taken as
// 100 % CH4, D24). The profile's statistics count the same calculations by the same rule and say
// what they left out, as the year's total beside them does.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { REGISTRY } from "@core/registry";
import { type apiCaller, openWebApp, pickOption, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";

describe("web app: every type at once and the «Учет» filter", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let demo: ReturnType<typeof apiCaller>;
  let projectId = "";

  const at = (path: string) => `${file.server.url}${path}`;
  const rows = () => page.locator(".ant-table-tbody .ant-table-row");
  /** The names the table shows, in its order. */
  const shownNames = async () => (await rows().locator("td:first-child").allInnerTexts()).map((t) => t.replace("⚠ проверить", "").trim());
  const apiNames = async (query: string) =>
    (await demo<{ results: Array<{ name: string }> }>("GET", `v1/all/?project=${projectId}&is_deleted=false${query}`)).results.map(
      (c) => c.name,
    );

  beforeAll(async () => {
    demo = file.call;
    projectId = (
      await demo<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Все типы 2025",
        start_date: "2025-01-01",
        end_date: "2025-12-31",
      })
    ).id;
    // Created one after the other: the list is newest first.
    await demo("POST", "v1/underground_emission_ch4/", {
      name: "Добыча по коэффициенту",
      project: projectId,
      volume: 1_000_000,
      ef: 18,
      koef_transform: 0.67,
    });
    // D22: an IPCC flare is created as an alternative.
    await demo("POST", "v1/torch_ch4/", { name: "Факел МГЭИК", project: projectId, volume: 1000, koef_transform: 0.67 });
    await demo("POST", "v1/recycle_technology/", { name: "Выбор утилизации", project: projectId, metan: 60, a_metan: 40 });
    app = await openWebApp(file.server, { viewport: { width: 1366, height: 900 }, timeout: 15_000, user: file.server.demo });
    ({ page, pageErrors } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it("«Все типы» lists the project's calculations of every type, each with its type and «Учет»", async () => {
    await page.goto(at(`/projects/${projectId}/calculations`));
    await pickOption(page, page.getByLabel("Тип расчета"), "Все типы");
    await page.waitForURL((url) => url.searchParams.get("type") === "all");
    await rows().filter({ hasText: "Добыча по коэффициенту" }).waitFor();
    expect(await shownNames()).toEqual(["Выбор утилизации", "Факел МГЭИК", "Добыча по коэффициенту"]);
    expect(await shownNames()).toEqual(await apiNames(""));
    const flare = rows().filter({ hasText: "Факел МГЭИК" });
    expect(await flare.innerText()).toContain(REGISTRY.torch_ch4.title);
    expect(await flare.innerText()).toContain("альтернативный");
    expect(await rows().filter({ hasText: "Добыча по коэффициенту" }).innerText()).toContain("основной");
    // Without a type there is nothing to add: «Добавить расчет» asks for one.
    expect(await page.getByRole("button", { name: "Добавить расчет" }).count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}/calculations-all-types.png` });

    // A row opens its own type's results.
    await rows().filter({ hasText: "Добыча по коэффициенту" }).locator("td:first-child").click();
    const results = page.getByRole("dialog");
    await results.getByText(REGISTRY.underground_emission_ch4.title).waitFor();
    await page.keyboard.press("Escape");
    await results.waitFor({ state: "hidden" });
    await rows().filter({ hasText: "Факел МГЭИК" }).locator("td:first-child").click();
    await results.getByText(REGISTRY.torch_ch4.title).waitFor();
    await results.getByText(/газ принят за 100 % CH4/).waitFor();
    await page.keyboard.press("Escape");
    await results.waitFor({ state: "hidden" });
    expect(pageErrors).toEqual([]);
  });

  it("«Учет» keeps the alternative or the primary calculations, in the address too", async () => {
    await page.goto(at(`/projects/${projectId}/calculations?type=all`));
    await rows().filter({ hasText: "Добыча по коэффициенту" }).waitFor();
    await pickOption(page, page.getByLabel("Учет"), "альтернативный");
    await page.waitForURL((url) => url.searchParams.get("role") === "alternative");
    await rows().filter({ hasText: "Добыча по коэффициенту" }).waitFor({ state: "detached" });
    expect(await shownNames()).toEqual(["Факел МГЭИК"]);
    expect(await shownNames()).toEqual(await apiNames("&role=alternative"));

    await pickOption(page, page.getByLabel("Учет"), "основной");
    await page.waitForURL((url) => url.searchParams.get("role") === "primary");
    await rows().filter({ hasText: "Добыча по коэффициенту" }).waitFor();
    // The analysis (the utilisation choice) has no «Учет» and is neither.
    expect(await shownNames()).toEqual(["Добыча по коэффициенту"]);
    expect(await shownNames()).toEqual(await apiNames("&role=primary"));

    // A reload keeps the filter; one type with the filter lists that type's calculations of that «Учет».
    await page.reload();
    await rows().filter({ hasText: "Добыча по коэффициенту" }).waitFor();
    expect(await shownNames()).toEqual(["Добыча по коэффициенту"]);
    await pickOption(page, page.getByLabel("Тип расчета"), REGISTRY.torch_ch4.title);
    await page.waitForURL((url) => url.searchParams.get("type") === "torch_ch4");
    await page.getByText("Список расчетов пуст").waitFor();
    await pickOption(page, page.getByLabel("Учет"), "альтернативный");
    await rows().filter({ hasText: "Факел МГЭИК" }).waitFor();
    expect(await shownNames()).toEqual(["Факел МГЭИК"]);
    expect(pageErrors).toEqual([]);
  });

  it("the profile's statistics count the primary calculation only and say what they left out (D18)", async () => {
    const statistics = await demo<{ years: Array<{ year: number; total_t_co2e: number }>; not_counted: string }>(
      "GET",
      "v1/users/statistics/",
    );
    const total = statistics.years.find((y) => y.year === 2025)!.total_t_co2e;
    const mining = await demo<{ results: Array<{ res_ch4_to_co2: number }> }>(
      "GET",
      `v1/underground_emission_ch4/?project=${projectId}&is_deleted=false`,
    );
    expect(statistics.not_counted).toBe("не учтены: 1 альтернативный расчет, 1 аналитический расчет");
    expect(total).toBeCloseTo(mining.results[0].res_ch4_to_co2, 6);
    await page.goto(at("/profile"));
    await page.getByTestId("statistics-left-out").getByText("1 альтернативный расчет, 1 аналитический расчет").waitFor();
    // The year's total beside it counts the same calculation and says the same.
    const year = page.getByTestId("totals-by-year").locator("li", { hasText: "2025" });
    await year.waitFor();
    const shown = total.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect((await year.innerText()).replace(/\s/g, " ")).toContain(shown.replace(/\s/g, " "));
    // The year's inventory lists its emission sources only: the analysis is not among them.
    expect(await year.innerText()).toContain("(не учтен: 1 альтернативный расчет)");
    expect(pageErrors).toEqual([]);
  });
});
