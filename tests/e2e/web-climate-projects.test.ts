// «Климатические проекты» in a real browser against the real local server, at 1440 and 390 px: an open
// flare's three meters registered in the demo mine's register, section 13.5 (a)'s six hours pushed as
// readings (a flow gap in hour 04, no flame for 7 minutes in hour 02), the project stored; on the screen
// the period typed «01.06.2026» is computed from the stored minutes — 15 carbon units, ER «15,588375»,
// the deviations in Russian and the hour table on the company's clock; no page scrolls sideways. At
// 1440 px «Пакет для верификатора» downloads the period's pack (made in the local server's spreadsheet
// thread) and its verify.py recomputes the period from the readings and agrees. A
// twin project's period, the server's share of a request lowered, is computed by the server's job:
// «вычисляется» while it runs, then the same figures.
// Screenshots (SCREENSHOTS=1) go to SCREENSHOT_DIR (default /tmp). Needs web/dist (`npm run build:web`)
// and Chromium.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { instantOfWallTime, zoneOf } from "@core/company-clock";
import { beforeAll, describe, expect, it } from "vitest";
import { openWebApp, browserFile } from "../support/web-page";
import { screenshot } from "../support/browser";
import { caseAMetersPushed } from "../support/climate-case-a";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
describe("web app: «Климатические проекты», a period from the stored minutes", () => {
  const file = browserFile();
  const { call } = file;
  const projects: Record<number, string> = {};

  beforeAll(async () => {
    const me = await call<{ company: { time_zone?: string } }>("GET", "v1/users/get_me/");
    const [y, m, d] = [2026, 6, 1];
    const start = instantOfWallTime(y, m, d, 0, 0, zoneOf(me.company));
    const facility = await call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Климат»", kind: "underground_mine" });
    const point = await call<{ id: string }>("POST", `v1/facilities/${facility.id}/points/`, {
      name: "Факельная установка (проверка)",
      kind: "drainage_station",
      instrument: "АГК",
    });
    // One flare's meters and minutes, which every project of the file reads.
    const codes = { q: "Q-Ф", c: "C-Ф", flame: "FL-Ф" };
    await caseAMetersPushed(call, facility.id, point.id, start, codes);
    for (const width of [1440, 390]) {
      const project = await call<{ id: string }>("POST", "v1/climate-projects/", {
        name: `Факел Ф-1, ${width} px`,
        facility: facility.id,
        start: "2026-06-01",
        methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
        devices: [{ name: "Ф-1", point: point.id, kind: "flare_open", flow_basis: "normal_0C", sensors: codes }],
      });
      projects[width] = project.id;
    }
    // A twin of the 1440 px project, whose period the server computes as a job.
    const twin = await call<{ id: string }>("POST", "v1/climate-projects/", {
      name: "Факел Ф-1, расчет в фоне",
      facility: facility.id,
      start: "2026-06-01",
      methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
      devices: [
        {
          name: "Ф-1",
          point: point.id,
          kind: "flare_open",
          flow_basis: "normal_0C",
          sensors: codes,
        },
      ],
    });
    projects[0] = twin.id;
  }, 180_000);

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`computes section 13.5 (a) from the stored minutes at ${viewport.width} px`, { timeout: 180_000 }, async () => {
      const app = await openWebApp(file.server, { user: file.server.demo, viewport, timeout: 30_000 });
      try {
        const { page } = app;
        await page.goto(`${file.server.url}/climate-projects`);
        await page.getByRole("heading", { name: "Климатические проекты", level: 2 }).waitFor();
        await page.getByRole("button", { name: `Факел Ф-1, ${viewport.width} px` }).click();
        await page.getByTestId("climate-project").waitFor();
        for (const label of ["Начало периода", "Конец периода (включительно)"]) {
          const input = page.getByLabel(label);
          await input.click();
          await input.pressSequentially("01.06.2026");
          await input.press("Tab");
        }
        // EF_grid typed key by key with its source (the flare neither credits nor buys
        // electricity, so it is only printed).
        const grid = page.getByLabel("EF_grid, т CO2/МВт·ч");
        await grid.click();
        await grid.pressSequentially("0,62");
        await page.getByLabel("Источник EF_grid").fill("ОЭС Сибири, расчет по TOOL07");
        await page.getByRole("button", { name: "Рассчитать" }).click();
        const result = page.getByTestId("climate-period");
        await result.waitFor({ timeout: 60_000 });
        const shown = (await result.innerText()).replace(/[\u00a0\u202f]/g, " ");
        expect(shown).toContain("15,588375");
        expect(shown).toMatch(/Углеродные единицы\s*15/);
        for (const words of ["нет данных", "уничтожение не подтверждено", "значение по умолчанию", "01.06.2026 00:00"]) {
          expect(shown).toContain(words);
        }
        // One period, computed once: no refusal beside it.
        expect(await page.locator(".ant-alert-error").count()).toBe(0);
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
        // the report prints EF_grid with its source.
        const report = page.getByTestId("climate-report");
        await report.getByText("0,620 — ОЭС Сибири, расчет по TOOL07").first().waitFor();
        // no figure of the period or its report breaks inside its digits (a text node
        // of a figure laid out on one line), and the page is no wider than the screen.
        const broken = await page.evaluate(() => {
          const figure = /^-?\d{1,3}(?:[ \u00a0\u202f]\d{3})*(?:,\d+)?$/;
          const out: string[] = [];
          for (const root of document.querySelectorAll('[data-testid="climate-period"], [data-testid="climate-report"]')) {
            const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = (node.textContent ?? "").trim();
              if (!figure.test(text) || text.length < 5) continue;
              const range = document.createRange();
              range.selectNodeContents(node);
              const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
              if (lines.size > 1) out.push(text);
            }
          }
          return out;
        });
        expect(broken).toEqual([]);
        await screenshot(page, { path: `${SHOTS}/climate-projects-${viewport.width}.png`, fullPage: true });
        for (const [name, at] of [
          ["figures", result.locator(".ant-descriptions")],
          ["deviations", result.getByRole("heading", { name: "Отклонения" })],
          ["hours", result.getByText("Ф-1 — Открытый факел")],
          ["report", report],
        ] as const) {
          await at.first().scrollIntoViewIfNeeded();
          await screenshot(page, { path: `${SHOTS}/climate-period-${name}-${viewport.width}.png` });
        }
        if (viewport.width === 1440) {
          const [pack] = await Promise.all([
            page.waitForEvent("download", { timeout: 60_000 }),
            result.getByRole("button", { name: /Пакет для верификатора/ }).click(),
          ]);
          expect(pack.suggestedFilename()).toBe("Пакет верификации Факел Ф-1, 1440 px 2026-06-01–2026-06-01.zip");
          const dir = mkdtempSync(join(tmpdir(), "climate-pack-"));
          const unzipped = spawnSync("python3", ["-m", "zipfile", "-e", await pack.path(), dir], { encoding: "utf8" });
          expect(unzipped.status, unzipped.stderr).toBe(0);
          const keys = (await (await fetch(`${file.server.url}/api/v1/signing-keys/`)).json()) as { keys: Array<{ pem: string }> };
          // the key saved in the unzipped folder and named as the guide says.
          writeFileSync(join(dir, "platform.pem"), keys.keys.at(-1)!.pem);
          const verified = spawnSync("python3", ["verify.py", "--public-key", "platform.pem"], { cwd: dir, encoding: "utf8" });
          expect(verified.status, verified.stdout + verified.stderr).toBe(0);
          expect(verified.stdout).toContain("углеродные единицы: 15");
        }
        await page.getByRole("button", { name: "Новый проект" }).click();
        await page.getByTestId("climate-project-form").waitFor();
        await screenshot(page, { path: `${SHOTS}/climate-project-form-${viewport.width}.png`, fullPage: true });
        expect(app.pageErrors).toEqual([]);
      } finally {
        await app.close();
      }
    });
  }

  it("shows a long period «вычисляется» while the server's job computes it, then its figures", {
    timeout: 180_000,
  }, async () => {
    // The server's share of a request lowered: these 6 hours × 3 meters (18 meter-hours) are a job.
    file.server.configure({ climatePeriodJobMeterHours: 10 });
    const app = await openWebApp(file.server, { user: file.server.demo, viewport: { width: 1440, height: 900 }, timeout: 30_000 });
    try {
      const { page } = app;
      await page.goto(`${file.server.url}/climate-projects`);
      await page.getByRole("button", { name: "Факел Ф-1, расчет в фоне" }).click();
      await page.getByTestId("climate-project").waitFor();
      for (const label of ["Начало периода", "Конец периода (включительно)"]) {
        const input = page.getByLabel(label);
        await input.click();
        await input.pressSequentially("01.06.2026");
        await input.press("Tab");
      }
      await page.getByRole("button", { name: "Рассчитать" }).click();
      const computing = page.getByTestId("climate-period-computing");
      await computing.waitFor();
      expect((await computing.innerText()).replace(/[\u00a0\u202f]/g, " ")).toContain(
        "Отчетный период 01.06.2026 – 01.06.2026 вычисляется",
      );
      await screenshot(page, { path: `${SHOTS}/climate-period-computing-1440.png`, fullPage: true });
      const result = page.getByTestId("climate-period");
      await result.waitFor({ timeout: 90_000 });
      await computing.waitFor({ state: "detached" });
      const shown = (await result.innerText()).replace(/[\u00a0\u202f]/g, " ");
      // The same minutes as the request's period at 1440 px: the same figures.
      expect(shown).toContain("15,588375");
      expect(shown).toMatch(/Углеродные единицы\s*15/);
      expect(await page.locator(".ant-alert-error").count()).toBe(0);
      await screenshot(page, { path: `${SHOTS}/climate-period-job-done-1440.png`, fullPage: true });
      expect(app.pageErrors).toEqual([]);
    } finally {
      file.server.configure({ climatePeriodJobMeterHours: undefined });
      await app.close();
    }
  });
});
