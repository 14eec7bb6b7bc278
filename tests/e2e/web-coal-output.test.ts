// «enter once»: a mine's coal output is typed once on «Инвентаризация», key by key
// («3 100»), and appears where a figure of coal mined is asked: the card «Переработка угля» reads it
// and its dialog starts from it, a new coal-handling calculation and a new Tier 1 cross-check
// (an alternative underground_emission_ch4) start with it in their production field. Changed to
// «3 200», the dialog asks which calculations with the old figure follow, and both are recomputed.
// An emission point's instrument and frequency come into a measured calculation with the point.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type apiCaller, navigateInApp, openWebApp, pickOption, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINE = "Шахта «Кедровская»";
const NBSP_3100 = "3\u00a0100";
const SHAFT = "Ствол «Северный»";
const INSTRUMENT = "АГК «Микон-1Р», датчики ДМС-03";

describe("web app: coal output typed once for a mine-year", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let api: ReturnType<typeof apiCaller>;
  let projectId = "";

  beforeAll(async () => {
    api = file.call;
    const mine = await api<{ id: string }>("POST", "v1/facilities/", { name: MINE, kind: "underground_mine" });
    await api("POST", `v1/facilities/${mine.id}/points/`, {
      name: SHAFT,
      kind: "ventilation_shaft",
      instrument: INSTRUMENT,
      frequency: "непрерывно",
    });
    projectId = (
      await api<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Кедровская 2025",
        start_date: "2025-01-01",
        end_date: "2025-12-31",
        facility: mine.id,
      })
    ).id;
    app = await openWebApp(file.server);
    ({ page } = app);
    await signIn(page, file.server.url, file.server.demo, "/inventory?year=2025");
  });

  afterAll(async () => {
    await app?.close();
  });

  const card = () => page.getByTestId("coal-processed");
  const mineRow = () => card().locator(".ant-table-row", { hasText: MINE });

  async function openInventory() {
    if (new URL(page.url()).pathname !== "/inventory") await page.goto(`${file.server.url}/inventory?year=2025`);
    await mineRow().waitFor();
  }

  /** A new calculation of `type` in the project: its dialog open, the production field as it starts. */
  async function newCalculation(type: string, label: string) {
    await page.goto(`${file.server.url}/projects/${projectId}/calculations?type=${type}`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = page.getByRole("dialog", { name: "Новый расчет" });
    const volume = form.getByLabel(label, { exact: true });
    // The figure arrives with the facility-year's output, read after the dialog opens.
    await expect.poll(() => volume.inputValue(), { timeout: 15_000 }).toBe("3 100");
    await form.getByText(`Добыча угля площадки за 2025 год (Инвентаризация): ${NBSP_3100} т`).waitFor();
    return form;
  }

  it("takes «3 100» t typed key by key and shows it in «Переработка угля»", async () => {
    await openInventory();
    await mineRow().getByText("не указана").waitFor();
    await mineRow()
      .getByRole("button", { name: `Изменить добычу угля: ${MINE}` })
      .click();
    const dialog = page.getByRole("dialog", { name: `Добыча угля: ${MINE}` });
    await dialog.getByLabel("Добыто угля за 2025 год").pressSequentially("3 100");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    await mineRow().getByText(NBSP_3100, { exact: true }).waitFor();
    expect(await mineRow().innerText()).not.toContain("3\u00a0100,00");

    // «Переработка угля» of the mine starts from what it mined; the user may type another figure.
    await mineRow()
      .getByRole("button", { name: `Изменить переработку угля: ${MINE}` })
      .click();
    const processed = page.getByRole("dialog", { name: `Переработка угля: ${MINE}` });
    expect(await processed.getByLabel("Переработано угля за 2025 год").inputValue()).toBe("3 100");
    await processed.getByText(`Добыто за 2025 год: ${NBSP_3100} т`).waitFor();
    await screenshot(card(), { path: `${SHOTS}/coal-output-card.png` });
    await processed.getByRole("button", { name: "Отмена" }).click();
    await processed.waitFor({ state: "hidden" });
    expect(app.pageErrors).toEqual([]);
  });

  it("starts a new coal-handling calculation and a Tier 1 cross-check with it", async () => {
    const handling = await newCalculation("handling_underground_ch4", "Объём добычи угля подземным способом");
    await handling.getByLabel("Название расчета").pressSequentially("Обработка угля 2025");
    await screenshot(handling, { path: `${SHOTS}/coal-output-handling-dialog.png` });
    await handling.getByRole("button", { name: "Создать" }).click();
    await handling.waitFor({ state: "hidden" });

    const tier1 = await newCalculation("underground_emission_ch4", "Объём добычи угля подземным способом");
    await tier1.getByLabel("Название расчета").pressSequentially("Уровень 1: сверка");
    await pickOption(page, tier1.locator("#inventory-role"), "Альтернативный (проверка или сценарий, не суммируется)");
    await tier1.getByRole("button", { name: "Создать" }).click();
    await tier1.waitFor({ state: "hidden" });

    const stored = async (type: string) =>
      (await api<{ results: Array<{ name: string; volume: number; inventory_role?: string }> }>("GET", `v1/${type}/?project=${projectId}`))
        .results;
    expect((await stored("handling_underground_ch4")).map((c) => [c.name, c.volume])).toEqual([["Обработка угля 2025", 3100]]);
    expect((await stored("underground_emission_ch4")).map((c) => [c.name, c.volume, c.inventory_role])).toEqual([
      ["Уровень 1: сверка", 3100, "alternative"],
    ]);
    expect(app.pageErrors).toEqual([]);
  });

  it("asks which calculations follow a changed output and recomputes the ones chosen", async () => {
    // Back on «Инвентаризация» as its menu link goes there: the year is read afresh.
    await navigateInApp(page, "/inventory?year=2025");
    await mineRow().getByText(NBSP_3100, { exact: true }).waitFor();
    // The page below the card may still move while its charts draw: the button is pressed from the
    // keyboard, as a keyboard user does, which needs no resting place for a pointer.
    const change = mineRow().getByRole("button", { name: `Изменить добычу угля: ${MINE}` });
    await change.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: `Добыча угля: ${MINE}` });
    const field = dialog.getByLabel("Добыто угля за 2025 год");
    await field.fill("");
    await field.pressSequentially("3 200");
    const followers = dialog.getByTestId("coal-output-followers");
    await followers.getByRole("checkbox", { name: /Обработка угля 2025/ }).waitFor();
    await followers.getByRole("checkbox", { name: /Уровень 1: сверка.*альтернативный/ }).waitFor();
    expect(await followers.getByRole("checkbox", { checked: true }).count()).toBe(2);
    await screenshot(dialog, { path: `${SHOTS}/coal-output-followers.png` });
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    await mineRow().getByText("3\u00a0200", { exact: true }).waitFor();
    for (const type of ["handling_underground_ch4", "underground_emission_ch4"]) {
      const { results } = await api<{ results: Array<{ volume: number }> }>("GET", `v1/${type}/?project=${projectId}`);
      expect(results.map((c) => c.volume)).toEqual([3200]);
    }
    expect(app.pageErrors).toEqual([]);
  });

  it("brings an emission point's instrument and frequency into a measured calculation when the point is chosen", async () => {
    await page.goto(`${file.server.url}/projects/${projectId}/calculations?type=underground`);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = page.getByRole("dialog", { name: "Новый расчет" });
    const instruments = form.getByLabel("Средства измерений", { exact: true });
    const frequency = form.getByLabel("Периодичность измерений", { exact: true });
    await instruments.waitFor();
    expect(await instruments.inputValue()).toBe("");
    await pickOption(page, form.locator("#calc-point"), new RegExp(SHAFT));
    await expect.poll(() => instruments.inputValue()).toBe(INSTRUMENT);
    expect(await frequency.inputValue()).toBe("непрерывно");
    // The user may still type their own note.
    await frequency.fill("");
    await frequency.pressSequentially("ежесуточно");
    expect(await frequency.inputValue()).toBe("ежесуточно");
    await screenshot(form, { path: `${SHOTS}/point-notes-dialog.png` });
    expect(app.pageErrors).toEqual([]);
  });
});
