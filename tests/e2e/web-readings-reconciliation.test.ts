// «Сверка с выгрузкой АГК» in a real browser on the local server, whose spreadsheet
// thread runs the reconciliation as a job: a gateway pushed two hours of М-12 and Q-1 but three minutes of
// М-12, and the mine's export (Windows-1251, «;», a column per sensor, the company's wall clock) has every
// minute and one Q-1 value otherwise. «Сверить с выгрузкой АГК» on «Датчики» names the three missing and
// the one different, per sensor and day, the readings under the row (values «12 345,6»); the differences
// download as an xlsx; «Догрузить недостающие» stores the three and a second reconciliation finds only the
// different value. At 1440 px and at 390 px (the page never wider than the phone, the table's rows as
// blocks). Screenshots with SCREENSHOT_DIR. Needs web/dist.
import { readFile } from "node:fs/promises";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserFile, openWebApp, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow } from "../support/layout";
import { encodeLegacy } from "../support/legacy-encoding";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const WIDE = { width: 1440, height: 900 };
const TALL_PHONE = { width: 390, height: 2400 };
const KEMEROVO = 7 * 3_600_000;
const HELD = [7, 8, 61];
const CHANGED = 30;

describe("web app: «Сверка с выгрузкой АГК»", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";
  let exportBytes: Buffer;
  let day = "";

  beforeAll(async () => {
    const { call } = file;
    const mine = await newMine(call, "Шахта «Сверка»", "Ствол № 2");
    facility = mine.facility;
    const point = mine.point;
    await call("POST", `v1/facilities/${facility}/sensors/`, { code: "М-12", kind: "methane", point });
    await call("POST", `v1/facilities/${facility}/sensors/`, { code: "Q-1", kind: "flow", point });
    // Two hours from 10:00 two days ago on the company's clock, within one company day.
    const today = Math.floor((Date.now() + KEMEROVO) / 86_400_000) * 86_400_000;
    const start = today - 2 * 86_400_000 + 10 * 3_600_000 - KEMEROVO;
    day = new Date(start + KEMEROVO).toISOString().slice(0, 10);
    const methane = (m: number) => Math.round((0.4 + (m % 20) / 100) * 100) / 100;
    const flow = (m: number) => 12_345.6 + m;
    const readings = [];
    const lines = ["Время;М-12;Q-1"];
    for (let m = 0; m < 120; m++) {
      const t = start + m * 60_000;
      if (!HELD.includes(m)) readings.push({ sensor: "М-12", t: new Date(t).toISOString(), value: methane(m) });
      readings.push({ sensor: "Q-1", t: new Date(t).toISOString(), value: flow(m) });
      const wall = new Date(t + KEMEROVO).toISOString();
      const time = `${wall.slice(8, 10)}.${wall.slice(5, 7)}.${wall.slice(0, 4)} ${wall.slice(11, 19)}`;
      const q = m === CHANGED ? 11_111.1 : flow(m);
      lines.push(`${time};${String(methane(m)).replace(".", ",")};${String(q).replace(".", ",")}`);
    }
    await call("POST", "v1/telemetry/readings/", { facility, readings });
    await monitoringIdle(file.server.deps);
    exportBytes = Buffer.from(encodeLegacy(lines.join("\r\n"), "windows-1251"));
    app = await openWebApp(file.server);
    page = app.page;
  });

  afterAll(async () => {
    await page?.setViewportSize({ width: 1366, height: 860 });
    await app?.close();
  });

  /** The export chosen in the dialog and reconciled; resolves once its result is shown. */
  async function reconcile(buffer = exportBytes) {
    await page.getByRole("button", { name: "Сверить с выгрузкой АГК" }).click();
    const dialog = page.getByRole("dialog", { name: "Сверка с выгрузкой АГК" });
    await dialog.locator('input[type="file"]').setInputFiles({ name: "АГК сутки.csv", mimeType: "text/csv", buffer });
    await dialog.getByTestId("chosen-reconciliation-file").waitFor();
    await dialog.getByRole("button", { name: "Сверить" }).click();
    await dialog.getByText(/^Найдены расхождения|^Расхождений нет|^Выгрузка не прочитана|^Выгрузка прочитана не вся/).waitFor();
    return dialog;
  }

  async function close(dialog: ReturnType<Page["getByRole"]>) {
    await dialog.locator(".ant-modal-footer").getByRole("button", { name: "Закрыть" }).click();
    await dialog.waitFor({ state: "hidden" });
  }

  // an export of lines the reader refused was answered «Расхождений нет».
  it("says an export none of whose lines was read «Выгрузка не прочитана», and one read in part «прочитана не вся», with the reasons and what to change, at 1440 and 390 px", async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/sensors`);
    const text = new TextDecoder("windows-1251").decode(exportBytes).split("\r\n");
    // The times as «2026-03-01 10:00» (no form the reader takes), all of them, then the second half only.
    const iso = (line: string) => line.replace(/^(\d\d)\.(\d\d)\.(\d{4}) (\d\d:\d\d):00/, "$3-$2-$1 $4");
    const unread = await reconcile(Buffer.from(encodeLegacy([text[0], ...text.slice(1).map(iso)].join("\r\n"), "windows-1251")));
    const verdict = unread.getByRole("alert").filter({ hasText: "Выгрузка не прочитана: ни одно показание не сверено" });
    await verdict.waitFor();
    expect(await verdict.locator("li").count()).toBe(3);
    expect(await verdict.textContent()).toContain("Что изменить: исправьте в выгрузке строки с этими причинами");
    expect(await unread.textContent()).not.toContain("Расхождений нет");
    await screenshot(unread, { path: `${SHOTS}/web-monitoring-reconciliation-unread-1440.png` });
    await page.setViewportSize(TALL_PHONE);
    await expect.poll(() => pageOverflow(page)).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-reconciliation-unread-390.png` });
    await page.setViewportSize(WIDE);
    await close(unread);

    const half = [text[0], ...text.slice(1).map((line, i) => (i >= 60 ? iso(line) : line))];
    const partly = await reconcile(Buffer.from(encodeLegacy(half.join("\r\n"), "windows-1251")));
    await partly
      .getByText(
        "Выгрузка прочитана не вся: не прочитано строк и значений — 60; сверено только прочитанное, найдены расхождения; нет в хранилище: 2, другое значение: 1",
      )
      .waitFor();
    await page.setViewportSize(TALL_PHONE);
    await expect.poll(() => pageOverflow(page)).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-reconciliation-partly-390.png` });
    await page.setViewportSize(WIDE);
    await screenshot(partly, { path: `${SHOTS}/web-monitoring-reconciliation-partly-1440.png` });
    await close(partly);
  });

  it("names the missing and the different readings by sensor and day, downloads them, and «Догрузить недостающие» stores the missing, at 1440 and 390 px", async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/sensors`);
    const dialog = await reconcile();
    await dialog.getByText("Найдены расхождения; нет в хранилище: 3, другое значение: 1").waitFor();
    const date = `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;
    const methaneRow = dialog.locator("tr.ant-table-row", { hasText: "М-12" }).first();
    const cells = (await methaneRow.getByRole("cell").allTextContents()).map((c) => c.replace(/\u00a0/g, " ").trim());
    // The expand button's cell, then code, date, in file, stored, missing, extra, different.
    expect(cells.slice(1)).toEqual(["М-12", date, "120", "117", "3", "0", "0"]);
    const flowRow = dialog.locator("tr.ant-table-row", { hasText: "Q-1" }).first();
    await flowRow.locator("button.ant-table-row-expand-icon").click();
    const examples = dialog.getByRole("table", { name: `Расхождения Q-1 за ${date}` });
    await examples.waitFor();
    const example = (await examples.locator("tbody tr").first().textContent())?.replace(/\u00a0/g, " ");
    expect(example).toContain("11 111,1");
    expect(example).toContain(`${12_345.6 + CHANGED}`.replace(".", ",").replace(/^(\d{2})(\d{3})/, "$1 $2"));
    await screenshot(dialog, { path: `${SHOTS}/web-monitoring-reconciliation-1440.png` });

    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: "Расхождения (xlsx)" }).click();
    expect((await download).suggestedFilename()).toBe("Сверка АГК сутки.xlsx");

    // At 390 px the dialog's rows are blocks; the screenshots are taken as tall as the dialog (a phone
    // scrolls it), the page no wider than the phone.
    await page.setViewportSize(TALL_PHONE);
    await expect.poll(() => pageOverflow(page)).toBe(0);
    await dialog.getByTestId("stacked-rows").first().waitFor();
    const flowBlock = dialog.getByTestId("stacked-rows").locator(":scope > div", { hasText: "Q-1" });
    expect((await flowBlock.textContent())?.replace(/\u00a0/g, " ")).toContain("11 111,1");
    await screenshot(dialog, { path: `${SHOTS}/web-monitoring-reconciliation-390.png` });

    await dialog.getByRole("button", { name: "Догрузить недостающие (3)" }).click();
    await dialog.getByText("Догружено: принято 3 из 3 показаний", { exact: false }).waitFor();
    await screenshot(dialog, { path: `${SHOTS}/web-monitoring-reconciliation-filled-390.png` });
    await page.setViewportSize(WIDE);
    await dialog.locator(".ant-modal-footer").getByRole("button", { name: "Закрыть" }).click();
    await dialog.waitFor({ state: "hidden" });

    const again = await reconcile();
    await again.getByText("Найдены расхождения; другое значение: 1").waitFor();
    await close(again);
  });

  // the dialog offered no example of the file it takes. «Скачать шаблон» gives one with the
  // mine's own sensors, and that file sent back is read whole: its three minutes (yesterday's, not stored)
  // are «нет в хранилище», nothing refused.
  it("offers «Скачать шаблон» of the export for the mine's sensors, which the dialog reads whole", { timeout: 120_000 }, async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/sensors`);
    await page.getByRole("button", { name: "Сверить с выгрузкой АГК" }).click();
    const dialog = page.getByRole("dialog", { name: "Сверка с выгрузкой АГК" });
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Скачать шаблон" }).click()]);
    expect(download.suggestedFilename()).toBe("Шаблон — выгрузка АГК, Шахта «Сверка».csv");
    const template = await readFile((await download.path())!);
    const header = new TextDecoder().decode(template).split("\r\n")[0];
    expect(header.split(";").slice(1).sort()).toEqual(["Q-1", "М-12"]);
    await screenshot(dialog, { path: `${SHOTS}/web-monitoring-reconciliation-template-1440.png` });
    await dialog.locator(".ant-modal-footer").getByRole("button", { name: "Отмена" }).click();
    await dialog.waitFor({ state: "hidden" });
    const sent = await reconcile(template);
    await sent.getByText("Найдены расхождения; нет в хранилище: 6").waitFor();
    expect(await sent.textContent()).not.toContain("не прочитан");
    await page.setViewportSize(TALL_PHONE);
    await expect.poll(() => pageOverflow(page)).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-reconciliation-template-390.png` });
    await page.setViewportSize(WIDE);
    await close(sent);
  });
});
