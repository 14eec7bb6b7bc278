// A climate period's report on implementation in a real browser against the real local server, at 1440
// and 390 px (methodology 13.4): section 13.5 (a)'s six hours pushed as readings and the
// period computed; on its view in «Климатические проекты» the report shows sections 1–15 with «15,588»
// t CO2-eq and 15 units; a field the executor writes is typed key by key, saved («Отчет сохранен,
// версия 1»), and the PDF and xlsx downloaded: the PDF read back with pdftotext holds the text typed and
// the period's figures; no page scrolls sideways. Screenshots (SCREENSHOTS=1) go to SCREENSHOT_DIR
// (default /tmp). Needs web/dist (`npm run build:web`), Chromium and poppler-utils.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { instantOfWallTime, zoneOf } from "@core/company-clock";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { accessToken, apiCaller, openWebApp } from "../support/web-page";
import { screenshot } from "../support/browser";
import { caseAMetersPushed } from "../support/climate-case-a";

const SHOTS = process.env.SCREENSHOT_DIR ?? "/tmp";
/** Clicks the button `name` and returns the file it saves. */
async function saved(page: Page, name: string): Promise<{ name: string; bytes: Buffer }> {
  // The file is rendered by the server's spreadsheet worker: on a loaded machine that takes a while.
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 120_000 }), page.getByRole("button", { name }).click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

describe("web app: a climate period's report on implementation, written, saved and downloaded", () => {
  let server: TestServer;
  let token: string;
  const call = apiCaller(
    () => server.url,
    () => token,
  );
  const views: Record<number, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    token = await accessToken(server.url, server.demo);
    const me = await call<{ company: { time_zone?: string } }>("GET", "v1/users/get_me/");
    const start = instantOfWallTime(2026, 6, 1, 0, 0, zoneOf(me.company));
    const facility = await call<{ id: string }>("POST", "v1/facilities/", { name: "Шахта «Отчетная»", kind: "underground_mine" });
    const point = await call<{ id: string }>("POST", `v1/facilities/${facility.id}/points/`, {
      name: "Дегазационная станция (отчет)",
      kind: "drainage_station",
      instrument: "АГК",
    });
    // One flare's meters and minutes, which both projects read.
    const codes = { q: "Q-О", c: "C-О", flame: "FL-О" };
    await caseAMetersPushed(call, facility.id, point.id, start, codes);
    for (const width of [1440, 390]) {
      const project = await call<{ id: string }>("POST", "v1/climate-projects/", {
        name: `Отчет Ф-1, ${width} px`,
        facility: facility.id,
        start: "2026-06-01",
        methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
        devices: [{ name: "Ф-1", point: point.id, kind: "flare_open", flow_basis: "normal_0C", sensors: codes }],
      });
      const period = await call<{ id: string }>("POST", `v1/climate-projects/${project.id}/periods/`, {
        start: "2026-06-01T00:00",
        end: "2026-06-01T06:00",
      });
      views[width] = `/climate-projects?id=${project.id}&period=${period.id}`;
    }
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`writes a section by hand, saves it and downloads the PDF and xlsx at ${viewport.width} px`, { timeout: 400_000 }, async () => {
      const app = await openWebApp(server, { user: server.demo, viewport, timeout: 30_000 });
      try {
        const { page } = app;
        await page.goto(`${server.url}${views[viewport.width]}`);
        const report = page.getByTestId("climate-report");
        await report.waitFor({ timeout: 60_000 });
        const units = (await page.getByTestId("climate-report-section-13").innerText()).replace(/[\u00a0\u202f]/g, " ");
        expect(units).toMatch(/Углеродные единицы к выпуску\s*15/);
        expect(units).toMatch(/Сокращение выбросов ER, т CO2-экв\.\s*15,588/);
        // 18 before the first save (a retry of this test finds its own text saved already).
        const empty = Number((await page.getByTestId("climate-report-empty").innerText()).replace(/\D+/g, ""));
        expect([18, 17]).toContain(empty);

        const typed = `Факел Ф-1 уничтожает метан дегазации, ${viewport.width} px`;
        const field = page.getByLabel(/Описание климатического проекта и его цели/);
        await field.click();
        await field.pressSequentially(typed);
        await page.getByRole("button", { name: "Сохранить" }).click();
        await page.getByText(/^Отчет сохранен, версия \d+$/).waitFor();
        expect(await page.getByTestId("climate-report-empty").innerText()).toBe("Не заполнено полей исполнителя: 17");

        const pdf = await saved(page, "Скачать PDF");
        expect(pdf.name).toMatch(/^Отчет о реализации Отчет Ф-1, \d+ px 01\.06\.2026–01\.06\.2026\.pdf$/);
        const file = join(mkdtempSync(join(tmpdir(), "climate-report-web-")), "report.pdf");
        writeFileSync(file, pdf.bytes);
        const read = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
        expect(read.status, read.stderr).toBe(0);
        const text = read.stdout.replace(/\s+/g, " ");
        for (const words of [typed, "13. Количество углеродных единиц к выпуску", "Углеродные единицы к выпуску: 15", "15,588"]) {
          expect(text).toContain(words);
        }
        const xlsx = await saved(page, "Скачать xlsx");
        expect(xlsx.name.endsWith(".xlsx")).toBe(true);
        expect(xlsx.bytes.subarray(0, 2).toString()).toBe("PK");

        expect(await page.locator(".ant-alert-error").count()).toBe(0);
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
        await report.scrollIntoViewIfNeeded();
        await screenshot(page, { path: `${SHOTS}/climate-report-${viewport.width}.png`, fullPage: true });
        expect(app.pageErrors).toEqual([]);
      } finally {
        await app.close();
      }
    });
  }
});
