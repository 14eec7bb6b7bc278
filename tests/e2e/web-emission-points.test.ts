// D25 in a real browser, the worked example as a user enters it: the mine and its emission points
// made on the profile's facility screen (a ventilation shaft, a drainage station, a flare, a
// boiler; one edited, an old shaft archived, a closed mine archived), the two measured streams
// typed key by key in «млн м³» («475,4», «303,5») with their point picked in the calculation
// dialog (never the archived one), the flare and the boiler on the drained gas in their dialogs
// with their points; then the year has no error, its mining line is 572,8 × 0,668 = 382 630,40 t
// CH4, it is sent to review, and the methane balance draws the streams by point.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, navigateInApp, openWebApp, pickOption, showSignedIn, signIn, type WebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { REGISTRY, type CalculationType } from "@core/registry";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINE_NAME = "Шахта «Баланс 2022»";
const POINTS = [
  { name: "Вентиляционный ствол № 1", kind: "Вентиляционный ствол (вентилятор)", instrument: "Анемометр АПР-2, метанометр ИТС2" },
  { name: "Дегазационная установка", kind: "Дегазационная установка", instrument: "Расходомер ДРГ.М-2500" },
  { name: "Факельная установка", kind: "Факельная установка", instrument: "Расходомер на факеле" },
  { name: "Котельная на шахтном метане", kind: "Котельная, ГПУ", instrument: "Счетчик газа котельной" },
];
const VOLUME = "Объём газовой смеси, выброшенной без сжигания";
const OLD_SHAFT = "Вентиляционный ствол № 2 (закрыт)";
const CLOSED_MINE_NAME = "Шахта «Закрытая»";

describe("web app: a mine's emission points (D25)", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let demo: ReturnType<typeof apiCaller>;
  let projectId = "";
  const pointIds: Record<string, string> = {};
  // A retry of a step starts over from what its failed try left behind: the facility screen's
  // step on facilities of new names (a facility is archived, never removed), a calculation step
  // with the calculations of its try archived.
  let facilityTries = 0;
  let MINE = MINE_NAME;
  let CLOSED_MINE = CLOSED_MINE_NAME;
  async function archiveLeftovers(...types: string[]) {
    if (!projectId) return;
    let archived = 0;
    for (const type of types) {
      const { results } = await demo<{ results: Array<{ id: string; version: number }> }>(
        "GET",
        `v1/${type}/?project=${projectId}&is_active=true&is_deleted=false&limit=100&offset=0`,
      );
      for (const c of results) await demo("PATCH", `v1/${type}/${c.id}/`, { is_deleted: true, is_active: false, version: c.version });
      archived += results.length;
    }
    // The page drops the lists it holds of that try (the steps move inside the app, which keeps them).
    if (archived > 0) await page.reload();
  }

  beforeAll(async () => {
    server = await startTestServer();
    const token = await accessToken(server.url, server.demo);
    demo = apiCaller(
      () => server.url,
      () => token,
    );
    // One load, signed in on the facility screen; the steps move inside the app from there, each
    // screen fetching what it shows.
    app = await openWebApp(server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
    await signIn(page, server.url, server.demo, "/profile");
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("adds the mine and its four emission points on the facility screen, edits one, archives an old shaft and a closed mine", async () => {
    facilityTries += 1;
    if (facilityTries > 1) {
      MINE = MINE_NAME.replace("»", `-${facilityTries}»`);
      CLOSED_MINE = CLOSED_MINE_NAME.replace("»", `-${facilityTries}»`);
    }
    await showSignedIn(page, server.url, server.demo, "/profile");
    await page.getByRole("button", { name: "Добавить площадку" }).click();
    const facilityDialog = page.getByRole("dialog", { name: "Новая площадка" });
    await facilityDialog.getByLabel("Название").fill(MINE);
    await facilityDialog.getByRole("button", { name: "Добавить" }).click();
    await facilityDialog.waitFor({ state: "hidden" });
    const row = page.locator(".ant-table-row", { hasText: MINE });
    await row.getByRole("button", { name: "Источники выбросов" }).click();
    const points = page.getByRole("dialog", { name: `Источники выбросов: ${MINE}` });
    await points.getByText("Источников пока нет", { exact: false }).waitFor();
    for (const point of POINTS) {
      await points.getByRole("button", { name: "Добавить источник" }).click();
      const form = page.getByRole("dialog", { name: "Новый источник выбросов" });
      await form.getByLabel("Название").pressSequentially(point.name);
      await pickOption(page, form.getByLabel("Вид источника"), point.kind);
      await form.getByLabel("Средство измерений").pressSequentially(point.instrument);
      await form.getByLabel("Периодичность измерений").pressSequentially("непрерывно");
      await form.getByRole("button", { name: "Добавить" }).click();
      await form.waitFor({ state: "hidden" });
      await points.locator(".ant-table-row", { hasText: point.name }).waitFor();
    }
    expect(await points.locator(".ant-table-row", { hasText: "Вентиляционный ствол № 1" }).innerText()).toContain(
      "Анемометр АПР-2, метанометр ИТС2",
    );
    // Edited: the flare measured daily from now on.
    const flareRow = points.locator(".ant-table-row", { hasText: "Факельная установка" });
    await flareRow.getByRole("button", { name: "Изменить" }).click();
    const edit = page.getByRole("dialog", { name: "Изменить источник выбросов" });
    const frequency = edit.getByLabel("Периодичность измерений");
    await frequency.fill("");
    await frequency.pressSequentially("ежесуточно");
    await edit.getByRole("button", { name: "Сохранить" }).click();
    await edit.waitFor({ state: "hidden" });
    await flareRow.filter({ hasText: "ежесуточно" }).waitFor();
    // An old shaft, closed: added, then archived (its history would stay); it can be restored.
    await points.getByRole("button", { name: "Добавить источник" }).click();
    const form = page.getByRole("dialog", { name: "Новый источник выбросов" });
    await form.getByLabel("Название").pressSequentially(OLD_SHAFT);
    await form.getByRole("button", { name: "Добавить" }).click();
    await form.waitFor({ state: "hidden" });
    const oldRow = points.locator(".ant-table-row", { hasText: OLD_SHAFT });
    await oldRow.getByRole("button", { name: "В архив" }).click();
    await oldRow.getByRole("button", { name: "Восстановить" }).waitFor();
    expect(await oldRow.innerText()).toContain("В архиве");
    // The row's buttons are whole inside the table's visible width, never cut at its edge (once
    // the table has laid out its fixed column again after the row changed).
    const overhang = async () => {
      const inside = (await points.locator(".ant-table").first().boundingBox())!;
      const button = (await oldRow.getByRole("button", { name: "Восстановить" }).boundingBox())!;
      return button.x + button.width - (inside.x + inside.width);
    };
    await expect.poll(overhang, { timeout: 5_000 }).toBeLessThanOrEqual(0);
    await screenshot(page, { path: `${SHOTS}/web-emission-points-facility.png` });
    await page.keyboard.press("Escape");
    await points.waitFor({ state: "hidden" });

    // A mine closed or sold: archived from its own dialog, still listed.
    await page.getByRole("button", { name: "Добавить площадку" }).click();
    await facilityDialog.getByLabel("Название").fill(CLOSED_MINE);
    await facilityDialog.getByRole("button", { name: "Добавить" }).click();
    await facilityDialog.waitFor({ state: "hidden" });
    const closedRow = page.locator(".ant-table-row", { hasText: CLOSED_MINE });
    await closedRow.getByRole("button", { name: "Изменить" }).click();
    const closing = page.getByRole("dialog", { name: "Изменить площадку" });
    await closing.getByRole("button", { name: "Отправить в архив" }).click();
    await closing.waitFor({ state: "hidden" });
    await closedRow.getByText("В архиве").waitFor();

    const facilities = await demo<Array<{ id: string; name: string; is_active: boolean }>>("GET", "v1/facilities/");
    expect(facilities.find((f) => f.name === CLOSED_MINE)?.is_active).toBe(false);
    const mine = facilities.find((f) => f.name === MINE)!;
    expect(mine.is_active).toBe(true);
    const stored = await demo<Array<{ id: string; name: string; frequency: string; is_active: boolean }>>(
      "GET",
      `v1/facilities/${mine.id}/points/`,
    );
    expect(stored.find((p) => p.name === "Факельная установка")?.frequency).toBe("ежесуточно");
    expect(stored.find((p) => p.name === OLD_SHAFT)?.is_active).toBe(false);
    for (const p of stored) if (p.is_active) pointIds[p.name] = p.id;
    expect(Object.keys(pointIds).sort()).toEqual(POINTS.map((p) => p.name).sort());
    projectId = (
      await demo<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Баланс 2022",
        start_date: "2022-01-01",
        end_date: "2022-12-31",
        facility: mine.id,
      })
    ).id;
  });

  async function newCalculation(type: CalculationType, name: string) {
    await showSignedIn(page, server.url, server.demo, `/projects/${projectId}/calculations?type=${type}`);
    // The list of that type on view (the app moves to it in a transition), then its dialog.
    await page
      .locator(".ant-select")
      .filter({ has: page.getByLabel("Тип расчета") })
      .filter({ hasText: REGISTRY[type].title })
      .waitFor();
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const dialog = page.getByRole("dialog", { name: "Новый расчет" });
    await dialog.getByTestId("preview").waitFor();
    await dialog.getByLabel("Название расчета").fill(name);
    return dialog;
  }

  /** The points the dialog offers, by their text. */
  async function offeredPoints(dialog: ReturnType<Page["getByRole"]>) {
    await dialog.locator("#calc-point").click();
    const options = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option");
    await options.first().waitFor();
    const texts = await options.allInnerTexts();
    await page.keyboard.press("Escape");
    return texts;
  }

  async function measured(name: string, millionM3: string, point: string) {
    const dialog = await newCalculation("underground", name);
    const volume = dialog.getByLabel(VOLUME, { exact: true });
    await volume.pressSequentially(millionM3);
    expect(await volume.inputValue()).toBe(millionM3);
    await pickOption(page, dialog.getByLabel(`Единица: ${VOLUME}`), "млн м³");
    await pickOption(page, dialog.locator("#calc-dictionary-get_underground_content"), "Фактическое значение");
    for (const [field, text] of [
      ["ef_ch4", "100"],
      ["ef_co2", "0"],
    ]) {
      const input = dialog.locator(`#calc-field-${field}`);
      await input.fill("");
      await input.pressSequentially(text);
    }
    await pickOption(page, dialog.locator("#methane-basis"), "Валовый (весь выделившийся метан)");
    await pickOption(page, dialog.locator("#calc-point"), new RegExp(point));
    return dialog;
  }

  it("enters the ventilation shaft and the drainage station key by key in «млн м³», each with its point", async () => {
    await archiveLeftovers("underground");
    const shaft = await measured("Вентиляция 2022", "475,4", "Вентиляционный ствол № 1");
    // The archived shaft is not offered to a new calculation.
    const offered = await offeredPoints(shaft);
    expect(offered.some((o) => o.includes("Дегазационная установка"))).toBe(true);
    expect(offered.some((o) => o.includes(OLD_SHAFT))).toBe(false);
    await shaft.getByText("Сохраняется как 475 400 тыс. м³", { exact: false }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-emission-points-dialog.png` });
    await shaft.getByRole("button", { name: "Создать" }).click();
    await shaft.waitFor({ state: "hidden" });
    const drainage = await measured("Дегазация 2022", "303,5", "Дегазационная установка");
    await drainage.getByRole("button", { name: "Создать" }).click();
    await drainage.waitFor({ state: "hidden" });
    const list = await demo<{ results: Array<{ name: string; point: string; volume: number; basis: string; ef_ch4: number }> }>(
      "GET",
      `v1/underground/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
    );
    const byName = Object.fromEntries(list.results.map((c) => [c.name, c]));
    expect(byName["Вентиляция 2022"]).toMatchObject({
      point: pointIds["Вентиляционный ствол № 1"],
      volume: 475_400,
      basis: "gross",
      ef_ch4: 100,
    });
    expect(byName["Дегазация 2022"]).toMatchObject({ point: pointIds["Дегазационная установка"], volume: 303_500, basis: "gross" });
    // D29: the contents measured at the point read as tier 3 in the results.
    await page.locator(".ant-table-row", { hasText: "Вентиляция 2022" }).click();
    const results = page.getByRole("dialog", { name: "Вентиляция 2022" });
    await results.getByTestId("results-dialog").waitFor();
    await results.getByText("Уровень 3 (измерения организации)").first().waitFor();
    await page.keyboard.press("Escape");
    await results.waitFor({ state: "hidden" });
  });

  it("counts the mine once per point: no error, 1.B.1.a.i.1 CH4 = 382 630,40 t; sends the year to review; draws the streams", async () => {
    await archiveLeftovers("torch_composition", "disposal_co2_stat_sources");
    // The drained gas burnt: 100 million m³ on the flare (by composition), 106,1 in the boiler,
    // each in its dialog with its point.
    const flare = await newCalculation("torch_composition", "Факел 2022");
    const flared = "Объём газовой смеси, направленной на факельную установку";
    await flare.getByLabel(flared, { exact: true }).pressSequentially("100");
    await pickOption(page, flare.getByLabel(`Единица: ${flared}`), "млн м³");
    await flare.getByLabel("Содержание CH4 в смеси", { exact: true }).pressSequentially("100");
    await pickOption(page, flare.locator("#calc-point"), /Факельная установка/);
    await flare.getByRole("button", { name: "Создать" }).click();
    await flare.waitFor({ state: "hidden" });
    const boiler = await newCalculation("disposal_co2_stat_sources", "Котельная 2022");
    await pickOption(
      page,
      boiler.locator("#calc-dictionary-get_disposal_co2_stat_sources"),
      "Каптированный шахтный метан (100 % CH4), тыс. м³",
    );
    await boiler.getByLabel("Расход топлива", { exact: true }).pressSequentially("106100");
    await pickOption(page, boiler.locator("#calc-point"), /Котельная на шахтном метане/);
    await boiler.getByRole("button", { name: "Создать" }).click();
    await boiler.waitFor({ state: "hidden" });
    for (const [type, name, point, volume] of [
      ["torch_composition", "Факел 2022", "Факельная установка", 100_000],
      ["disposal_co2_stat_sources", "Котельная 2022", "Котельная на шахтном метане", 106_100],
    ] as const) {
      const { results } = await demo<{ results: Array<{ name: string; point: string; volume: number }> }>(
        "GET",
        `v1/${type}/?project=${projectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
      );
      expect(results).toEqual([expect.objectContaining({ name, point: pointIds[point], volume })]);
    }
    await navigateInApp(page, "/inventory?year=2022");
    const mining = page.getByTestId("inventory-lines").locator(".ant-table-row", { hasText: "1.B.1.a.i.1" }).filter({ hasText: "CH4" });
    await mining.filter({ hasText: "382\u00a0630,40" }).waitFor({ timeout: 60_000 });
    const answer = await demo<{ checks: Array<{ level: string }> }>("GET", "v1/inventory/?year=2022");
    expect(answer.checks.filter((c) => c.level === "error")).toEqual([]);

    // The closed mine, archived with no figures for 2022, is not asked for its coal processed.
    const coal = page.getByTestId("coal-processed");
    await coal.locator(".ant-table-row", { hasText: MINE }).waitFor();
    expect(await coal.innerText()).not.toContain(CLOSED_MINE);

    const balance = page.getByTestId("methane-balance");
    const row = balance.locator(".ant-table-row", { hasText: MINE });
    await row.waitFor();
    // Ventilation 475,4 × 668 = 317 567,20 t to the air; drainage 303,5 × 668 = 202 738,00 t captured; 97,4 × 668 vented.
    for (const figure of ["317\u00a0567,20", "202\u00a0738,00", "65\u00a0063,20"]) expect(await row.innerText()).toContain(figure);
    const sankey = page.getByTestId("methane-sankey").and(page.locator("[data-ready=true]"));
    await sankey.waitFor({ timeout: 60_000 });
    const drawn = await page.getByTestId("methane-sankey").locator(".sankey").textContent();
    for (const label of [...POINTS.map((p) => p.name), "Выброшено из дегазации без сжигания", "Выбросы в атмосферу"]) {
      expect(drawn).toContain(label);
    }
    await balance.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-emission-points-sankey.png`, fullPage: true });
    await screenshot(balance, { path: `${SHOTS}/web-emission-points-balance.png` });

    await page.getByRole("button", { name: "Отправить на проверку" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Отправить на проверку" }).click();
    await page.getByTestId("review-status").filter({ hasText: "На проверке" }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
