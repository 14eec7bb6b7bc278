// «Мониторинг › Схема» in a real browser (D106): a section entered out of order — its section return first —
// is drawn face → longwall return → section return, each meter with its value and state; the section return,
// held at one value for six hours beside a moving longwall return, is drawn «под сомнением» (D102, the
// detector's stuck check); a fresh-air junction before it and the shearer's run and position are drawn too.
// At 1440 and 390 px (screenshots with SCREENSHOT_DIR), nothing wider than the phone. Needs web/dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserFile, openWebApp, showSignedIn, type WebApp, newMine } from "../support/web-page";
import { screenshot } from "../support/browser";
import { pageOverflow } from "../support/layout";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
const MINUTE = 60_000;

describe("web app: the section's scheme", () => {
  const file = browserFile({ ownUser: true });
  let app: WebApp;
  let page: Page;
  let facility = "";

  beforeAll(async () => {
    const { call } = file;
    facility = (await newMine(call, "Шахта «Схема»")).facility;
    for (const [code, kind, place, extra] of [
      ["ДМ-3", "methane", "section_return", { warning: 1, alarm: 1.3, fresh_air_joins: true }],
      ["ДМ-1", "methane", "face", { warning: 1, alarm: 1.3 }],
      ["ДМ-2", "methane", "longwall_return", { warning: 1, alarm: 1.3 }],
      ["КМ-1", "run_status", "other", {}],
      ["ПК-1", "shearer_position", "other", {}],
    ] as const) {
      await call("POST", `v1/facilities/${facility}/sensors/`, {
        code,
        kind,
        working: "Лава 24-12",
        section: "Участок 24-12",
        place,
        ...extra,
      });
    }
    const end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
    const readings: { sensor: string; t: string; value: number }[] = [];
    for (let m = 360; m >= 0; m--) {
      const t = new Date(end - m * MINUTE).toISOString();
      readings.push(
        { sensor: "ДМ-1", t, value: 0.25 + (m % 4) * 0.02 },
        { sensor: "ДМ-2", t, value: Math.round((0.55 + 0.1 * Math.sin(m / 6)) * 100) / 100 },
        { sensor: "ДМ-3", t, value: 0.62 },
        { sensor: "КМ-1", t, value: 1 },
        { sensor: "ПК-1", t, value: 120 - m / 4 },
      );
    }
    await call("POST", "v1/telemetry/readings/", { facility, readings });
    app = await openWebApp(file.server);
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("draws the section in airflow order with its states, at 1440 and 390 px", { timeout: 180_000 }, async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await showSignedIn(page, file.server.url, file.user, `/facilities/${facility}/scheme`);
    const section = page.getByTestId("scheme-section").filter({ hasText: "Участок 24-12" });
    // The readings are applied off the request thread, the stuck check with them: the page refreshes each minute.
    await expect
      .poll(
        async () => {
          await page.reload();
          await section.waitFor();
          return section.textContent();
        },
        { timeout: 120_000, interval: 3_000 },
      )
      .toContain("под сомнением: показания не меняются");
    const codes = await section.getByTestId("scheme-meter").evaluateAll((all) => all.map((g) => g.getAttribute("data-code")));
    expect(codes).toEqual(["ДМ-1", "ДМ-2", "ДМ-3"]);
    const text = await section.textContent();
    expect(text).toContain("0,62 % об.");
    expect(text).toContain("Исходящая струя выемочного участка");
    expect(text).toContain("свежий воздух поступает");
    // The shearer's line, wrapped in its box.
    const shearer = await section
      .getByTestId("scheme-shearer")
      .evaluate((g) => [...g.querySelectorAll("text")].map((t) => t.textContent).join(" "));
    expect(shearer).toBe("Комбайн КМ-1: работает, 120 м от начала лавы");
    await screenshot(page, { path: `${SHOTS}/web-scheme-1440.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Меню" }).waitFor();
    await section.waitFor();
    expect(await pageOverflow(page)).toBe(0);
    // The drawing fits the phone: no wider than the page.
    const svg = section.locator("svg");
    expect(await svg.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(390);
    await screenshot(page, { path: `${SHOTS}/web-scheme-390.png`, fullPage: true });
  });
});
