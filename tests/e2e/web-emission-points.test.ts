// D25 in a real browser, the worked example as a user enters it: a mine and its emission points
// made on the profile's facility screen (a ventilation shaft, a drainage station, a flare, a
// boiler; one edited, an old shaft archived, a closed mine archived), stored as typed and picked;
// a measured stream typed key by key in «млн м³» («475,4») with its point picked in the calculation
// dialog (never the archived one), stored as the worked example's two streams are; the flare and
// the boiler on the drained gas in their dialogs with their points; then the year has no error, its
// mining line is 572,8 × 0,668 = 382 630,40 t CH4, it is sent to review, and the methane balance
// draws the streams by point. Each test starts from the state it names, made through the API before
// the page first opens: the worked example's mine with its points (the old shaft and a closed mine
// archived), its year 2022 with the two measured streams («475,4» and «303,5» млн м³) stored as the
// dialog stores them, and a year 2023 of the same mine for the stream's dialog; the facility
// screen's test adds a mine of its own beside it.
// Needs web/dist (`npm run build:web`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type apiCaller, navigateInApp, openWebApp, pickOption, showSignedIn, signIn, type WebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { REGISTRY, type CalculationType } from "@core/registry";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINE = "Шахта «Баланс 2022»";
const POINTS = [
  {
    name: "Вентиляционный ствол № 1",
    kind: "Вентиляционный ствол (вентилятор)",
    code: "ventilation_shaft",
    instrument: "Анемометр АПР-2, метанометр ИТС2",
  },
  { name: "Дегазационная установка", kind: "Дегазационная установка", code: "drainage_station", instrument: "Расходомер ДРГ.М-2500" },
  { name: "Факельная установка", kind: "Факельная установка", code: "flare", instrument: "Расходомер на факеле" },
  { name: "Котельная на шахтном метане", kind: "Котельная, ГПУ", code: "boiler_engine", instrument: "Счетчик газа котельной" },
] as const;
const VOLUME = "Объём газовой смеси (вентиляция, дегазация), измеренный";
const OLD_SHAFT = "Вентиляционный ствол № 2 (закрыт)";
const CLOSED_MINE = "Шахта «Закрытая»";
/** The facility screen's own mine and closed mine (a retry's get a number). */
const NEW_MINE_NAME = "Шахта «Восточная»";
const SOLD_MINE_NAME = "Шахта «Проданная»";
/** The two measured streams as the calculation dialog stores them (млн м³ typed, тыс. м³ stored). */
const measuredBody = (name: string, millionM3: number) => ({
  name,
  volume: millionM3 * 1000,
  p_co2: 1.8393,
  p_ch4: 0.668,
  ef_co2: 0,
  ef_ch4: 100,
  entered: { volume: { value: millionM3, unit: "млн м³" } },
  dictionary_items: { get_underground: 1, get_underground_content: null },
  basis: "gross",
});

describe("web app: a mine's emission points (D25)", () => {
  const file = browserFile();
  let app: WebApp;
  let page: Page;
  let pageErrors: string[];
  let demo: ReturnType<typeof apiCaller>;
  /** The worked example's year 2022 and the year 2023 the streams' dialogs are tried in. */
  let projectId = "";
  let entryProjectId = "";
  const pointIds: Record<string, string> = {};
  // A retry of a step starts over from what its failed try left behind: the facility screen's
  // step on facilities of new names (a facility is archived, never removed), a calculation step
  // with the calculations of its try archived.
  let facilityTries = 0;
  async function archiveLeftovers(project: string, ...names: Array<[type: string, name: string]>) {
    let archived = 0;
    for (const [type, name] of names) {
      const { results } = await demo<{ results: Array<{ id: string; name: string; version: number }> }>(
        "GET",
        `v1/${type}/?project=${project}&is_active=true&is_deleted=false&limit=100&offset=0`,
      );
      for (const c of results.filter((c) => c.name === name)) {
        await demo("PATCH", `v1/${type}/${c.id}/`, { is_deleted: true, is_active: false, version: c.version });
        archived += 1;
      }
    }
    // The page drops the lists it holds of that try (the steps move inside the app, which keeps them).
    if (archived > 0) await page.reload();
  }

  /** A facility made through the API, archived if asked; returns its id. */
  async function facility(name: string, active = true): Promise<string> {
    const made = await demo<{ id: string; version: number }>("POST", "v1/facilities/", { name, kind: "underground_mine" });
    if (!active) await demo("PATCH", `v1/facilities/${made.id}/`, { is_active: false, version: made.version });
    return made.id;
  }

  beforeAll(async () => {
    demo = file.call;
    // The worked example's mine, its points and its years through the API.
    const mine = await facility(MINE);
    await facility(CLOSED_MINE, false);
    for (const point of POINTS) {
      const made = await demo<{ id: string }>("POST", `v1/facilities/${mine}/points/`, {
        name: point.name,
        kind: point.code,
        instrument: point.instrument,
        frequency: "непрерывно",
      });
      pointIds[point.name] = made.id;
    }
    const old = await demo<{ id: string; version: number }>("POST", `v1/facilities/${mine}/points/`, {
      name: OLD_SHAFT,
      kind: "ventilation_shaft",
    });
    await demo("PATCH", `v1/facilities/${mine}/points/${old.id}/`, { is_active: false, version: old.version });
    const year = (name: string, year: number) =>
      demo<{ id: string }>("POST", "v1/projects/create_project/", {
        name,
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
        facility: mine,
      });
    projectId = (await year("Баланс 2022", 2022)).id;
    entryProjectId = (await year("Замеры 2023", 2023)).id;
    await demo("POST", "v1/underground/", {
      ...measuredBody("Вентиляция 2022", 475.4),
      project: projectId,
      point: pointIds["Вентиляционный ствол № 1"],
    });
    await demo("POST", "v1/underground/", {
      ...measuredBody("Дегазация 2022", 303.5),
      project: projectId,
      point: pointIds["Дегазационная установка"],
    });
    // One load, signed in on the facility screen; the steps move inside the app from there, each
    // screen fetching what it shows.
    app = await openWebApp(file.server, { viewport: { width: 1366, height: 900 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
    await signIn(page, file.server.url, file.server.demo, "/profile");
  });

  afterAll(async () => {
    await app?.close();
  });

  it("adds a mine and its four emission points on the facility screen, edits one, archives an old shaft and a closed mine", async () => {
    facilityTries += 1;
    const suffix = facilityTries > 1 ? `-${facilityTries}»` : "»";
    const newMine = NEW_MINE_NAME.replace("»", suffix);
    const soldMine = SOLD_MINE_NAME.replace("»", suffix);
    await showSignedIn(page, file.server.url, file.server.demo, "/profile");
    await page.getByRole("button", { name: "Добавить площадку" }).click();
    const facilityDialog = page.getByRole("dialog", { name: "Новая площадка" });
    await facilityDialog.getByLabel("Название").fill(newMine);
    await facilityDialog.getByRole("button", { name: "Добавить" }).click();
    await facilityDialog.waitFor({ state: "hidden" });
    const row = page.locator(".ant-table-row", { hasText: newMine });
    await row.getByRole("button", { name: "Источники выбросов" }).click();
    const points = page.getByRole("dialog", { name: `Источники выбросов: ${newMine}` });
    await points.getByText("Источников пока нет", { exact: false }).waitFor();
    for (const [i, point] of POINTS.entries()) {
      await points.getByRole("button", { name: "Добавить источник" }).click();
      const form = page.getByRole("dialog", { name: "Новый источник выбросов" });
      // The first point's texts typed key by key, as a user types them; the others' filled in at once.
      const enter = (label: string, text: string) =>
        i === 0 ? form.getByLabel(label).pressSequentially(text) : form.getByLabel(label).fill(text);
      await enter("Название", point.name);
      await pickOption(page, form.getByLabel("Вид источника"), point.kind);
      await enter("Средство измерений", point.instrument);
      await enter("Периодичность измерений", "непрерывно");
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
    await form.getByLabel("Название").fill(OLD_SHAFT);
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
    await facilityDialog.getByLabel("Название").fill(soldMine);
    await facilityDialog.getByRole("button", { name: "Добавить" }).click();
    await facilityDialog.waitFor({ state: "hidden" });
    const closedRow = page.locator(".ant-table-row", { hasText: soldMine });
    await closedRow.getByRole("button", { name: "Изменить" }).click();
    const closing = page.getByRole("dialog", { name: "Изменить площадку" });
    await closing.getByRole("button", { name: "Отправить в архив" }).click();
    await closing.waitFor({ state: "hidden" });
    await closedRow.getByText("В архиве").waitFor();

    const facilities = await demo<Array<{ id: string; name: string; kind: string; is_active: boolean }>>("GET", "v1/facilities/");
    expect(facilities.find((f) => f.name === soldMine)?.is_active).toBe(false);
    const mine = facilities.find((f) => f.name === newMine)!;
    expect(mine).toMatchObject({ is_active: true, kind: "underground_mine" });
    const stored = await demo<Array<{ name: string; kind: string; instrument: string; frequency: string; is_active: boolean }>>(
      "GET",
      `v1/facilities/${mine.id}/points/`,
    );
    expect(stored.find((p) => p.name === OLD_SHAFT)?.is_active).toBe(false);
    // Each point as typed and picked (its kind tells its stream in the methane balance), the flare's frequency as edited.
    expect(stored.filter((p) => p.is_active).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [...POINTS]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((p) =>
          expect.objectContaining({
            name: p.name,
            kind: p.code,
            instrument: p.instrument,
            frequency: p.code === "flare" ? "ежесуточно" : "непрерывно",
          }),
        ),
    );
  });

  async function newCalculation(project: string, type: CalculationType, name: string) {
    await showSignedIn(page, file.server.url, file.server.demo, `/projects/${project}/calculations?type=${type}`);
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
    const dialog = await newCalculation(entryProjectId, "underground", name);
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
    await pickOption(page, dialog.locator("#methane-basis"), /^Всё каптированное \(валовый\)/);
    await pickOption(page, dialog.locator("#calc-point"), new RegExp(point));
    return dialog;
  }

  it("enters the ventilation shaft key by key in «млн м³» with its point, as the worked example's streams are stored", async () => {
    await archiveLeftovers(entryProjectId, ["underground", "Вентиляция 2023"]);
    const shaft = await measured("Вентиляция 2023", "475,4", "Вентиляционный ствол № 1");
    // The archived shaft is not offered to a new calculation.
    const offered = await offeredPoints(shaft);
    expect(offered.some((o) => o.includes("Дегазационная установка"))).toBe(true);
    expect(offered.some((o) => o.includes(OLD_SHAFT))).toBe(false);
    await shaft.getByText("Сохраняется как 475 400 тыс. м³", { exact: false }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-emission-points-dialog.png` });
    await shaft.getByRole("button", { name: "Создать" }).click();
    await shaft.waitFor({ state: "hidden" });
    const list = await demo<{ results: Array<Record<string, unknown>> }>(
      "GET",
      `v1/underground/?project=${entryProjectId}&is_active=true&is_deleted=false&limit=10&offset=0`,
    );
    // Stored as the worked example's year holds its two streams (made through the API for the count
    // below, the drainage station's «303,5» as 303 500 with its point).
    const { dictionary_items: _items, ...stored } = measuredBody("Вентиляция 2023", 475.4);
    expect(list.results).toEqual([expect.objectContaining({ ...stored, point: pointIds["Вентиляционный ствол № 1"] })]);
    expect(stored).toMatchObject({ volume: 475_400, basis: "gross", ef_ch4: 100 });
    // D29: the contents measured at the point read as tier 3 in the results.
    await page.locator(".ant-table-row", { hasText: "Вентиляция 2023" }).click();
    const results = page.getByRole("dialog", { name: "Вентиляция 2023" });
    await results.getByTestId("results-dialog").waitFor();
    await results.getByText("Уровень 3 (измерения организации)").first().waitFor();
    await page.keyboard.press("Escape");
    await results.waitFor({ state: "hidden" });
  });

  it("counts the mine once per point: no error, 1.B.1.a.i.1 CH4 = 382 630,40 t; sends the year to review; draws the streams", async () => {
    await archiveLeftovers(projectId, ["torch_composition", "Факел 2022"], ["disposal_co2_stat_sources", "Котельная 2022"]);
    // The drained gas burnt: 100 million m³ on the flare (by composition), 106,1 in the boiler,
    // each in its dialog with its point.
    const flare = await newCalculation(projectId, "torch_composition", "Факел 2022");
    const flared = "Объём газовой смеси, направленной на факельную установку";
    await flare.getByLabel(flared, { exact: true }).pressSequentially("100");
    await pickOption(page, flare.getByLabel(`Единица: ${flared}`), "млн м³");
    await flare.getByLabel("Содержание CH4 в смеси", { exact: true }).pressSequentially("100");
    await pickOption(page, flare.locator("#calc-point"), /Факельная установка/);
    await flare.getByRole("button", { name: "Создать" }).click();
    await flare.waitFor({ state: "hidden" });
    const boiler = await newCalculation(projectId, "disposal_co2_stat_sources", "Котельная 2022");
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
    for (const label of [...POINTS.map((p) => p.name), "Дегазация без сжигания", "Выбросы в атмосферу"]) {
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
