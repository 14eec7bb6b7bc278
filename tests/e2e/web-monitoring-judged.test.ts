// «Мониторинг» in a real browser on the ML audit's kind of longwall: nine days of its return
// meter's minutes (rare exceedances, under 2 % of the rows at 1 %) up to the clock, the platform's 1-hour
// model calibrated for the company on the first two of them and bound to the working. The tile judges P on
// the seven days after the calibration's: too early (or no better than the base rate), so P is «—» with the
// reason and the reading's alert rule acts; the band near the limit is said not to be trusted where it did
// not hold there or was judged on too few rows (D96 c: by the forecast and by the fact). The forecast screen of the
// audit's third week, by the company's model trained on the first two, says its band near the limit is not to be
// trusted (it held 18,2 % of the facts at 1 %), the error where the fact reached the limit, and no P, with the reason.
// At 1440 and 390 px (screenshots with SCREENSHOTS=1), nothing wider than the phone. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADVISORY_NOTE } from "@core/monitoring";
import { browserFile, openWebApp, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow, wholly } from "../support/layout";
import { AUDIT_ROWS, AUDIT_STEP_MS, auditCsv, auditLongwall } from "../support/audit-longwall";
import { HISTORY_HEADERS } from "../support/longwall-csv";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINUTE = 60_000;
const two = (n: number) => String(n).padStart(2, "0");
const typed = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
};

describe("web app: the tile on the audit's longwall", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const { call } = file;
    const mine = await newMine(call, "Шахта «Аудит»");
    facility = mine.facility;
    const point = mine.point;
    await call("POST", `v1/facilities/${facility}/sensors/`, {
      code: "М-2",
      kind: "methane",
      point,
      working: "Лава аудита",
      warning: 0.8,
      alarm: 1,
    });
    // The audit's last nine days, row r at end − (last − r)·10 min, each held for its ten minutes.
    const audit = auditLongwall();
    const end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
    const first = AUDIT_ROWS - 9 * 144;
    const timeOf = (r: number) => end - (AUDIT_ROWS - 1 - r) * AUDIT_STEP_MS;
    const readings = [];
    for (let r = first; r < AUDIT_ROWS; r++)
      for (let m = 0; m < 10 && timeOf(r) + m * MINUTE <= end; m++)
        readings.push({ sensor: "М-2", t: new Date(timeOf(r) + m * MINUTE).toISOString(), value: audit.y[r] });
    for (let i = 0; i < readings.length; i += 6000)
      await call("POST", "v1/telemetry/readings/", { facility, readings: readings.slice(i, i + 6000) });
    // Calibrated for the company on the first two days' 10-minute rows (the feature columns empty).
    const lines = [HISTORY_HEADERS.join(";")];
    for (let r = first; r < first + 2 * 144; r++)
      lines.push([typed(timeOf(r)), "", "", "", "", "", "", "", String(audit.y[r]).replace(".", ",")].join(";"));
    const form = new FormData();
    form.set("file", new Blob([lines.join("\n")]), "аудит.csv");
    const calibrated = await fetch(`${file.server.url}/api/v1/forecast_models/xgboost-h60/calibration/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${file.token}` },
      body: form,
    });
    expect(calibrated.status, await calibrated.clone().text()).toBe(201);
    await call("POST", "v1/telemetry/live/models/", { facility, working: "Лава аудита", horizon: 60, model: "xgboost-h60" });
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("shows no P until judged, says why, and says where the band is not to be trusted, at 1440 and 390 px", {
    timeout: 180_000,
  }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/monitoring`);
    await page.getByText(ADVISORY_NOTE).waitFor();
    const tile = page.getByTestId("live-tile");
    // The readings are applied off the request thread: the reason is waited for, as the user waits for it.
    // D108 (b): «не показывается» with why — too early, the bootstrap's interval not below zero, or a bin that strays.
    const reason = tile.getByText(/Вероятность превышения не показывается: /).first();
    await reason.waitFor({ timeout: 90_000 });
    const row = tile.getByTestId("live-forecast").first();
    const cells = await row.locator("td").allTextContents();
    expect(cells.at(-1)).toBe("—");
    expect(await tile.textContent()).toContain("Оповещение по текущему значению");
    // an earlier round; D96 (c): the band near the limit, judged on the rows after the calibration's by the forecast
    // (≥ W, 100 rows) and by the fact (≥ 1 %, 30 rows), is reported: within 85–95 % on both, else said not to be
    // trusted there, naming each side that fails (the platform's model: too few rows of either).
    const text = (await tile.textContent()) ?? "";
    const judged = /Интервалу 90 % у предела не доверять: строк с прогнозом от 0,8 % (\d+)/.exec(text);
    if (judged) expect(Number(judged[1])).toBeLessThan(100);
    expect(text).toMatch(/Интервалу 90 % у предела не доверять: .*с фактом от 1,0 %/);
    // D96 (c): where the forecast fell short of the facts at the limit on those rows, the tile says so.
    const under = /У предела прогноз занижает: в среднем на \d+,\d\d %; ориентир — тренд, не потолок\./;
    const tileForecast = (
      await file.call<{ tiles: { forecasts: { limit_note?: string | null }[] }[] }>("GET", `v1/telemetry/live/?facility=${facility}`)
    ).tiles[0].forecasts[0];
    if (tileForecast.limit_note) expect(text).toMatch(under);
    else expect(text).not.toMatch(under);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-judged-1440.png`, fullPage: true });
    // the day chart draws the day's events, its legend the series — one entry per meter and kind of
    // event with their count, none per event.
    // The day's events are found as the readings' batches are applied: waited for, as the user would wait for them.
    const eventsPath = `v1/telemetry/events/?facility=${facility}&working=${encodeURIComponent("Лава аудита")}`;
    let events = await file.call<{ count: number }>("GET", eventsPath);
    for (let tries = 0; events.count < 2 && tries < 120; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      events = await file.call<{ count: number }>("GET", eventsPath);
    }
    expect(events.count).toBeGreaterThanOrEqual(2);
    await tile.getByRole("button", { name: "График за сутки" }).click();
    const chart = tile.getByTestId("live-chart");
    await tile.getByText(`Событий за сутки: ${events.count.toLocaleString("ru-RU")}`).waitFor({ timeout: 60_000 });
    await chart.locator(".legendtext").first().waitFor({ timeout: 60_000 });
    const legend = await chart.locator(".legendtext").allTextContents();
    expect(legend.filter((t) => t.startsWith("Событие "))).toEqual([]);
    const kinds = legend.filter((t) => t.startsWith("События "));
    expect(kinds.length).toBeGreaterThan(0);
    expect(
      kinds.every((t) => /^События М-2: \S.* \(\d+\)$/.test(t)),
      JSON.stringify(legend),
    ).toBe(true);
    // Every event is counted in the entries of its kind.
    expect(kinds.reduce((sum, t) => sum + Number(/\((\d+)\)$/.exec(t)?.[1]), 0)).toBe(events.count);
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-monitoring-judged-chart-1440.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    await reason.waitFor();
    expect(await pageOverflow(page)).toBe(0);
    // The forecasts' table fits the tile, P's column in sight beside the horizon's «не раньше датчика».
    expect(await wholly(tile.getByTestId("live-forecasts"))).toBe(true);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-judged-390.png`, fullPage: true });
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-monitoring-judged-chart-390.png` });
  });

  // an earlier round; D96 (a, c): the company's 1-hour model trained on the audit's first two weeks forecasts the
  // third; its band, from the scales its calibration fitted updated on each row's day, held 98,0 % of the 51 rows
  // forecast near the limit and 18,2 % of the 11 facts at 1 %: not certified there, said so above the table and in
  // the rows from W on; where the forecast fell short of the facts at the limit the screen says it; no P, the reason
  // said (D108 b: the bootstrap's interval of Brier − base not below zero).
  it("shows the forecast screen's band near the limit as judged, no P, at 1440 and 390 px", { timeout: 180_000 }, async () => {
    const audit = auditLongwall();
    const week = AUDIT_ROWS / 3;
    // A job where the host runs them (202): its state asked until done, as the models screen asks it.
    const post = async (path: string, body: FormData): Promise<string> => {
      const res = await fetch(`${file.server.url}/api/${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${file.token}` },
        body,
      });
      expect([201, 202], await res.clone().text()).toContain(res.status);
      const answer = (await res.json()) as { id?: string; status_url?: string };
      if (!answer.status_url) return answer.id!;
      for (;;) {
        const status = await file.call<{ state: string; model_id?: string; id?: string }>("GET", answer.status_url.replace(/^\/api\//, ""));
        expect(status.state).not.toBe("failed");
        if (status.state === "done") return (status.model_id ?? status.id)!;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const training = new FormData();
    training.set("horizon", "60");
    training.set("file", new Blob([auditCsv(audit, 0, 2 * week)]), "две недели.csv");
    const model = await post("v1/forecast_models/xgboost/train/", training);
    const project = (
      await file.call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Лава аудита, прогноз",
        start_date: "2025-01-01",
        end_date: "2025-12-31",
      })
    ).id;
    const forecast = new FormData();
    forecast.set("name", "Третья неделя, 1 ч");
    forecast.set("project", project);
    forecast.set("method", "xgboost");
    forecast.set("horizon", "60");
    forecast.set("model_id", model);
    forecast.set("file_data", new Blob([auditCsv(audit, 2 * week)]), "третья неделя.csv");
    const id = await post("v1/regres_methane/", forecast);
    const summary = await file.call<{ backtest: { limit_error: { note: string | null } | null } }>(
      "GET",
      `v1/regres_methane/${id}/single_calc/1/`,
    );

    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/projects/${project}/calculations?type=regres_methane`);
    await page.locator(".ant-table-row", { hasText: "Третья неделя, 1 ч" }).click();
    const dialog = page.getByRole("dialog", { name: "Третья неделя, 1 ч" });
    const interval = dialog.getByTestId("backtest-interval");
    const nearShare = /в \d+,\d % строк с прогнозом от 0,8 %/;
    await interval.filter({ hasText: nearShare }).waitFor();
    expect(await interval.textContent()).toContain("Интервалу 90 % у предела не доверять");
    await dialog.getByTestId("near-limit-unreliable").filter({ hasText: "с фактом от 1,0 %" }).waitFor();
    const under = dialog.getByTestId("limit-under-forecast");
    if (summary.backtest.limit_error?.note) await under.filter({ hasText: "ориентир — тренд, не потолок" }).waitFor();
    else expect(await under.count()).toBe(0);
    // The check's table gives the error where the fact reached the limit, beside the last reading's.
    await dialog.getByText("Средняя ошибка на строках с фактом ≥ 1 % (минус — занижает), %").waitFor();
    // D108 (a, b): of the hour's maximum the week has enough event rows to judge (too early is proved on its first
    // days in tests/integration/forecast-audit-longwall.test.ts); its Brier score is below the base rate's, but the
    // day-block bootstrap's interval of the difference is not below zero: no chance, that reason, and no column of
    // it; the band's column stays, unmarked.
    await dialog
      .getByTestId("probability-unreliable")
      .filter({ hasText: /^Вероятность превышения не показывается: разность Brier с долей .+ бутстреп по \d+ сут\.\) не ниже нуля\./ })
      .waitFor();
    const rowsTable = dialog.getByTestId("forecast-rows");
    await rowsTable.getByRole("columnheader", { name: "Интервал 90 %, %" }).waitFor();
    expect(await rowsTable.getByRole("columnheader", { name: "Вероятность достичь предела, %" }).count()).toBe(0);
    await dialog.getByTestId("near-limit-unreliable").scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-forecast-near-limit-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.getByTestId("near-limit-unreliable").scrollIntoViewIfNeeded();
    expect(await pageOverflow(page)).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-forecast-near-limit-390.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press("Escape");
  });
});
