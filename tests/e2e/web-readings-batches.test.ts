// «Загрузки АГК» in a real browser: a facility's batches on «Датчики», newest first —
// a dispatch file the server set aside after its retries says «не применена: <причина>» with the readings
// it stored counted, a push applied says «применена». At 1440 px a row each; at 390 px each batch a block
// of lines, its reason in sight and nothing wider than the phone. Screenshots with SCREENSHOTS=1. Needs
// web/dist.
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserFile, openWebApp, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { brokenWords, wholly } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const FAILURE = "хранилище не приняло показания датчика «М-12» за 01.03.2026 (Item size has exceeded the maximum allowed size)";

describe("web app: «Загрузки АГК»", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const { call } = file;
    const mine = await newMine(call, "Шахта «Загрузки»", "Вентиляционный ствол № 1");
    facility = mine.facility;
    const point = mine.point;
    await call("POST", `v1/facilities/${facility}/sensors/`, { code: "М-12", kind: "methane", point });
    const minute = Date.now() - 3_600_000;
    const push = (from: number, n: number) =>
      call<{ batch: string }>("POST", "v1/telemetry/readings/", {
        facility,
        readings: Array.from({ length: n }, (_, m) => ({ sensor: "М-12", t: new Date(from + m * 60_000).toISOString(), value: 0.44 })),
      });
    await push(minute, 5);
    const poison = await push(minute + 10 * 60_000, 3);
    await monitoringIdle(file.server.deps);
    // The consumer's set-aside as it leaves a batch storage refused after its 5 attempts (drain.test.ts
    // makes it so): failed, its reason, the readings it stored counted.
    const monitoring = file.server.deps.repos.monitoring;
    const me = await call<{ company: { id: string } }>("GET", "v1/users/get_me/");
    const stored = (await monitoring.getBatch(me.company.id, poison.batch))!;
    await monitoring.finishBatch({
      ...stored,
      state: "failed",
      attempts: 5,
      failure: FAILURE,
      accepted: 2,
      file_name: "Выгрузка марта.csv",
    });
    app = await openWebApp(file.server);
    page = app.page;
  });

  afterAll(async () => {
    await page?.setViewportSize({ width: 1366, height: 860 });
    await app?.close();
  });

  const fitsPhone = () => page.evaluate(() => document.documentElement.scrollWidth);

  it("lists the set-aside file «не применена» with its reason above the push applied, at 1440 and 390 px", async () => {
    await page.setViewportSize(WIDE);
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/sensors`);
    const card = page.getByTestId("readings-batches");
    const failed = card.getByRole("row", { name: /выгрузка «Выгрузка марта\.csv»/ });
    await failed.waitFor();
    const rows = card.locator("tr.ant-table-row");
    const first = (await rows.nth(0).textContent()) ?? "";
    expect(first).toContain(`не применена: ${FAILURE}`);
    expect(first.replace(/\u00a0/g, " ")).toMatch(/не применена.*3.*2/);
    const second = (await rows.nth(1).textContent()) ?? "";
    expect(second).toContain("передача пользователя");
    expect(second).toContain("применена");
    expect(second).not.toContain("не применена");
    await screenshot(page, { path: `${SHOTS}/web-monitoring-batches-1440.png`, fullPage: true });

    await page.setViewportSize(PHONE);
    await expect.poll(fitsPhone).toBeLessThanOrEqual(PHONE.width);
    const block = card.getByTestId("stacked-rows").locator(":scope > div", { hasText: "Выгрузка марта.csv" });
    await block.waitFor();
    expect(await wholly(block.getByText(`не применена: ${FAILURE}`))).toBe(true);
    expect(await brokenWords(page, "[data-testid=readings-batches]")).toEqual([]);
    await screenshot(page, { path: `${SHOTS}/web-monitoring-batches-390.png`, fullPage: true });
  });
});
