// The calculations screen's forecast and series types in a real browser against the real local
// server (docs/user-guide.md, docs/api.md; methodology D6, D7): regres_methane from manual rows with
// each method — the live preview (the active model run by gbdt.wasm in the page) equal to the
// stored results and to the libraries' golden predictions: XGBoost typed into a new forecast,
// LightGBM chosen in the edit of one made through the API (PATCH, then data_update with the row
// ids) — and from an .xlsx upload; filling_blanks of methodology vector A with the filled values
// marked; sensitivity with its table and charts, and the edit of one made through the API; a bad
// file's error in the dialog. What a test edits is made through the API before the page first
// opens, so each test starts from the state it names, whatever ran before it.
// Needs web/dist (`npm run build:web`) and Debian Chromium. Screenshots go to SCREENSHOT_DIR (/tmp).
import ExcelJS from "exceljs";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import type { Locator, Page } from "playwright-core";
import { REGISTRY, type CalculationType } from "@core/registry";
import { vectors } from "@core/methodology-vectors";
import { modelFixture } from "../support/models";
import { accessToken, startTestServer, type TestServer } from "../support/server";
import { apiCaller, callApi as callPageApi, createProjectsAs, openWebApp, pickOption, signIn, type WebApp } from "../support/web-page";
import type { CalculationView } from "@server/contract";
import { screenshot } from "../support/browser";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const PROJECT = "Шахта Прогнозная";
/** Made through the API before the page opens: the forecast and the sensitivity the edit tests change. */
const EDITED_FORECAST = "Прогноз для правки";
const EDITED_SENSITIVITY = "Чувствительность для правки";
const FEATURES = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"] as const;
/** Typing many cells on a busy machine: more than the default 30 s per test. */
const SLOW = 90_000;
const GOLDEN_FILE = modelFixture("golden-default.csv");

interface GoldenRow {
  id: number;
  /** The CSV text of each feature ("" for NaN): what a user types. */
  texts: Record<string, string>;
  values: Record<string, number | null>;
  xgboost: number;
  lightgbm: number;
}

function readGolden(): GoldenRow[] {
  const [head, ...lines] = readFileSync(GOLDEN_FILE, "utf8").trim().split("\n");
  const columns = head.split(",");
  return lines.map((line) => {
    const cells = Object.fromEntries(line.split(",").map((cell, i) => [columns[i], cell]));
    const texts = Object.fromEntries(FEATURES.map((f) => [f, cells[f] === "NaN" ? "" : cells[f]]));
    return {
      id: Number(cells.id),
      texts,
      values: Object.fromEntries(FEATURES.map((f) => [f, texts[f] === "" ? null : Number(texts[f])])),
      xgboost: Number(cells.pred_xgboost),
      lightgbm: Number(cells.pred_lightgbm),
    };
  });
}

type DataRow = Record<string, number | null> & { id: number; result: number };

describe("web app: forecast and series calculations", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;
  let projectId = "";
  let pageErrors: string[];
  const golden = existsSync(GOLDEN_FILE) ? readGolden() : [];
  // A few rows: one with a missing x2, one with a missing feature elsewhere (default branches),
  // and one both models predict above the 1 % limit.
  const manualRows = [
    golden[0],
    golden[1],
    golden.find((g) => g.texts.x2 === "")!,
    golden.find((g) => g.texts.x2 !== "" && FEATURES.some((f) => g.texts[f] === ""))!,
    golden.find((g) => g.xgboost > 1.2 && g.lightgbm > 1.2 && FEATURES.every((f) => g.texts[f] !== ""))!,
  ];

  const row = (text: string) => page.locator(".ant-table-row", { hasText: text });
  const dialog = (name: string) => page.getByRole("dialog", { name });

  const callApi = <T>(method: string, path: string, body?: unknown) => callPageApi<T>(page, method, path, body);

  const list = async (type: CalculationType) =>
    (
      await callApi<{ results: CalculationView[]; count: number }>(
        "GET",
        `/api/v1/${type}/?project=${projectId}&is_active=true&is_deleted=false&limit=50&offset=0`,
      )
    ).json;
  const single = async (type: CalculationType, id: string) =>
    (await callApi<CalculationView>("GET", `/api/v1/${type}/${id}/single_calc/1/`)).json;

  const pick = (select: Locator, option: string | RegExp) => pickOption(page, select, option);

  async function chooseType(type: CalculationType) {
    await pick(page.getByLabel("Тип расчета"), REGISTRY[type].title);
    await page.waitForURL((url) => url.searchParams.get("type") === type);
  }

  async function xlsx(rows: unknown[][], sheet = "Данные"): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(sheet);
    rows.forEach((r) => ws.addRow(r));
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  /** Types the rows into the manual table (3 a page: the table pages on as rows are added). */
  /** Odd rows are typed with a decimal comma (as on a Russian keyboard), even ones with a dot. */
  async function typeRows(form: Locator, rows: GoldenRow[], from = 1) {
    for (const [i, g] of rows.entries()) {
      const n = from + i;
      if (n > 1) await form.getByRole("button", { name: "Добавить строку" }).click();
      for (const f of FEATURES) {
        const text = n % 2 === 1 ? g.texts[f].replace(".", ",") : g.texts[f];
        if (text !== "") await form.getByLabel(`${f}, строка ${n}`, { exact: true }).fill(text);
      }
    }
  }

  /** The exact prediction a preview or results cell holds (data-value), once it shows. */
  async function exactValue(cell: Locator): Promise<number> {
    await cell.and(page.locator("[data-value]")).waitFor();
    return Number(await cell.getAttribute("data-value"));
  }

  /** Previews of rows 1…n, going through the table's pages (each page opened once). */
  async function previewValues(form: Locator, count: number): Promise<number[]> {
    const values: number[] = [];
    for (let n = 1; n <= count; n++) {
      if (n % 3 === 1) await form.locator(`.ant-pagination-item-${Math.ceil(n / 3)}`).click();
      values.push(await exactValue(form.getByTestId(`preview-result-${n}`)));
    }
    return values;
  }

  /** The sensitivity series of methodology's vector as an .xlsx. */
  const sensitivityFile = () => {
    const v = vectors.sensitivity;
    return xlsx([["year", "volume", "methane"], ...v.rows.map((r) => [r.year, r.volume, r.methane])]);
  };

  let token = "";
  const api = apiCaller(
    () => server.url,
    () => token,
  );

  /** The XGBoost forecast of the manual rows the edit test changes, made through the API. */
  async function makeForecast(name: string) {
    await api("POST", "v1/regres_methane/", { name, project: projectId, method: "xgboost", data: manualRows.map((g) => g.values) });
  }

  /** The sensitivity of the methodology's series («добыча.xlsx», the default δ) the edit test changes, made through the API. */
  async function makeSensitivity(name: string) {
    const form = new FormData();
    form.append("name", name);
    form.append("project", projectId);
    form.append("file_data", new File([new Uint8Array(await sensitivityFile())], "добыча.xlsx"));
    const made = await fetch(`${server.url}/api/v1/sensitivity/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    if (made.status !== 201) throw new Error(`sensitivity: ${made.status} ${await made.text()}`);
  }

  /** A retry starts from the state its test names again: what it edits made anew through the API
   *  (`make`, given the new names' ending), the page loaded afresh (no dialog of the failed try left
   *  open, no list kept from before), and what it makes named anew beside what the failed try left.
   *  Returns the ending of the names on this try: "" on the first. */
  async function startTry({ task }: TestContext, make?: (ending: string) => Promise<void>): Promise<string> {
    const retry = task.result?.retryCount ?? 0;
    if (retry === 0) return "";
    const ending = ` (${retry + 1})`;
    await make?.(ending);
    await page.reload();
    await page.getByRole("heading", { name: `Расчеты — ${PROJECT}` }).waitFor();
    return ending;
  }

  beforeAll(async () => {
    if (golden.length === 0) throw new Error(`${GOLDEN_FILE} is missing`);
    server = await startTestServer();
    // The project and what the edit tests change made through the API, then the page opened on them
    // once, signed in.
    [projectId] = await createProjectsAs(server.url, server.demo, [PROJECT]);
    token = await accessToken(server.url, server.demo);
    await makeForecast(EDITED_FORECAST);
    await makeSensitivity(EDITED_SENSITIVITY);
    app = await openWebApp(server, { viewport: { width: 1440, height: 900 }, timeout: 15_000 });
    ({ page, pageErrors } = app);
    await signIn(page, server.url, server.demo, `/projects/${projectId}/calculations`);
    await page.getByRole("heading", { name: `Расчеты — ${PROJECT}` }).waitFor();
  });

  // Each test's own uncaught errors in the page, checked after it: none.
  afterEach(() => expect(pageErrors.splice(0), "uncaught errors in the page").toEqual([]));

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it(
    "forecasts xgboost from manual rows: the preview is the golden prediction and the stored result",
    async (context) => {
      const method = "xgboost";
      const name = `Прогноз вручную${await startTry(context)}`;
      await chooseType("regres_methane");
      await page.getByRole("button", { name: "Добавить расчет" }).click();
      const form = dialog("Новый расчет");
      await form.getByText(REGISTRY.regres_methane.title, { exact: true }).waitFor();
      await form.getByLabel("Название расчета").fill(name);
      await pick(form.getByLabel("Метод"), /^XGBoost — модель версии 1/);
      await form
        .getByTestId("forecast-preview-model")
        .filter({ hasText: `${method} ` })
        .waitFor();

      // Row editing: a stray row is added and removed again; a cell keeps what is typed and says
      // why it is not a number (letters, a minus, too many decimals).
      await typeRows(form, manualRows.slice(0, 1));
      await form.getByRole("button", { name: "Добавить строку" }).click();
      const stray = form.getByLabel("x1, строка 2", { exact: true });
      const problems = form.getByTestId("forecast-cell-problems");
      await stray.pressSequentially("12a");
      expect(await stray.inputValue()).toBe("12a");
      await problems.filter({ hasText: "Строка 2, x1: Введите число, например 845,5" }).waitFor();
      await stray.fill("-5");
      await problems.filter({ hasText: "Строка 2, x1: Значение не может быть отрицательным" }).waitFor();
      await stray.fill("12,34567");
      await problems.filter({ hasText: "Строка 2, x1: Не больше 4 знаков после запятой" }).waitFor();
      await form.getByRole("button", { name: "Удалить строку 2" }).click();
      await problems.waitFor({ state: "detached" });
      await typeRows(form, manualRows.slice(1), 2);
      await form.getByText(`Строк: ${manualRows.length}`).waitFor();

      const previews = await previewValues(form, manualRows.length);
      manualRows.forEach((g, i) => expect(Math.abs(previews[i] - g[method])).toBeLessThanOrEqual(1e-6));
      await form.getByTestId("preview-result-5").and(page.locator('[data-above="true"]')).waitFor();
      await screenshot(page, { path: `${SHOTS}/web-forecast-dialog.png` });

      await form.getByRole("button", { name: "Создать" }).click();
      await form.waitFor({ state: "hidden" });
      await row(name).waitFor();
      const [stored] = (await list("regres_methane")).results.filter((c) => c.name === name);
      expect(stored).toMatchObject({ method, rows: manualRows.length, model: { method, version: 1 } });
      const data = (await single("regres_methane", stored.id)).data as DataRow[];
      // The same wasm and the same model file: stored equals previewed, bit for bit.
      expect(data.map((d) => d.result)).toEqual(previews);
      data.forEach((d, i) => {
        for (const f of FEATURES) expect(d[f]).toBe(manualRows[i].values[f]);
      });
      await expectResultsDialog(name, method, data);
    },
    SLOW,
  );

  /** The results dialog of forecast `name` shows the stored rows and the model; it is closed again. */
  async function expectResultsDialog(name: string, method: "xgboost" | "lightgbm", data: DataRow[]) {
    await row(name).click();
    const results = dialog(name);
    await results.getByTestId("forecast-results").waitFor();
    await results
      .getByTestId("forecast-model")
      .filter({ hasText: `${method} ` })
      .waitFor();
    expect(await results.getByTestId("forecast-rows-count").innerText()).toBe(String(data.length));
    for (const d of data) expect(await exactValue(results.getByTestId(`stored-result-${d.id}`))).toBe(d.result);
    if (method === "lightgbm") await screenshot(page, { path: `${SHOTS}/web-forecast-results-manual.png` });
    await results.getByRole("button", { name: "Закрыть" }).first().click();
    await results.waitFor({ state: "hidden" });
  }

  it(
    "edits a forecast to LightGBM: the main PATCH, then data_update with the row ids; the preview is the golden prediction and the stored result",
    async (context) => {
      const name = `${EDITED_FORECAST}${await startTry(context, (ending) => makeForecast(`${EDITED_FORECAST}${ending}`))}`;
      await chooseType("regres_methane");
      const [{ id }] = (await list("regres_methane")).results.filter((c) => c.name === name);
      const calls: string[] = [];
      // The typed client (hono/client) writes paths without a trailing slash.
      const path = `/api/v1/regres_methane/${id}`;
      const onRequest = (request: { method(): string; url(): string }) => {
        const { pathname } = new URL(request.url());
        if (request.method() === "PATCH" && (pathname === path || pathname.startsWith(`${path}/`))) calls.push(pathname);
      };
      page.on("request", onRequest);
      const before = await single("regres_methane", id);
      expect(before).toMatchObject({ method: "xgboost", version: 1 });
      await row(name).getByRole("button", { name: "Редактировать" }).click();
      const form = dialog("Редактирование расчета");
      const x1 = form.getByLabel("x1, строка 2", { exact: true });
      await x1.waitFor();
      // The stored number shows as a Russian user writes it.
      expect(await x1.inputValue()).toBe(manualRows[1].texts.x1.replace(".", ","));
      await pick(form.getByLabel("Метод"), /^LightGBM — модель версии 1/);
      // Row 2 takes another golden row's values; the preview follows at once.
      const replacement = golden[10];
      for (const f of FEATURES) await form.getByLabel(`${f}, строка 2`, { exact: true }).fill(replacement.texts[f]);
      await form.getByTestId("forecast-preview-model").filter({ hasText: "lightgbm " }).waitFor();
      const rows = manualRows.map((g, i) => (i === 1 ? replacement : g));
      const previews = await previewValues(form, rows.length);
      rows.forEach((g, i) => expect(Math.abs(previews[i] - g.lightgbm)).toBeLessThanOrEqual(1e-6));
      await form.getByTestId("preview-result-5").and(page.locator('[data-above="true"]')).waitFor();
      await form.getByRole("button", { name: "Сохранить" }).click();
      await form.waitFor({ state: "hidden" });
      page.off("request", onRequest);
      expect(calls).toEqual([path, `${path}/data_update`]);
      const after = await single("regres_methane", id);
      expect(after).toMatchObject({ method: "lightgbm", version: 3, model: { method: "lightgbm", version: 1 } });
      const data = after.data as DataRow[];
      expect(data.map((d) => d.id)).toEqual((before.data as DataRow[]).map((d) => d.id));
      // The same wasm and the same model file: stored equals previewed, bit for bit.
      expect(data.map((d) => d.result)).toEqual(previews);
      data.forEach((d, i) => {
        for (const f of FEATURES) expect(d[f]).toBe(rows[i].values[f]);
      });
      await row(name).filter({ hasText: "LightGBM" }).waitFor();
      expect((await list("regres_methane")).results.find((c) => c.id === id)).toMatchObject({ rows: rows.length });
      await expectResultsDialog(name, "lightgbm", data);
    },
    SLOW,
  );

  it("forecasts from an uploaded .xlsx and shows every row, 5 a page, above 1 % marked", async (context) => {
    const name = `Прогноз из файла${await startTry(context)}`;
    const rows = golden.slice(0, 40);
    const order = ["id", ...FEATURES];
    const bytes = await xlsx([order, ...rows.map((g) => order.map((c) => (c === "id" ? g.id : g.values[c])))], "Телеметрия");
    await chooseType("regres_methane");
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = dialog("Новый расчет");
    await form.getByLabel("Название расчета").fill(name);
    await pick(form.getByLabel("Метод"), /^LightGBM/);
    await form.getByText("Загрузить файл", { exact: true }).click();
    await form.getByRole("button", { name: "Скачать шаблон" }).waitFor();
    await form.locator('input[type="file"]').setInputFiles({
      name: "телеметрия.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: bytes,
    });
    await form.getByText("телеметрия.xlsx").waitFor();
    await form.getByRole("button", { name: "Создать" }).click();
    await form.waitFor({ state: "hidden" });
    await row(name).waitFor();

    const [stored] = (await list("regres_methane")).results.filter((c) => c.name === name);
    const detail = await single("regres_methane", stored.id);
    const data = detail.data as DataRow[];
    expect(data.map((d) => d.id)).toEqual(rows.map((g) => g.id));
    data.forEach((d, i) => expect(Math.abs(d.result - rows[i].lightgbm)).toBeLessThanOrEqual(1e-6));
    expect(detail.file_data).toMatchObject({ name: "телеметрия.xlsx" });
    const above = data.filter((d) => d.result > 1);
    expect(above.length).toBeGreaterThan(0);

    await row(name).click();
    const results = dialog(name);
    await results.getByTestId("forecast-results").waitFor();
    expect(await results.getByTestId("forecast-rows-count").innerText()).toBe("40");
    await results
      .getByTestId("forecast-above")
      .filter({ hasText: `${above.length} из 40` })
      .waitFor();
    await results.getByTestId("source-file").filter({ hasText: "телеметрия.xlsx" }).waitFor();
    // The rows' table shows its first page, 5 rows, once it has rendered (not read before).
    const shownRows = results.getByTestId("forecast-rows").locator(".ant-table-tbody .ant-table-row");
    await shownRows.nth(4).waitFor();
    expect(await shownRows.count()).toBe(5);
    await results.getByText("Только выше 1 %").click();
    await results.getByTestId(`stored-result-${above[0].id}`).and(page.locator('[data-above="true"]')).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-forecast-results-file.png` });
    // The uploaded source file downloads as it was sent.
    const [download] = await Promise.all([page.waitForEvent("download"), results.getByTestId("source-file").click()]);
    expect(download.suggestedFilename()).toBe("телеметрия.xlsx");
    await results.getByRole("button", { name: "Закрыть" }).first().click();
    await results.waitFor({ state: "hidden" });
  });

  it("fills gaps of methodology vector A from an upload, the filled values marked in the table and the chart", async (context) => {
    const name = `Пропуски: вектор A${await startTry(context)}`;
    const a = vectors.filling_blanks[0];
    const bytes = await xlsx([["year", "Шахта", "CH4"], ...a.years.map((y, i) => [y, "Северная", a.values[i]])]);
    await chooseType("filling_blanks");
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = dialog("Новый расчет");
    await form.getByLabel("Название расчета").fill(name);
    await form.getByLabel("Название столбца значений", { exact: true }).fill("CH4");
    await form.getByLabel("Название столбца элементов (необязательно)", { exact: true }).fill("Шахта");
    await form.getByRole("button", { name: "Создать" }).click();
    await form.getByText("Выберите файл .xlsx или .csv").waitFor(); // the file is required on create
    await form.locator('input[type="file"]').setInputFiles({ name: "ряд.xlsx", mimeType: "application/octet-stream", buffer: bytes });
    await form.getByRole("button", { name: "Создать" }).click();
    await form.waitFor({ state: "hidden" });
    await row(name).filter({ hasText: "заполнено 6 значений" }).waitFor();

    await row(name).click();
    const results = dialog(name);
    await results.getByTestId("filling-results").waitFor();
    await results.getByTestId("fill-legend").waitFor();
    const table = results.locator(".ant-table-tbody");
    // First page (5 rows): 2014 trend, 2015 observed, 2016 and 2017 interpolated, 2018 observed.
    const methods = await table.locator(".ant-table-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-method")));
    expect(methods).toEqual(["trend", "observed", "interp", "interp", "observed"]);
    await table.locator('[data-method="trend"]').getByText("96,27").waitFor();
    await table.locator('[data-method="interp"]').first().getByText("линейная интерполяция").waitFor();
    const style = await table
      .locator('[data-method="trend"] td')
      .first()
      .evaluate((td) => getComputedStyle(td).fontStyle);
    expect(style).toBe("italic");
    const chart = results.getByTestId("filling-chart-1");
    await chart.and(page.locator('[data-ready="true"]')).waitFor();
    await chart.locator(".legendtext", { hasText: "Заполнено" }).waitFor();
    await chart.locator(".legendtext", { hasText: "Наблюдение" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-filling-results.png` });
    await results.locator(".ant-pagination-item-2").click();
    expect(await table.locator(".ant-table-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-method")))).toEqual([
      "observed",
      "interp",
      "observed",
      "trend",
      "trend",
    ]);
    await results.getByRole("button", { name: "Закрыть" }).first().click();
    await results.waitFor({ state: "hidden" });
  });

  it("computes sensitivity from an upload and shows the table and the charts", async (context) => {
    const name = `Чувствительность 2020–2022${await startTry(context)}`;
    const bytes = await sensitivityFile();
    await chooseType("sensitivity");
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = dialog("Новый расчет");
    await form.getByLabel("Название расчета").fill(name);
    const kTr = form.getByLabel(/условное значение/);
    expect(await kTr.inputValue()).toBe("0,003149");
    expect(await form.getByLabel("Шаг приращения фактора, δ", { exact: true }).inputValue()).toBe("0,1");
    await form.getByText(/МГЭИК AR4\), по умолчанию: 25/).waitFor();
    await form.locator('input[type="file"]').setInputFiles({ name: "добыча.xlsx", mimeType: "application/octet-stream", buffer: bytes });
    await form.getByTestId("chosen-file").filter({ hasText: "добыча.xlsx" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-sensitivity-dialog.png` });
    await form.getByRole("button", { name: "Создать" }).click();
    await form.waitFor({ state: "hidden" });
    await row(name).waitFor();

    await row(name).click();
    const results = dialog(name);
    await results.getByTestId("sensitivity-results").waitFor();
    const table = results.locator(".ant-table-tbody").first();
    await table.getByText("167\u00a0500,00").waitFor();
    await table.getByText("170\u00a0649,00").waitFor();
    await table.getByText("0,981547").waitFor();
    await table.getByText("1,000000").first().waitFor();
    expect(await table.locator(".ant-table-row").first().getByText("—").count()).toBe(2); // el_* of the first year
    await results.locator("th", { hasText: "т CO2-экв." }).first().waitFor();
    for (const id of ["emissions-chart-1", "sensitivity-chart-1"])
      await results.getByTestId(id).and(page.locator('[data-ready="true"]')).waitFor();
    expect(await results.getByTestId("emissions-chart-1").locator(".barlayer .trace").count()).toBe(2);
    await results.getByTestId("source-file").filter({ hasText: "добыча.xlsx" }).waitFor();
    await screenshot(page, { path: `${SHOTS}/web-sensitivity-results.png` });
    await results.getByText("Параметры расчета").scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-sensitivity-results-parameters.png` });
    await results.getByRole("button", { name: "Закрыть" }).first().click();
    await results.waitFor({ state: "hidden" });
  });

  it("edits sensitivity without a new file: a JSON PATCH (no file_data), recomputed from the stored file", async (context) => {
    const name = `${EDITED_SENSITIVITY}${await startTry(context, (ending) => makeSensitivity(`${EDITED_SENSITIVITY}${ending}`))}`;
    await chooseType("sensitivity");
    await row(name).getByRole("button", { name: "Редактировать" }).click();
    const form = dialog("Редактирование расчета");
    const delta = form.getByLabel("Шаг приращения фактора, δ", { exact: true });
    await delta.waitFor();
    expect(await delta.inputValue()).toBe("0,1");
    await form.getByText("Сейчас: добыча.xlsx").waitFor();
    await delta.fill("0,05");
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === "PATCH" && r.url().includes("/api/v1/sensitivity/")),
      form.getByRole("button", { name: "Сохранить" }).click(),
    ]);
    await form.waitFor({ state: "hidden" });
    expect(request.headers()["content-type"]).toBe("application/json");
    expect(request.postDataJSON()).toEqual({ name, delta: 0.05, version: 1 });
    const [stored] = (await list("sensitivity")).results.filter((c) => c.name === name);
    const detail = await single("sensitivity", stored.id);
    expect(detail).toMatchObject({ version: 2, file_data: { name: "добыча.xlsx" }, coefficients: { delta: { value: 0.05 } } });
  });

  it("shows the server's message about a bad file in the dialog and stores nothing", async (context) => {
    await startTry(context);
    await chooseType("sensitivity");
    const before = (await list("sensitivity")).results.map((c) => c.id);
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    const form = dialog("Новый расчет");
    await form.getByLabel("Название расчета").fill("Плохой файл");
    await form.locator('input[type="file"]').setInputFiles({
      name: "плохой.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("year,volume,methane\n2020,1000,10\n2021,много,9\n"),
    });
    await form.getByRole("button", { name: "Создать" }).click();
    await form
      .locator(".ant-form-item-explain-error", { hasText: "Лист «CSV», строка 3, столбец «volume»: ожидается число, найдено «много»" })
      .waitFor();
    await screenshot(page, { path: `${SHOTS}/web-series-bad-file.png` });
    await form.getByRole("button", { name: "Отмена" }).click();
    await form.waitFor({ state: "hidden" });
    expect((await list("sensitivity")).results.map((c) => c.id)).toEqual(before);
  });
});
