// «Модель прогноза» of a working in a real browser: the company's 1-hour model trained
// on the audit's longwall with two of its own channels (the face meter and the shearer's run status) is bound
// to the working, each channel to a sensor of the working chosen by the engineer in the dialog; the tile then
// shows the model's forecast, and the dialog opened again shows the sensors bound. At 1440 and 390 px
// (screenshots with SCREENSHOTS=1), nothing wider than the phone. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ADVISORY_NOTE } from "@core/monitoring";
import { browserFile, openWebApp, pickOption, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow } from "../support/layout";
import { AUDIT_CHANNEL_HEADERS, AUDIT_ROWS, auditCsv, auditLongwall } from "../support/audit-longwall";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINUTE = 60_000;
const FACE = AUDIT_CHANNEL_HEADERS.face_ch4;
const RUN = AUDIT_CHANNEL_HEADERS.shearer_run;

describe("web app: a working's channels bound to the model's own columns", () => {
  const file = browserFile({ ownUser: true });
  const { call } = file;
  let app: WebApp;
  let page: Page;
  let facility = "";
  let model = "";

  beforeAll(async () => {
    const audit = auditLongwall();
    const week = AUDIT_ROWS / 3;
    // The model: two weeks of the audit's longwall with its face meter and the shearer's run status (a job on this host).
    const form = new FormData();
    form.set("features", JSON.stringify([FACE, RUN]));
    form.set("horizon", "60");
    form.set("params", JSON.stringify({ n_estimators: 40, max_depth: 4 }));
    const csv = auditCsv(audit, 0, 2 * week, ["face_ch4", "shearer_run"]);
    form.set("file", new File([csv], "лава.csv", { type: "text/csv" }));
    const res = await fetch(`${file.server.url}/api/v1/forecast_models/xgboost/train/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${file.token}` },
      body: form,
    });
    expect([201, 202], await res.clone().text()).toContain(res.status);
    const job = (await res.json()) as { status_url?: string };
    model = (job as { id?: string }).id ?? "";
    for (let state = job.status_url ? "" : "done"; state !== "done"; ) {
      const status = await call<{ state: string; model_id?: string }>("GET", job.status_url!.replace(/^\/api\//, ""));
      state = status.state;
      model = status.model_id ?? model;
      expect(state).not.toBe("failed");
      if (state !== "done") await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const mine = await newMine(call, "Шахта «Каналы»");
    facility = mine.facility;
    const point = mine.point;
    for (const [code, kind, extra] of [
      ["М-1", "methane", { warning: 0.8, alarm: 1 }],
      ["М-З", "methane", {}],
      ["К-1", "run_status", {}],
      ["V-1", "air_velocity", { area_m2: 10 }],
    ] as const) {
      await call("POST", `v1/facilities/${facility}/sensors/`, { code, kind, point, working: "Лава 12-1", ...extra });
    }
    // Eight hours of minutes up to the clock, each the third week's 10-minute row.
    const end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
    const readings = [];
    for (let k = 0; k < 480; k++) {
      const r = 2 * week + Math.floor(k / 10);
      const t = new Date(end - (479 - k) * MINUTE).toISOString();
      readings.push({ sensor: "М-1", t, value: audit.y[r] });
      readings.push({ sensor: "М-З", t, value: Math.round(audit.channels.face_ch4[r] * 1e4) / 1e4 });
      readings.push({ sensor: "К-1", t, value: audit.channels.shearer_run[r] });
      readings.push({ sensor: "V-1", t, value: Math.round((audit.x.x1[r] / 600) * 1e3) / 1e3 });
    }
    await call("POST", "v1/telemetry/readings/", { facility, readings });
    app = await openWebApp(file.server);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it("lets the engineer choose the sensor of each channel, and the tile forecasts with them, at 1440 and 390 px", {
    timeout: 180_000,
  }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/monitoring`);
    await page.getByText(ADVISORY_NOTE).waitFor();
    const tile = page.getByTestId("live-tile");
    await tile.getByRole("button", { name: "Модель прогноза" }).click();
    const dialog = page.getByRole("dialog");
    await pickOption(page, dialog.getByLabel("Модель", { exact: true }), /^Модель компании, версия \d+$/);
    const channels = dialog.getByTestId("model-channels");
    await channels.waitFor();
    expect(await channels.textContent()).toContain("Каналы выработки для собственных столбцов модели");
    await pickOption(page, dialog.getByLabel(`Датчик для «${FACE}»`), "М-З — Метан (0–4 % об.)");
    await pickOption(page, dialog.getByLabel(`Датчик для «${RUN}»`), "К-1 — Работа агрегата");
    await screenshot(page, { path: `${SHOTS}/web-monitoring-channels-dialog-1440.png` });
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    const [binding] = await call<{ channels?: Record<string, string> }[]>("GET", `v1/telemetry/live/models/?facility=${facility}`);
    expect(Object.keys(binding.channels ?? {})).toEqual([FACE, RUN]);
    // The tile's 1-hour forecast, computed from the bound channels: a figure in its row.
    const row = tile.getByTestId("live-forecast").first();
    await row.getByText(/^1 ч/).waitFor();
    await expect.poll(async () => (await row.locator("td").nth(1).textContent()) ?? "").toMatch(/\d,\d+/);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-channels-1440.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await tile.getByRole("button", { name: "Модель прогноза" }).click();
    const again = page.getByRole("dialog");
    await again.getByTestId("model-channels").waitFor();
    expect(await again.getByTestId("model-channels").textContent()).toContain("М-З — Метан (0–4 % об.)");
    expect(await again.getByTestId("model-channels").textContent()).toContain("К-1 — Работа агрегата");
    expect(await pageOverflow(page)).toBe(0);
    await again.getByLabel(`Датчик для «${RUN}»`).scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SHOTS}/web-monitoring-channels-dialog-390.png` });
    await again.getByRole("button", { name: "Отмена" }).click();
    await again.waitFor({ state: "hidden" });
    expect(await pageOverflow(page)).toBe(0);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-channels-390.png`, fullPage: true });
  });

  // the forecast screen's rows table shows the model's own named channels, each by its name.
  it("shows the model's channels as columns of the forecast's rows", { timeout: 180_000 }, async () => {
    const audit = auditLongwall();
    const week = AUDIT_ROWS / 3;
    const project = (
      await call<{ id: string }>("POST", "v1/projects/create_project/", {
        name: "Каналы, прогноз",
        start_date: "2025-01-01",
        end_date: "2025-12-31",
      })
    ).id;
    const form = new FormData();
    form.set("name", "Неделя 3 с каналами");
    form.set("project", project);
    form.set("method", "xgboost");
    form.set("horizon", "60");
    form.set("model_id", model);
    form.set("file_data", new Blob([auditCsv(audit, 2 * week, AUDIT_ROWS, ["face_ch4", "shearer_run"])]), "неделя 3.csv");
    const res = await fetch(`${file.server.url}/api/v1/regres_methane/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${file.token}` },
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/projects/${project}/calculations?type=regres_methane`);
    await page.locator(".ant-table-row", { hasText: "Неделя 3 с каналами" }).click();
    const rows = page.getByRole("dialog", { name: "Неделя 3 с каналами" }).getByTestId("forecast-rows");
    await rows.getByRole("columnheader", { name: FACE }).waitFor();
    await rows.getByRole("columnheader", { name: RUN }).waitFor();
    const header = await rows.locator("thead th").allTextContents();
    const first = await rows.locator("tbody tr.ant-table-row").first().locator("td").allTextContents();
    const face = first[header.indexOf(FACE)];
    expect(face).toBe(audit.channels.face_ch4[2 * week].toLocaleString("ru-RU", { minimumFractionDigits: 4, maximumFractionDigits: 4 }));
    await screenshot(page, { path: `${SHOTS}/web-forecast-channels-1440.png` });
    await page.keyboard.press("Escape");
  });
});
