// «Мониторинг» in a real browser: a prepared stretch of a longwall's day — a methane meter at
// 0,5 %, then 0,95 % (≥ 0,9·W), then 1,6 % (≥ A) — replayed through the gateway path a minute a push
// (tools/readings.ts, as `npm run readings -- replay … --every 1` does) while the page is open, the
// minutes up to 0,95 % first and the rest once the tile shows them (not paced by the clock: the test
// waits for the tile, not for time): the working's tile turns «≥ 0,9·W», then red by itself from the
// server's stream — «загазирование» (D98: 1,6 % is past the norm, the book's gassing is open), «≥ A»
// beside it; then on
// «События» the alarm event is there, is acknowledged with a comment, and the shift's report (xlsx)
// lists it with the comment. Screenshots at 1440 and 390 px (SCREENSHOTS=1), nothing wider than the
// phone. Needs web/dist.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADVISORY_NOTE } from "@core/monitoring";
import { checkZipContents, inflateEntry } from "@server/files/zip-guard";
import { replay, type DispatchReading } from "../../tools/readings";
import { browserFile, openWebApp, pickOption, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const MINUTE = 60_000;
const WINDOW = 18;

describe("web app: «Мониторинг» while a day is replayed", () => {
  const file = browserFile({ ownUser: true });
  const { call } = file;
  let app: WebApp;
  let page: Page;
  let facility = "";
  let key = "";
  let end = 0;
  let quiet = "";
  const at = (k: number) => end - (WINDOW - 1 - k) * MINUTE;
  const methane = (k: number) => (k < 6 ? 0.5 : k < 12 ? 0.95 : 1.6);

  beforeAll(async () => {
    app = await openWebApp(file.server);
    page = app.page;
  });

  /** A facility of its own (a retry starts from a quiet working again): a working with a methane meter
   *  and an anemometer, the 1-hour model bound, a gateway key and three quiet hours before the stretch. */
  async function prepare() {
    // The replayed stretch ends at the minute before the clock's (a push may not be ahead of it).
    end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
    const mine = await newMine(call, "Шахта «Лава на экране»");
    facility = mine.facility;
    const point = mine.point;
    for (const [code, kind, extra] of [
      // On the longwall's return (no shaft of its own to measure): its norm 1,0 % (D87), so 0,95 % is yellow
      // and no gassing, 1,6 % is one. At the shaft's place (0,75 %) the yellow minutes opened one already.
      ["М-7", "methane", { warning: 1, alarm: 1.5, role: "cut_off", place: "longwall_return", point: undefined }],
      ["V-7", "air_velocity", { area_m2: 10, point }],
    ] as const) {
      await call("POST", `v1/facilities/${facility}/sensors/`, { code, kind, working: "Лава 7", ...extra });
    }
    key = (await call<{ key: string }>("POST", `v1/facilities/${facility}/gateway-keys/`, { label: "Диспетчерская" })).key;
    await call("POST", "v1/telemetry/live/models/", { facility, working: "Лава 7", horizon: 60, model: "xgboost-h60" });
    // The three hours before: quiet.
    const before = [];
    for (let m = 180; m > 0; m--) {
      const t = new Date(at(0) - m * MINUTE).toISOString();
      before.push({ sensor: "М-7", t, value: 0.5 }, { sensor: "V-7", t, value: 2 });
    }
    quiet = (await call<{ batch: string }>("POST", "v1/telemetry/readings/", { facility, readings: before })).batch;
  }

  afterAll(async () => {
    await page?.setViewportSize({ width: 1366, height: 860 });
    await app?.close();
  });

  const tileSays = (state: string) => page.locator(`[data-testid="live-tile"][aria-label="Выработка Лава 7: ${state}"]`).waitFor();

  /** Whether the chart's legend scrolls inside itself (plotly's scroll bar drawn), so some entries are hidden. */
  const legendScrolls = () =>
    page.evaluate(() => [...document.querySelectorAll(".legend .scrollbar")].some((bar) => bar.getBoundingClientRect().height > 0));

  it("turns the tile yellow, then red by itself; the event is acknowledged and the shift's report lists it", {
    timeout: 180_000,
  }, async () => {
    await prepare();
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/monitoring`);
    await page.getByText(ADVISORY_NOTE).waitFor();
    await page.getByText("Обновляется сам: сервер присылает изменения", { exact: false }).waitFor();
    // The quiet hours end 18 minutes before the clock: the meter reads «норма» but is stale, as is the
    // anemometer, and the tile's head names both, each with its own minutes (it said
    // «норма»). The readings are applied off the request thread: their batch waited
    // for first (up to a minute), so a tile that stays without them is told apart from a batch not applied.
    await expect
      .poll(async () => (await call<{ state: string }>("GET", `v1/telemetry/batches/${quiet}/`)).state, { timeout: 60_000 })
      .toBe("done");
    await page
      .locator('[data-testid="live-tile"][aria-label^="Выработка Лава 7: нет данных"][aria-label*="М-7"][aria-label*="V-7"]')
      .waitFor({ timeout: 60_000 });

    /** Minutes [from, to) of the stretch replayed as the gateway pushes them, a minute a push. */
    const replayed = (from: number, to: number) => {
      const minutes: DispatchReading[] = [];
      for (let k = from; k < to; k++) minutes.push({ sensor: "М-7", t: at(k), value: methane(k) }, { sensor: "V-7", t: at(k), value: 2 });
      return replay(minutes, { url: file.server.url, key, every: 1 });
    };
    const batches = await replayed(0, 12);
    await tileSays("≥ 0,9·W");
    await page.getByText("≥ 0,9·W (0,9 %): близко к предупредительному").waitFor();
    await screenshot(page, { path: `${SHOTS}/web-monitoring-yellow-1440.png`, fullPage: true });
    batches.push(...(await replayed(12, WINDOW)));
    // D98: 1,6 % is past the meter's norm too, so the book opens a gassing and the tile says what the book
    // says — «загазирование», red — with the A the reading also reached beside it.
    await tileSays("загазирование");
    const tile = page.getByTestId("live-tile");
    await tile.getByText("загазирование: 1,60 % при норме 1,00 %", { exact: true }).waitFor();
    await tile.getByText("≥ A (1,5 %): аварийный").waitFor();
    expect(await tile.textContent()).toContain("1,60 % об.");
    expect(await tile.textContent()).toContain("Расход воздуха: 1\u00a0200 м³/мин (V-7)");
    // The forecasts' table: a row per horizon with its time and figure.
    expect(await tile.getByTestId("live-forecasts").locator("caption").textContent()).toBe(
      "Прогноз М-7; P — вероятность, что за горизонт хотя бы одна минута достигнет 1,5\u00a0%",
    );
    expect(await tile.getByTestId("live-forecast").first().textContent()).toMatch(/^1 ч(?:не раньше датчика)?\d\d:\d\d\d/);
    expect(batches).toHaveLength(WINDOW);
    // The events are found once the last batch is applied: the state the user then opens «События» in.
    await expect
      .poll(async () => (await call<{ state: string }>("GET", `v1/telemetry/batches/${batches.at(-1)}/`)).state, { timeout: 60_000 })
      .toBe("done");
    const found = await call<{ results: { level: string; kind: string; shift: { date: string; number: number } }[] }>(
      "GET",
      `v1/telemetry/events/?facility=${facility}&level=alarm&kind=threshold&from=${new Date(at(0) - MINUTE).toISOString()}&to=${new Date(end + MINUTE).toISOString()}`,
    );
    expect(found.results).toHaveLength(1);
    const shift = found.results[0].shift;
    // The replay done: the tile on its last minute, and its day's chart with the levels, the events and the forecast.
    await tile.getByText(`Последнее показание: `).waitFor();
    await page.getByRole("button", { name: "График за сутки" }).click();
    await page.getByTestId("live-chart").locator(".main-svg").first().waitFor();
    await tile.getByText(/^Событий за сутки: [1-9]/).waitFor();
    // The legend whole under the plot, without a scroll bar of its own; no word of the tile broken inside.
    expect(await legendScrolls()).toBe(false);
    expect(await brokenWords(page, "[data-testid=live-tile]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-red-1440.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await tileSays("загазирование");
    // The day's chart redraws at the phone's width once its resize is handled: the page fits then.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expect.poll(legendScrolls).toBe(false);
    expect(await brokenWords(page, "[data-testid=live-tile]")).toEqual([]);
    // The forecasts' table fits the tile on a phone: no column scrolled out of sight.
    expect(await wholly(tile.getByTestId("live-forecasts"))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-red-390.png`, fullPage: true });
    await page.setViewportSize(WIDE);

    // The page's own link (the side menu has the mine's «События» too, with its icon).
    await page.getByRole("link", { name: "События", exact: true }).click();
    const date = page.getByLabel("Дата");
    await date.waitFor();
    await date.fill(`${shift.date.slice(8, 10)}.${shift.date.slice(5, 7)}.${shift.date.slice(0, 4)}`);
    await date.press("Enter");
    const row = page.getByRole("row").filter({ hasText: "Аварийный (A)" });
    await row.waitFor();
    await row.getByRole("button", { name: "Квитировать" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Комментарий").fill("Проветривание усилено, забой остановлен");
    await dialog.locator("button.ant-btn-primary").click();
    await page.getByText("«Проветривание усилено, забой остановлен»").waitFor();

    await pickOption(page, page.getByLabel("Смена", { exact: true }), new RegExp(`^Смена ${shift.number} \\(`));
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Отчет смены (xlsx)" }).click()]);
    // The report's sheets as text: «Выработки» names the meter, «События» the event with its comment.
    let text = "";
    for (const part of checkZipContents(new Uint8Array(readFileSync(await download.path())))) {
      if (!part.name.endsWith(".xml")) continue;
      for await (const chunk of inflateEntry(part)) text += new TextDecoder().decode(chunk, { stream: true });
    }
    expect(text).toContain("Проветривание усилено, забой остановлен");
    expect(text).toContain("М-7");
    expect(text).toContain("События");
  });
});
